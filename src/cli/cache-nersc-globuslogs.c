/*
 * src/cli/cache-nersc-globuslogs.c - `tokio cache-nersc-globuslogs`: Globus
 * transfer records from NERSC's Elasticsearch (the reference's
 * cache_nersc_globuslogs, with its options), or from a saved cache of
 * scroll pages (--input).
 *
 * A live query asks for the transfers overlapping START..END
 * (YYYY-MM-DDTHH:MM:SS, START before END), of --user and of --type
 * (upper-cased) when given; as in the reference, these do not filter
 * cached pages.  Basic auth: PYTOKIO_ES_USER and PYTOKIO_ES_PASSWORD, or
 * the site configuration's es_user and es_password.  stdout gets the
 * pages as JSON
 * indented by 4 in input order, or with --csv the to_dataframe() CSV,
 * each followed by print()'s newline; -o writes the JSON on one line or
 * the CSV without that newline, as the reference wrote its file.
 * Differs from pytokio: --host may be a URL ("https://es.example.org")
 * to use TLS; no "Caching to" line.
 */
#include <stdio.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/elasticsearch.h"
#include "cli/interrupt.h"
#include "tokio/connectors/es.h"
#include "tokio/connectors/nersc_globuslogs.h"
#include "tokio/output.h"
#include "tokio/time.h"

static const char *const usage[] = {
    "tokio cache-nersc-globuslogs [--input <file>] [-h <host>] [-p <port>] "
    "[-i <index>] [--timeout <s>] [--csv] [-o <file>] [--user <user>] "
    "[--type <type>] <start> <end>",
    NULL
};

static const char description[] =
    "Print the Globus transfers of NERSC's Elasticsearch (dtn-dtn-log*)\n"
    "between <start> and <end> (YYYY-MM-DDTHH:MM:SS), or from a cache of a\n"
    "query's scroll pages (--input): the pages as JSON, or the transfers as\n"
    "CSV.  Basic auth: PYTOKIO_ES_USER and PYTOKIO_ES_PASSWORD, or the site\n"
    "configuration's es_user and es_password.";

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

/* The reference's query against the server; --type upper-cased as it
 * did. */
static int
live(struct tokio_nersc_globuslogs **out, const struct cli_es *server,
     int64_t start, int64_t end, const char *user, const char *type)
{
    struct tokio_es *es = NULL;
    char upper[64];
    int rc;

    if (type != NULL) {
        size_t i = 0;

        for (; type[i] && i + 1 < sizeof(upper); i++)
            upper[i] = (char)(type[i] >= 'a' && type[i] <= 'z'
                              ? type[i] - 'a' + 'A' : type[i]);
        upper[i] = '\0';
        type = upper;
    }
    if ((rc = cli_es_open(&es, server)) >= 0) {
        cli_interrupt_catch();
        rc = tokio_nersc_globuslogs_query(out, es, start, end, user, type);
        tokio_es_free(es);
        cli_interrupt_release();
    }
    return rc;
}

int
cmd_cache_nersc_globuslogs(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = NULL, *user = NULL, *type = NULL;
    struct cli_es server =
        CLI_ES_DEFAULTS(TOKIO_NERSC_GLOBUSLOGS_DEFAULT_INDEX);
    int csv = 0, debug = 0;
    const struct cli_option opts[] = {
        OPT_FILE(0, "input", &input, "<file>",
                 "use cached output from previous ES query"),
        OPT_FLAG('c', "csv", &csv, "return output in CSV format"),
        OPT_OUTPUT(&output),
        OPT_STRING(0, "user", &user, "<user>",
                   "limit results to transfers owned by this user "
                   "(not applied to --input)"),
        OPT_STRING(0, "type", &type, "<type>",
                   "limit results to STOR, RETR or NLST (not applied to "
                   "--input)"),
        OPT_ES_SERVER(&server, TOKIO_NERSC_GLOBUSLOGS_DEFAULT_INDEX),
        OPT_ES_TIMEOUT(&server),
        OPT_FLAG(0, "debug", &debug, "accepted for compatibility"),
        OPT_END
    };
    struct tokio_nersc_globuslogs *g = NULL;
    int64_t start, end;
    int npos, rc;

    (void)debug;
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 2)
        return cli_usage_error(cmd, "a start and an end time are required");
    if (cli_time(cmd, "<start>", argv[1], NULL, &start) != 0 ||
        cli_time(cmd, "<end>", argv[2], NULL, &end) != 0 ||
        cli_time_order(cmd, "<start>", start, "<end>", end) != 0)
        return CLI_EXIT_USAGE;
    if (cli_es_check(cmd, &server) != 0)
        return CLI_EXIT_USAGE;

    if (input != NULL) {
        if (tokio_nersc_globuslogs_open(&g, input) < 0)
            return cli_fail(cmd, NULL);
    } else if (live(&g, &server, start, end, user, type) < 0) {
        return cli_fail(cmd, NULL);
    }
    struct globus_job job = { g, csv, output != NULL };
    rc = cli_write_output(cmd, output, write_result, &job);
    tokio_nersc_globuslogs_free(g);
    return rc;
}
