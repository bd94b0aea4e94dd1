/*
 * src/core/beside.h - the files tokio keeps beside a file it writes: the
 * temporary a result is written to before it is renamed over the target,
 * and the lock that makes two updates of one target take turns.  One
 * place for both, so every writer (result files, HDF5 archives, SQLite
 * caches) cleans up and serializes the same way.
 */
#ifndef TOKIO_CORE_BESIDE_H
#define TOKIO_CORE_BESIDE_H

#include <stddef.h>

/*
 * Create ".NAME.tokio-tmp-HOST-PID-XXXXXX" in the folder of `path`
 * (NAME its last part), open for reading and writing: *tmp_out is its
 * name (free() it after tokio__temporary_done()), *fd_out its
 * descriptor.  Temporaries of the same target left by dead writers of
 * this host are removed first; the new one is recorded so that a
 * SIGINT, SIGTERM or SIGHUP removes it (tokio_output_cleanup_on_signals()).
 * @return TOKIO_OK, TOKIO_EIO (the folder cannot be written, named),
 *         TOKIO_ENOMEM.
 */
int tokio__temporary(const char *path, char **tmp_out, int *fd_out);

/* The temporary `tmp` was renamed or is about to be unlinked: forget it
 * (unlink it too when `remove`). */
void tokio__temporary_done(const char *tmp, int remove);

/* The folder for scratch files: $TMPDIR, else /tmp (tmpfile() ignores
 * TMPDIR). */
const char *tokio__scratch_dir(void);

/* A scratch file "PREFIX-XXXXXX" in tokio__scratch_dir(), unlinked at
 * once: nobody else opens it, and it goes when closed, however the
 * process ends.  Its descriptor, or -1 with errno set. */
int tokio__scratch_file(const char *prefix);

/*
 * Take the exclusive lock of `path` (flock(2) on ".NAME.lock" beside it,
 * made if needed), waiting up to `wait_seconds` for another writer to
 * release it: read the target only after this, and hold the lock through
 * the rename that replaces it.  *fd_out is the lock's descriptor, -1 when
 * `path` is not a file to lock (standard output, a device).
 * @return TOKIO_OK, TOKIO_EIO (the lock cannot be made, or another
 *         writer held it all that time: the message says which and
 *         names `path`).
 */
int tokio__lock(const char *path, unsigned wait_seconds, int *fd_out);

/* Release a lock of tokio__lock(); -1 is fine. */
void tokio__unlock(int fd);

/*
 * The file `path` names through any symbolic links, existing or not
 * (caller frees); NULL when out of memory (errno ENOMEM) or in a loop of
 * links (ELOOP).
 */
char *tokio__resolve(const char *path);

/*
 * The one rule for a file a writer replaces by renaming a temporary over
 * it: through symbolic links the file they name is written, existing or
 * not (*real_out, the caller frees it); an existing one must be a regular
 * file the user may write.  A writer locks and replaces *real_out, never
 * the link.
 * @return TOKIO_OK, TOKIO_EIO (a folder, device or FIFO, not writable,
 *         a loop of links: named), TOKIO_ENOMEM.
 */
int tokio__replace_target(const char *path, char **real_out);

/* How long an update waits for another writer of the same target. */
#define TOKIO__LOCK_WAIT 600

#endif
