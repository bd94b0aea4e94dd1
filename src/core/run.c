/*
 * src/core/run.c - fork and exec an argument vector, collect its stdout.
 *
 * A pipe marked close-on-exec tells the parent whether exec succeeded
 * (it closes unread) or why not (the child writes errno), so a missing
 * program is told apart from one that ran and failed.  stdout and stderr
 * are drained together with poll() so neither can fill and stall the
 * child.  The child gets our environment without our secrets: a site's
 * tools (sacct, xtdb2proc) have no use for the database passwords tokio
 * reads from it.
 */
#include "core/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/fdio.h"
#include "core/sbuf.h"
#include "tokio/input.h"

/* How much of a failing tool's stderr is kept to quote. */
#define MAX_STDERR_KEPT 1024

static void
describe_command(char *buf, size_t size, const char *const *argv)
{
    size_t n = 0;

    buf[0] = '\0';
    for (size_t i = 0; argv[i] != NULL && n + 1 < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : "",
                              argv[i]);
}

/* Drop trailing newlines and keep the last line of a complaint. */
static const char *
last_line(char *s, size_t len)
{
    while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r'))
        s[--len] = '\0';
    char *nl = strrchr(s, '\n');
    return nl ? nl + 1 : s;
}

static void
close_pair(int fd[2])
{
    for (int i = 0; i < 2; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    fd[0] = fd[1] = -1;
}

extern char **environ;

/* 1 if the environment entry `kv` ("NAME=value") names a secret. */
static int
secret(const char *kv)
{
    static const char *const words[] = { "PASSWORD", "PASSWD", "SECRET",
                                         "TOKEN" };
    size_t n = strcspn(kv, "=");

    for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++)
        for (size_t i = 0; i + strlen(words[w]) <= n; i++)
            if (strncasecmp(kv + i, words[w], strlen(words[w])) == 0)
                return 1;
    return 0;
}

/* In the child: drop the secrets from the environment (pointers moved,
 * nothing allocated after fork), wire the pipes and exec; report exec's
 * errno if it fails. */
static void
exec_child(const char *const *argv, int out_fd, int err_fd, int status_fd)
{
    int e, devnull = open("/dev/null", O_RDONLY);
    size_t kept = 0;

    for (size_t i = 0; environ != NULL && environ[i] != NULL; i++)
        if (!secret(environ[i]))
            environ[kept++] = environ[i];
    if (environ != NULL)
        environ[kept] = NULL;

    if (devnull >= 0)
        dup2(devnull, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    execvp(argv[0], (char *const *)argv);
    e = errno;
    if (write(status_fd, &e, sizeof(e)) < 0)
        _exit(126);
    _exit(127);
}

/* Read both pipes to their end; 1 if stdout overflowed `max` or memory. */
static int
drain(int out_fd, int err_fd, size_t max, struct tokio__sbuf *ob,
      char *errbuf, size_t *errlen)
{
    struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
    int open_fds = 2, overflow = 0;

    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            char chunk[65536];
            if (fds[i].fd < 0 || fds[i].revents == 0)
                continue;
            ssize_t n = tokio__read(fds[i].fd, chunk, sizeof(chunk));
            if (n <= 0) {
                fds[i].fd = -1;
                open_fds--;
            } else if (i == 0 && !overflow) {
                /* a runaway tool must not take all memory */
                if (ob->len + (size_t)n > max ||
                    tokio__sbuf_add(ob, chunk, (size_t)n) < 0)
                    overflow = 1;
            } else if (i == 1 && *errlen < MAX_STDERR_KEPT) {
                size_t k = (size_t)n < MAX_STDERR_KEPT - *errlen
                               ? (size_t)n : MAX_STDERR_KEPT - *errlen;
                memcpy(errbuf + *errlen, chunk, k);
                *errlen += k;
            }
        }
    }
    errbuf[*errlen] = '\0';
    return overflow;
}

int
tokio__run_capture(const char *const *argv, const char *tool, size_t max,
                   char **out, size_t *len_out)
{
    int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, px[2] = { -1, -1 };
    struct tokio__sbuf ob = { 0 };
    char errbuf[MAX_STDERR_KEPT + 1], cmd[512];
    size_t errlen = 0;
    int rc = TOKIO_OK, status = 0, child_errno = 0, overflow;
    ssize_t r;
    pid_t pid;

    *out = NULL;
    *len_out = 0;
    if (max == 0)
        max = TOKIO_INPUT_DEFAULT_MAX;
    describe_command(cmd, sizeof(cmd), argv);
    if (pipe(po) < 0 || pipe(pe) < 0 || pipe(px) < 0 ||
        fcntl(px[1], F_SETFD, FD_CLOEXEC) < 0) {
        rc = tokio__error(TOKIO_EIO, "cannot run '%s': pipe: %s", cmd,
                          strerror(errno));
        goto done;
    }
    if ((pid = fork()) < 0) {
        rc = tokio__error(TOKIO_EIO, "cannot run '%s': fork: %s", cmd,
                          strerror(errno));
        goto done;
    }
    if (pid == 0)
        exec_child(argv, po[1], pe[1], px[1]);
    close(po[1]);
    close(pe[1]);
    close(px[1]);
    po[1] = pe[1] = px[1] = -1;
    while ((r = read(px[0], &child_errno, sizeof(child_errno))) < 0 &&
           errno == EINTR)
        ;
    if (r == (ssize_t)sizeof(child_errno)) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (child_errno == ENOENT)
            rc = tokio__error(TOKIO_ENOTFOUND, "%s command is not on PATH "
                              "(is it installed here?); give a saved output "
                              "file instead", tool);
        else
            rc = tokio__error(TOKIO_EIO, "cannot run '%s': %s", cmd,
                              strerror(child_errno));
        goto done;
    }
    overflow = drain(po[0], pe[0], max, &ob, errbuf, &errlen);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (overflow)
        rc = tokio__error(TOKIO_ENOMEM, "the output of '%s' is larger than "
                          "%zu bytes or out of memory", cmd, max);
    else if (WIFSIGNALED(status))
        rc = tokio__error(TOKIO_EIO, "'%s' was killed by signal %d%s%s",
                          cmd, WTERMSIG(status), errlen ? ": " : "",
                          last_line(errbuf, errlen));
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        rc = tokio__error(TOKIO_EIO, "'%s' failed with exit status %d%s%s",
                          cmd, WEXITSTATUS(status), errlen ? ": " : "",
                          last_line(errbuf, errlen));
    else if (ob.s == NULL && tokio__sbuf_add(&ob, "", 0) < 0)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading the output "
                          "of '%s'", cmd);
done:
    close_pair(po);
    close_pair(pe);
    close_pair(px);
    if (rc < 0) {
        free(ob.s);
        return rc;
    }
    *out = ob.s;
    *len_out = ob.len;
    return TOKIO_OK;
}
