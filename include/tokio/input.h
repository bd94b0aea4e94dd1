/*
 * tokio/input.h - reading inputs that may be compressed or collected.
 *
 * Monitoring tools leave their output as plain text, gzip or bzip2 files,
 * and as directories or tarballs of such files.  One call opens any of the
 * first three by content (not by name) and reads lines or bytes; another
 * visits every member of the last two.
 */
#ifndef TOKIO_INPUT_H
#define TOKIO_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"

struct tokio_input;

/* Decompressed inputs larger than this are refused unless a caller asks
 * for more: a 10 KiB gzip bomb must not become 10 GiB of memory. */
#define TOKIO_INPUT_DEFAULT_MAX ((size_t)4 << 30)

/**
 * Open `path` for reading, decompressing gzip (also concatenated members)
 * or bzip2 when its first bytes say so, else reading it as it is.  "-" is
 * standard input.
 * @param[out] out  the new reader; release with tokio_input_close().
 * @return TOKIO_OK, TOKIO_EIO (cannot open: message names the path and
 *         errno), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_input_open(struct tokio_input **out, const char *path);

/**
 * As tokio_input_open() over `len` bytes at `buf`, which must outlive the
 * reader.  `name` (may be NULL) is used in error messages.
 */
TOKIO_API int tokio_input_open_mem(struct tokio_input **out, const void *buf,
                                   size_t len, const char *name);

/**
 * Next line, without its "\n" (and without a "\r" before it), NUL-ended.
 * `*line_out` is borrowed until the next call; it is NULL at end of input.
 * A line may hold NUL bytes: `*len_out` is its true length.
 * @return TOKIO_OK, TOKIO_EFORMAT (corrupt or truncated compressed data:
 *         message names the input and the line reached), TOKIO_EIO,
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_input_getline(struct tokio_input *in,
                                  const char **line_out, size_t *len_out);

/** Number of the line last returned by tokio_input_getline() (from 1). */
TOKIO_API size_t tokio_input_lineno(const struct tokio_input *in);

/**
 * Read up to `size` decompressed bytes into `buf`; `*n_out` is 0 only at
 * end of input.  Statuses as tokio_input_getline().
 */
TOKIO_API int tokio_input_read(struct tokio_input *in, void *buf, size_t size,
                               size_t *n_out);

/**
 * Read everything that is left.  `*buf_out` (caller frees with free()) is
 * NUL-ended past `*len_out` for convenience.  More than `max` bytes
 * (0: TOKIO_INPUT_DEFAULT_MAX) is TOKIO_EFORMAT, naming the input.
 */
TOKIO_API int tokio_input_read_all(struct tokio_input *in, size_t max,
                                   unsigned char **buf_out, size_t *len_out);

/** The name given at open (the path, "-", or the open_mem name). */
TOKIO_API const char *tokio_input_name(const struct tokio_input *in);

/** Release the reader; NULL is fine. */
TOKIO_API void tokio_input_close(struct tokio_input *in);

/**
 * Open, read all (decompressed, at most `max` bytes, 0 for the default) and
 * close.  `*buf_out` is the caller's (free()), NUL-ended past `*len_out`.
 */
TOKIO_API int tokio_read_file(const char *path, size_t max,
                              unsigned char **buf_out, size_t *len_out);

/* One member of a file collection, borrowed for the callback's duration. */
struct tokio_collection_member {
    const char *name;          /* directory: path joined to the top folder;
                                  tar: the member's name in the archive */
    int64_t mtime;             /* seconds since the epoch */
    const unsigned char *data; /* the member's bytes, as stored (a gzip
                                  member stays gzip: tokio_input_open_mem
                                  reads it); NUL-ended past len */
    size_t len;
};

/* Return TOKIO_OK to go on; anything else stops the walk and is returned. */
typedef int (*tokio_collection_cb)(const struct tokio_collection_member *m,
                                   void *payload);

/**
 * Visit every regular file of a collection: a directory (recursively,
 * names in sorted order, symlinked files followed, symlinked directories
 * not), or a tar archive, plain or compressed (archive order).  Nothing is
 * extracted to disk.  A member larger than TOKIO_INPUT_DEFAULT_MAX is an
 * error naming it.  A path that is a plain file but no archive is
 * TOKIO_EFORMAT.
 * @return TOKIO_OK, the callback's non-OK status, TOKIO_EIO, TOKIO_EFORMAT
 *         (corrupt archive: message names archive and member), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_walk_file_collection(const char *path,
                                         tokio_collection_cb cb,
                                         void *payload);

#endif
