/*
 * src/core/collection_archive.c - the tarballs of tokio_walk_file_collection()
 * (src/core/collection.c): each regular member's bytes to the callback,
 * in archive order, through libarchive.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/collection.h"
#include "core/error.h"

/* A member's declared size is allocated up to this much at once; beyond,
 * the buffer grows as bytes really arrive, so a damaged header claiming
 * gigabytes costs nothing before the archive proves to be short. */
#define MEMBER_FIRST_MAX ((size_t)8 << 20)

/* ---- tar archives ---- */

/*
 * libarchive says what failed in an errno-like code: system errno values
 * from reading, and its own codes, which its private archive_private.h
 * defines as EILSEQ (damaged data; EFTYPE where that exists), -1
 * (anything else, e.g. a decompressor's complaint) and EINVAL.
 */
static int
archive_status(struct archive *a)
{
    int err = archive_errno(a);

    if (err == ENOMEM)
        return TOKIO_ENOMEM;
    if (err == 0 || err == EILSEQ || err == -1 || err == EINVAL)
        return TOKIO_EFORMAT;
    return TOKIO_EIO;
}

static const char *
archive_msg(struct archive *a)
{
    const char *msg = archive_error_string(a);

    return msg != NULL ? msg : "unknown libarchive error";
}

/*
 * Only tar, and only the filters built into libarchive: pytokio reads
 * tarballs and nothing else, and libarchive would run an external
 * program for a filter it lacks.
 */
static struct archive *
reader_new(void)
{
    struct archive *a = archive_read_new();

    if (a == NULL)
        return NULL;
    archive_read_support_filter_gzip(a);
    archive_read_support_filter_bzip2(a);
    archive_read_support_format_tar(a);
    return a;
}

static int
member_error(struct archive *a, const char *arch, const char *member)
{
    return tokio__error(archive_status(a), "'%s' member '%s': %s", arch,
                        member, archive_msg(a));
}

/* One member's bytes, at most `max` of them, NUL-ended. */
static int
read_member(struct archive *a, struct archive_entry *e, const char *arch,
            const char *member, size_t max, unsigned char **out,
            size_t *len_out)
{
    size_t cap = TOKIO__COLLECTION_CHUNK, len = 0;
    unsigned char *buf;

    *out = NULL;
    if (archive_entry_size_is_set(e)) {
        la_int64_t size = archive_entry_size(e);

        if (size < 0 || (uint64_t)size > max)
            return tokio__error(TOKIO_EFORMAT, "'%s' member '%s': %jd "
                                "bytes, more than the limit of %zu", arch,
                                member, (intmax_t)size, max);
        cap = (uint64_t)size < MEMBER_FIRST_MAX ? (size_t)size
                                                : MEMBER_FIRST_MAX;
    }
    if (cap > max)
        cap = max;
    if ((buf = tokio__malloc(cap + 1)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "'%s' member '%s': out of memory",
                            arch, member);
    for (;;) {
        la_ssize_t r;

        if (len == cap) {
            /* Full: one byte more tells the end from a member that is
             * longer than declared or than allowed. */
            unsigned char probe, *grown;
            size_t want;

            if ((r = archive_read_data(a, &probe, 1)) == 0)
                break;
            if (r < 0) {
                free(buf);
                return member_error(a, arch, member);
            }
            if (len >= max) {
                free(buf);
                return tokio__error(TOKIO_EFORMAT, "'%s' member '%s': more "
                                    "than %zu bytes", arch, member, max);
            }
            want = cap < TOKIO__COLLECTION_CHUNK ? TOKIO__COLLECTION_CHUNK
                                                 : cap;
            want = want > max - cap ? max : cap + want;
            if ((grown = tokio__realloc(buf, want + 1)) == NULL) {
                free(buf);
                return tokio__error(TOKIO_ENOMEM, "'%s' member '%s': out "
                                    "of memory", arch, member);
            }
            buf = grown;
            cap = want;
            buf[len++] = probe;
            continue;
        }
        r = archive_read_data(a, buf + len, cap - len);
        if (r < 0) {
            free(buf);
            return member_error(a, arch, member);
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    buf[len] = '\0';
    *out = buf;
    *len_out = len;
    return TOKIO_OK;
}

static int
walk_archive(struct archive *a, const char *arch, size_t max,
             tokio_collection_cb cb, void *payload)
{
    /* the last member, for errors found while looking for the next */
    char prev[512] = "";

    if (max == 0)
        max = TOKIO_INPUT_DEFAULT_MAX;
    for (;;) {
        struct tokio_collection_member m;
        struct archive_entry *e;
        unsigned char *data;
        const char *member;
        int r, rc;

        r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF)
            return TOKIO_OK;
        /* A warning leaves the entry usable.  ARCHIVE_RETRY is a damaged
         * header that the reader could skip to resynchronise: damage all
         * the same, and the members it would skip would go unseen. */
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            if (prev[0] == '\0')
                return tokio__error(archive_status(a), "'%s': %s", arch,
                                    archive_msg(a));
            return tokio__error(archive_status(a), "'%s' after member "
                                "'%s': %s", arch, prev, archive_msg(a));
        }
        /* tarfile's isfile(): hard links are not regular members */
        if (archive_entry_filetype(e) != AE_IFREG
            || archive_entry_hardlink(e) != NULL)
            continue;
        member = archive_entry_pathname(e);
        if (member == NULL)     /* not convertible to the locale */
            member = archive_entry_pathname_utf8(e);
        if (member == NULL)
            member = "";
        snprintf(prev, sizeof(prev), "%s", member);
        if ((rc = read_member(a, e, arch, member, max, &data, &m.len)) < 0)
            return rc;
        m.name = member;
        m.mtime = (int64_t)archive_entry_mtime(e);
        m.data = data;
        rc = cb(&m, payload);
        free(data);
        if (rc != TOKIO_OK)
            return rc;
    }
}

int
tokio__walk_archive_mem(const void *buf, size_t len, const char *name,
                        size_t max, tokio_collection_cb cb, void *payload)
{
    struct archive *a;
    int rc;

    if (name == NULL)
        name = "<memory>";
    if ((a = reader_new()) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                            name);
    if (archive_read_open_memory(a, buf, len) != ARCHIVE_OK)
        rc = tokio__error(archive_status(a), "'%s': %s", name,
                          archive_msg(a));
    else
        rc = walk_archive(a, name, max, cb, payload);
    archive_read_free(a);
    return rc;
}

int
tokio__walk_archive_file(const char *path, tokio_collection_cb cb,
                         void *payload)
{
    struct archive *a;
    int fd, rc;

    /* Opened here, not by libarchive, so that a missing or unreadable
     * file is told apart from one that is no archive. */
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return tokio__error(TOKIO_EIO, "cannot open '%s': %s", path,
                            strerror(errno));
    if ((a = reader_new()) == NULL) {
        close(fd);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                            path);
    }
    if (archive_read_open_fd(a, fd, TOKIO__COLLECTION_CHUNK) != ARCHIVE_OK)
        rc = tokio__error(archive_status(a), "'%s': %s", path,
                          archive_msg(a));
    else
        rc = walk_archive(a, path, 0, cb, payload);
    archive_read_free(a);
    close(fd);
    return rc;
}
