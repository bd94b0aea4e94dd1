/*
 * src/cli/cache-collectdes.c - `tokio cache-collectdes`: collectd's cpu,
 * disk and memory metrics of burst-buffer nodes from Elasticsearch, or
 * from a saved cache of scroll pages (--input), as the pages (JSON) or
 * the reference's table of their hits (--csv).  The reference's
 * cache_collectdes, with its options.
 *
 * As there, START and END (YYYY-MM-DDTHH:MM:SS, local time) bound the
 * query but do not filter cached pages; stdout gets the JSON indented by
 * 4, or the CSV, each followed by print()'s newline; -o writes the JSON
 * on one line or the CSV without that newline.  Credentials for basic
 * auth come from PYTOKIO_ES_USER/PYTOKIO_ES_PASSWORD or the site
 * configuration (es_user, es_password), never from the command line.
 *
 * Differs from pytokio: a live query outputs the pages of all three
 * queries (see src/connectors/collectd_es.c); --host may be a URL
 * ("https://es.example.org") to use TLS; no "Caching to" line.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/elasticsearch.h"
#include "cli/interrupt.h"
#include "tokio/connectors/collectd_es.h"
#include "tokio/connectors/es.h"
#include "tokio/output.h"
#include "tokio/time.h"

static const char *const usage[] = {
    "tokio cache-collectdes [--input <file>] [-h <host>] [-p <port>] "
    "[-i <index>] [--timeout <s>] [--csv] [-o <file>] <start> <end>",
    NULL
};

static const char description[] =
    "Print collectd's cpu, disk and memory metrics of burst-buffer nodes\n"
    "between <start> and <end> (YYYY-MM-DDTHH:MM:SS) from Elasticsearch,\n"
    "or from a cache of a query's scroll pages (--input): the pages as\n"
    "JSON, or their hits as CSV.  Basic auth: PYTOKIO_ES_USER and\n"
    "PYTOKIO_ES_PASSWORD, or the site configuration's es_user and\n"
    "es_password.";

struct job {
    struct tokio_es_pages *pages;
    int to_file;
};

static int
write_result(FILE *fp, void *ctx)
{
    const struct job *job = ctx;
    int rc = tokio_es_pages_write(job->pages, fp);

    if (rc >= 0 && !job->to_file)
        fputc('\n', fp);
    return rc;
}

int
cmd_cache_collectdes(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = NULL;
    struct cli_es server = CLI_ES_DEFAULTS(TOKIO_COLLECTD_ES_DEFAULT_INDEX);
    int csv = 0, debug = 0;
    const struct cli_option opts[] = {
        OPT_FILE(0, "input", &input, "<file>",
                 "use cached output from previous ES query"),
        OPT_OUTPUT(&output),
        OPT_FLAG('c', "csv", &csv, "return output in CSV format"),
        OPT_ES_SERVER(&server, TOKIO_COLLECTD_ES_DEFAULT_INDEX),
        OPT_ES_TIMEOUT(&server),
        OPT_FLAG(0, "debug", &debug, "accepted for compatibility"),
        OPT_END
    };
    struct tokio_es_pages *pages = NULL;
    struct tokio_output *out = NULL;
    struct tokio_es *es = NULL;
    int64_t start, end;
    size_t n_fields;
    const char *const *fields = tokio_collectd_es_fields(&n_fields);
    int npos, rc;

    (void)debug;
#if defined(__GLIBC__) && defined(M_MXFAST)
    /* The JSON form frees a jansson tree of some 400,000 small blocks a
     * page; with glibc's fast bins, freeing the page's list of hits
     * then merged them all again (malloc_consolidate, 15% of `--input`,
     * perf).  Without them, freeing the bench cache's pages takes 0.10
     * s, not 0.28 (bench/bench-collectdes.sh). */
    mallopt(M_MXFAST, 0);
#endif
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

    /* -o's CSV is written straight into its temporary, which goes on a
     * failure (bench/bench-collectdes.sh: the CSV made once, not spooled
     * and copied: 74.9 -> 70.6 ms of CPU, min of 20) */
    if (csv && output != NULL && strcmp(output, "-") != 0 &&
        tokio_output_open(&out, output) < 0)
        return cli_fail(cmd, NULL);
    if ((csv ? tokio_es_pages_new_csv_to(&pages, fields, n_fields,
                                         out ? tokio_output_fp(out) : NULL)
             : tokio_es_pages_new_json(&pages, output
                                       ? 0 : TOKIO_JSON_INDENT(4))) < 0) {
        tokio_output_abort(out);
        return cli_fail(cmd, NULL);
    }
    if (input != NULL) {
        rc = tokio_es_from_cache(input, tokio_es_pages_add, pages);
    } else if ((rc = cli_es_open(&es, &server)) >= 0) {
        cli_interrupt_catch();
        rc = tokio_collectd_es_scroll(es, start, end, tokio_es_pages_add,
                                      pages);
        tokio_es_free(es);
        cli_interrupt_release();
    }
    if (rc >= 0 && out != NULL)
        rc = tokio_es_pages_write(pages, tokio_output_fp(out));
    if (rc < 0) {
        /* a failed write names the output it was for */
        int stream_failed = out != NULL && ferror(tokio_output_fp(out));

        tokio_output_abort(out);
        rc = stream_failed ? cli_fail(cmd, "'%s': %s", output,
                                      tokio_errmsg())
                           : cli_fail(cmd, NULL);
    } else if (out != NULL) {
        rc = tokio_output_commit(out) < 0 ? cli_fail(cmd, NULL)
                                          : CLI_EXIT_OK;
    } else {
        struct job job = { pages, output != NULL };
        rc = cli_write_output(cmd, output, write_result, &job);
    }
    tokio_es_pages_free(pages);
    return rc;
}
