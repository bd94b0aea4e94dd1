/*
 * tokio/tools/archive_lmtdb.h - a range of an LMT database archived into
 * a TOKIO Time Series HDF5 file (the reference's tokio.cli.archive_lmtdb).
 * Same thread rule as tokio/connectors/hdf5.h.
 */
#ifndef TOKIO_TOOLS_ARCHIVE_LMTDB_H
#define TOKIO_TOOLS_ARCHIVE_LMTDB_H

#include <stdint.h>

#include "tokio/common.h"
#include "tokio/timeseries.h"

struct tokio_lmtdb;

/**
 * Archive the LMT data of [r->start, r->end) into the TTS file `output`,
 * creating it, or its missing datasets, over r->init_start .. r->init_end
 * (the reference's init_hdf5_file()): OST bytes read and written (as
 * per-timestep deltas), fullness and inodes, OSS and MDS CPU and memory
 * load, and the MDS operation counts (deltas).  One timestep past r->end
 * is read so that the last row has its delta.  The file is updated all or
 * nothing (see tokio_hdf5_update_begin()), and memory stays bounded
 * whatever the range: rows are read and written a block at a time.
 *
 * Differs from pytokio: rows of an OST, OSS or MDS id missing from the
 * *_INFO tables are skipped (the reference raised KeyError for all but
 * MDS operations); nothing is printed.
 *
 * @return TOKIO_OK; TOKIO_EINVAL (a range tokio_hdf5_check_range()
 *         refuses, or the existing file does not cover); the
 *         statuses of the database queries and of the HDF5 update
 *         (TOKIO_EIO, TOKIO_EFORMAT); TOKIO_ENOMEM.  The message names
 *         the output or the database.
 */
TOKIO_API int tokio_archive_lmtdb(struct tokio_lmtdb *lmt, const char *output,
                                  const struct tokio_archive_range *r);

#endif
