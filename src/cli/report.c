/*
 * src/cli/report.c - `tokio report`: a job on one self-contained HTML
 * page (tokio/analysis/report.h), from summarize-job's options, Darshan
 * logs and an optional history of earlier runs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/analysis/report.h"
#include "tokio/config.h"
#include "tokio/time.h"

static const char *const usage[] = {
    "tokio report [summarize-job's options] [--history <csv>] "
    "[--top-files <n>] [--dxt] -o <report.html> <darshan-log>...",
    NULL
};

static const char description[] =
    "Write one HTML page per job that stands alone (no script, nothing\n"
    "fetched; it can be mailed and read offline): the job, its I/O from\n"
    "its Darshan log, the file system's read and write rates, CPU loads\n"
    "and metadata operations around it with its span shaded, OST\n"
    "fullness and failovers at its start (--ost), its topology (-t), the\n"
    "jobs beside it (-c) and, with --history, an UMAMI diagram of it\n"
    "against earlier runs (summarize-job's CSV rows of them).  With --dxt,\n"
    "a heat map of the bytes each rank moved in each time bin, from the\n"
    "log's DXT traces (read a few hundred segments at a time).";

struct job {
    const struct tokio_config *cfg;
    const char *const *logs;
    size_t n;
    const struct tokio_report_opts *o;
    json_t *warnings;
};

static int
write_report(FILE *fp, void *ctx)
{
    struct job *job = ctx;

    return tokio_report_write(fp, job->cfg, job->logs, job->n, job->o,
                              &job->warnings);
}

int
cmd_report(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *start = NULL, *end = NULL, *output = NULL;
    long long top = 0;
    struct tokio_report_opts o = { 0 };
    const struct cli_option opts[] = {
        OPT_OUTPUT(&output),
        OPT_FILE(0, "history", &o.history, "<csv>",
                 "summarize-job rows of earlier runs, for UMAMI"),
        OPT_INT(0, "top-files", &top, "<n>", "busiest files listed [10]"),
        OPT_OPTIONAL('t', "topology", &o.job.topology, "<nodemap>",
                     "include the job's radius (Cray XC)"),
        OPT_OPTIONAL('c', "concurrentjobs", &o.job.concurrentjobs,
                     "<jobsdb>", "the jobs running beside it"),
        OPT_FLAG(0, "ost", &o.job.ost, "OST fullness and failovers"),
        OPT_STRING('f', "file-system", &o.job.file_system, "<fs>",
                   "file system name"),
        OPT_STRING(0, "start-time", &start, "<time>",
                   "start of the job, without a log"),
        OPT_STRING(0, "end-time", &end, "<time>", "end of the job"),
        OPT_STRING(0, "slurm-jobid", &o.job.slurm_jobid, "<id|file>",
                   "job id or saved sacct output"),
        OPT_STRING(0, "jobhost", &o.job.jobhost, "<host>",
                   "system the job ran on (with -c)"),
        OPT_FILE(0, "ost-fullness", &o.job.ost_fullness, "<file>",
                 "saved `lfs df` output"),
        OPT_FILE(0, "ost-map", &o.job.ost_map, "<file>",
                 "saved `lctl dl -t` output"),
        OPT_FLAG(0, "silent-errors", &o.job.silent_errors,
                 "skip inputs that are not Darshan logs"),
        OPT_FLAG(0, "dxt", &o.job.dxt,
                 "draw the DXT traces: bytes by rank and time"),
        OPT_END
    };
    struct tokio_config *cfg = NULL;
    json_t *w;
    size_t i;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (output == NULL)
        return cli_usage_error(cmd, "give the page to write with -o");
    if ((start == NULL) != (end == NULL))
        return cli_usage_error(cmd, "--start-time and --end-time must be "
                               "given together");
    if ((start != NULL) == (npos > 0))
        return cli_usage_error(cmd, "give Darshan logs, or --start-time and "
                               "--end-time");
    if (o.job.slurm_jobid != NULL && npos > 1)
        return cli_usage_error(cmd, "--slurm-jobid with more than one log "
                               "is undefined");
    if (start != NULL &&
        (tokio_time_parse(start, &o.job.start) < 0 ||
         tokio_time_parse(end, &o.job.end) < 0))
        return cli_usage_error(cmd, "%s", tokio_errmsg());
    if (start != NULL && cli_time_order(cmd, "--start-time", o.job.start,
                                        "--end-time", o.job.end) != 0)
        return CLI_EXIT_USAGE;
    o.job.has_window = start != NULL;
    if (top < 0 || top > 100000)
        return cli_usage_error(cmd, "--top-files must be 0 to 100000");
    o.top_files = (int)top;
    if (tokio_config_open(&cfg, NULL) < 0)
        return cli_fail(cmd, NULL);
    struct job job = { cfg, (const char *const *)argv + 1, (size_t)npos, &o,
                       NULL };
    rc = cli_write_output(cmd, output, write_report, &job);
    json_array_foreach(job.warnings, i, w)
        fprintf(stderr, "tokio %s: warning: %s\n", cmd, json_string_value(w));
    json_decref(job.warnings);
    tokio_config_free(cfg);
    return rc;
}
