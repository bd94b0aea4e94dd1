/*
 * src/cli/compare-isdct.c - `tokio compare-isdct`: what changed between
 * two NERSC ISDCT dumps, as the reference's compare_isdct: by default the
 * changes reduced over drives (sum, ave, min, max, count per counter);
 * --all the per-drive changes with added and removed drives; --summary a
 * short report (errors, drives removed and installed, workload).
 * --report-zeros keeps unchanged counters; --gibs turns *_bytes into GiB.
 * --summary wins over --all, as there.  JSON is printed sorted with an
 * indent of 4, as json.dumps(indent=4, sort_keys=True).
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/nersc_isdct.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio compare-isdct [-a | --all] [-g | --gibs] [-s | --summary] "
    "[-z | --report-zeros] <old-dump> <new-dump>",
    NULL
};

static const char description[] =
    "Compare two NERSC ISDCT dumps (tarballs, folders or saved JSON) and\n"
    "report the drives that appeared or disappeared and the counters that\n"
    "changed.";

/* The two dumps and what to tell of them. */
struct compare_job {
    const struct tokio_nersc_isdct *old_dump, *new_dump;
    int all, gibs, summary, report_zeros;
};

static int
compare(FILE *fp, void *ctx)
{
    const struct compare_job *job = ctx;
    json_t *diff = NULL, *res = NULL;
    int rc = tokio_nersc_isdct_diff(job->old_dump, job->new_dump,
                                    job->report_zeros, &diff);

    if (rc >= 0 && job->gibs) {
        rc = tokio_nersc_isdct_diff_gibs(diff, &res);
        json_decref(diff);
        diff = res;
        res = NULL;
    }
    if (rc >= 0 && job->summary)
        rc = tokio_nersc_isdct_write_summary(job->old_dump, job->new_dump,
                                             diff, fp);
    else if (rc >= 0 && job->all)
        res = json_incref(diff);
    else if (rc >= 0)
        rc = tokio_nersc_isdct_reduce_diff(diff, &res);
    if (rc >= 0 && res != NULL &&
        (rc = tokio_json_write(res, fp, TOKIO_JSON_SORT_KEYS |
                                        TOKIO_JSON_INDENT(4))) >= 0)
        fputc('\n', fp);
    json_decref(res);
    json_decref(diff);
    return rc;
}

int
cmd_compare_isdct(int argc, char **argv)
{
    const char *cmd = argv[0];
    int all = 0, gibs = 0, summary = 0, report_zeros = 0;
    const struct cli_option opts[] = {
        OPT_FLAG('a', "all", &all, "report changes for each device"),
        OPT_FLAG('g', "gibs", &gibs, "report in units of GiB"),
        OPT_FLAG('s', "summary", &summary,
                 "print summary of differences"),
        OPT_FLAG('z', "report-zeros", &report_zeros,
                 "include counters that do not change"),
        OPT_END
    };
    struct tokio_nersc_isdct *old_dump = NULL, *new_dump = NULL;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 2)
        return cli_usage_error(cmd, "an old and a new ISDCT dump are "
                                    "required");
    if (tokio_nersc_isdct_open(&old_dump, argv[1]) < 0 ||
        tokio_nersc_isdct_open(&new_dump, argv[2]) < 0) {
        rc = cli_fail(cmd, NULL);
    } else {
        struct compare_job job = { old_dump, new_dump, all, gibs, summary,
                                   report_zeros };
        rc = cli_write_output(cmd, NULL, compare, &job);
    }
    tokio_nersc_isdct_free(new_dump);
    tokio_nersc_isdct_free(old_dump);
    return rc;
}
