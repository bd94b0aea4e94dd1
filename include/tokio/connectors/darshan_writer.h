/*
 * tokio/connectors/darshan_writer.h - writing Darshan binary logs, format
 * version 3.41 (what darshan-runtime 3.4.1 - 3.5.0 writes), in the record
 * layouts darshan-util 3.5.0 calls current, so that darshan-parser 3.5.0
 * and tokio_darshan_open() read them.  Used for the project's own sample
 * data, test fixtures, fuzz seeds and benchmark logs, and to write back a
 * log tokio_darshan_open() read (any older version becomes 3.41).
 *
 * Modules it writes: POSIX, MPI-IO, H5F, H5D, PNETCDF_FILE, PNETCDF_VAR,
 * BG/Q, LUSTRE, STDIO, DXT_POSIX, DXT_MPIIO, DFS and DAOS.  Not written
 * (TOKIO_EINVAL naming them): NULL, MDHIM, APXC, APMPI, HEATMAP, ids
 * darshan-util 3.5.0 does not know, and modules a log kept undecoded.
 *
 * Usage: _new() with the job, _add_name() and _add_record() / _add() /
 * _add_lustre() in any order (records keep their order within a module;
 * modules are written in id order), then _write() or _write_mem(), then
 * _free().  A writer is not thread-safe; distinct writers are.
 */
#ifndef TOKIO_CONNECTORS_DARSHAN_WRITER_H
#define TOKIO_CONNECTORS_DARSHAN_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"
#include "tokio/connectors/darshan.h"

struct tokio_darshan_writer;

/*
 * The job record.  Strings are copied.  The log keeps at most 1023 bytes
 * of "key=value\n" metadata and 3015 bytes of exe plus mount entries
 * ("\n<type>\t<path>"), darshan-util's fixed job buffers.
 */
struct tokio_darshan_job_info {
    int64_t uid;
    int64_t jobid;
    int64_t start_time;         /* seconds since the epoch */
    int64_t start_time_nsec;
    int64_t end_time;
    int64_t end_time_nsec;
    int64_t nprocs;             /* > 0; every record's rank is below it */
    const char *exe;            /* command line without '\n'; NULL: "" */
    size_t n_metadata;
    const char *const *metadata_keys;   /* no '=' and no '\n' */
    const char *const *metadata_values; /* no '\n' */
    /* Written in this order; readers sort by descending path length,
     * keeping this order among equal lengths.  No blanks in either. */
    size_t n_mounts;
    const struct tokio_darshan_mount *mounts;
};

/**
 * Start a log for `job`.  *out holds the writer (free with
 * tokio_darshan_writer_free()); regions are zlib-compressed unless
 * tokio_darshan_writer_set_compression() says otherwise.
 * @return TOKIO_OK, TOKIO_EINVAL (a field the format cannot hold; the
 * message says which), TOKIO_ENOMEM; on failure *out is NULL.
 */
TOKIO_API int tokio_darshan_writer_new(
    struct tokio_darshan_writer **out,
    const struct tokio_darshan_job_info *job);

/**
 * enum tokio_darshan_compression for every region: TOKIO_DARSHAN_ZLIB
 * (what the runtime writes), TOKIO_DARSHAN_BZIP2 (as darshan-convert
 * --bzip2) or TOKIO_DARSHAN_NONE (as the runtime's uncompressed logs).
 * @return TOKIO_OK or TOKIO_EINVAL.
 */
TOKIO_API int tokio_darshan_writer_set_compression(
    struct tokio_darshan_writer *w, int compression);

/** Set the header's partial-data bits (bit i: module id i ran out of
 *  memory); readers then report the log as TOKIO_PARTIAL. */
TOKIO_API void tokio_darshan_writer_set_partial(
    struct tokio_darshan_writer *w, uint64_t flags);

/**
 * The record id the Darshan runtime gives the file `name`: Bob Jenkins'
 * 64-bit lookup8 hash of its bytes with level 0 (fact sheet §6).
 */
TOKIO_API uint64_t tokio_darshan_writer_hash(const char *name);

/**
 * Add `name` for record id `id` to the name table (entries are written in
 * the order added; readers keep the first name of an id).
 * @return TOKIO_OK, TOKIO_EINVAL (NULL name), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_writer_add_name(struct tokio_darshan_writer *w,
                                            uint64_t id, const char *name);

/**
 * Append a record to a module with fixed counter arrays (POSIX, MPI-IO,
 * H5F, H5D, PNETCDF_FILE, PNETCDF_VAR, BG/Q, STDIO): `n` counters and
 * `nf` fcounters, exactly tokio_darshan_counter_count(module_id) and
 * tokio_darshan_fcounter_count(module_id), in darshan-util 3.5.0's list
 * order.  `rank` is -1 (shared) or 0 .. nprocs-1.  H5D and PNETCDF_VAR
 * get file_rec_id 0; use tokio_darshan_writer_add() to set it.
 * @return TOKIO_OK, TOKIO_EINVAL (message says what), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_writer_add_record(struct tokio_darshan_writer *w,
                                              int module_id, uint64_t id,
                                              int64_t rank,
                                              const int64_t *counters,
                                              size_t n,
                                              const double *fcounters,
                                              size_t nf);

/**
 * Append a LUSTRE record (layout version 2, darshan 3.4.6+): `n_comps`
 * components (STRIPE_SIZE must not be -1, which readers take for "no
 * more components"; pool names of at most 16 bytes), then the OST ids of
 * all components in order: `n_osts` must equal the sum of the positive
 * STRIPE_COUNTs.
 * @return TOKIO_OK, TOKIO_EINVAL, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_writer_add_lustre(
    struct tokio_darshan_writer *w, uint64_t id, int64_t rank,
    const struct tokio_darshan_lustre_comp *comps, size_t n_comps,
    const int64_t *osts, size_t n_osts);

/**
 * Append a record of any module this writer supports, given as the reader
 * presents it (struct tokio_darshan_record): counters and fcounters for
 * the fixed modules (plus file_rec_id for H5D and PNETCDF_VAR, uuids for
 * DFS and DAOS, oid for DAOS), comps and extra (OST ids) for LUSTRE,
 * hostname and segments for DXT (written as the released 3.5.0 tools read
 * them: DXT_POSIX v1 and DXT_MPIIO v2, so pthread ids must be 0).
 * @return TOKIO_OK, TOKIO_EINVAL, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_writer_add(struct tokio_darshan_writer *w,
                                       int module_id,
                                       const struct tokio_darshan_record *r);

/**
 * The whole log as bytes: *buf (free()) holds *len bytes.
 * @return TOKIO_OK or TOKIO_ENOMEM; on failure *buf is NULL.
 */
TOKIO_API int tokio_darshan_writer_write_mem(
    const struct tokio_darshan_writer *w, unsigned char **buf, size_t *len);

/**
 * Write the log to `path` atomically (a temporary file beside it, renamed
 * into place): `path` holds the old content or the whole new log, never a
 * part.  @return TOKIO_OK, TOKIO_EIO (message names `path`), ENOMEM.
 */
TOKIO_API int tokio_darshan_writer_write(
    const struct tokio_darshan_writer *w, const char *path);

/** Release a writer (NULL is fine). */
TOKIO_API void tokio_darshan_writer_free(struct tokio_darshan_writer *w);

/**
 * A writer holding everything of `log` (job, mounts in the reader's
 * order, names, partial bits, every decoded record), to write it back as
 * 3.41.  @return TOKIO_OK, TOKIO_EINVAL (a module this writer cannot
 * write; the message names every such module), TOKIO_ENOMEM; on failure
 * *out is NULL.
 */
TOKIO_API int tokio_darshan_writer_from_log(
    struct tokio_darshan_writer **out, const struct tokio_darshan *log);

/**
 * Write `log` back to `path` as a 3.41 log with `compression` (enum
 * tokio_darshan_compression), atomically.  Statuses as
 * tokio_darshan_writer_from_log() and tokio_darshan_writer_write().
 */
TOKIO_API int tokio_darshan_rewrite(const struct tokio_darshan *log,
                                    int compression, const char *path);

#endif
