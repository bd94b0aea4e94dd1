/*
 * fuzz/fuzz_hdf5.c - the HDF5 connector on arbitrary bytes: the input
 * opened as an in-memory file image (HDF5's core driver), then versions,
 * columns, timestamps, missing masks,
 * to_timeseries and the CSV of TTS and H5LMT names.  Seeds:
 * fuzz/corpus/hdf5/ (a small TTS file, a small H5LMT-style file and a cut
 * one, all written for this).
 *
 * NEEDSWORK: crashes inside libhdf5 itself on hostile files are the HDF5
 * library's; the connector checks every shape it reports.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/hdf5_private.h"
#include "tokio/connectors/hdf5.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {
    "datatargets/readbytes", "datatargets/readrates", "mdtargets/opens",
    "mdtargets/openrates", "dataservers/cpuload", "mdservers/cpuload",
    "datatargets/readbytes/missing", "/OSTReadGroup/OSTBulkReadDataSet",
    "/FSMissingGroup/FSMissingDataSet", "/MDSCPUGroup/MDSCPUDataSet",
};

static void
exercise(struct tokio_hdf5 *h, const char *name, FILE *sink)
{
    struct tokio_timeseries *ts = NULL;
    char **cols, *v;
    int64_t *t, x;
    int8_t *m;
    size_t n, r, c;

    if (tokio_hdf5_get_version(h, name, &v) >= 0)
        free(v);
    if (tokio_hdf5_get_columns(h, name, &cols, &n) >= 0)
        free(cols);
    if (tokio_hdf5_get_timestamps(h, name, &t, &n) >= 0)
        free(t);
    tokio_hdf5_get_timestep(h, name, &x);
    tokio_hdf5_get_index(h, name, 1517126400, &x);
    if (tokio_hdf5_get_missing(h, name, 0, &m, &r, &c) >= 0)
        free(m);
    if (tokio_hdf5_to_timeseries(h, name, &ts) >= 0) {
        if (tokio_timeseries_rows(ts) > 0)
            tokio_timeseries_write_csv(ts, sink);
        tokio_timeseries_free(ts);
    }
    tokio_hdf5_write_csv(h, name, sink);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    struct tokio_hdf5 *h = NULL;

    if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL)
        abort();
    if (size > 0
        && tokio__hdf5_open_image(&h, data, size, "fuzz.hdf5") >= 0) {
        tokio_hdf5_schema_version(h);
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
            exercise(h, names[i], sink);
        tokio_hdf5_free(h);
    }
    return 0;
}
