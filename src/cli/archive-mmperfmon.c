/*
 * src/cli/archive-mmperfmon.c - `tokio archive-mmperfmon`: GPFS mmperfmon
 * outputs -> TOKIO Time Series HDF5 (the reference's archive_mmperfmon).
 * The archiving is tokio_archive_mmperfmon()
 * (src/tools/archive_mmperfmon.c); this file reads the command line and
 * reports.
 *
 * Differs from pytokio: --files works without <start> <end> (the
 * reference demanded both and then refused them together), taking the
 * data's first and last timestamps as the defaults of --init-start and
 * --init-end, and is repeated for several files; --num-luns and
 * --num-servers are accepted and ignored, as they were; no
 * "Initialized"/"Writing out" lines.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/config.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/time.h"
#include "tokio/tools/archive_mmperfmon.h"

static const char *const usage[] = {
    "tokio archive-mmperfmon --filesystem <fs> [-o <file>] "
    "[--init-start <time>] [--init-end <time>] [--timestep <s>] "
    "<start> <end>",
    "tokio archive-mmperfmon --filesystem <fs> --files <file> "
    "[--files <file>]... [-o <file>] [--init-start <time>] "
    "[--init-end <time>] [--timestep <s>]",
    NULL
};

static const char description[] =
    "Archive the GPFS mmperfmon outputs of file system <fs> from <start>\n"
    "to <end> (YYYY-MM-DDTHH:MM:SS, local time; the files are those the\n"
    "site config's mmperfmon_output_files names) into the TOKIO Time\n"
    "Series HDF5 file -o (default output.hdf5), creating it, or its\n"
    "missing datasets, over --init-start..--init-end.  LUNs and servers\n"
    "are told apart by mmperfmon_lun_map and mmperfmon_server_map.";

/* The times of the command line into `args`; an exit status or -1. */
static int
parse_times(const char *cmd, int npos, char **pos, const char *init_start,
            const char *init_end, struct tokio_archive_mmperfmon_args *args)
{
    args->init_start = TOKIO_ARCHIVE_MMPERFMON_DEFAULT;
    args->init_end = TOKIO_ARCHIVE_MMPERFMON_DEFAULT;
    if ((args->nfiles == 0 && npos != 2) || (args->nfiles > 0 && npos != 0))
        return cli_usage_error(cmd, args->nfiles ? "--files or <start> "
                               "<end>, not both" : "expected <start> <end>");
    if (npos == 2 &&
        (cli_time(cmd, "<start>", pos[0], NULL, &args->start) != 0 ||
         cli_time(cmd, "<end>", pos[1], NULL, &args->end) != 0))
        return CLI_EXIT_USAGE;
    if (npos == 2 && args->start >= args->end)
        return cli_usage_error(cmd, "<start> must come before <end>");
    if ((init_start && cli_time(cmd, "--init-start", init_start, NULL,
                                &args->init_start) != 0) ||
        (init_end && cli_time(cmd, "--init-end", init_end, NULL,
                              &args->init_end) != 0))
        return CLI_EXIT_USAGE;
    /* what is known before the data is read */
    if ((init_start || npos == 2) && (init_end || npos == 2)) {
        int64_t first = init_start ? args->init_start : args->start;
        int64_t last = init_end ? args->init_end : args->end;
        uint64_t span = (uint64_t)last - (uint64_t)first;
        uint64_t step = (uint64_t)args->timestep;

        if (first >= last)
            return cli_usage_error(cmd, "--init-start must come before "
                                   "--init-end");
        /* a runaway range (1900 to 2200) is refused before any work:
         * the range lies within the span of a new file, which is
         * bounded */
        if (npos == 2 && (args->start < first || args->end > last))
            return cli_usage_error(cmd, "<start>..<end> must lie within "
                                   "--init-start..--init-end");
        if (span / step + (span % step != 0) > TOKIO_HDF5_MAX_ROWS)
            return cli_usage_error(cmd, "--init-start..--init-end spans "
                                   "more than the %zu rows of %lld s a "
                                   "file may hold", TOKIO_HDF5_MAX_ROWS,
                                   (long long)args->timestep);
    }
    return -1;
}

int
cmd_archive_mmperfmon(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *init_start = NULL, *init_end = NULL;
    long long timestep = 60, num_luns = 0, num_servers = 0;
    int debug = 0;
    struct cli_list files = { NULL, 0 };
    struct tokio_archive_mmperfmon_args args = { .output = "output.hdf5" };
    const struct cli_option opts[] = {
        OPT_STRING('o', "output", &args.output, "<file>",
                   "the HDF5 file to create or update (default output.hdf5)"),
        OPT_STRING(0, "init-start", &init_start, "<time>",
                   "first timestamp of a new file (default: <start>)"),
        OPT_STRING(0, "init-end", &init_end, "<time>",
                   "end (exclusive) of a new file (default: <end>)"),
        OPT_INT(0, "timestep", &timestep, "<s>",
                "collection frequency in seconds (default 60)"),
        OPT_STRING(0, "filesystem", &args.filesystem, "<fs>",
                   "file system to archive (required)"),
        OPT_LIST(0, "files", &files, "<file>",
                 "read this mmperfmon output instead (repeatable)"),
        OPT_INT(0, "num-luns", &num_luns, "<n>", "ignored (autodetected)"),
        OPT_INT(0, "num-servers", &num_servers, "<n>",
                "ignored (autodetected)"),
        OPT_FLAG(0, "debug", &debug, "list the input files"),
        OPT_END
    };
    struct tokio_config *cfg = NULL;
    json_t *warnings = NULL, *w;
    size_t i;
    int npos, rc;

    (void)num_luns;
    (void)num_servers;
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0) {
        free(files.items);
        return cli_parse_exit(npos);
    }
    args.files = (const char *const *)files.items;
    args.nfiles = files.n;
    args.timestep = timestep;
    args.log = debug ? stdout : NULL;
    if (args.filesystem == NULL)
        rc = cli_usage_error(cmd, "--filesystem is required");
    else if (timestep < 1 || timestep > 86400 * 366)
        rc = cli_usage_error(cmd, "--timestep must be > 0");
    else if ((rc = parse_times(cmd, npos, argv + 1, init_start, init_end,
                               &args)) < 0) {
        if (tokio_config_open(&cfg, NULL) < 0) {
            rc = cli_fail(cmd, NULL);
        } else {
            rc = tokio_archive_mmperfmon(cfg, &args, &warnings);
            json_array_foreach(warnings, i, w)
                fprintf(stderr, "tokio %s: warning: %s\n", cmd,
                        json_string_value(w));
            rc = rc < 0 ? cli_fail(cmd, NULL) : CLI_EXIT_OK;
        }
    }
    json_decref(warnings);
    tokio_config_free(cfg);
    free(files.items);
    return rc;
}
