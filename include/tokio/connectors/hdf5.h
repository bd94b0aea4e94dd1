/*
 * tokio/connectors/hdf5.h - TOKIO Time Series (TTS) HDF5 files and legacy
 * H5LMT files, read through logical dataset names ("datatargets/readbytes",
 * "mdtargets/opens", ...) whatever the file's schema version; TTS files
 * written, all or nothing, in the reference's exact layout
 * (tokio_hdf5_update_*).  Mirrors tokio.connectors.hdf5 (pytokio 0.13).
 *
 * A name resolves, in the reference's order, to a literal HDF5 object of
 * that name; else to a dataset the schema version derives it from: in a
 * version "1" file the bytes <-> rates twin (bytes = rates * timestep,
 * rates = bytes / timestep); in a file without a version (H5LMT) the
 * legacy dataset, transposed from column x time, with MDSOpsDataSet
 * demultiplexed into one column per operation.  A trailing "/missing"
 * names the dataset's missing-value mask.
 *
 * The HDF5 library (Debian's serial build) is not thread-safe: use one
 * thread for all tokio_hdf5 calls.
 */
#ifndef TOKIO_CONNECTORS_HDF5_H
#define TOKIO_CONNECTORS_HDF5_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"
#include "tokio/timeseries.h"

struct tokio_hdf5;

/* Open even when the root `version` is not a schema this library knows
 * (the reference's ignore_version=True). */
#define TOKIO_HDF5_IGNORE_VERSION 0x1u

/**
 * Open a TTS or H5LMT file read-only.
 * @param[out] out  free with tokio_hdf5_free().
 * @return TOKIO_OK; TOKIO_EIO (cannot read `path`); TOKIO_EFORMAT (not
 *         HDF5, or an unknown schema version without
 *         TOKIO_HDF5_IGNORE_VERSION); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_open(struct tokio_hdf5 **out, const char *path,
                              unsigned flags);

/** The file's schema version ("1"), NULL for H5LMT; borrowed. */
TOKIO_API const char *tokio_hdf5_schema_version(const struct tokio_hdf5 *h);

/** The path the file was opened with, for messages; borrowed. */
TOKIO_API const char *tokio_hdf5_path(const struct tokio_hdf5 *h);

/**
 * The version of object `name` (dataset or group, as in
 * get_version(name)): its `version` attribute, else the file's.
 * @param[out] out  new string (free()), NULL when neither has one.
 * @return TOKIO_OK; TOKIO_ENOTFOUND (no such name); TOKIO_EFORMAT;
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_get_version(struct tokio_hdf5 *h, const char *name,
                                     char **out);

/**
 * Column names of dataset `name`.
 * @param[out] out    one allocation: the pointer array followed by the
 *                    strings; release it with a single free().
 * @param[out] n_out  number of names (0 if the dataset names none).
 * @return TOKIO_OK, TOKIO_ENOTFOUND, TOKIO_EFORMAT, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_get_columns(struct tokio_hdf5 *h, const char *name,
                                     char ***out, size_t *n_out);

/**
 * Timestamps of dataset `name` (its `timestamps` attribute, else
 * GROUP/timestamps; FSStepsDataSet in H5LMT files).
 * @param[out] out  new array (free()), *n_out entries.
 * @return as tokio_hdf5_get_columns().
 */
TOKIO_API int tokio_hdf5_get_timestamps(struct tokio_hdf5 *h,
                                        const char *name, int64_t **out,
                                        size_t *n_out);

/**
 * Seconds between the first two timestamps of `name`.
 * @return as tokio_hdf5_get_columns(); TOKIO_EFORMAT with fewer than two.
 */
TOKIO_API int tokio_hdf5_get_timestep(struct tokio_hdf5 *h, const char *name,
                                      int64_t *out);

/**
 * Row of `name` holding time `epoch`: (epoch - timestamps[0]) / timestep,
 * truncated toward zero as the reference's int() does.
 */
TOKIO_API int tokio_hdf5_get_index(struct tokio_hdf5 *h, const char *name,
                                   int64_t epoch, int64_t *out);

/**
 * Missing-value mask of `name` (the reference's get_missing()): 1 where
 * the cell is -0.0 (TTS) or FSMissingDataSet says so (H5LMT), else 0;
 * `inverse` swaps them.  Row-major, rows x cols of the logical dataset.
 * @param[out] out  new array (free()).
 */
TOKIO_API int tokio_hdf5_get_missing(struct tokio_hdf5 *h, const char *name,
                                     int inverse, int8_t **out,
                                     size_t *rows_out, size_t *cols_out);

/**
 * The whole dataset as a TimeSeries (the reference's to_timeseries()):
 * values after any schema conversion, column names, timestamps and
 * timestep, the dataset's and its group's attributes as metadata, its
 * version and the file's.
 * @param[out] out  free with tokio_timeseries_free().
 * @return TOKIO_OK; TOKIO_ENOTFOUND; TOKIO_EFORMAT (not 1-D or 2-D, more
 *         column names than columns, timestamps not matching the rows);
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_to_timeseries(struct tokio_hdf5 *h, const char *name,
                                       struct tokio_timeseries **out);

/**
 * Write dataset `name` as CSV, as pandas' to_csv() prints the reference's
 * to_dataframe(name): a header of "" and the column names; one row per
 * timestamp, indexed by its local time "YYYY-MM-DD HH:MM:SS" (the date
 * alone when every timestamp is a local midnight); floats as Python's
 * repr(), missing (-0.0) cells of TTS datasets empty.
 * @return TOKIO_OK; the errors of tokio_hdf5_to_timeseries(); TOKIO_EIO.
 */
TOKIO_API int tokio_hdf5_write_csv(struct tokio_hdf5 *h, const char *name,
                                   FILE *fp);

/** Close the file; NULL is fine. */
TOKIO_API void tokio_hdf5_free(struct tokio_hdf5 *h);

/* ---- writing (the reference's Hdf5 in mode "a") ------------------------ */

/*
 * An update of one TTS file.  All or nothing: the changes go to a private
 * copy beside the file (".NAME.tokio-tmp-XXXXXX" in the same directory,
 * which readers and enumerate never take for data) and replace it with one
 * rename() in tokio_hdf5_update_finish(); a crash or abort leaves the old
 * file untouched.
 */
struct tokio_hdf5_update;

/*
 * The most rows a dataset made by an update may have: 2^23, 485 days
 * every 5 s (a year of LMT data in one file; the reference archives a day
 * per file).  More is refused before anything is allocated: a mistyped
 * range (1900 to 2200) would otherwise ask for gigabytes of timestamps.
 */
#define TOKIO_HDF5_MAX_ROWS ((size_t)1 << 23)

/**
 * The rows of [start, end) every `timestep` seconds (> 0, start <= end),
 * a partial last one counted, as the reference's TimeSeries.init() makes
 * them: what TOKIO_HDF5_MAX_ROWS bounds.
 */
TOKIO_API uint64_t tokio_hdf5_rows(int64_t start, int64_t end,
                                   int64_t timestep);

/**
 * An archiver's range (tokio/timeseries.h) checked before anything is
 * allocated: a timestep of 1 s or more, each start before its end, and
 * neither [start, end) nor [init_start, init_end) more than
 * TOKIO_HDF5_MAX_ROWS rows.
 * @param output  the file archived into, named in the message
 * @return TOKIO_OK; TOKIO_EINVAL.
 */
TOKIO_API int tokio_hdf5_check_range(const struct tokio_archive_range *r,
                                     const char *output);

/**
 * Begin an all-or-nothing update of the TTS file `path`, created if
 * absent.  The work happens on a private copy in the same directory;
 * nothing is visible at `path` until tokio_hdf5_update_finish().  As
 * every writer: through symbolic links the file they name is updated,
 * a file the user may not write is refused, and the file's lock
 * (tokio_output_lock()) is held until the update ends, so two updates
 * of one file take turns.  An existing file must be a TOKIO Time Series
 * of schema version "1", or an HDF5 file holding nothing.
 * @param[out] out  finish with tokio_hdf5_update_finish() or
 *                  tokio_hdf5_update_abort().
 * @return TOKIO_OK; TOKIO_EIO (cannot read `path` or write its
 *         directory, or another writer held it for 10 minutes);
 *         TOKIO_EFORMAT (`path` exists but is not HDF5, is H5LMT or of
 *         another schema version);
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_update_begin(struct tokio_hdf5_update **out,
                                      const char *path);

/**
 * Set the root `version` attribute (the schema, "1").
 * @return TOKIO_OK; TOKIO_EIO; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_update_set_version(struct tokio_hdf5_update *u,
                                            const char *version);

/**
 * The reference's init_hdf5_file() for one dataset: when `name` is absent,
 * commit an empty (all -0.0) series over [init_start, init_end) every
 * `timestep` seconds, `num_columns` wide; an existing dataset is left
 * alone.
 * @return TOKIO_OK; TOKIO_EINVAL (bad range or timestep, more than
 *         TOKIO_HDF5_MAX_ROWS rows, or the root start/end disagree);
 *         TOKIO_EIO; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_update_init_dataset(struct tokio_hdf5_update *u,
                                             const char *name,
                                             int64_t init_start,
                                             int64_t init_end,
                                             int64_t timestep,
                                             size_t num_columns);

/**
 * The reference's Hdf5.commit_timeseries(ts): create or update dataset
 * tokio_timeseries_dataset_name(ts) with its timestamps, column names
 * (sorted naturally when the dataset is created; an existing dataset's
 * column order is kept by rearranging `ts`), version, and the dataset and
 * group metadata; the root start/end are set, or checked against the
 * series.  Rows of `ts` land where get_insert_indices() puts them.  May
 * reorder the columns of `ts`.
 * @return TOKIO_OK; TOKIO_EINVAL (root start/end mismatch, naming both
 *         values; a different timestep; timestamps or columns that are
 *         not a subset of the existing dataset's; a new dataset of more
 *         than TOKIO_HDF5_MAX_ROWS rows); TOKIO_EIO; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_update_commit(struct tokio_hdf5_update *u,
                                       struct tokio_timeseries *ts);

/*
 * A commit written block by block, for series too long to hold in memory:
 * tokio_hdf5_update_commit_begin() does everything commit does but write
 * the cells; tokio_hdf5_rows_write() then writes them a block of rows at
 * a time; tokio_hdf5_rows_end() finishes.  Blocks that start on a chunk
 * boundary of the dataset (see tokio_hdf5_rows_chunk()) are compressed
 * once each.
 */
struct tokio_hdf5_rows;

/**
 * As tokio_hdf5_update_commit() for a series of `n_rows` rows at `start`,
 * `start` + timestep, ...: `ts` gives the dataset name, timestep, width,
 * column names, versions and metadata (its own rows are not written, and
 * its columns may be reordered as commit does: look columns up by name
 * afterwards).
 * @param[out] out  write with tokio_hdf5_rows_write(), then release with
 *                  tokio_hdf5_rows_end() (also when abandoning `u`).
 * @return as tokio_hdf5_update_commit().
 */
TOKIO_API int tokio_hdf5_update_commit_begin(struct tokio_hdf5_update *u,
                                             struct tokio_timeseries *ts,
                                             int64_t start, size_t n_rows,
                                             struct tokio_hdf5_rows **out);

/**
 * Write rows `row` .. `row` + `n_rows` - 1 of the series (row-major,
 * columns in the order of `ts` after _begin()).
 * @return TOKIO_OK; TOKIO_EINVAL (rows beyond the series); TOKIO_EIO.
 */
TOKIO_API int tokio_hdf5_rows_write(struct tokio_hdf5_rows *w, size_t row,
                                    const double *data, size_t n_rows);

/**
 * The dataset's rows per chunk; *first_out (may be NULL) gets the first
 * row of the series that starts a chunk.
 */
TOKIO_API size_t tokio_hdf5_rows_chunk(const struct tokio_hdf5_rows *w,
                                       size_t *first_out);

/**
 * Write out what is still cached and release `w`; NULL is fine.
 * @return TOKIO_OK; TOKIO_EIO.
 */
TOKIO_API int tokio_hdf5_rows_end(struct tokio_hdf5_rows *w);

/**
 * Read dataset `name` of the file being updated, with the changes so far,
 * as tokio_hdf5_to_timeseries() does.
 * @return as tokio_hdf5_to_timeseries().
 */
TOKIO_API int tokio_hdf5_update_to_timeseries(struct tokio_hdf5_update *u,
                                              const char *name,
                                              struct tokio_timeseries **out);

/**
 * Flush, fsync and atomically replace `path` (keeping an old file's
 * permission bits); frees `u` whatever the result.
 * @return TOKIO_OK; TOKIO_EIO (then `path` is unchanged).
 */
TOKIO_API int tokio_hdf5_update_finish(struct tokio_hdf5_update *u);

/** Discard every change and free `u`; NULL is fine. */
TOKIO_API void tokio_hdf5_update_abort(struct tokio_hdf5_update *u);

#endif
