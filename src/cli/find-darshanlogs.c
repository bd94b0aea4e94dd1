/*
 * src/cli/find-darshanlogs.c - `tokio find-darshanlogs`: the paths of the
 * Darshan logs in the site's repository for some days, user and job (the
 * reference's find_darshanlogs), one per line.
 *
 * Options are the reference's.  Differs from pytokio: the paths are
 * printed sorted (the reference printed them in set order); dates take
 * every form tokio_time_parse() knows, of which the reference's
 * YYYY-MM-DD is one; -v/--verbose is accepted and does nothing (the
 * reference listed the folders it searched on stderr).
 *
 * With --load base[,total][,perf] it prints, as the reference did, one
 * JSON object (indented by 4, keys sorted) keyed by each log's path,
 * whose values are what `tokio cache-darshan` prints for that log with
 * the same views (tokio_load_darshanlogs()); {} when no log matches.
 */
#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/config.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/tools/common.h"
#include "tokio/tools/darshan.h"

static const char *const usage[] = {
    "tokio find-darshanlogs [<options>] --start <date> [--end <date>]",
    "tokio find-darshanlogs [<options>] --jobid <jobid> --start <date>",
    NULL
};

static const char description[] =
    "Print the paths of the Darshan logs in the site's log repository\n"
    "(<logdir>/<year>/<month>/<day>/) from the day of --start to the day\n"
    "of --end inclusive, optionally only those of one user or job.  The\n"
    "repository is --logdir, else the site configuration's\n"
    "darshan_log_dirs (choose an entry with --host when it has several).";

/* The reference's rule: either date alone stands for both. */
static int
parse_dates(const char *cmd, const char *start_arg, const char *end_arg,
            struct tokio_find_darshanlogs_query *q)
{
    if (start_arg != NULL && tokio_time_parse(start_arg, &q->start) < 0)
        return cli_usage_error(cmd, "--start: %s", tokio_errmsg());
    if (end_arg != NULL && tokio_time_parse(end_arg, &q->end) < 0)
        return cli_usage_error(cmd, "--end: %s", tokio_errmsg());
    if (start_arg == NULL && end_arg != NULL)
        q->start = q->end;
    if (end_arg == NULL && start_arg != NULL)
        q->end = q->start;
    q->have_start = q->have_end = start_arg != NULL || end_arg != NULL;
    if (q->have_start && q->end < q->start)
        return cli_usage_error(cmd, "--end %s is before --start %s",
                               end_arg, start_arg);
    return 0;
}

int
cmd_find_darshanlogs(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *start_arg = NULL, *end_arg = NULL, *load = NULL;
    struct tokio_find_darshanlogs_query q = { 0 };
    int verbose = 0;
    const struct cli_option opts[] = {
        OPT_STRING('s', "start", &start_arg, "<date>",
                   "first day to search, YYYY-MM-DD (default: --end)"),
        OPT_STRING('e', "end", &end_arg, "<date>",
                   "last day to search, inclusive (default: --start)"),
        OPT_STRING('u', "username", &q.username, "<user>",
                   "only logs of this user"),
        OPT_STRING('j', "jobid", &q.jobid, "<jobid>",
                   "only logs of this job"),
        OPT_STRING('l', "load", &load, "<base[,total][,perf]>",
                   "load each log and print them as JSON"),
        OPT_STRING(0, "logdir", &q.log_dir, "<dir>",
                   "the log repository, without the dated folders"),
        OPT_STRING(0, "host", &q.system, "<name>",
                   "search only this entry of darshan_log_dirs"),
        OPT_FLAG('v', "verbose", &verbose,
                 "accepted for compatibility; does nothing"),
        OPT_END
    };
    struct tokio_config *cfg = NULL;
    char **paths = NULL;
    size_t n = 0;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos > 0)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[1]);
    if ((rc = parse_dates(cmd, start_arg, end_arg, &q)) != 0)
        return rc;
    /* the reference tests the job id for truth: "" is no job id here */
    if (!q.have_start && (q.jobid == NULL || *q.jobid == '\0'))
        return cli_usage_error(cmd, "either --start/--end or --jobid must "
                               "be given");
    /* as the reference, an empty --load is no --load */
    unsigned views = 0;
    if (load != NULL && *load != '\0' &&
        tokio_darshan_load_views(load, &views) < 0)
        return cli_usage_error(cmd, "--load: %s", tokio_errmsg());

    /* a --logdir needs no configuration, so a broken one cannot stop it */
    if (q.log_dir == NULL && tokio_config_open(&cfg, NULL) < 0)
        return cli_fail(cmd, NULL);
    if (views != 0) {
        json_t *json = NULL;
        if (tokio_load_darshanlogs(&json, cfg, &q, views) < 0)
            rc = cli_fail(cmd, NULL);
        else
            rc = cli_write_json(cmd, NULL, json, TOKIO_JSON_SORT_KEYS |
                                                 TOKIO_JSON_INDENT(4));
        json_decref(json);
    } else if (tokio_find_darshanlogs(&paths, &n, cfg, &q) < 0) {
        rc = cli_fail(cmd, NULL);
    } else {
        for (size_t i = 0; i < n; i++)
            printf("%s\n", paths[i]);
        rc = fflush(stdout) == 0 && !ferror(stdout) ? CLI_EXIT_OK
            : cli_fail(cmd, "cannot write to standard output");
    }
    tokio_free_strings(paths, n);
    tokio_config_free(cfg);
    return rc;
}
