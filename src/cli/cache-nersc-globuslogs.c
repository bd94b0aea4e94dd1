/*
 * src/cli/cache-nersc-globuslogs.c - `tokio cache-nersc-globuslogs`: Globus
 * transfer records from NERSC's Elasticsearch (the reference's
 * cache_nersc_globuslogs), from a saved cache of scroll pages (--input):
 * querying Elasticsearch is not supported.
 *
 * As there, START and END (YYYY-MM-DDTHH:MM:SS, START before END) and
 * --user/--type do not filter cached pages; stdout gets the pages as JSON
 * indented by 4 in input order, or with --csv the to_dataframe() CSV,
 * each followed by print()'s newline; -o writes the JSON on one line or
 * the CSV without that newline, as the reference wrote its file.
 * Differs from pytokio: no "Caching to" line.
 */
#include <stdio.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/nersc_globuslogs.h"
#include "tokio/output.h"
#include "tokio/time.h"

static const char *const usage[] = {
    "tokio cache-nersc-globuslogs --input <file> [--csv] [-o <file>] "
    "[--user <user>] [--type <type>] <start> <end>",
    NULL
};

static const char description[] =
    "Print the Globus transfers of NERSC's Elasticsearch (dtn-dtn-log*)\n"
    "between <start> and <end> (YYYY-MM-DDTHH:MM:SS) from a cache of a\n"
    "query's scroll pages: the pages as JSON, or the transfers as CSV.";

/* What to write, and how. */
struct globus_job {
    const struct tokio_nersc_globuslogs *logs;
    int csv, to_file;
};

/* The transfers as CSV, or the pages as JSON (indented, with a newline,
 * on standard output). */
static int
write_result(FILE *fp, void *ctx)
{
    const struct globus_job *job = ctx;
    json_t *j = NULL;
    int rc;

    if (job->csv) {
        rc = tokio_nersc_globuslogs_write_csv(job->logs, fp);
    } else {
        if ((rc = tokio_nersc_globuslogs_to_json(job->logs, &j)) >= 0)
            rc = tokio_json_write(j, fp, job->to_file
                                             ? 0 : TOKIO_JSON_INDENT(4));
        json_decref(j);
    }
    if (rc >= 0 && !job->to_file)
        fputc('\n', fp);
    return rc;
}

int
cmd_cache_nersc_globuslogs(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = NULL, *user = NULL, *type = NULL;
    int csv = 0;
    const struct cli_option opts[] = {
        OPT_STRING(0, "input", &input, "<file>",
                   "use cached output from previous ES query"),
        OPT_FLAG('c', "csv", &csv, "return output in CSV format"),
        OPT_OUTPUT(&output),
        OPT_STRING(0, "user", &user, "<user>",
                   "limit results to transfers owned by this user "
                   "(not applied to --input)"),
        OPT_STRING(0, "type", &type, "<type>",
                   "limit results to STOR, RETR or NLST (not applied to "
                   "--input)"),
        OPT_END
    };
    struct tokio_nersc_globuslogs *g = NULL;
    int64_t start, end;
    int npos, rc;

    (void)user;
    (void)type;
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 2)
        return cli_usage_error(cmd, "a start and an end time are required");
    if (tokio_time_parse_format(argv[1], "%Y-%m-%dT%H:%M:%S", &start) < 0 ||
        tokio_time_parse_format(argv[2], "%Y-%m-%dT%H:%M:%S", &end) < 0)
        return cli_usage_error(cmd, "start and end times must be in format "
                               "%%Y-%%m-%%dT%%H:%%M:%%S");
    if (start >= end)
        return cli_usage_error(cmd, "query_start >= query_end");
    if (input == NULL)
        return cli_usage_error(cmd, "querying Elasticsearch is not "
                               "supported: give --input");

    if (tokio_nersc_globuslogs_open(&g, input) < 0)
        return cli_fail(cmd, NULL);
    struct globus_job job = { g, csv, output != NULL };
    rc = cli_write_output(cmd, output, write_result, &job);
    tokio_nersc_globuslogs_free(g);
    return rc;
}
