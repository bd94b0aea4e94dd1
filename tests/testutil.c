/*
 * tests/testutil.c - shared helpers for the cmocka test programs.
 */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *
tokio_test_data(const char *rel)
{
    static char buf[8][4096];
    static int slot;
    const char *root = getenv("TOKIO_TESTDATA");
    struct stat st;
    char *path = buf[slot++ % 8];

    if (root == NULL || *root == '\0')
        return NULL;
    snprintf(path, 4096, "%s/%s", root, rel);
    if (lstat(path, &st) != 0)
        return NULL;
    return path;
}

const char *
tokio_test_source(const char *rel)
{
    static char buf[8][4096];
    static int slot;
    const char *root = getenv("TOKIO_SOURCE_DIR");
    char *path = buf[slot++ % 8];

    snprintf(path, 4096, "%s/%s", root ? root : ".", rel);
    return path;
}

char *
tokio_test_mkdtemp(void)
{
    const char *tmp = getenv("TMPDIR");
    char *path = malloc(4096);

    assert_non_null(path);
    snprintf(path, 4096, "%s/tokio-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(path));
    return path;
}

static int
remove_entry(const char *path, const struct stat *st, int flag,
             struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

void
tokio_test_rmtree(const char *path)
{
    if (path != NULL)
        nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void
tokio_test_write_file(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");

    assert_non_null(fp);
    if (len == SIZE_MAX)
        len = strlen(data);
    assert_int_equal(fwrite(data, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
}

char *
tokio_test_read_file(const char *path, size_t *len_out)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;

    if (fp == NULL)
        return NULL;
    do {
        if (cap - len < 65536) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap + 1);
            assert_non_null(buf);
        }
        n = fread(buf + len, 1, cap - len, fp);
        len += n;
    } while (n > 0);
    fclose(fp);
    buf[len] = '\0';
    if (len_out)
        *len_out = len;
    return buf;
}

/* Append what is readable on fd to a growing buffer; 0 at end of file. */
static ssize_t
drain(int fd, char **buf, size_t *len, size_t *cap)
{
    if (*cap - *len < 4096) {
        *cap = *cap ? *cap * 2 : 65536;
        *buf = realloc(*buf, *cap + 1);
        assert_non_null(*buf);
    }
    ssize_t n = read(fd, *buf + *len, *cap - *len);
    if (n > 0)
        *len += (size_t)n;
    (*buf)[*len] = '\0';
    return n;
}

struct tokio_run
tokio_test_run(const char *cwd, const char *const *env,
               const char *const *argv)
{
    struct tokio_run r = { -1, NULL, NULL };
    const char *bin = getenv("TOKIO_BIN");
    int out_pipe[2], err_pipe[2];
    size_t argc = 0;

    assert_non_null(bin);
    while (argv[argc] != NULL)
        argc++;
    assert_int_equal(pipe(out_pipe), 0);
    assert_int_equal(pipe(err_pipe), 0);

    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const char **args = calloc(argc + 2, sizeof(*args));
        int devnull = open("/dev/null", O_RDONLY);

        dup2(devnull, 0);
        dup2(out_pipe[1], 1);
        dup2(err_pipe[1], 2);
        close(out_pipe[0]); close(err_pipe[0]);
        for (size_t i = 0; env != NULL && env[i] != NULL; i++) {
            const char *eq = strchr(env[i], '=');
            char name[256];
            size_t n = eq ? (size_t)(eq - env[i]) : strlen(env[i]);

            snprintf(name, sizeof(name), "%.*s", (int)n, env[i]);
            if (eq == NULL || eq[1] == '\0')
                unsetenv(name);
            else
                setenv(name, eq + 1, 1);
        }
        if (cwd != NULL && chdir(cwd) != 0)
            _exit(126);
        args[0] = "tokio";
        memcpy(args + 1, argv, argc * sizeof(*args));
        execv(bin, (char *const *)args);
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);

    size_t olen = 0, ocap = 0, elen = 0, ecap = 0;
    struct pollfd fds[2] = { { out_pipe[0], POLLIN, 0 },
                             { err_pipe[0], POLLIN, 0 } };
    int open_fds = 2;
    drain(-1, &r.out, &olen, &ocap);   /* allocate both buffers */
    drain(-1, &r.err, &elen, &ecap);
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || fds[i].revents == 0)
                continue;
            ssize_t n = i == 0 ? drain(fds[i].fd, &r.out, &olen, &ocap)
                               : drain(fds[i].fd, &r.err, &elen, &ecap);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    int wstatus;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
                                  : 128 + WTERMSIG(wstatus);
    return r;
}

void
tokio_run_free(struct tokio_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void
tokio_test_assert_contains(const char *haystack, const char *needle,
                           const char *file, int line)
{
    if (haystack != NULL && strstr(haystack, needle) != NULL)
        return;
    print_error("%s:%d: expected to find \"%s\" in \"%s\"\n", file, line,
                needle, haystack ? haystack : "(null)");
    _fail(file, line);
}
