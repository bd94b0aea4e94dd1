/*
 * src/core/timeseries_private.h - library-internal ways to build a
 * TimeSeries.  Not installed.
 */
#ifndef TOKIO_CORE_TIMESERIES_PRIVATE_H
#define TOKIO_CORE_TIMESERIES_PRIVATE_H

#include "tokio/timeseries.h"

/*
 * As tokio_timeseries_new_rows(), taking `data` (n_rows x num_columns,
 * from tokio__malloc()) as the cells instead of copying them: on success
 * the series owns it; on failure it stays the caller's.  Saves a copy of
 * a dataset read from a file.
 */
int tokio__timeseries_new_adopt(struct tokio_timeseries **out,
                                const char *dataset_name,
                                const int64_t *timestamps, size_t n_rows,
                                size_t num_columns, double *data);

#endif
