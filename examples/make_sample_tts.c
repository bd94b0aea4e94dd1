/*
 * examples/make_sample_tts.c - writes the project's own sample TOKIO Time
 * Series files with the library's HDF5 writer: one file per local day, as
 * a site's archiver leaves them, where examples/site.json's hdf5_files
 * template for "scratch" (examples/data/%Y-%m-%d/exscr01.hdf5) finds them.
 * Synthetic and deterministic: every run writes the same values.
 *
 *   make_sample_tts OUTDIR
 *       OUTDIR/2019-02-14/exscr01.hdf5 and OUTDIR/2019-02-15/exscr01.hdf5:
 *       datatargets/readbytes and writebytes of 8 OSTs, dataservers/cpuload
 *       of 4 OSSes, mdservers/cpuload of the MDS and the metadata
 *       operations of its MDT (mdtargets/opens, ...) every 5 s over the
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
#define NUM_OSSES   4
#define MIB         1048576.0
#define BUSY_START  (14 * 3600)     /* the busy hour, seconds into the day */
#define BUSY_END    (15 * 3600)
/* The sample ior job (make_sample_data: 16 GiB written from 02:00:00
 * for 95 s on 2019-02-14) and another writer beside it: what they add to
 * each OST per step, so the demo report's job is seen in the file
 * system's data. */
#define IOR_START   (2 * 3600)
#define IOR_END     (2 * 3600 + 95)
#define IOR_BYTES   (16.0 * 1024 * MIB)

/* Deterministic noise in [0, 1) for a step, a column and a dataset. */
static double
noise(int64_t sec, size_t col, unsigned which)
{
    uint64_t h = (uint64_t)sec * 2654435761u + col * 40503u + which;

    return (double)(h % 1000) / 1000.0;
}

static int
busy(int64_t sec)
{
    return sec >= BUSY_START && sec < BUSY_END;
}

/* Bytes moved by OST `ost` in the step starting `sec` seconds into the
 * day: a quiet floor, a busy hour after 14:00, one OST missing a while. */
static double
sample_bytes(int64_t sec, size_t ost, unsigned writes)
{
    double n = noise(sec, ost, writes);

    if (ost == 3 && sec >= 3 * 3600 && sec < 3 * 3600 + 600)
        return -0.0;                    /* the OSS stopped reporting */
    /* whole bytes, as LMT counts them */
    if (busy(sec))
        return (double)(int64_t)((writes ? 600.0 : 250.0) * MIB *
                                 (0.8 + 0.4 * n));
    /* the sample ior job, and another writer around it */
    if (writes && sec >= IOR_START - 60 && sec < IOR_END + 60)
        return (double)(int64_t)(
            (sec >= IOR_START && sec < IOR_END
                 ? IOR_BYTES / (IOR_END - IOR_START) * TIMESTEP / NUM_OSTS
                 : 0) + 60.0 * MIB * (0.8 + 0.4 * n));
    return (double)(int64_t)((writes ? 6.0 : 12.0) * MIB * n);
}

/* CPU load in percent of OSS `c` (which 2) or of the MDS (which 3). */
static double
sample_cpu(int64_t sec, size_t c, unsigned which)
{
    double n = noise(sec, c, which);

    if (which == 2 && c == 1 && sec >= 3 * 3600 && sec < 3 * 3600 + 600)
        return -0.0;
    if (which == 2 && sec >= IOR_START - 60 && sec < IOR_END + 60)
        return 40.0 + 20.0 * n;
    return busy(sec) ? 60.0 + 30.0 * n : 8.0 + 12.0 * n;
}

/* Metadata operations `which` (4 on) of the MDT in a step. */
static double
sample_ops(int64_t sec, size_t c, unsigned which)
{
    double n = noise(sec, c, which);

    return (double)(int64_t)((busy(sec) ? 400.0 : 20.0) * n /
                             (double)(which - 3));
}

struct dataset {
    const char *name, *units, *column;  /* column: "...%04zx" */
    size_t columns;
    double (*value)(int64_t sec, size_t col, unsigned which);
};

static int
commit_day(struct tokio_hdf5_update *u, const struct dataset *ds,
           unsigned which, int64_t start, int64_t end)
{
    struct tokio_timeseries *ts = NULL;
    char column[32];
    int rc = tokio_timeseries_new(&ts, ds->name, start, end, TIMESTEP,
                                  ds->columns, NULL, 0);

    for (size_t c = 0; rc >= 0 && c < ds->columns; c++) {
        snprintf(column, sizeof(column), ds->column, c);
        rc = tokio_timeseries_add_column(ts, column, NULL);
    }
    if (rc >= 0) {
        double *d = tokio_timeseries_data(ts);
        size_t rows = tokio_timeseries_rows(ts);

        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < ds->columns; c++)
                d[r * ds->columns + c] =
                    ds->value((int64_t)r * TIMESTEP, c, which);
        rc = tokio_timeseries_set_version(ts, "1");
    }
    if (rc >= 0)
        rc = tokio_timeseries_set_global_version(ts, "1");
    if (rc >= 0) {
        json_object_set_new(tokio_timeseries_dataset_metadata(ts), "units",
                            json_string(ds->units));
        json_object_set_new(tokio_timeseries_group_metadata(ts), "source",
                            json_string("lmt"));
        rc = tokio_hdf5_update_commit(u, ts);
    }
    tokio_timeseries_free(ts);
    return rc;
}

/* Every dataset of a day's file; `which` is a dataset's place here. */
static const struct dataset datasets[] = {
    { "datatargets/readbytes", "bytes", "exscr01-OST%04zx", NUM_OSTS,
      sample_bytes },
    { "datatargets/writebytes", "bytes", "exscr01-OST%04zx", NUM_OSTS,
      sample_bytes },
    { "dataservers/cpuload", "%", "exscr01-OSS%04zx", NUM_OSSES, sample_cpu },
    { "mdservers/cpuload", "%", "exscr01-MDS%04zx", 1, sample_cpu },
    { "mdtargets/opens", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/closes", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/mknods", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/links", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/unlinks", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/mkdirs", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/rmdirs", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/renames", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/getxattrs", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/statfss", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/setattrs", "ops", "exscr01-MDT%04zx", 1, sample_ops },
    { "mdtargets/getattrs", "ops", "exscr01-MDT%04zx", 1, sample_ops },
};

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
    int rc = tokio_hdf5_update_set_version(u, "1");
    for (unsigned i = 0; rc >= 0 && i < sizeof(datasets) / sizeof(*datasets);
         i++)
        rc = commit_day(u, &datasets[i], i, start, end);
    if (rc < 0) {
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
