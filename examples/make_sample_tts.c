/*
 * examples/make_sample_tts.c - writes the project's own sample TOKIO Time
 * Series files with the library's HDF5 writer: one file per local day, as
 * a site's archiver leaves them, where examples/site.json's hdf5_files
 * template for "scratch" (examples/data/%Y-%m-%d/exscr01.hdf5) finds them.
 * Synthetic and deterministic: every run writes the same values.
 *
 *   make_sample_tts OUTDIR
 *       OUTDIR/2019-02-14/exscr01.hdf5 and OUTDIR/2019-02-15/exscr01.hdf5:
 *       datatargets/readbytes and writebytes of 8 OSTs every 5 s over the
 *       day, with a busy hour and a few cells never reported (-0.0).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tokio/connectors/hdf5.h"
#include "tokio/time.h"

#define TIMESTEP    5
#define NUM_OSTS    8
#define MIB         1048576.0

/* Bytes moved by OST `ost` in the step starting `sec` seconds into the
 * day: a quiet floor, a busy hour after 14:00, one OST missing a while. */
static double
sample_bytes(int64_t sec, size_t ost, int writes)
{
    uint64_t h = (uint64_t)sec * 2654435761u + ost * 40503u + (unsigned)writes;
    double noise = (double)(h % 1000) / 1000.0;

    if (ost == 3 && sec >= 3 * 3600 && sec < 3 * 3600 + 600)
        return -0.0;                    /* the OSS stopped reporting */
    /* whole bytes, as LMT counts them */
    if (sec >= 14 * 3600 && sec < 15 * 3600)
        return (double)(int64_t)((writes ? 600.0 : 250.0) * MIB *
                                 (0.8 + 0.4 * noise));
    return (double)(int64_t)((writes ? 6.0 : 12.0) * MIB * noise);
}

static int
commit_day(struct tokio_hdf5_update *u, const char *name, int64_t start,
           int64_t end, int writes)
{
    struct tokio_timeseries *ts = NULL;
    char column[32];
    int rc = tokio_timeseries_new(&ts, name, start, end, TIMESTEP, NUM_OSTS,
                                  NULL, 0);

    for (size_t c = 0; rc >= 0 && c < NUM_OSTS; c++) {
        snprintf(column, sizeof(column), "exscr01-OST%04zx", c);
        rc = tokio_timeseries_add_column(ts, column, NULL);
    }
    if (rc >= 0) {
        double *d = tokio_timeseries_data(ts);
        size_t rows = tokio_timeseries_rows(ts);

        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < NUM_OSTS; c++)
                d[r * NUM_OSTS + c] =
                    sample_bytes((int64_t)r * TIMESTEP, c, writes);
        rc = tokio_timeseries_set_version(ts, "1");
    }
    if (rc >= 0)
        rc = tokio_timeseries_set_global_version(ts, "1");
    if (rc >= 0) {
        json_object_set_new(tokio_timeseries_dataset_metadata(ts), "units",
                            json_string("bytes"));
        json_object_set_new(tokio_timeseries_group_metadata(ts), "source",
                            json_string("lmt"));
        rc = tokio_hdf5_update_commit(u, ts);
    }
    tokio_timeseries_free(ts);
    return rc;
}

static int
write_day(const char *outdir, int year, int mon, int mday)
{
    struct tokio_hdf5_update *u = NULL;
    char path[4096];
    int64_t start, end;
    int n;

    n = snprintf(path, sizeof(path), "%s/%04d-%02d-%02d", outdir, year, mon,
                 mday);
    if (n < 0 || (size_t)n >= sizeof(path) - 16 ||
        (mkdir(path, 0777) != 0 && errno != EEXIST)) {
        fprintf(stderr, "make_sample_tts: cannot make %s\n", path);
        return -1;
    }
    strcat(path, "/exscr01.hdf5");
    remove(path);       /* a fresh file each build, not an update */
    if (tokio_time_from_local(year, mon, mday, 0, 0, 0, &start) < 0 ||
        tokio_time_from_local(year, mon, mday + 1, 0, 0, 0, &end) < 0 ||
        tokio_hdf5_update_begin(&u, path) < 0)
        goto fail;
    if (tokio_hdf5_update_set_version(u, "1") < 0 ||
        commit_day(u, "datatargets/readbytes", start, end, 0) < 0 ||
        commit_day(u, "datatargets/writebytes", start, end, 1) < 0) {
        tokio_hdf5_update_abort(u);
        goto fail;
    }
    if (tokio_hdf5_update_finish(u) < 0)
        goto fail;
    return 0;
fail:
    fprintf(stderr, "make_sample_tts: %s: %s\n", path, tokio_errmsg());
    return -1;
}

int
main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_sample_tts OUTDIR\n");
        return 2;
    }
    if ((mkdir(argv[1], 0777) != 0 && errno != EEXIST) ||
        write_day(argv[1], 2019, 2, 14) < 0 ||
        write_day(argv[1], 2019, 2, 15) < 0)
        return 1;
    return 0;
}
