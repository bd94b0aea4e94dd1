/*
 * src/cli/cache-slurm.c - `tokio cache-slurm`: a Slurm job's accounting
 * (the reference's cache_slurm) as sacct-like native text (the default),
 * JSON or CSV.
 *
 * The one argument is a saved sacct or JSON file when such a file exists,
 * else a job id given to sacct, as in the reference.  With several format
 * options, --csv wins over --json over --native, as there.  Output on
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

static int
write_result(const struct tokio_slurm *s, FILE *fp, int csv, int json,
             int to_file)
{
    json_t *j = NULL;
    int rc;

    if (csv) {
        if ((rc = tokio_slurm_write_csv(s, fp)) >= 0 && !to_file)
            fputc('\n', fp);
        return rc;
    }
    if (json) {
        if ((rc = tokio_slurm_to_json(s, &j)) < 0)
            return rc;
        rc = tokio_json_write(fp, j, to_file ? 0 : TOKIO_JSON_SORT_KEYS |
                                                   TOKIO_JSON_INDENT(4));
        json_decref(j);
        if (rc >= 0 && !to_file)
            fputc('\n', fp);
        return rc;
    }
    if ((rc = tokio_slurm_write_native(s, fp)) >= 0 && !to_file)
        fputc('\n', fp);
    return rc;
}

int
cmd_cache_slurm(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int native = 0, json = 0, csv = 0;
    const struct cli_option opts[] = {
        OPT_FLAG('n', "native", &native,
                 "sacct-like text, '|'-separated [default]"),
        OPT_FLAG('j', "json", &json, "JSON, one object per task"),
        OPT_FLAG('c', "csv", &csv, "CSV, one row per task"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_slurm *s = NULL;
    struct tokio_output *o = NULL;
    struct stat st;
    int npos, rc;

    (void)native;   /* the default either way */
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0
                               ? "a job id or a saved sacct file is required"
                               : "only one job id or file at a time");
    const char *arg = argv[1];

    /* a file named like a job id wins, as in the reference */
    if (stat(arg, &st) == 0 && S_ISREG(st.st_mode))
        rc = tokio_slurm_open(&s, arg);
    else
        rc = tokio_slurm_query(&s, arg);
    if (rc < 0)
        return cli_fail(cmd, NULL);
    if ((rc = tokio_output_open(&o, output)) < 0) {
        tokio_slurm_free(s);
        return cli_fail(cmd, NULL);
    }
    if (write_result(s, tokio_output_fp(o), csv, json, output != NULL) < 0) {
        tokio_output_abort(o);
        rc = cli_fail(cmd, NULL);
    } else if (tokio_output_commit(o) < 0) {
        rc = cli_fail(cmd, NULL);
    } else {
        rc = CLI_EXIT_OK;
    }
    tokio_slurm_free(s);
    return rc;
}
