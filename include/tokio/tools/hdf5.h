/*
 * tokio/tools/hdf5.h - TOKIO Time Series data by time rather than by file
 * (tokio.tools.hdf5 in the reference): the site's daily TTS or H5LMT
 * files of a file system (the `hdf5_files` templates of site.json), which
 * rows of each fall in a time range, and one series spanning them.
 * Same thread rule as tokio/connectors/hdf5.h.
 */
#ifndef TOKIO_TOOLS_HDF5_H
#define TOKIO_TOOLS_HDF5_H

#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"
#include "tokio/timeseries.h"

struct tokio_config;

/**
 * The existing files that hold data of file system `fsname` from `start`
 * to `end` (epochs; every day they touch, inclusive), the first existing
 * template of each day (the reference's enumerate_hdf5()).
 * @param[out] paths_out  free with tokio_free_strings(); NULL when none.
 * @return TOKIO_OK (also when none exists); TOKIO_EINVAL (no hdf5_files
 *         in the configuration, end before start); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_enumerate(char ***paths_out, size_t *n_out,
                                   const struct tokio_config *cfg,
                                   const char *fsname, int64_t start,
                                   int64_t end);

/* A file and the rows of a dataset in it that a time range covers. */
struct tokio_hdf5_file_range {
    char *path;
    int64_t first;      /* first row, inclusive */
    int64_t last;       /* last row, inclusive; -1: to the end */
};

/**
 * The reference's get_files_and_indices(): for each file of
 * tokio_hdf5_enumerate(), the rows of `dataset` from `start`
 * (get_index(), when the file begins at or before it; else 0) to the one
 * before `end` (when the file reaches it; else -1, the end).  A file whose
 * last row would fall before its first kept row is left out, as there.
 * @param[out] out  free with tokio_hdf5_file_ranges_free().
 * @return TOKIO_OK; the errors of tokio_hdf5_enumerate() and of opening
 *         and reading each file.
 */
TOKIO_API int tokio_hdf5_get_files_and_indices(
    struct tokio_hdf5_file_range **out, size_t *n_out,
    const struct tokio_config *cfg, const char *fsname, const char *dataset,
    int64_t start, int64_t end);

/** Free what tokio_hdf5_get_files_and_indices() made; NULL is fine. */
TOKIO_API void tokio_hdf5_file_ranges_free(struct tokio_hdf5_file_range *r,
                                           size_t n);

/* Flags of tokio_hdf5_from_time_range() */
#define TOKIO_HDF5_FIX_ERRORS 0x1u  /* negative cells become missing */

/**
 * The reference's get_dataframe_from_time_range() as a series: `dataset`
 * of every file of tokio_hdf5_enumerate(), rows with start <= time < end,
 * merged over the union of their timestamps (a later file's row replaces
 * an earlier one's), with the first file's columns (matched by name in
 * the others), timestep and metadata; cells no file holds are missing
 * (-0.0), as are a TTS file's missing cells.  With TOKIO_HDF5_FIX_ERRORS
 * negative cells become missing too (the reference prints them as -0.0).
 * @param[out] out  free with tokio_timeseries_free(); NULL when no file
 *         exists (the reference's None).
 * @return TOKIO_OK; the errors of tokio_hdf5_enumerate(),
 *         tokio_hdf5_open() and tokio_hdf5_to_timeseries().
 */
TOKIO_API int tokio_hdf5_from_time_range(struct tokio_timeseries **out,
                                         const struct tokio_config *cfg,
                                         const char *fsname,
                                         const char *dataset, int64_t start,
                                         int64_t end, unsigned flags);

#endif
