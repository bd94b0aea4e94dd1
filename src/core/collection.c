/*
 * src/core/collection.c - visiting every file of a directory or tarball.
 *
 * Some monitoring tools leave one file per server per interval (ISDCT
 * dumps, mmperfmon output), shipped as a folder or as a tarball of that
 * folder.  Connectors want the files, not the packaging: this walks both
 * and hands each regular file's bytes, as stored, to a callback.  Mirrors
 * walk_file_collection() in pytokio's tokio/connectors/common.py.
 *
 * Differs from pytokio: names are sorted within each folder (os.walk gives
 * readdir order, which differs between file systems); a folder that cannot
 * be read is an error (os.walk skips it silently); the tar is recognised
 * by content, compressed or not, instead of by a ".gz" suffix.  Tarballs
 * are read in collection_archive.c, the one part that needs libarchive.
 */
#include "tokio/input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/collection.h"
#include "core/error.h"
#include "core/fdio.h"

/* ---- directories ---- */

struct names {
    char **v;
    size_t n, cap;
};

static int
names_add(struct names *l, const char *name)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **v = tokio__reallocarray(l->v, cap, sizeof(*v));

        if (v == NULL)
            return TOKIO_ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    if ((l->v[l->n] = tokio__strdup(name)) == NULL)
        return TOKIO_ENOMEM;
    l->n++;
    return TOKIO_OK;
}

static void
names_free(struct names *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

/* Byte order, which is also code point order for UTF-8 names: what
 * Python's sorted() gives for the same names. */
static int
names_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* os.path.join(dir, name) for a plain name: one '/' between them */
static char *
join(const char *dir, const char *name)
{
    size_t dlen = strlen(dir), nlen = strlen(name);
    int sep = dlen > 0 && dir[dlen - 1] != '/';
    char *path = tokio__malloc(dlen + sep + nlen + 1);

    if (path == NULL)
        return NULL;
    memcpy(path, dir, dlen);
    if (sep)
        path[dlen] = '/';
    memcpy(path + dlen + sep, name, nlen + 1);
    return path;
}

/* Whole contents of the regular file open as `fd`, as stored: `size`
 * (from fstat) is only a hint, since the file may change while read. */
static int
read_fd(int fd, const char *path, off_t size, unsigned char **out,
        size_t *len_out)
{
    const size_t max = TOKIO_INPUT_DEFAULT_MAX;

    if (size < 0 || (uintmax_t)size > max)
        return tokio__error(TOKIO_EFORMAT, "'%s': %jd bytes, more than the "
                            "limit of %zu", path, (intmax_t)size, max);
    if (tokio__read_whole_fd(fd, NULL, 0, max, (size_t)size, out,
                             len_out) == 0)
        return TOKIO_OK;
    if (errno == ENOMEM)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            path);
    if (errno == EFBIG)
        return tokio__error(TOKIO_EFORMAT, "'%s': more than %zu bytes",
                            path, max);
    return tokio__error(TOKIO_EIO, "cannot read '%s': %s", path,
                        strerror(errno));
}

static int
visit_file(const char *path, tokio_collection_cb cb, void *payload)
{
    struct tokio_collection_member m;
    unsigned char *data;
    struct stat st;
    int fd, rc;

    /* O_NONBLOCK: should the file have become a FIFO since it was
     * listed, opening it must not wait for a writer */
    if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
        return tokio__error(TOKIO_EIO, "cannot open '%s': %s", path,
                            strerror(errno));
    if (fstat(fd, &st) != 0) {
        rc = tokio__error(TOKIO_EIO, "cannot stat '%s': %s", path,
                          strerror(errno));
        close(fd);
        return rc;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return TOKIO_OK;                /* no longer a regular file */
    }
    rc = read_fd(fd, path, st.st_size, &data, &m.len);
    close(fd);
    if (rc < 0)
        return rc;
    m.name = path;
    m.mtime = (int64_t)st.st_mtime;
    m.data = data;
    rc = cb(&m, payload);
    free(data);
    return rc;
}

/*
 * Sort the folder's entries into regular files (symlinks to files
 * included) and real subfolders.  Symlinks to folders are left out, as
 * os.walk leaves them by default: following them invites cycles and
 * visiting one file twice.  A dangling symlink is no regular file.
 */
static int
list_dir(const char *dir, struct names *files, struct names *dirs)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int rc = TOKIO_OK;

    if (d == NULL)
        return tokio__error(TOKIO_EIO, "cannot open folder '%s': %s", dir,
                            strerror(errno));
    for (;;) {
        struct stat st;

        errno = 0;
        if ((e = readdir(d)) == NULL) {
            if (errno != 0)
                rc = tokio__error(TOKIO_EIO, "cannot read folder '%s': %s",
                                  dir, strerror(errno));
            break;
        }
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT)
                continue;               /* removed while we looked */
            rc = tokio__error(TOKIO_EIO, "cannot stat '%s/%s': %s", dir,
                              e->d_name, strerror(errno));
            break;
        }
        if (S_ISLNK(st.st_mode)) {
            /* followed to a file, never to a folder; a dangling or
             * looping link leads nowhere */
            if (fstatat(dirfd(d), e->d_name, &st, 0) != 0
                || !S_ISREG(st.st_mode))
                continue;
        }
        if (S_ISDIR(st.st_mode))
            rc = names_add(dirs, e->d_name);
        else if (S_ISREG(st.st_mode))
            rc = names_add(files, e->d_name);
        if (rc < 0) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory listing '%s'",
                              dir);
            break;
        }
    }
    closedir(d);
    return rc;
}

/* os.walk's order: a folder's files, then each subfolder in turn. */
static int
walk_dir(const char *dir, tokio_collection_cb cb, void *payload)
{
    struct names files = { 0 }, dirs = { 0 };
    int rc;

    /* qsort must not see the NULL array of an empty list */
    if ((rc = list_dir(dir, &files, &dirs)) == TOKIO_OK && files.n > 1)
        qsort(files.v, files.n, sizeof(*files.v), names_cmp);
    if (rc == TOKIO_OK && dirs.n > 1)
        qsort(dirs.v, dirs.n, sizeof(*dirs.v), names_cmp);
    for (size_t i = 0; rc == TOKIO_OK && i < files.n + dirs.n; i++) {
        int is_file = i < files.n;
        char *path = join(dir, is_file ? files.v[i] : dirs.v[i - files.n]);

        if (path == NULL)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory walking '%s'",
                              dir);
        else if (is_file)
            rc = visit_file(path, cb, payload);
        else
            rc = walk_dir(path, cb, payload);
        free(path);
    }
    names_free(&files);
    names_free(&dirs);
    return rc;
}

int
tokio_walk_file_collection(const char *path, tokio_collection_cb cb,
                           void *payload)
{
    struct stat st;

    if (path == NULL || cb == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_walk_file_collection: "
                            "no %s", path == NULL ? "path" : "callback");
    if (stat(path, &st) != 0)
        return tokio__error(TOKIO_EIO, "cannot open '%s': %s", path,
                            strerror(errno));
    if (S_ISDIR(st.st_mode))
        return walk_dir(path, cb, payload);
    return tokio__walk_archive_file(path, cb, payload);
}
