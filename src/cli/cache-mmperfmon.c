/*
 * src/cli/cache-mmperfmon.c - `tokio cache-mmperfmon`: GPFS mmperfmon
 * query outputs (files, tarballs, directories, or JSON made by this
 * command) as the reference's JSON dict, or as CSV of one host's metrics
 * or one metric's hosts (the reference's tokio.cli.cache_mmperfmon).
 *
 * All inputs are merged in order.  JSON goes out on one line without a
 * newline, exactly as the reference's save_cache(); CSV on stdout ends
 * with the extra newline of Python's print(), with -o it is to_csv()'s
 * text alone.  Differs from pytokio: no "Caching to" line on stdout.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/mmperfmon.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio cache-mmperfmon [--json] [-o <file>] <input>...",
    "tokio cache-mmperfmon --csv (--host <host> | --metric <metric>) "
    "[-o <file>] <input>...",
    NULL
};

static const char description[] =
    "Read `mmperfmon query` outputs (plain or compressed files, tarballs\n"
    "or directories of them, or JSON written by this command) and print\n"
    "their counters as JSON, timestamp -> host -> counter -> value (values\n"
    "in MB or kB become bytes, counters then end in _bytes), or with --csv\n"
    "a table over time of one host's counters or one counter's hosts.";

/* What to write: the counters, and which form. */
struct result {
    const struct tokio_mmperfmon *m;
    int csv;
    const char *host, *metric;
    int to_file;
};

static int
write_result(FILE *fp, void *ctx)
{
    const struct result *r = ctx;
    json_t *json;
    int rc;

    if (!r->csv) {
        tokio_mmperfmon_to_json(r->m, &json);
        rc = tokio_json_write(json, fp, 0);
        json_decref(json);
        return rc;
    }
    rc = tokio_mmperfmon_write_csv(r->m, fp, r->host, r->metric);
    if (rc >= 0 && !r->to_file)
        fputc('\n', fp);
    return rc;
}

int
cmd_cache_mmperfmon(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL, *host = NULL, *metric = NULL;
    int form = CLI_FORM_JSON;
    const struct cli_option opts[] = {
        OPT_SET_INT('j', "json", &form, CLI_FORM_JSON,
                    "JSON, the reference's dict [default]"),
        OPT_SET_INT('c', "csv", &form, CLI_FORM_CSV,
                    "CSV of --host or --metric over time"),
        OPT_STRING(0, "host", &host, "<host>",
                   "CSV: the counters of this host"),
        OPT_STRING(0, "metric", &metric, "<metric>",
                   "CSV: this counter of every host"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_mmperfmon *m = NULL;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    const int csv = form == CLI_FORM_CSV;
    if (npos < 1)
        return cli_usage_error(cmd, "at least one input is required");
    if (csv && (host == NULL) == (metric == NULL))
        return cli_usage_error(cmd, "Must specify one --host or --metric "
                               "with --csv");
    if (tokio_mmperfmon_open(&m, argv[1]) < 0)
        return cli_fail(cmd, NULL);
    for (int i = 2; i <= npos; i++) {
        if (tokio_mmperfmon_add(m, argv[i]) < 0) {
            tokio_mmperfmon_free(m);
            return cli_fail(cmd, NULL);
        }
    }
    struct result job = { m, csv, host, metric, output != NULL };
    rc = cli_write_output(cmd, output, write_result, &job);
    tokio_mmperfmon_free(m);
    return rc;
}
