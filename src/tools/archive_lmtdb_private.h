/*
 * src/tools/archive_lmtdb_private.h - what tests may change of the LMT
 * archiver: the size of its blocks, so that a small database still takes
 * several of them.
 */
#ifndef TOKIO_TOOLS_ARCHIVE_LMTDB_PRIVATE_H
#define TOKIO_TOOLS_ARCHIVE_LMTDB_PRIVATE_H

#include <stddef.h>

/* Aim at blocks of `bytes` (all datasets) instead of 8 MiB; 0 restores
 * 8 MiB.  Returns the size in force before.  Not thread-safe: for tests
 * only. */
size_t tokio__archive_lmtdb_block_bytes(size_t bytes);

#endif
