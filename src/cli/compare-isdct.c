/*
 * src/cli/compare-isdct.c - `tokio compare-isdct`: what changed between
 * two NERSC ISDCT dumps, as the reference's compare_isdct: by default the
 * changes reduced over drives (sum, ave, min, max, count per counter);
 * --all the per-drive changes with added and removed drives; --summary a
 * short report (errors, drives removed and installed, workload).
 * --report-zeros keeps unchanged counters; --gibs turns *_bytes into GiB.
 * --summary wins over --all, as there.  JSON is printed sorted with an
 * indent of 4, as json.dumps(indent=4, sort_keys=True).
 * The two dumps are read at once, the old one in a second thread.
 */
#include <pthread.h>
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

/* One dump read in a thread of its own; its error message kept here, as
 * errors are per thread. */
struct load {
    const char *path;
    struct tokio_nersc_isdct *dump;
    int rc;
    char msg[1024];
};

static void *
load_dump(void *arg)
{
    struct load *l = arg;

    l->rc = tokio_nersc_isdct_open(&l->dump, l->path);
    if (l->rc < 0)
        snprintf(l->msg, sizeof(l->msg), "%s", tokio_errmsg());
    return NULL;
}

/* Both dumps, the old one in a second thread when one can be made. */
static void
load_both(struct load *old, struct load *now)
{
    pthread_t thread;
    int threaded = pthread_create(&thread, NULL, load_dump, old) == 0;

    if (!threaded)
        load_dump(old);
    load_dump(now);
    if (threaded)
        pthread_join(thread, NULL);
}

/* The two dumps and what to tell of them. */
struct compare_job {
    const struct tokio_nersc_isdct *old_dump, *dump;
    int all, gibs, summary, report_zeros;
};

/* The diff as JSON, in GiB when asked. */
static int
full_diff(const struct compare_job *job, json_t **out)
{
    json_t *diff = NULL;
    int rc = tokio_nersc_isdct_diff(job->dump, job->old_dump,
                                    job->report_zeros, &diff);

    if (rc >= 0 && job->gibs) {
        rc = tokio_nersc_isdct_diff_gibs(diff, out);
        json_decref(diff);
        return rc;
    }
    *out = diff;
    return rc;
}

static int
compare(FILE *fp, void *ctx)
{
    const struct compare_job *job = ctx;
    json_t *diff = NULL, *res = NULL;
    int rc;

    if (job->summary) {
        if ((rc = full_diff(job, &diff)) >= 0)
            rc = tokio_nersc_isdct_write_summary(fp, job->old_dump,
                                                 job->dump, diff);
        json_decref(diff);
        return rc;
    }
    if (!job->all && !job->gibs) {
        /* the usual run: the reduction, made without the diff's JSON */
        rc = tokio_nersc_isdct_diff_reduced(job->dump, job->old_dump,
                                            job->report_zeros, &res);
    } else if ((rc = full_diff(job, &diff)) >= 0) {
        if (job->all)
            res = json_incref(diff);
        else
            rc = tokio_nersc_isdct_reduce_diff(diff, &res);
    }
    if (rc >= 0 && (rc = tokio_json_write(fp, res, TOKIO_JSON_SORT_KEYS |
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
    struct load old = { NULL, NULL, 0, "" }, now = { NULL, NULL, 0, "" };
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 2)
        return cli_usage_error(cmd, "an old and a new ISDCT dump are "
                                    "required");
    old.path = argv[1];
    now.path = argv[2];
    load_both(&old, &now);
    /* the old dump's error first, as when read one after the other */
    if (old.rc < 0 || now.rc < 0) {
        rc = cli_fail(cmd, "%s", old.rc < 0 ? old.msg : now.msg);
    } else {
        struct compare_job job = { old.dump, now.dump, all, gibs, summary,
                                   report_zeros };
        rc = cli_write_output(cmd, NULL, compare, &job);
    }
    tokio_nersc_isdct_free(now.dump);
    tokio_nersc_isdct_free(old.dump);
    return rc;
}
