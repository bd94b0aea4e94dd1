/*
 * src/cli/cache-isdct.c - `tokio cache-isdct`: a NERSC ISDCT dump (a
 * tarball or folder of per-node isdct outputs, or a dump saved as JSON)
 * as the reference's cache_isdct prints it: JSON (the default) or CSV.
 *
 * As there, --csv wins over --json.  On stdout, JSON is one line in input
 * order without a final newline (save_cache() wrote it so) and CSV ends
 * with the extra newline of print(); -o writes the same without it.
 * Differs from pytokio: no "Caching to" line on stdout with -o.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/nersc_isdct.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio cache-isdct [--json | --csv] [-o <file>] <isdct-dump>",
    NULL
};

static const char description[] =
    "Print the SSD counters of a NERSC ISDCT dump, one entry per drive\n"
    "serial number: a .tar/.tgz or folder of nidXXXXX/*.txt isdct outputs,\n"
    "or a dump saved by --json.";

static int
write_result(const struct tokio_nersc_isdct *d, FILE *fp, int csv,
             int to_file)
{
    int rc;

    if (csv) {
        if ((rc = tokio_nersc_isdct_write_csv(d, fp, 0)) >= 0 && !to_file)
            fputc('\n', fp);
        return rc;
    }
    return tokio_nersc_isdct_write_json(d, fp);
}

int
cmd_cache_isdct(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int json = 0, csv = 0;
    const struct cli_option opts[] = {
        OPT_FLAG('j', "json", &json, "JSON, one object per drive [default]"),
        OPT_FLAG('c', "csv", &csv, "CSV, one row per drive"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_nersc_isdct *d = NULL;
    struct tokio_output *o = NULL;
    int npos, rc;

    (void)json;     /* the default either way */
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "an ISDCT dump is required"
                                              : "only one ISDCT dump at a "
                                                "time");
    if (tokio_nersc_isdct_open(&d, argv[1]) < 0)
        return cli_fail(cmd, NULL);
    if (tokio_output_open(&o, output) < 0) {
        tokio_nersc_isdct_free(d);
        return cli_fail(cmd, NULL);
    }
    if (write_result(d, tokio_output_fp(o), csv, output != NULL) < 0) {
        tokio_output_abort(o);
        rc = cli_fail(cmd, NULL);
    } else if (tokio_output_commit(o) < 0) {
        rc = cli_fail(cmd, NULL);
    } else {
        rc = CLI_EXIT_OK;
    }
    tokio_nersc_isdct_free(d);
    return rc;
}
