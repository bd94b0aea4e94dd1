/*
 * src/core/output.c - result files that appear whole or not at all.
 *
 * A file is written to a temporary beside it (core/beside.c: in the same
 * folder, so rename(2) cannot cross file systems), synced, and renamed
 * over NAME only when every write succeeded.  An interrupted or failed
 * run leaves NAME as it
 * was; the temporary is removed on every failure path, on SIGINT, SIGTERM
 * and SIGHUP when the command asked for it, and otherwise by the next
 * writer of NAME once its writer is dead.
 *
 * Through a symbolic link the file it names is written, also when that
 * file does not exist yet; a device, FIFO or socket (/dev/null) is
 * written in place; an existing file the user may not write is refused,
 * as the shell's redirection would.
 */
#include "tokio/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/beside.h"
#include "core/error.h"

struct tokio_output {
    FILE *fp;
    char *path;      /* NULL: standard output */
    char *tmp_path;
};

/* Open `path`, which is not a regular file, for writing as it is. */
static int
open_in_place(struct tokio_output **out, struct tokio_output *o,
              const char *path)
{
    if ((o->path = tokio__strdup(path)) == NULL) {
        tokio_output_abort(o);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'", path);
    }
    if ((o->fp = fopen(path, "w")) == NULL) {
        int err = errno;
        tokio_output_abort(o);
        return tokio__error(TOKIO_EIO, "cannot write '%s': %s", path,
                            strerror(err));
    }
    *out = o;
    return TOKIO_OK;
}

int
tokio_output_open(struct tokio_output **out, const char *path)
{
    struct tokio_output *o;

    *out = NULL;
    if ((o = tokio__calloc(1, sizeof(*o))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory opening output");
    if (path == NULL || strcmp(path, "-") == 0) {
        o->fp = stdout;
        *out = o;
        return TOKIO_OK;
    }

    /* A device, FIFO or socket (-o /dev/null, -o /dev/stdout) is written
     * in place: renaming a file over it would replace it. */
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        tokio_output_abort(o);
        return tokio__error(TOKIO_EIO, "cannot write '%s': it is a folder",
                            path);
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return open_in_place(out, o, path);

    /* Through symbolic links, the file they name is replaced. */
    int rc, fd;
    if ((rc = tokio__replace_target(path, &o->path)) < 0 ||
        (rc = tokio__temporary(o->path, &o->tmp_path, &fd)) < 0) {
        tokio_output_abort(o);
        return rc;
    }
    /* mkstemp makes the file 0600; a result file gets the usual mode, or
     * the mode of the file it replaces. */
    mode_t mode;
    if (stat(o->path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(022);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0 || (o->fp = fdopen(fd, "w")) == NULL) {
        int err = errno;
        close(fd);
        tokio_output_abort(o);
        return tokio__error(TOKIO_EIO, "cannot write '%s': %s", path,
                            strerror(err));
    }
    *out = o;
    return TOKIO_OK;
}

FILE *
tokio_output_fp(struct tokio_output *o)
{
    return o->fp;
}

int
tokio_output_commit(struct tokio_output *o)
{
    int rc = TOKIO_OK;

    errno = 0;   /* a stream in error whose flush fails no more: EIO */
    if (o->path == NULL) {
        if (fflush(o->fp) != 0 || ferror(o->fp))
            rc = tokio__error(TOKIO_EIO, "writing to standard output: %s",
                              strerror(errno ? errno : EIO));
        free(o);
        return rc;
    }
    /* written in place (a device or FIFO): nothing to sync or rename */
    int in_place = o->tmp_path == NULL;
    int failed = fflush(o->fp) != 0 || ferror(o->fp) ||
                 (!in_place && fsync(fileno(o->fp)) != 0);
    int err = errno;
    failed |= fclose(o->fp) != 0;
    o->fp = NULL;
    if (in_place) {
        /* nothing to rename */
    } else if (!failed && rename(o->tmp_path, o->path) != 0) {
        failed = 1;
        err = errno;
    } else if (!failed) {
        tokio__temporary_done(o->tmp_path, 0);
        free(o->tmp_path);
        o->tmp_path = NULL;   /* renamed: nothing to remove */
    }
    if (failed)
        rc = tokio__error(TOKIO_EIO, "writing '%s' failed: %s", o->path,
                          strerror(err ? err : EIO));
    tokio_output_abort(o);
    return rc;
}

void
tokio_output_abort(struct tokio_output *o)
{
    if (o == NULL)
        return;
    if (o->fp != NULL && o->fp != stdout)
        fclose(o->fp);
    if (o->tmp_path != NULL) {
        tokio__temporary_done(o->tmp_path, 1);
        free(o->tmp_path);
    }
    free(o->path);
    free(o);
}

int
tokio_output_lock(const char *path, int *lock_out)
{
    char *real = path != NULL && strcmp(path, "-") != 0
                 ? tokio__resolve(path) : NULL;
    int rc = tokio__lock(real != NULL ? real : path, TOKIO__LOCK_WAIT,
                         lock_out);

    free(real);
    return rc;
}

void
tokio_output_unlock(int lock)
{
    tokio__unlock(lock);
}
