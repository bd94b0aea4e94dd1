/*
 * src/core/collection.h - walking tar archives, in a file or held in
 * memory (src/core/collection_archive.c, through libarchive).
 *
 * tokio_walk_file_collection() takes a path; the fuzzer and the tests
 * need the same archive walk over bytes they hold, with a smaller member
 * cap so that a small input cannot make the fuzzer allocate gigabytes.
 */
#ifndef TOKIO_CORE_COLLECTION_H
#define TOKIO_CORE_COLLECTION_H

#include <stddef.h>

#include "tokio/input.h"

/* Growth step for files and members of unknown size, and libarchive's
 * read block. */
#define TOKIO__COLLECTION_CHUNK ((size_t)64 << 10)

/*
 * As tokio_walk_file_collection() over a tar archive (plain, gzip or
 * bzip2) of `len` bytes at `buf`; `name` (may be NULL) is the archive's
 * name in messages.  A member larger than `max` bytes (0: the default,
 * TOKIO_INPUT_DEFAULT_MAX) is TOKIO_EFORMAT.
 */
int tokio__walk_archive_mem(const void *buf, size_t len, const char *name,
                            size_t max, tokio_collection_cb cb,
                            void *payload);

/* tokio_walk_file_collection() of a path that is no folder: a tar archive
 * (plain, gzip or bzip2), or an error naming it. */
int tokio__walk_archive_file(const char *path, tokio_collection_cb cb,
                             void *payload);

#endif
