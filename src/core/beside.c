/*
 * src/core/beside.c - temporaries and locks beside the files tokio
 * writes (beside.h).
 *
 * A temporary's name carries the host and the process that made it, so
 * the next writer of the same target can tell a dead writer's leftover
 * (kill(PID, 0) says no such process) from one still at work, on this
 * host; another host's is always left alone, as on a shared file system
 * its writer may be alive.  Live temporaries are also kept in a small
 * table that a signal handler can walk: unlink(2) is async-signal-safe,
 * and the table is written before a temporary exists and cleared before
 * its name is freed.
 *
 * Locks are flock(2) on a hidden ".NAME.lock" file beside the target: a
 * lock on the target itself would not survive the rename that replaces
 * it.  The lock file stays, empty, for the next writer.
 */
#include "core/beside.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tokio/output.h"
#include "core/alloc.h"
#include "core/error.h"

#define TMP_TAG ".tokio-tmp-"
#define HOST_MAX 64
#define LIVE_MAX 16     /* temporaries one process has open at once */

/* The temporaries to remove if a signal ends the process. */
static const char *volatile live[LIVE_MAX];

/* This host's name for temporary names: '-' and '/' kept out, so the PID
 * after it parses back. */
static void
host_name(char out[HOST_MAX + 1])
{
    if (gethostname(out, HOST_MAX) != 0)
        strcpy(out, "localhost");
    out[HOST_MAX] = '\0';
    for (char *p = out; *p; p++)
        if (*p == '/' || *p == '-')
            *p = '_';
}

/* `path` split: its folder ("." when none) and its last part. */
static void
split(const char *path, char *dir, size_t size, const char **base)
{
    const char *slash = strrchr(path, '/');

    *base = slash ? slash + 1 : path;
    if (slash == NULL)
        snprintf(dir, size, ".");
    else if (slash == path)
        snprintf(dir, size, "/");
    else
        snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

/* Remove the temporaries of `base` in `dir` left by dead writers of this
 * host.  Best effort: a folder that cannot be read is left alone. */
static void
remove_stale(const char *dir, const char *base, const char *host)
{
    char prefix[512], victim[8192];
    size_t plen;
    DIR *d;
    struct dirent *e;

    if ((size_t)snprintf(prefix, sizeof(prefix), ".%s" TMP_TAG "%s-", base,
                         host) >= sizeof(prefix) ||
        (d = opendir(dir)) == NULL)
        return;
    plen = strlen(prefix);
    while ((e = readdir(d)) != NULL) {
        char *end;
        long pid;

        if (strncmp(e->d_name, prefix, plen) != 0)
            continue;
        errno = 0;
        pid = strtol(e->d_name + plen, &end, 10);
        if (errno != 0 || pid <= 0 || end == e->d_name + plen ||
            *end != '-' || strlen(end + 1) != 6)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        snprintf(victim, sizeof(victim), "%s/%s", dir, e->d_name);
        unlink(victim);
    }
    closedir(d);
}

int
tokio__temporary(const char *path, char **tmp_out, int *fd_out)
{
    char dir[4096], host[HOST_MAX + 1];
    const char *base;
    size_t size, slot;
    char *tmp;
    int fd;

    *tmp_out = NULL;
    *fd_out = -1;
    split(path, dir, sizeof(dir), &base);
    host_name(host);
    remove_stale(dir, base, host);
    size = strlen(dir) + strlen(base) + sizeof(TMP_TAG) + HOST_MAX + 40;
    if ((tmp = tokio__malloc(size)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing '%s'", path);
    snprintf(tmp, size, "%s/.%s" TMP_TAG "%s-%ld-XXXXXX", dir, base, host,
             (long)getpid());
    for (slot = 0; slot < LIVE_MAX && live[slot] != NULL; slot++)
        ;
    if (slot < LIVE_MAX)
        live[slot] = tmp;       /* before the file exists */
    if ((fd = mkstemp(tmp)) < 0) {
        int err = errno;
        if (slot < LIVE_MAX)
            live[slot] = NULL;
        free(tmp);
        return tokio__error(TOKIO_EIO, "cannot create a file beside '%s': %s",
                            path, strerror(err));
    }
    *tmp_out = tmp;
    *fd_out = fd;
    return TOKIO_OK;
}

const char *
tokio__scratch_dir(void)
{
    const char *dir = getenv("TMPDIR");

    return dir != NULL && *dir != '\0' ? dir : "/tmp";
}

int
tokio__scratch_file(const char *prefix)
{
    char path[4096];
    int fd;

    if ((size_t)snprintf(path, sizeof(path), "%s/%s-XXXXXX",
                         tokio__scratch_dir(), prefix) >= sizeof(path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if ((fd = mkstemp(path)) >= 0)
        unlink(path);
    return fd;
}

void
tokio__temporary_done(const char *tmp, int remove)
{
    if (tmp == NULL)
        return;
    if (remove)
        unlink(tmp);
    for (size_t i = 0; i < LIVE_MAX; i++)
        if (live[i] == tmp)
            live[i] = NULL;
}

void
tokio_output_remove_temporaries(void)
{
    for (size_t i = 0; i < LIVE_MAX; i++)
        if (live[i] != NULL)
            unlink((const char *)live[i]);
}

/* Unlink every live temporary, then die of the signal as if not caught. */
static void
on_signal(int sig)
{
    tokio_output_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

void
tokio_output_cleanup_on_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaction(sigs[i], &sa, NULL);
}

char *
tokio__resolve(const char *path)
{
    char *cur = tokio__strdup(path);

    errno = ENOMEM;     /* what a NULL below means, but for a loop */
    for (int hops = 0; cur != NULL && hops < 40; hops++) {
        char target[4096];
        struct stat st;
        ssize_t n;

        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode) ||
            (n = readlink(cur, target, sizeof(target) - 1)) < 0)
            return cur;
        target[n] = '\0';
        const char *slash = strrchr(cur, '/');
        char *next;
        if (target[0] == '/' || slash == NULL) {
            next = tokio__strdup(target);
        } else {
            size_t len = (size_t)(slash - cur) + 1 + strlen(target) + 1;
            if ((next = tokio__malloc(len)) != NULL)
                snprintf(next, len, "%.*s/%s", (int)(slash - cur), cur,
                         target);
        }
        free(cur);
        cur = next;
        errno = ENOMEM;
    }
    if (cur != NULL)
        errno = ELOOP;
    free(cur);
    return NULL;
}

int
tokio__replace_target(const char *path, char **real_out)
{
    struct stat st;
    char *real;
    int err;

    *real_out = NULL;
    if ((real = tokio__resolve(path)) == NULL) {
        if ((err = errno) == ENOMEM)
            return tokio__error(TOKIO_ENOMEM, "out of memory writing '%s'",
                                path);
        return tokio__error(TOKIO_EIO, "cannot write '%s': %s", path,
                            strerror(err));
    }
    if (stat(real, &st) == 0) {
        /* renaming over a folder or a device would replace it */
        const char *what = !S_ISREG(st.st_mode) ? "not a regular file"
                         : access(real, W_OK) != 0 ? strerror(errno) : NULL;
        if (what != NULL) {
            free(real);
            return tokio__error(TOKIO_EIO, "cannot write '%s': %s", path,
                                what);
        }
    }
    *real_out = real;
    return TOKIO_OK;
}

int
tokio__lock(const char *path, unsigned wait_seconds, int *fd_out)
{
    char dir[4096], lock[8192];
    const char *base;
    struct stat st;
    time_t until = time(NULL) + (time_t)wait_seconds;
    int fd;

    *fd_out = -1;
    if (path == NULL || strcmp(path, "-") == 0 ||
        (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
        return TOKIO_OK;            /* nothing to replace, nothing to lock */
    split(path, dir, sizeof(dir), &base);
    snprintf(lock, sizeof(lock), "%s/.%s.lock", dir, base);
    /* read-only will do for flock(2): a lock file another user made
     * (0644 under the usual umask) still serializes their writers */
    if ((fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0 &&
        (errno != EACCES ||
         (fd = open(lock, O_RDONLY | O_CLOEXEC)) < 0))
        return tokio__error(TOKIO_EIO, "cannot lock '%s' (%s): %s", path,
                            lock, strerror(errno));
    while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int err = errno;
        if (err != EWOULDBLOCK && err != EINTR) {
            close(fd);
            return tokio__error(TOKIO_EIO, "cannot lock '%s': %s", path,
                                strerror(err));
        }
        if (time(NULL) >= until) {
            close(fd);
            return tokio__error(TOKIO_EIO, "'%s' is being written by another "
                                "process (%s held for %u s): try again "
                                "later", path, lock, wait_seconds);
        }
        usleep(50000);
    }
    *fd_out = fd;
    return TOKIO_OK;
}

void
tokio__unlock(int fd)
{
    if (fd >= 0)
        close(fd);      /* releases the flock */
}
