/*
 * src/cli/cache-nersc-jobsdb.c - `tokio cache-nersc-jobsdb`: the NERSC
 * jobs database rows of the jobs that ran on a host during a window, kept
 * in a new SQLite cache file (the reference's cache_nersc_jobsdb).
 *
 * The rows come from the cache file given with -i, else from the server
 * NERSC_JOBSDB_HOST, _USER, _PASSWORD, _DB (and _PORT, an addition) name.
 * The file is written whole or not at all and dumps (`sqlite3 FILE .dump`)
 * the same as the reference's.  --json and --csv (additions) print the
 * window's totals instead of "Caching to FILE".
 */
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/nersc_jobsdb.h"
#include "tokio/output.h"
#include "tokio/time.h"

static const char *const usage[] = {
    "tokio cache-nersc-jobsdb [-i <cache-file>] [-o <file>] [--json | --csv] "
    "<start> <end> <host>",
    NULL
};

static const char description[] =
    "Find the jobs that ran on NERSC system <host> at some time between\n"
    "<start> and <end> (YYYY-MM-DDTHH:MM:SS, local time) and keep their\n"
    "jobs database rows in a new SQLite cache file (-o; default\n"
    "nersc_jobsdb-N.sqlite).  The rows come from the cache file given with\n"
    "-i, else from the MySQL server named by NERSC_JOBSDB_HOST,\n"
    "NERSC_JOBSDB_USER, NERSC_JOBSDB_PASSWORD, NERSC_JOBSDB_DB and\n"
    "NERSC_JOBSDB_PORT.  With --json or --csv the window's node-hours,\n"
    "nodes and jobs are printed too.";

static void
print_totals(const struct tokio_nersc_concurrent *t, int json)
{
    char num[64];

    tokio_format_double(num, sizeof(num), t->nodehrs);
    if (json)
        printf("{\n    \"nodehrs\": %s,\n    \"numjobs\": %" PRId64 ",\n"
               "    \"numnodes\": %" PRId64 "\n}\n", num, t->numjobs,
               t->numnodes);
    else
        printf("nodehrs,numnodes,numjobs\n%s,%" PRId64 ",%" PRId64 "\n", num,
               t->numnodes, t->numjobs);
}

int
cmd_cache_nersc_jobsdb(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = NULL;
    int json = 0, csv = 0;
    const struct cli_option opts[] = {
        OPT_STRING('i', "input", &input, "<cache-file>",
                   "read this SQLite cache instead of the server"),
        OPT_STRING('o', "output", &output, "<file>",
                   "the cache file to write (default nersc_jobsdb-N.sqlite)"),
        OPT_FLAG(0, "json", &json, "print the totals as JSON"),
        OPT_FLAG(0, "csv", &csv, "print the totals as CSV"),
        OPT_END
    };
    struct tokio_nersc_jobsdb *j = NULL;
    struct tokio_nersc_concurrent totals;
    int64_t start, end;
    char name[64];
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 3)
        return cli_usage_error(cmd, "expected <start> <end> <host>");
    if (json && csv)
        return cli_usage_error(cmd, "--json and --csv exclude each other");
    /* issue 17: an end before the start was exit 0 (no jobs) */
    if (cli_time(cmd, "<start>", argv[1], NULL, &start) != 0 ||
        cli_time(cmd, "<end>", argv[2], NULL, &end) != 0 ||
        (end < start &&
         cli_time_order(cmd, "<start>", start, "<end>", end) != 0))
        return CLI_EXIT_USAGE;
    if (output == NULL) {
        /* the reference's first free nersc_jobsdb-N.sqlite */
        for (unsigned i = 0;; i++) {
            snprintf(name, sizeof(name), "nersc_jobsdb-%u.sqlite", i);
            if (access(name, F_OK) != 0)
                break;
        }
        output = name;
    }
    if (tokio_nersc_jobsdb_open(&j, input, NULL) < 0)
        return cli_fail(cmd, NULL);
    if (tokio_nersc_jobsdb_get_concurrent_jobs(j, start, end, argv[3],
                                               &totals) < 0) {
        rc = cli_fail(cmd, NULL);
    } else if (tokio_cachingdb_save_cache(tokio_nersc_jobsdb_db(j),
                                          output) < 0) {
        rc = cli_fail(cmd, NULL);
    } else {
        if (json || csv)
            print_totals(&totals, json);
        else
            printf("Caching to %s\n", output);
        rc = CLI_EXIT_OK;
    }
    tokio_nersc_jobsdb_free(j);
    return rc;
}
