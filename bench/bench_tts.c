/*
 * bench/bench_tts.c - make a TOKIO Time Series file for bench-tts.sh with
 * the HDF5 writer: datatargets/readbytes and writebytes, `rows` rows of 5 s
 * from 2018-01-28 00:00 local, `cols` OSTs, values that look like bytes
 * moved with a few cells missing (-0.0).  More than 2000 columns get
 * five-character names, as 10,000 longer ones would not fit the 64 KiB
 * `columns` attribute (h5py's files have the same limit).
 *
 *   bench_tts FILE ROWS COLS
 */
#include <stdio.h>
#include <stdlib.h>

#include "tokio/connectors/hdf5.h"
#include "tokio/time.h"

static int
commit(struct tokio_hdf5_update *u, const char *name, int64_t t0,
       size_t rows, size_t cols, unsigned seed)
{
    struct tokio_timeseries *ts = NULL;
    char col[32];
    double *d;
    int rc;

    if ((rc = tokio_timeseries_new(&ts, name, t0, t0 + 5 * (int64_t)rows, 5,
                                   cols, NULL, 0)) < 0)
        return rc;
    for (size_t c = 0; c < cols; c++) {
        /* an HDF5 attribute in the reference's (earliest) file format
         * holds at most 64 KiB: short names when there are many */
        snprintf(col, sizeof(col), cols > 2000 ? "%05zx" : "snx11025-OST%04zx",
                 c);
        if ((rc = tokio_timeseries_add_column(ts, col, NULL)) < 0)
            goto done;
    }
    d = tokio_timeseries_data(ts);
    for (size_t i = 0; i < rows * cols; i++) {
        seed = seed * 1103515245u + 12345u;
        d[i] = (seed >> 16) % 50 == 0 ? -0.0
                                      : (double)((seed >> 8) % 1000) * 4096.0;
    }
    if ((rc = tokio_timeseries_set_version(ts, "1")) >= 0
        && (rc = tokio_timeseries_set_global_version(ts, "1")) >= 0) {
        json_object_set_new(tokio_timeseries_dataset_metadata(ts), "units",
                            json_string("bytes"));
        json_object_set_new(tokio_timeseries_group_metadata(ts), "source",
                            json_string("lmt"));
        rc = tokio_hdf5_update_commit(u, ts);
    }
done:
    tokio_timeseries_free(ts);
    return rc;
}

int
main(int argc, char **argv)
{
    struct tokio_hdf5_update *u = NULL;
    int64_t t0;
    size_t rows, cols;

    if (argc != 4) {
        fprintf(stderr, "usage: bench_tts FILE ROWS COLS\n");
        return 2;
    }
    rows = strtoul(argv[2], NULL, 10);
    cols = strtoul(argv[3], NULL, 10);
    if (tokio_time_from_local(2018, 1, 28, 0, 0, 0, &t0) < 0
        || tokio_hdf5_update_begin(&u, argv[1]) < 0) {
        fprintf(stderr, "bench_tts: %s\n", tokio_errmsg());
        return 1;
    }
    if (tokio_hdf5_update_set_version(u, "1") < 0
        || commit(u, "datatargets/readbytes", t0, rows, cols, 1) < 0
        || commit(u, "datatargets/writebytes", t0, rows, cols, 2) < 0) {
        fprintf(stderr, "bench_tts: %s\n", tokio_errmsg());
        tokio_hdf5_update_abort(u);
        return 1;
    }
    if (tokio_hdf5_update_finish(u) < 0) {
        fprintf(stderr, "bench_tts: %s\n", tokio_errmsg());
        return 1;
    }
    return 0;
}
