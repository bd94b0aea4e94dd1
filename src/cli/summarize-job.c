/*
 * src/cli/summarize-job.c - `tokio summarize-job`: a job seen from every
 * source the site has, one row per Darshan log (tokio/tools/
 * summarize_job.h), as CSV in pandas' layout or as JSON; the reference's
 * summarize_job with its options (-o is its --ost: write to a file with
 * --output).  Its warnings go to standard error, as the reference's did.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/config.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/tools/summarize_job.h"

static const char *const usage[] = {
    "tokio summarize-job [-j] [-t [<nodemap>]] [-c [<jobsdb>]] "
    "[--jobhost <host>] [-o [--ost-fullness <file>] [--ost-map <file>]] "
    "[-f <fs>] [--slurm-jobid <id|file>] [--silent-errors] [--dxt] "
    "[--output <file>] <darshan-log>...",
    "tokio summarize-job --start-time <time> --end-time <time> "
    "[--slurm-jobid <id|file>] [-f <fs>] [<options>]",
    NULL
};

static const char description[] =
    "Summarize a job from every source the site has: its Darshan log\n"
    "(bytes, operations, times, the busiest API and file system), the\n"
    "file system's TTS/H5LMT data over its window (-f, or the busiest\n"
    "mount named by mount_to_fsname), and optionally its radius in the\n"
    "network (-t), OST fullness and failovers at its start (-o) and the\n"
    "jobs that ran beside it (-c with --jobhost).  Without a log, give\n"
    "the window with --start-time and --end-time (\"YYYY-MM-DD HH:MM:SS\",\n"
    "local time).  One row per log, as CSV or JSON (-j).";

/* As the reference printed it: print(frame.to_csv()), a blank line
 * after the table. */
static int
write_csv(FILE *fp, void *rows)
{
    static const char *const dates[] = { TOKIO_SUMMARIZE_JOB_DATES };
    int rc = tokio_csv_write_records(rows, fp, "index", dates, 2);

    if (rc == TOKIO_OK)
        fputc('\n', fp);
    return rc;
}

int
cmd_summarize_job(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *topology = NULL, *concurrent = NULL, *fs = NULL;
    const char *start = NULL, *end = NULL, *jobid = NULL, *jobhost = NULL;
    const char *fullness = NULL, *map = NULL, *output = NULL;
    int json = 0, ost = 0, silent = 0, dxt = 0;
    const struct cli_option opts[] = {
        OPT_OPTIONAL('t', "topology", &topology, "<nodemap>",
                     "include the job's radius (Cray XC); the saved "
                     "xtdb2proc output to use [ask xtdb2proc]"),
        OPT_OPTIONAL('c', "concurrentjobs", &concurrent, "<jobsdb>",
                     "add the jobs running beside it from the jobs "
                     "database; its SQLite cache [NERSC_JOBSDB_*]"),
        OPT_FLAG('o', "ost", &ost, "add OST fullness and failovers"),
        OPT_FLAG('j', "json", &json, "output in JSON"),
        OPT_STRING('f', "file-system", &fs, "<fs>",
                   "file system name (e.g. cscratch, bb-private)"),
        OPT_STRING(0, "start-time", &start, "<time>",
                   "start of the job, YYYY-MM-DD HH:MM:SS"),
        OPT_STRING(0, "end-time", &end, "<time>",
                   "end of the job, YYYY-MM-DD HH:MM:SS"),
        OPT_STRING(0, "slurm-jobid", &jobid, "<id|file>",
                   "job id or saved sacct output (needed by -t, -c, or "
                   "without a log)"),
        OPT_STRING(0, "jobhost", &jobhost, "<host>",
                   "system the job ran on (with -c)"),
        OPT_OPTIONAL(0, "ost-fullness", &fullness, "<file>",
                     "saved `lfs df` output (with -o)"),
        OPT_OPTIONAL(0, "ost-map", &map, "<file>",
                     "saved `lctl dl -t` output (with -o)"),
        OPT_FLAG(0, "silent-errors", &silent,
                 "skip inputs that are not Darshan logs"),
        OPT_FLAG(0, "dxt", &dxt,
                 "add dxt_* keys from a heat map of the DXT traces "
                 "(bytes by rank and time)"),
        OPT_FILE(0, "output", &output, "<file>",
                 "write to <file> (whole or not at all) instead of "
                 "stdout"),
        OPT_END
    };
    struct tokio_summarize_job_opts o = { 0 };
    struct tokio_config *cfg = NULL;
    json_t *rows = NULL, *warnings = NULL, *w;
    size_t i;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if ((start == NULL) != (end == NULL))
        return cli_usage_error(cmd, "--start-time and --end-time must be "
                               "given together");
    if (start != NULL && npos > 0)
        return cli_usage_error(cmd, "--start-time and Darshan logs cannot "
                               "be given together");
    if (start == NULL && npos == 0)
        return cli_usage_error(cmd, "give Darshan logs, or --start-time and "
                               "--end-time");
    if (jobid != NULL && npos > 1)
        return cli_usage_error(cmd, "--slurm-jobid with more than one log "
                               "is undefined");
    if (start != NULL) {
        if (cli_time(cmd, "--start-time", start, "%Y-%m-%d %H:%M:%S",
                     &o.start) != 0 ||
            cli_time(cmd, "--end-time", end, "%Y-%m-%d %H:%M:%S",
                     &o.end) != 0 ||
            cli_time_order(cmd, "--start-time", o.start, "--end-time",
                           o.end) != 0)
            return CLI_EXIT_USAGE;
        o.has_window = 1;
    }
    o.file_system = fs;
    o.slurm_jobid = jobid;
    o.topology = topology;
    o.ost = ost;
    o.ost_fullness = fullness != NULL && fullness[0] != '\0' ? fullness
                                                             : NULL;
    o.ost_map = map != NULL && map[0] != '\0' ? map : NULL;
    o.concurrentjobs = concurrent;
    o.jobhost = jobhost;
    o.silent_errors = silent;
    o.dxt = dxt;
    if (tokio_config_open(&cfg, NULL) < 0 ||
        tokio_summarize_job(&rows, &warnings, cfg,
                            (const char *const *)argv + 1, (size_t)npos,
                            &o) < 0) {
        tokio_config_free(cfg);
        return cli_fail(cmd, NULL);
    }
    json_array_foreach(warnings, i, w)
        fprintf(stderr, "tokio %s: warning: %s\n", cmd, json_string_value(w));
    if (json)
        rc = cli_write_json(cmd, output, rows, TOKIO_JSON_SORT_KEYS |
                                               TOKIO_JSON_INDENT(4));
    else
        rc = cli_write_output(cmd, output, write_csv, rows);
    json_decref(rows);
    json_decref(warnings);
    tokio_config_free(cfg);
    return rc;
}
