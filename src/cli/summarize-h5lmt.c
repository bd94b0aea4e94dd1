/*
 * src/cli/summarize-h5lmt.c - `tokio summarize-h5lmt`: an H5LMT or TOKIO
 * Time Series file cut into bins (24 a day by default) of bytes read and
 * written, OSS and MDS CPU loads and missing data, as the reference's
 * summarize_h5lmt prints them, with totals (--summary), as text or JSON.
 * The numbers come from tokio/tools/hdf5_summary.h.
 *
 * Several files are binned one after the other and their bins merged, as
 * there.  Differs from pytokio: --start/--end (with both, the reference
 * looked the first file's name up in the site's daily HDF5 folders) are
 * accepted but refused, because the site lookup of HDF5 files is not in
 * the library yet; the reference's own test of it needs a file the test
 * data lacks.  Its warnings go to stderr as "warning:" lines.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/output.h"
#include "tokio/tools/hdf5_summary.h"

static const char *const usage[] = {
    "tokio summarize-h5lmt [--summary] [--bytes | --kibs | --mibs | --gibs |"
    " --tibs] [--bins <n>] [--json] [-o <file>] <file>...",
    NULL
};

static const char description[] =
    "Aggregate the bytes read and written, the OSS and MDS CPU loads and\n"
    "the missing data of H5LMT or TOKIO Time Series files into bins (24 per\n"
    "file by default) and print one line per bin; --summary adds totals.\n"
    "When --bins does not divide the timesteps, the rows left over are\n"
    "dropped, as the reference did (with a warning).";

#define OUT_OF_MEMORY (-2)

/* Bin every file into `all`, and each file's bins, in order, into
 * `per_file` (printed once every file is read: a bad file prints
 * nothing). */
static int
bin_files(const char *cmd, char **files, int n, size_t bins, json_t *all,
          json_t *per_file)
{
    for (int i = 0; i < n; i++) {
        struct tokio_hdf5 *h = NULL;
        json_t *binned = NULL, *warnings = NULL, *w;
        size_t k;
        int rc;

        rc = tokio_hdf5_open(&h, files[i], 0);
        if (rc >= 0)
            rc = tokio_hdf5_summary_bins(h, bins, &binned, &warnings);
        tokio_hdf5_free(h);
        if (rc < 0)
            return rc;
        json_array_foreach(warnings, k, w)
            fprintf(stderr, "tokio %s: warning: %s\n", cmd,
                    json_string_value(w));
        json_decref(warnings);
        if (json_object_update(all, binned) < 0 ||
            json_array_append_new(per_file, binned) < 0)
            return OUT_OF_MEMORY;
    }
    return 0;
}

/* cli_fail() with the library's message about the merged bins of the
 * `n` files (which do not know their file) after the files' names. */
static int
fail_naming(const char *cmd, char **files, int n)
{
    char names[1024] = "";
    size_t used = 0;

    for (int i = 0; i < n && used < sizeof(names); i++)
        used += (size_t)snprintf(names + used, sizeof(names) - used,
                                 "%s'%s'", i ? ", " : "", files[i]);
    return cli_fail(cmd, "%s: %s", names, tokio_errmsg());
}

/* The text of every file's bins and the totals, once all are read, made
 * in memory first: a bin the text cannot show (no OST bytes) prints
 * nothing, on standard output too.  TOKIO_EINVAL for such a bin. */
static int
print_text(const char *output, const json_t *per_file, const json_t *totals,
           enum tokio_hdf5_units units)
{
    struct tokio_output *o;
    const json_t *binned;
    char *text = NULL;
    size_t len = 0, i;
    FILE *mem = open_memstream(&text, &len);
    int rc;

    if (mem == NULL)
        return TOKIO_ENOMEM;
    rc = tokio_hdf5_summary_print_header(mem, units);
    json_array_foreach((json_t *)per_file, i, binned)
        if (rc >= 0)
            rc = tokio_hdf5_summary_print_bins(mem, binned, units);
    if (rc >= 0 && totals != NULL)
        rc = tokio_hdf5_summary_print_totals(mem, totals, units);
    if (fclose(mem) != 0 && rc >= 0)
        rc = TOKIO_ENOMEM;
    if (rc >= 0 && (rc = tokio_output_open(&o, output)) >= 0) {
        fwrite(text, 1, len, tokio_output_fp(o));
        rc = tokio_output_commit(o);    /* a failed write is its error */
    }
    free(text);
    return rc;
}

int
cmd_summarize_h5lmt(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL, *start = NULL, *end = NULL;
    int summary = 0, json = 0, units = TOKIO_UNITS_GIB;
    long long bins = 24;
    const struct cli_option opts[] = {
        OPT_FLAG(0, "summary", &summary, "print a summary of all output"),
        OPT_SET_INT(0, "bytes", &units, TOKIO_UNITS_BYTE, "print bytes"),
        OPT_SET_INT(0, "kibs", &units, TOKIO_UNITS_KIB,
                    "print in units of KiBs"),
        OPT_SET_INT(0, "mibs", &units, TOKIO_UNITS_MIB,
                    "print in units of MiBs"),
        OPT_SET_INT(0, "gibs", &units, TOKIO_UNITS_GIB,
                    "print in units of GiBs (default)"),
        OPT_SET_INT(0, "tibs", &units, TOKIO_UNITS_TIB,
                    "print in units of TiBs"),
        OPT_INT(0, "bins", &bins, "<n>", "number of bins per day"),
        OPT_STRING(0, "start", &start, "<date>",
                   "date/time to start in YYYY-MM-DDTHH:MM:SS format"),
        OPT_STRING(0, "end", &end, "<date>",
                   "date/time to end in YYYY-MM-DDTHH:MM:SS format"),
        OPT_FLAG(0, "json", &json, "return json output"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    json_t *all = NULL, *per_file = NULL, *totals = NULL, *doc = NULL;
    int64_t t0 = 0, t1 = 0;
    int npos, b, rc = CLI_EXIT_OK;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos < 1)
        return cli_usage_error(cmd, "an H5LMT or HDF5 file is required");
    if (bins < 1 || bins > 1000000)
        return cli_usage_error(cmd, "--bins must be from 1 to 1000000");
    /* issue 17: a bad --start was exit 0, never looked at */
    if ((start != NULL && cli_time(cmd, "--start", start, NULL, &t0) != 0) ||
        (end != NULL && cli_time(cmd, "--end", end, NULL, &t1) != 0) ||
        (start != NULL && end != NULL &&
         cli_time_order(cmd, "--start", t0, "--end", t1) != 0))
        return CLI_EXIT_USAGE;
    if (start && end)
        return cli_fail(cmd, "--start/--end (the site's daily HDF5 files) "
                        "are not supported yet; name the files instead");

    if ((all = json_object()) == NULL || (per_file = json_array()) == NULL) {
        json_decref(all);
        return cli_fail(cmd, "out of memory");
    }
    if ((b = bin_files(cmd, argv + 1, npos, (size_t)bins, all, per_file))
        < 0)
        rc = cli_fail(cmd, b == OUT_OF_MEMORY ? "out of memory" : NULL);
    if (rc == CLI_EXIT_OK && summary &&
        tokio_hdf5_summary_reduce(all, &totals) < 0)
        rc = fail_naming(cmd, argv + 1, npos);
    if (rc == CLI_EXIT_OK && json) {
        doc = totals ? json_pack("{s:O, s:O}", "bins", all, "summary", totals)
                     : json_pack("{s:O}", "bins", all);
        rc = doc ? cli_write_json(cmd, output, doc, TOKIO_JSON_SORT_KEYS
                                  | TOKIO_JSON_INDENT(4))
                 : cli_fail(cmd, "out of memory");
    } else if (rc == CLI_EXIT_OK &&
               (b = print_text(output, per_file, totals, units)) < 0) {
        rc = b == TOKIO_EINVAL ? fail_naming(cmd, argv + 1, npos)
           : b == TOKIO_ENOMEM ? cli_fail(cmd, "out of memory")
           : cli_fail(cmd, NULL);
    }
    json_decref(per_file);
    json_decref(doc);
    json_decref(totals);
    json_decref(all);
    return rc;
}
