/*
 * src/cli/umami.c - `tokio umami`: an UMAMI diagram of a history of runs
 * (a CSV such as summarize-job writes, a row per run) as a PNG, SVG or
 * PDF picture, or its numbers as JSON or CSV (tokio/analysis/umami.h).
 * The reference had the class but no command; this one draws what its
 * example notebooks drew.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/analysis/umami.h"
#include "tokio/csv.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio umami [-o <file>] [--format png|svg|pdf|json|csv] "
    "[--columns <a,b,...>] [--labels <a,b,...>] [--small-is-good <a,...>] "
    "[--highlight <n>] <history.csv>",
    NULL
};

static const char description[] =
    "Draw an UMAMI diagram of a history of runs: one row per metric, its\n"
    "values over time on the left and their box plot on the right, one\n"
    "run (the last, or --highlight N, counted from 0; negative counts\n"
    "from the end) starred in the colour of the quartile of the runs\n"
    "before it that it falls in: red, orange, green, blue from worst to\n"
    "best.  The time is the CSV's _datetime_start column (as\n"
    "summarize-job writes it) or else its first; by default every numeric\n"
    "column but the time, 'index' and those starting with '_' is a\n"
    "metric.  The format follows -o's extension when not given; without\n"
    "either, the numbers are printed as JSON.";

enum format { F_NONE = -1, F_PNG, F_SVG, F_PDF, F_JSON, F_CSV };

static const char *const format_names[] = { "png", "svg", "pdf", "json",
                                            "csv" };

static enum format
format_named(const char *name)
{
    for (size_t i = 0; i < sizeof(format_names) / sizeof(*format_names); i++)
        if (strcmp(name, format_names[i]) == 0)
            return (enum format)i;
    return F_NONE;
}

struct job {
    const struct tokio_umami *u;
    enum format format;
    long highlight;
};

static int
write_result(FILE *fp, void *ctx)
{
    const struct job *job = ctx;
    json_t *json = NULL;
    int rc;

    switch (job->format) {
    case F_CSV:
        return tokio_umami_write_csv(job->u, fp);
    case F_JSON:
        /* as the reference's to_json(): sorted keys, indent 4 */
        if ((rc = tokio_umami_to_json(job->u, &json)) == TOKIO_OK)
            rc = tokio_json_write(json, fp, TOKIO_JSON_SORT_KEYS |
                                            TOKIO_JSON_INDENT(4));
        json_decref(json);
        if (rc == TOKIO_OK)
            fputc('\n', fp);
        return rc;
    default:
        return tokio_umami_write_figure(job->u, fp,
                                        (enum tokio_umami_format)job->format,
                                        job->highlight);
    }
}

int
cmd_umami(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL, *format = NULL;
    char *columns = NULL, *labels = NULL, *small = NULL;
    long long highlight = -1;
    const struct cli_option opts[] = {
        OPT_OUTPUT(&output),
        OPT_STRING(0, "format", &format, "<format>",
                   "png, svg, pdf, json or csv [from -o's extension]"),
        OPT_STRING(0, "columns", &columns, "<a,b,...>",
                   "the metrics to draw, in order [every numeric column]"),
        OPT_STRING(0, "labels", &labels, "<a,b,...>",
                   "a label for each of --columns [the column names]"),
        OPT_STRING(0, "small-is-good", &small, "<a,b,...>",
                   "metrics for which smaller values are better"),
        OPT_SIGNED(0, "highlight", &highlight, "<n>",
                "the run to highlight, from 0; negative from the end [-1]"),
        OPT_END
    };
    struct cli_list names = { 0 }, label_list = { 0 }, small_list = { 0 };
    struct tokio_csv *table = NULL;
    struct tokio_umami *u = NULL;
    struct job job = { NULL, F_NONE, 0 };
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "a history CSV is required"
                                              : "only one history CSV");
    if (format != NULL && (job.format = format_named(format)) == F_NONE)
        return cli_usage_error(cmd, "unknown format '%s'", format);
    if (format == NULL && output != NULL && strrchr(output, '.') != NULL &&
        (job.format = format_named(strrchr(output, '.') + 1)) == F_NONE)
        return cli_usage_error(cmd, "cannot tell a format from '%s': give "
                               "--format", output);
    if (job.format == F_NONE)
        job.format = output == NULL ? F_JSON : F_PNG;
    if (labels != NULL && columns == NULL)
        return cli_usage_error(cmd, "--labels needs --columns");
    if (cli_split_commas(columns, &names) < 0 ||
        cli_split_commas(labels, &label_list) < 0 ||
        cli_split_commas(small, &small_list) < 0) {
        rc = cli_fail(cmd, "out of memory");
        goto out;
    }
    if (labels != NULL && label_list.n != names.n) {
        rc = cli_usage_error(cmd, "%zu labels for %zu columns", label_list.n,
                             names.n);
        goto out;
    }
    struct tokio_umami_columns cols = {
        names.items, names.n, label_list.items, label_list.n,
        small_list.items, small_list.n
    };
    if (tokio_csv_open(&table, argv[1]) < 0 ||
        tokio_umami_from_csv(&u, table, argv[1], &cols) < 0) {
        rc = cli_fail(cmd, NULL);
        goto out;
    }
    job.u = u;
    job.highlight = (long)highlight;
    rc = cli_write_output(cmd, output, write_result, &job);
out:
    tokio_umami_free(u);
    tokio_csv_free(table);
    free(names.items);
    free(label_list.items);
    free(small_list.items);
    return rc;
}
