/*
 * src/cli/export-tts.c - `tokio export-tts`: one dataset of a TOKIO Time
 * Series or H5LMT file as CSV, as the reference's
 * Hdf5.to_dataframe(dataset).to_csv() prints it; or, with --start/--end,
 * that dataset of a file system over a time range, across the site's
 * daily files (tokio.tools.hdf5.get_dataframe_from_time_range()).
 */
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/config.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/tools/hdf5.h"

static const char *const usage[] = {
    "tokio export-tts [-o <file>] <file> <dataset>",
    "tokio export-tts --start <time> --end <time> [--fix-errors] "
    "[-o <file>] <filesystem> <dataset>",
    NULL
};

static const char description[] =
    "Print one dataset (datatargets/readbytes, mdtargets/opens,\n"
    "/OSTReadGroup/OSTBulkReadDataSet, ...) of a TOKIO Time Series HDF5 or\n"
    "H5LMT file as CSV, one row per timestamp in local time; missing\n"
    "cells are empty.  With --start and --end, read that dataset of a file\n"
    "system (a key of the site configuration's hdf5_files) from every\n"
    "daily file the range touches, keeping start <= time < end.";

/* One dataset of an open file, as CSV. */
struct dataset_csv {
    struct tokio_hdf5 *h;
    const char *dataset;
};

static int
write_dataset_csv(FILE *fp, void *ctx)
{
    struct dataset_csv *job = ctx;

    return tokio_hdf5_write_csv(job->h, job->dataset, fp);
}

static int
write_series_csv(FILE *fp, void *ts)
{
    return tokio_timeseries_write_csv(ts, fp);
}

static int
export_file(const char *cmd, const char *path, const char *dataset,
            const char *output)
{
    struct tokio_hdf5 *h = NULL;
    int rc;

    if (tokio_hdf5_open(&h, path, 0) < 0)
        return cli_fail(cmd, NULL);
    struct dataset_csv job = { h, dataset };
    rc = cli_write_output(cmd, output, write_dataset_csv, &job);
    tokio_hdf5_free(h);
    return rc;
}

static int
export_range(const char *cmd, const char *fs, const char *dataset,
             int64_t start, int64_t end, int fix, const char *output)
{
    struct tokio_config *cfg = NULL;
    struct tokio_timeseries *ts = NULL;
    int rc;

    if (tokio_config_open(&cfg, NULL) < 0)
        return cli_fail(cmd, NULL);
    if (tokio_hdf5_from_time_range(&ts, cfg, fs, dataset, start, end,
                                   fix ? TOKIO_HDF5_FIX_ERRORS : 0u) < 0) {
        rc = cli_fail(cmd, NULL);
    } else if (ts == NULL) {
        rc = cli_fail(cmd, "no hdf5_files of '%s' exist in that time range",
                      fs);
    } else {
        rc = cli_write_output(cmd, output, write_series_csv, ts);
    }
    tokio_timeseries_free(ts);
    tokio_config_free(cfg);
    return rc;
}

int
cmd_export_tts(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL, *start_s = NULL, *end_s = NULL;
    int fix = 0;
    const struct cli_option opts[] = {
        OPT_STRING(0, "start", &start_s, "<time>",
                   "first time to include (YYYY-MM-DDTHH:MM:SS)"),
        OPT_STRING(0, "end", &end_s, "<time>",
                   "first time to leave out (YYYY-MM-DDTHH:MM:SS)"),
        OPT_FLAG(0, "fix-errors", &fix,
                 "treat negative values as missing (with --start/--end)"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    int64_t start, end;
    int npos;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 2)
        return cli_usage_error(cmd, start_s || end_s
                               ? "expected <filesystem> <dataset>"
                               : "expected <file> <dataset>");
    if ((start_s == NULL) != (end_s == NULL))
        return cli_usage_error(cmd, "--start and --end go together");
    if (start_s == NULL) {
        if (fix)
            return cli_usage_error(cmd, "--fix-errors needs --start/--end");
        return export_file(cmd, argv[1], argv[2], output);
    }
    if (tokio_time_parse(start_s, &start) < 0)
        return cli_usage_error(cmd, "bad --start '%s'", start_s);
    if (tokio_time_parse(end_s, &end) < 0)
        return cli_usage_error(cmd, "bad --end '%s'", end_s);
    if (end <= start)
        return cli_usage_error(cmd, "--end must follow --start");
    return export_range(cmd, argv[1], argv[2], start, end, fix, output);
}
