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

/* What to write, and how. */
struct isdct_job {
    const struct tokio_nersc_isdct *dump;
    int csv, to_file;
};

static int
write_result(FILE *fp, void *ctx)
{
    const struct isdct_job *job = ctx;
    json_t *json = NULL;
    int rc;

    if (job->csv) {
        rc = tokio_nersc_isdct_write_csv(job->dump, fp, 0);
        if (rc >= 0 && !job->to_file)
            fputc('\n', fp);
        return rc;
    }
    if ((rc = tokio_nersc_isdct_to_json(job->dump, &json)) >= 0)
        rc = tokio_json_write(json, fp, 0);
    json_decref(json);
    return rc;
}

int
cmd_cache_isdct(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int form = CLI_FORM_JSON;
    const struct cli_option opts[] = {
        OPT_SET_INT('j', "json", &form, CLI_FORM_JSON,
                    "JSON, one object per drive [default]"),
        OPT_SET_INT('c', "csv", &form, CLI_FORM_CSV,
                    "CSV, one row per drive"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_nersc_isdct *d = NULL;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "an ISDCT dump is required"
                                              : "only one ISDCT dump at a "
                                                "time");
    if (tokio_nersc_isdct_open(&d, argv[1]) < 0)
        return cli_fail(cmd, NULL);
    struct isdct_job job = { d, form == CLI_FORM_CSV, output != NULL };
    rc = cli_write_output(cmd, output, write_result, &job);
    tokio_nersc_isdct_free(d);
    return rc;
}
