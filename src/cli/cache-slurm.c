/*
 * src/cli/cache-slurm.c - `tokio cache-slurm`: a Slurm job's accounting
 * (the reference's cache_slurm) as sacct-like native text (the default),
 * JSON or CSV.
 *
 * The one argument is a saved sacct or JSON file when such a file exists,
 * else a job id given to sacct, as in the reference.  Differs from
 * pytokio: two format options are a usage error (there --csv won over
 * --json over --native).  Output on
 * stdout ends with the newline Python's print() added (CSV: to_csv's own
 * newline plus print's); -o writes exactly what the reference wrote to
 * its file: JSON on one line in input order, CSV and native text without
 * the extra newline.  Differs from pytokio: no "Caching to" line.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/slurm.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio cache-slurm [--native | --json | --csv] [-o <file>] "
    "<jobid | sacct-or-json-file>",
    NULL
};

static const char description[] =
    "Print a Slurm job's tasks (job, job.batch, job.extern, job.N) with\n"
    "their start and end times and node lists.  The argument is a file\n"
    "saved from `sacct --parsable` or by --json when it exists, else a\n"
    "job id that sacct is asked about.";

/* What to write: the table, its form, and whether into a file. */
struct result {
    const struct tokio_slurm *s;
    int csv, json, to_file;
};

static int
write_result(FILE *fp, void *ctx)
{
    const struct result *r = ctx;
    int rc;

    if (r->csv) {
        rc = tokio_slurm_write_csv(r->s, fp);
    } else if (r->json) {
        json_t *tasks = NULL;
        if ((rc = tokio_slurm_to_json(r->s, &tasks)) >= 0)
            rc = tokio_json_write(tasks, fp, r->to_file
                                  ? 0 : TOKIO_JSON_SORT_KEYS |
                                        TOKIO_JSON_INDENT(4));
        json_decref(tasks);
    } else {
        rc = tokio_slurm_write_native(r->s, fp);
    }
    if (rc >= 0 && !r->to_file)
        fputc('\n', fp);
    return rc;
}

int
cmd_cache_slurm(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int form = CLI_FORM_NATIVE;
    const struct cli_option opts[] = {
        OPT_SET_INT('n', "native", &form, CLI_FORM_NATIVE,
                    "sacct-like text, '|'-separated [default]"),
        OPT_SET_INT('j', "json", &form, CLI_FORM_JSON,
                    "JSON, one object per task"),
        OPT_SET_INT('c', "csv", &form, CLI_FORM_CSV,
                    "CSV, one row per task"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_slurm *s = NULL;
    struct stat st;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0
                               ? "a job id or a saved sacct file is required"
                               : "only one job id or file at a time");
    const char *arg = argv[1];

    /* a file named like a job id wins, as in the reference */
    const int is_file = stat(arg, &st) == 0 && S_ISREG(st.st_mode);
    if (is_file)
        rc = tokio_slurm_open(&s, arg);
    else
        rc = tokio_slurm_query(&s, arg);
    if (rc < 0)
        return cli_fail(cmd, NULL);
    struct result job = { s, form == CLI_FORM_CSV, form == CLI_FORM_JSON,
                          output != NULL };
    rc = cli_write_output_from(cmd, output, is_file ? arg : NULL,
                               write_result, &job);
    tokio_slurm_free(s);
    return rc;
}
