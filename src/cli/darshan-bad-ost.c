/*
 * src/cli/darshan-bad-ost.c - `tokio darshan-bad-ost`: which Lustre OSTs
 * go with slow files in one or more Darshan logs (the reference's
 * darshan_bad_ost; the analysis is src/analysis/darshan_bad_ost.c).
 *
 * Options are the reference's: -j/--json, -p/--p-threshold,
 * -c/--c-threshold, -C/--c-warning.  As there, a log without POSIX or
 * LUSTRE records is skipped with a warning, and so is a 0-byte log (a
 * log repository's placeholder; the reference warned "Invalid Darshan
 * log").  Differs from pytokio: any other unreadable log is an error
 * (exit 1) rather than a warning, so a typo is not silently an empty
 * answer; at least one log is required (the reference printed an empty
 * table without any); -o writes the output to a file.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/analysis/darshan_bad_ost.h"
#include "tokio/connectors/darshan.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio darshan-bad-ost [-j] [-p <p>] [-c <c>] [-C <c>] [-o <file>] "
    "<logfile>...",
    NULL
};

static const char description[] =
    "Estimate each file's performance from Darshan's POSIX records, map\n"
    "the files to the Lustre OSTs they are striped over, and correlate\n"
    "performance with each OST (Pearson).  OSTs with a strong negative\n"
    "correlation are likely unhealthy.  More logs give more\n"
    "observations.  Only logs with LUSTRE records can be used.";

/* Warn and go on, as the reference did, or fail: see the file header. */
static int
add_one(const char *cmd, struct tokio_darshan_bad_ost *b, const char *path)
{
    struct stat st;
    int rc;

    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
        fprintf(stderr, "tokio %s: warning: '%s' is empty (0 bytes); "
                "skipped\n", cmd, path);
        return 0;
    }
    /* records folded as they are decoded: memory is per file */
    rc = tokio_darshan_bad_ost_add_path(b, path);
    if (rc == TOKIO_PARTIAL)
        fprintf(stderr, "tokio %s: warning: '%s' is incomplete (a module "
                "ran out of memory); using what it holds\n", cmd, path);
    if (rc == TOKIO_ENOTFOUND) {
        fprintf(stderr, "tokio %s: warning: %s; skipped\n", cmd,
                tokio_errmsg());
        return 0;
    }
    return rc < 0 ? cli_fail(cmd, NULL) : 0;
}

/* The text report: the results and the options that made them. */
struct report {
    const struct tokio_darshan_bad_ost_result *res;
    size_t n;
    const struct tokio_darshan_bad_ost_opts *o;
};

static int
write_report(FILE *fp, void *ctx)
{
    const struct report *r = ctx;

    return tokio_darshan_bad_ost_write_text(r->res, r->n, r->o, fp);
}

static int
emit(const char *cmd, const char *output, int as_json,
     const struct tokio_darshan_bad_ost_result *res, size_t n,
     const struct tokio_darshan_bad_ost_opts *o)
{
    json_t *json = NULL;
    int rc;

    if (as_json) {
        if (tokio_darshan_bad_ost_to_json(res, n, o, &json) < 0)
            return cli_fail(cmd, NULL);
        /* the reference: json.dumps(indent=4, sort_keys=True) */
        rc = cli_write_json(cmd, output, json,
                            TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4));
        json_decref(json);
        return rc;
    }
    struct report job = { res, n, o };
    return cli_write_output(cmd, output, write_report, &job);
}

int
cmd_darshan_bad_ost(int argc, char **argv)
{
    const char *cmd = argv[0];
    struct tokio_darshan_bad_ost_opts o = TOKIO_DARSHAN_BAD_OST_OPTS_DEFAULT;
    const char *output = NULL;
    int as_json = 0;
    const struct cli_option opts[] = {
        OPT_FLAG('j', "json", &as_json, "return output in JSON format"),
        OPT_DOUBLE('p', "p-threshold", &o.p_threshold, "<p>",
                   "p-value above which correlations will not be "
                   "displayed (default: 0.05)"),
        OPT_DOUBLE('c', "c-threshold", &o.c_threshold, "<c>",
                   "coefficient below which abs(correlations) will not "
                   "be displayed (default: 0.0)"),
        OPT_DOUBLE('C', "c-warning", &o.c_warning, "<c>",
                   "print a warning if abs(correlations) is above this "
                   "threshold (default: 0.5)"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_darshan_bad_ost *b = NULL;
    struct tokio_darshan_bad_ost_result *res = NULL;
    size_t n_res = 0;
    int npos, rc = 0;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos == 0)
        return cli_usage_error(cmd, "at least one Darshan log is required");

    if (tokio_darshan_bad_ost_new(&b) < 0)
        return cli_fail(cmd, NULL);
    for (int i = 1; i <= npos && rc == 0; i++)
        rc = add_one(cmd, b, argv[i]);
    if (rc == 0) {
        size_t skipped = tokio_darshan_bad_ost_no_time(b);
        if (skipped > 0)
            fprintf(stderr, "tokio %s: warning: %zu file%s without any I/O "
                    "time left out (no performance to correlate)\n", cmd,
                    skipped, skipped == 1 ? "" : "s");
        if (tokio_darshan_bad_ost_correlate(b, &res, &n_res) < 0)
            rc = cli_fail(cmd, NULL);
        else
            rc = emit(cmd, output, as_json, res, n_res, &o);
    }
    free(res);
    tokio_darshan_bad_ost_free(b);
    return rc;
}
