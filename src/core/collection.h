/*
 * src/core/collection.h - walking a tar archive held in memory.
 *
 * tokio_walk_file_collection() takes a path; the fuzzer and the tests
 * need the same archive walk over bytes they hold, with a smaller member
 * cap so that a small input cannot make the fuzzer allocate gigabytes.
 */
#ifndef TOKIO_CORE_COLLECTION_H
#define TOKIO_CORE_COLLECTION_H

#include <stddef.h>

#include "tokio/input.h"

/*
 * As tokio_walk_file_collection() over a tar archive (plain, gzip or
 * bzip2) of `len` bytes at `buf`; `name` (may be NULL) is the archive's
 * name in messages.  A member larger than `max` bytes (0: the default,
 * TOKIO_INPUT_DEFAULT_MAX) is TOKIO_EFORMAT.
 */
int tokio__walk_archive_mem(const void *buf, size_t len, const char *name,
                            size_t max, tokio_collection_cb cb,
                            void *payload);

#endif
