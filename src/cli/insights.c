/*
 * src/cli/insights.c - `tokio insights`: what went wrong in a job's I/O
 * and why, from its Darshan log and the site's data in its window
 * (tokio/analysis/insights.h), as text for a terminal, JSON or CSV.
 * Results are gathered for every log before anything is written, so a
 * log that cannot be read leaves no partial output.
 *
 * Under mpirun (src/cli/mpi/mpi_run.h) each log is read on whichever
 * rank asks for work; its result, or why it could not be had, comes back
 * to rank 0, which goes on as one process with it, in argument order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#ifdef TOKIO_HAVE_MPI
#include "cli/mpi/mpi_run.h"
#endif
#include "tokio/analysis/insights.h"
#include "tokio/config.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio insights [-j | --csv] [-o <file>] [--threshold <name>=<value>]... "
    "[--history <csv>] [--top <n>] [--client-only] [-f <fs>] "
    "[--slurm-jobid <id|file>] [-c [<jobsdb>] --jobhost <host>] "
    "[--ost-fullness <file>] [--ost-map <file>] [--silent-errors] "
    "[--dxt] <darshan-log>...",
    "tokio insights --thresholds [--threshold <name>=<value>]...",
    NULL
};

static const char description[] =
    "Tell what went wrong in a job's I/O, and why: rules over the Darshan\n"
    "log's counters (STDIO share, small, misaligned, redundant and random\n"
    "requests, metadata time, stragglers and imbalance, MPI-IO collective\n"
    "and non-blocking use, HDF5 and PnetCDF access) and over the site's\n"
    "data in the job's window (the file system's load and the job's share\n"
    "of it, full or failed-over OSTs under the job's files, a slow OST,\n"
    "metadata server load, and with --history where the run falls among\n"
    "earlier runs).  Each finding has a level (high, warning, info, ok;\n"
    "n/a when it could not be evaluated, saying why), its numbers, the\n"
    "files or ranks it concerns and what to do.  Thresholds come from the\n"
    "site configuration's `insights` key and --threshold; --thresholds\n"
    "prints them.  Levels are coloured when standard output is a terminal\n"
    "(not with NO_COLOR set).";

struct job {
    const json_t *results;
    int format;                 /* 0 text, 2 csv */
    int color;
};

static int
write_result(FILE *fp, void *ctx)
{
    const struct job *job = ctx;
    const json_t *res;
    size_t i;
    int rc = 0;

    if (job->format == 2)
        return tokio_insights_write_csv(fp, job->results);
    json_array_foreach(job->results, i, res)
        if ((rc = tokio_insights_write_text(fp, res, job->color)) < 0)
            break;
    return rc;
}

#ifdef TOKIO_HAVE_MPI
/* what a worker rank needs to read a log (MPI) */
struct remote {
    const struct tokio_config *cfg;
    const struct tokio_insights_opts *o;
};

/* One log's result on a worker rank: {"res": result} or {"error": why,
 * "skippable": whether --silent-errors skips it}.  NULL: out of memory. */
static json_t *
insights_remote(void *arg, const char *path)
{
    const struct remote *w = arg;
    json_t *res = NULL;
    int lrc = tokio_insights_log(&res, w->cfg, path, NULL, w->o);

    if (lrc < 0)
        return json_pack("{s:o, s:b}",
                         "error", json_string_nocheck(tokio_errmsg()),
                         "skippable", lrc != TOKIO_ENOMEM);
    return json_pack("{s:o}", "res", res);
}
#endif

int
cmd_insights(int argc, char **argv)
{
    const char *cmd = argv[0], *output = NULL;
    struct tokio_insights_opts o = { 0 };
    struct cli_list th = { 0 };
    long long top = 0;
    int format = 0, list = 0;
    const struct cli_option opts[] = {
        OPT_SET_INT('j', "json", &format, 1, "output in JSON"),
        OPT_SET_INT(0, "csv", &format, 2, "one CSV row per log, one column "
                    "per rule: its level"),
        OPT_OUTPUT(&output),
        OPT_LIST(0, "threshold", &th, "<name>=<value>",
                 "override a threshold (repeatable)"),
        OPT_FLAG(0, "thresholds", &list, "print the thresholds in force"),
        OPT_FILE(0, "history", &o.history, "<csv>",
                 "summarize-job rows of earlier runs, to place this one"),
        OPT_INT(0, "top", &top, "<n>", "files or ranks listed per finding "
                "[5, at most 32]"),
        OPT_FLAG(0, "client-only", &o.client_only,
                 "read the Darshan log only, not the site's data"),
        OPT_STRING('f', "file-system", &o.job.file_system, "<fs>",
                   "file system name [the busiest mount's, by the site's "
                   "mount_to_fsname]"),
        OPT_STRING(0, "slurm-jobid", &o.job.slurm_jobid, "<id|file>",
                   "job id or saved sacct output (the job's nodes)"),
        OPT_OPTIONAL('c', "concurrentjobs", &o.job.concurrentjobs,
                     "<jobsdb>", "count the jobs running beside it"),
        OPT_STRING(0, "jobhost", &o.job.jobhost, "<host>",
                   "system the job ran on (with -c)"),
        OPT_FLAG(0, "ost", &o.job.ost, "accepted as summarize-job takes it; "
                 "the OST rules always look at the site's OST data"),
        OPT_FILE(0, "ost-fullness", &o.job.ost_fullness, "<file>",
                 "saved `lfs df` history [the site's]"),
        OPT_FILE(0, "ost-map", &o.job.ost_map, "<file>",
                 "saved `lctl dl -t` history [the site's]"),
        OPT_FLAG(0, "silent-errors", &o.job.silent_errors,
                 "skip inputs that are not Darshan logs, with a warning"),
        OPT_FLAG(0, "dxt", &o.job.dxt,
                 "also the rule dxt_concentration, from the DXT traces "
                 "(one rank or one burst moving most bytes)"),
        OPT_END
    };
    struct tokio_config *cfg = NULL;
    json_t *results = NULL, *thresholds = NULL;
    int npos, rc = CLI_EXIT_OK;
#ifdef TOKIO_HAVE_MPI
    json_t **pre = NULL;        /* each log's result from its rank */
    int mpi = 0;
#endif

#ifdef TOKIO_HAVE_MPI
    cli_mpi_hush();             /* under mpirun, rank 0 answers alone */
#endif
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0) {
        free(th.items);
        return cli_parse_exit(npos);
    }
    o.thresholds = th.items;
    o.n_thresholds = th.n;
    if (npos == 0 && !list)
        rc = cli_usage_error(cmd, "give one or more Darshan logs");
    else if (o.job.slurm_jobid != NULL && npos > 1)
        rc = cli_usage_error(cmd, "--slurm-jobid with more than one log is "
                             "undefined");
    else if (top < 0 || top > 32)
        rc = cli_usage_error(cmd, "--top must be 0 to 32");
    if (rc != CLI_EXIT_OK) {
        free(th.items);
        return rc;
    }
    o.top = (int)top;
    if (tokio_config_open(&cfg, NULL) < 0) {
        free(th.items);
        return cli_fail(cmd, NULL);
    }
    /* a bad --threshold is a bad command line, a bad site key is not */
    int trc = tokio_insights_thresholds(&thresholds, cfg, o.thresholds,
                                        o.n_thresholds);
    if (trc == TOKIO_EINVAL)
        rc = cli_usage_error(cmd, "%s", tokio_errmsg());
    else if (trc < 0)
        rc = cli_fail(cmd, NULL);
    else if (list)
        rc = cli_write_json(cmd, output, thresholds, TOKIO_JSON_SORT_KEYS |
                                                     TOKIO_JSON_INDENT(2));
    if (rc != CLI_EXIT_OK || list)
        goto done;
    if ((results = json_array()) == NULL) {
        rc = cli_fail(cmd, "out of memory");
        goto done;
    }
#ifdef TOKIO_HAVE_MPI
    /* under mpirun the other ranks only read logs for rank 0 */
    struct remote w = { cfg, &o };
    cli_mpi_unhush();
    if (cli_mpi_active() && cli_mpi_start() != 0) {
        rc = cli_mpi_serve(cmd, insights_remote, &w);
        goto done;
    }
    if ((mpi = cli_mpi_active()) &&
        (pre = cli_mpi_map(cmd, (const char *const *)argv + 1,
                           (size_t)npos, insights_remote, &w)) == NULL) {
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
#endif
    for (int i = 1; i <= npos; i++) {
        json_t *res = NULL;
#ifdef TOKIO_HAVE_MPI
        if (pre != NULL) {
            const json_t *got = pre[i - 1];
            const char *why = json_string_value(json_object_get(got,
                                                                "error"));
            if (why != NULL && o.job.silent_errors &&
                json_is_true(json_object_get(got, "skippable"))) {
                fprintf(stderr, "tokio %s: warning: skipped %s\n", cmd,
                        why);
                continue;
            }
            if (why != NULL) {
                rc = cli_fail(cmd, "%s", why);
                goto done;
            }
            if (json_array_append(results, json_object_get(got, "res"))
                < 0) {
                rc = cli_fail(cmd, "out of memory");
                goto done;
            }
            continue;
        }
#endif
        int lrc = tokio_insights_log(&res, cfg, argv[i], NULL, &o);
        if (lrc < 0 && lrc != TOKIO_ENOMEM && o.job.silent_errors) {
            fprintf(stderr, "tokio %s: warning: skipped %s\n", cmd,
                    tokio_errmsg());
            continue;
        }
        if (lrc < 0) {
            rc = cli_fail(cmd, NULL);
            goto done;
        }
        if (json_array_append_new(results, res) < 0) {
            rc = cli_fail(cmd, "out of memory");
            goto done;
        }
    }
    if (format == 1) {
        rc = cli_write_json(cmd, output, results, TOKIO_JSON_INDENT(2));
    } else {
        const char *no_color = getenv("NO_COLOR");
        struct job job = { results, format, 0 };
        job.color = (output == NULL || strcmp(output, "-") == 0) &&
                    isatty(STDOUT_FILENO) &&
                    (no_color == NULL || no_color[0] == '\0');
#ifdef TOKIO_HAVE_MPI
        /* mpirun hands rank 0 a terminal whatever its own output is */
        if (mpi)
            job.color = 0;
#endif
        rc = cli_write_output(cmd, output, write_result, &job);
    }
done:
#ifdef TOKIO_HAVE_MPI
    if (mpi)
        rc = cli_mpi_finish(pre, (size_t)npos, rc);
#endif
    json_decref(results);
    json_decref(thresholds);
    tokio_config_free(cfg);
    free(th.items);
    return rc;
}
