/*
 * tokio/timeseries.h - the in-memory TOKIO Time Series (the reference's
 * tokio.timeseries.TimeSeries): a row-major matrix of doubles, one row per
 * timestamp and one column per component (OST, server, device), with
 * column names, a timestep, and the metadata an HDF5 file keeps beside the
 * dataset.
 *
 * Cells never written hold -0.0, as in the reference: "missing" is the sign
 * bit of a zero (signbit(x) && x == 0.0), so a measured 0.0 and a missing
 * value stay apart through every operation and through HDF5.
 *
 * Timestamps are seconds since the epoch.  The reference converts naive
 * local datetimes with time.mktime(); callers do that conversion (see
 * tokio_time_from_local()) and pass epochs here.
 *
 * Not thread-safe: one series belongs to one thread at a time.
 */
#ifndef TOKIO_TIMESERIES_H
#define TOKIO_TIMESERIES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_timeseries;

/* The rows an archiver (tokio/tools/archive_*.h) writes into a TOKIO Time
 * Series file, and the span a file or dataset made new takes; epochs in
 * seconds. */
struct tokio_archive_range {
    int64_t start, end;             /* the rows asked for */
    int64_t init_start, init_end;   /* a new dataset's rows: [start, end) */
    int64_t timestep;               /* seconds between rows, > 0 */
};

/* Which edge of a timestep bin a timestamp names (the reference's align). */
enum tokio_ts_align {
    TOKIO_TS_LEFT = 0,      /* t labels [t, t + timestep) */
    TOKIO_TS_RIGHT = 1      /* t labels [t - timestep, t) */
};

/* How insert_element() reconciles a value with one already present. */
enum tokio_ts_reducer {
    TOKIO_TS_REPLACE = 0,   /* reducer=None: overwrite */
    TOKIO_TS_SUM = 1        /* reducer=sum: old + new */
};

/**
 * A new series over [start, end) every `timestep` seconds (the reference's
 * TimeSeries.init()), `num_columns` wide, every cell -0.0.  The first
 * `n_names` columns are named from `names` (may be NULL when 0); the rest
 * stay unnamed until add_column() or insert_element() claims them.
 * `dataset_name` is the HDF5 path ("datatargets/readbytes"); copied.
 * @param[out] out  free with tokio_timeseries_free().
 * @return TOKIO_OK; TOKIO_EINVAL for timestep <= 0, n_names > num_columns,
 *         or a matrix whose size in bytes would not fit a size_t;
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_timeseries_new(struct tokio_timeseries **out,
                                   const char *dataset_name, int64_t start,
                                   int64_t end, int64_t timestep,
                                   size_t num_columns,
                                   const char *const *names, size_t n_names);

/**
 * A new series with explicit timestamps (as read from a file, which need
 * not be regular), `n_rows` x `num_columns`, every cell -0.0.  The
 * timestep is timestamps[1] - timestamps[0] (0 with fewer than two rows;
 * set it with tokio_timeseries_set_timestep()).
 * @return as tokio_timeseries_new().
 */
TOKIO_API int tokio_timeseries_new_rows(struct tokio_timeseries **out,
                                        const char *dataset_name,
                                        const int64_t *timestamps,
                                        size_t n_rows, size_t num_columns);

/** Release a series; NULL is fine. */
TOKIO_API void tokio_timeseries_free(struct tokio_timeseries *ts);

/* Shape and contents; all borrowed, valid until `ts` is changed or freed. */
TOKIO_API size_t tokio_timeseries_rows(const struct tokio_timeseries *ts);
/** Width of the matrix (named columns may be fewer). */
TOKIO_API size_t tokio_timeseries_cols(const struct tokio_timeseries *ts);
/** Row-major cells: cell (r, c) is data[r * cols + c]; writable. */
TOKIO_API double *tokio_timeseries_data(struct tokio_timeseries *ts);
TOKIO_API const double *
tokio_timeseries_cdata(const struct tokio_timeseries *ts);
TOKIO_API const int64_t *
tokio_timeseries_timestamps(const struct tokio_timeseries *ts);
TOKIO_API int64_t tokio_timeseries_timestep(const struct tokio_timeseries *ts);
TOKIO_API void tokio_timeseries_set_timestep(struct tokio_timeseries *ts,
                                             int64_t timestep);
/** Number of named columns (<= cols). */
TOKIO_API size_t tokio_timeseries_n_names(const struct tokio_timeseries *ts);
/** Name of column `i`, NULL past the named ones. */
TOKIO_API const char *tokio_timeseries_column(const struct tokio_timeseries *ts,
                                              size_t i);
/**
 * Index of the column named `name` (the reference's column_map; with
 * duplicate names, the last one named), or -1 when there is none.
 */
TOKIO_API long tokio_timeseries_column_index(const struct tokio_timeseries *ts,
                                             const char *name);
TOKIO_API const char *
tokio_timeseries_dataset_name(const struct tokio_timeseries *ts);

/**
 * Key => value attributes of the dataset (units, columns, version, ...)
 * and of its group (source, ...), as JSON objects; borrowed and writable
 * (a writer stores them as HDF5 attributes).  Never NULL.
 */
TOKIO_API json_t *
tokio_timeseries_dataset_metadata(struct tokio_timeseries *ts);
TOKIO_API json_t *tokio_timeseries_group_metadata(struct tokio_timeseries *ts);

/**
 * The dataset's version and the file's schema version ("1"), NULL when
 * unset, and the path of the timestamps dataset (NULL: the default,
 * GROUP/timestamps).  Setters copy; NULL clears.
 * @return TOKIO_OK or TOKIO_ENOMEM.
 */
TOKIO_API const char *
tokio_timeseries_version(const struct tokio_timeseries *ts);
TOKIO_API const char *
tokio_timeseries_global_version(const struct tokio_timeseries *ts);
TOKIO_API const char *
tokio_timeseries_timestamp_key(const struct tokio_timeseries *ts);
TOKIO_API int tokio_timeseries_set_version(struct tokio_timeseries *ts,
                                           const char *version);
TOKIO_API int tokio_timeseries_set_global_version(struct tokio_timeseries *ts,
                                                  const char *version);
TOKIO_API int tokio_timeseries_set_timestamp_key(struct tokio_timeseries *ts,
                                                 const char *key);

/**
 * Replace the column names (the reference's set_columns()); names beyond
 * the matrix width are dropped, as the reference does.
 * @return TOKIO_OK or TOKIO_ENOMEM (then the old names stay).
 */
TOKIO_API int tokio_timeseries_set_columns(struct tokio_timeseries *ts,
                                           const char *const *names,
                                           size_t n);

/**
 * Name the next unnamed column `name` and store its index in *index_out
 * (may be NULL).  A name already present is added again and the map then
 * points at the new column, as in the reference.
 * @return TOKIO_OK; TOKIO_EINVAL when every column is named already (the
 *         reference's IndexError); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_timeseries_add_column(struct tokio_timeseries *ts,
                                          const char *name,
                                          size_t *index_out);

/**
 * Row and column of (`timestamp`, `column`) (the reference's
 * get_insert_pos()): row = floor((timestamp - timestamps[0]) / timestep),
 * less one for TOKIO_TS_RIGHT.  With `create`, a column not yet named is
 * added.  *col_out is -1 when the column is absent and not created.
 * @return 1 when the row is inside the series, 0 when outside (nothing is
 *         created then); TOKIO_EINVAL/ENOMEM from add_column().
 */
TOKIO_API int tokio_timeseries_get_insert_pos(struct tokio_timeseries *ts,
                                              int64_t timestamp,
                                              const char *column, int create,
                                              enum tokio_ts_align align,
                                              size_t *row_out, long *col_out);

/**
 * Store `value` at (`timestamp`, `column`), creating the column if needed
 * (the reference's insert_element()).  With TOKIO_TS_SUM a cell that is
 * non-zero or carries the sign bit (-0.0, never populated) is replaced by
 * old + value; a +0.0 cell, and any cell with TOKIO_TS_REPLACE, is
 * overwritten.  (That is the reference's rule; -0.0 + v == v.)
 * @return 1 inserted; 0 timestamp outside the series (the reference's
 *         False; no message is recorded: archivers hit this often);
 *         TOKIO_EINVAL when a new column does not fit; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_timeseries_insert_element(struct tokio_timeseries *ts,
                                              int64_t timestamp,
                                              const char *column,
                                              double value,
                                              enum tokio_ts_reducer reducer,
                                              enum tokio_ts_align align);

/**
 * Turn monotonically increasing counters into per-row deltas in place
 * (the reference's convert_to_deltas()/timeseries_deltas()): one row
 * fewer; the last timestamp is dropped with TOKIO_TS_LEFT, the first with
 * TOKIO_TS_RIGHT.  Zeros count as missing; a value below its predecessor
 * (counter reset) starts a search for the next valid pair, and the cells
 * in between stay -0.0.
 * @return TOKIO_OK; TOKIO_EINVAL on a series without rows.
 */
TOKIO_API int tokio_timeseries_convert_to_deltas(struct tokio_timeseries *ts,
                                                 enum tokio_ts_align align);

/*
 * convert_to_deltas() done block by block, for series too long to hold:
 * the per-column state carried from one block to the next.
 */
struct tokio_ts_deltas;

/**
 * State for converting `cols` columns to deltas block by block.
 * @param[out] out  free with tokio_timeseries_deltas_free().
 * @return TOKIO_OK; TOKIO_EINVAL (absurd width); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_timeseries_deltas_new(struct tokio_ts_deltas **out,
                                          size_t cols);

/**
 * Convert one block of `rows` consecutive counter rows (row-major, as
 * wide as given to _new()) in place: rows 0 .. rows-2 become the deltas
 * convert_to_deltas() gives them and the last row keeps its counters.
 * The next block must start with that last row (carried over), so a
 * series cut into overlapping blocks converts exactly as a whole.
 */
TOKIO_API void tokio_timeseries_deltas_step(struct tokio_ts_deltas *d,
                                            double *data, size_t rows);

/** Release delta state; NULL is fine. */
TOKIO_API void tokio_timeseries_deltas_free(struct tokio_ts_deltas *d);

/**
 * Append `n` rows of -0.0 continuing the timestamps by the timestep.
 * @return TOKIO_OK; TOKIO_EINVAL on a series without rows or one that
 *         would overflow; TOKIO_ENOMEM (the series is unchanged).
 */
TOKIO_API int tokio_timeseries_add_rows(struct tokio_timeseries *ts, size_t n);

/**
 * Drop the last `n` rows.  n = 0 does nothing.  Differs from pytokio:
 * its dataset[0:-0] would empty the whole series.
 * @return TOKIO_OK; TOKIO_EINVAL when n exceeds the rows.
 */
TOKIO_API int tokio_timeseries_trim_rows(struct tokio_timeseries *ts, size_t n);

/** Swap two named columns (data and names). @return TOKIO_OK, EINVAL. */
TOKIO_API int tokio_timeseries_swap_columns(struct tokio_timeseries *ts,
                                            size_t i, size_t j);

/**
 * Move columns so that `order[k]` ends up at index k (the reference's
 * rearrange_columns()); columns not listed keep whatever place is left.
 * @return TOKIO_OK; TOKIO_EINVAL naming the first entry that is not a
 *         column, or when `n` exceeds the named columns.
 */
TOKIO_API int tokio_timeseries_rearrange_columns(struct tokio_timeseries *ts,
                                                 const char *const *order,
                                                 size_t n);

/**
 * Sort the named columns naturally ("OST2" < "OST10"; with `hex`, runs of
 * hex digits are numbers: sorted_nodenames(sort_hex=True)).
 * @return TOKIO_OK or TOKIO_ENOMEM.
 */
TOKIO_API int tokio_timeseries_sort_columns(struct tokio_timeseries *ts,
                                            int hex);

/**
 * Write the series as CSV the way pandas' to_csv() prints the reference's
 * DataFrame of it: a header of "" and the column names ("" past the named
 * ones); one row per timestamp labelled with its local time
 * "YYYY-MM-DD HH:MM:SS" (the date alone when every timestamp is a local
 * midnight); cells as Python's repr(float), missing (-0.0) cells empty.
 * @return TOKIO_OK; TOKIO_EIO when writing fails.
 */
TOKIO_API int tokio_timeseries_write_csv(const struct tokio_timeseries *ts,
                                         FILE *fp);

/** 1 when `x` is the -0.0 that marks a cell never populated. */
TOKIO_API int tokio_timeseries_is_missing(double x);

#endif
