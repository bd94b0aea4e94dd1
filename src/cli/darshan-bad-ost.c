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
 *
 * --shard K/N takes shard K's share of the logs (by a hash of the path)
 * and writes, instead of a report, a part: the files' observations as
 * JSON, {"darshan_bad_ost_part": {"shard": "K/N", "logs": [{"index": i,
 * "path": p, "no_time": n, "files": [[name, perf, [ost, ...]], ...]}]}}
 * (i: the log's place among the arguments).  --parts then takes such
 * parts instead of logs and reports what one run over all the logs
 * would have: files in argument order, so the very same numbers.
 * Parts of different shard counts, one shard twice or one log in two
 * parts are refused, naming the parts.
 *
 * Under mpirun (src/cli/mpi/mpi_run.h) each log is read on whichever
 * rank asks for work, into what a part holds of it plus the messages its
 * reading would have printed; rank 0 prints those and adds the
 * observations in argument order, as --parts does, so the report, the
 * messages and the exit status are one process's.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#ifdef TOKIO_HAVE_MPI
#include "cli/mpi/mpi_run.h"
#endif
#include "cli/shard.h"
#include "tokio/analysis/darshan_bad_ost.h"
#include "tokio/connectors/darshan.h"
#include "tokio/output.h"
#include "tokio/tools/darshan_indexer.h"

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

/* Warn and go on, as the reference did, or fail: see the file header.
 * Messages go to `msgs` (stderr; under MPI a worker's memory). */
static int
add_one(const char *cmd, struct tokio_darshan_bad_ost *b, const char *path,
        FILE *msgs)
{
    struct stat st;
    int rc;

    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
        fprintf(msgs, "tokio %s: warning: '%s' is empty (0 bytes); "
                "skipped\n", cmd, path);
        return 0;
    }
    /* records folded as they are decoded: memory is per file */
    rc = tokio_darshan_bad_ost_add_path(b, path);
    if (rc == TOKIO_PARTIAL)
        fprintf(msgs, "tokio %s: warning: '%s' is incomplete (a module "
                "ran out of memory); using what it holds\n", cmd, path);
    if (rc == TOKIO_ENOTFOUND) {
        fprintf(msgs, "tokio %s: warning: %s; skipped\n", cmd,
                tokio_errmsg());
        return 0;
    }
    if (rc < 0)
        fprintf(msgs, "tokio %s: error: %s\n", cmd, tokio_errmsg());
    return rc < 0 ? CLI_EXIT_FAILURE : 0;
}

/* --shard: the observations of each log of the share, as a part. */
static int
add_to_part(json_t *logs, struct tokio_darshan_bad_ost *b, int index,
            const char *path, size_t files_before, size_t no_time_before)
{
    json_t *files = json_array(), *one;
    size_t n = tokio_darshan_bad_ost_file_count(b), plen = strlen(path);

    if (files == NULL)
        return -1;
    for (size_t i = files_before; i < n; i++) {
        double perf;
        const int64_t *osts;
        size_t n_osts;
        const char *key = tokio_darshan_bad_ost_file(b, i, &perf, &osts,
                                                     &n_osts);
        json_t *o = json_array(), *f;
        for (size_t k = 0; o != NULL && k < n_osts; k++)
            if (json_array_append_new(o, json_integer(osts[k])) < 0)
                break;
        f = json_pack("[o, f, o]", json_string_nocheck(key + plen + 1),
                      perf, o);
        if (f == NULL || json_array_append_new(files, f) < 0) {
            json_decref(files);
            return -1;
        }
    }
    one = json_pack("{s:i, s:o, s:I, s:o}", "index", index,
                    "path", json_string_nocheck(path),
                    "no_time", (json_int_t)(tokio_darshan_bad_ost_no_time(b)
                                            - no_time_before),
                    "files", files);
    return one != NULL && json_array_append_new(logs, one) == 0 ? 0 : -1;
}

/* A part's logs, checked, into `all` (index -> {path, no_time, files,
 * part}); `seen_k`/`n` the shards met so far.  An exit status. */
static int
read_part(const char *cmd, const char *path, json_t *all, char **argv,
          int i_arg, unsigned *n_out, unsigned char *seen)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err), *p, *logs, *log;
    const char *spec;
    unsigned k, n;
    size_t i;
    int rc = CLI_EXIT_OK;

    if (root == NULL)
        return cli_fail(cmd, "cannot read part '%s' line %d: %s", path,
                        err.line, err.text);
    p = json_object_get(root, "darshan_bad_ost_part");
    spec = json_string_value(json_object_get(p, "shard"));
    logs = json_object_get(p, "logs");
    if (spec == NULL || !json_is_array(logs) ||
        sscanf(spec, "%u/%u", &k, &n) != 2 || k < 1 || k > n || n > 65535) {
        json_decref(root);
        return cli_fail(cmd, "'%s' is not a part of darshan-bad-ost "
                        "--shard", path);
    }
    if (*n_out != 0 && *n_out != n)
        rc = cli_fail(cmd, "part '%s' is shard %s, another part is of %u "
                      "shards: parts of different runs", path, spec, *n_out);
    else if (seen[k - 1])
        rc = cli_fail(cmd, "part '%s' is shard %s, as another part is",
                      path, spec);
    *n_out = n;
    seen[k - 1] = 1;
    json_array_foreach(logs, i, log) {
        char key[32];
        json_t *had;
        if (rc != CLI_EXIT_OK)
            break;
        snprintf(key, sizeof(key), "%lld", (long long)json_integer_value(
                     json_object_get(log, "index")));
        if ((had = json_object_get(all, key)) != NULL) {
            rc = cli_fail(cmd, "parts '%s' and '%s' both hold log %s: "
                          "overlapping shards",
                          argv[json_integer_value(json_object_get(had,
                                                                  "part"))],
                          path, key);
            break;
        }
        if (json_object_set_new(log, "part", json_integer(i_arg)) < 0 ||
            json_object_set(all, key, log) < 0)
            rc = cli_fail(cmd, "out of memory");
    }
    json_decref(root);
    return rc;
}

static int
cmp_index(const void *a, const void *b)
{
    long long x = json_integer_value(json_object_get(*(json_t *const *)a,
                                                     "index"));
    long long y = json_integer_value(json_object_get(*(json_t *const *)b,
                                                     "index"));

    return (x > y) - (x < y);
}

/* One log of a part (its "path", "no_time", "files") into `b`. */
static int
add_part_log(const char *cmd, struct tokio_darshan_bad_ost *b,
             const json_t *log)
{
    const char *path = json_string_value(json_object_get(log, "path"));
    json_t *files = json_object_get(log, "files"), *f;
    size_t i;
    int rc = CLI_EXIT_OK;

    if (path == NULL ||
        tokio_darshan_bad_ost_add_file(b, path, NULL, 0, NULL, 0,
            (size_t)json_integer_value(json_object_get(log, "no_time"))) < 0)
        rc = cli_fail(cmd, "a part holds a log without a path");
    json_array_foreach(files, i, f) {
        int64_t osts[4096];
        size_t n_osts = 0, k;
        json_t *o;
        if (rc != CLI_EXIT_OK)
            break;
        json_array_foreach(json_array_get(f, 2), k, o)
            if (n_osts < sizeof(osts) / sizeof(*osts))
                osts[n_osts++] = json_integer_value(o);
        if (tokio_darshan_bad_ost_add_file(
                b, path, json_string_value(json_array_get(f, 0)),
                json_number_value(json_array_get(f, 1)), osts, n_osts,
                0) < 0)
            rc = cli_fail(cmd, NULL);
    }
    return rc;
}

/* --parts: the observations of every part, in the logs' argument order. */
static int
add_parts(const char *cmd, struct tokio_darshan_bad_ost *b, char **argv,
          int npos)
{
    json_t *all = json_object(), *v, **order = NULL;
    unsigned char *seen = calloc(65535, 1);
    unsigned n = 0;
    const char *key;
    size_t m = 0;
    int rc = CLI_EXIT_OK;

    if (all == NULL || seen == NULL)
        rc = cli_fail(cmd, "out of memory");
    for (int i = 1; i <= npos && rc == CLI_EXIT_OK; i++)
        rc = read_part(cmd, argv[i], all, argv, i, &n, seen);
    if (rc == CLI_EXIT_OK &&
        (order = calloc(json_object_size(all) + 1, sizeof(*order))) == NULL)
        rc = cli_fail(cmd, "out of memory");
    if (rc == CLI_EXIT_OK) {
        json_object_foreach(all, key, v)
            order[m++] = v;
        qsort(order, m, sizeof(*order), cmp_index);
    }
    for (size_t l = 0; rc == CLI_EXIT_OK && l < m; l++)
        rc = add_part_log(cmd, b, order[l]);
    free(order);
    free(seen);
    json_decref(all);
    return rc;
}

#ifdef TOKIO_HAVE_MPI
/* One log read on a worker rank (MPI): {"messages": what add_one()
 * printed, "failed": whether it failed, "log": its part entry (null when
 * failed)}.  NULL when out of memory. */
static json_t *
observe_remote(void *arg, const char *path)
{
    const char *cmd = arg;
    struct tokio_darshan_bad_ost *b = NULL;
    json_t *logs = json_array(), *out = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *msgs = open_memstream(&text, &len);
    int rc = -1;

    if (logs != NULL && msgs != NULL && tokio_darshan_bad_ost_new(&b) == 0)
        rc = add_one(cmd, b, path, msgs);
    if (msgs != NULL && fclose(msgs) != 0)
        rc = -1;
    if (rc == 0 && add_to_part(logs, b, 0, path, 0, 0) < 0)
        rc = -1;
    if (rc >= 0)
        out = json_pack("{s:o, s:b, s:O?}",
                        "messages", json_string_nocheck(text),
                        "failed", rc != 0, "log", json_array_get(logs, 0));
    free(text);
    json_decref(logs);
    tokio_darshan_bad_ost_free(b);
    return out;
}

/* A log observe_remote() read into `b`, as add_one() would have. */
static int
add_observed(const char *cmd, struct tokio_darshan_bad_ost *b,
             const json_t *seen)
{
    fputs(json_string_value(json_object_get(seen, "messages")), stderr);
    if (json_is_true(json_object_get(seen, "failed")))
        return CLI_EXIT_FAILURE;
    return add_part_log(cmd, b, json_object_get(seen, "log"));
}
#endif

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
    const char *output = NULL, *shard = NULL;
    int as_json = 0, parts = 0;
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
        OPT_STRING(0, "shard", &shard, "<K/N>", CLI_SHARD_HELP
                   " (darshan-bad-ost --parts)"),
        OPT_FLAG(0, "parts", &parts, "the arguments are parts of --shard "
                 "runs: report on all their logs"),
        OPT_END
    };
    struct tokio_darshan_bad_ost *b = NULL;
    struct tokio_darshan_bad_ost_result *res = NULL;
    size_t n_res = 0;
    int npos, rc = 0;

#ifdef TOKIO_HAVE_MPI
    cli_mpi_hush();             /* under mpirun, rank 0 answers alone */
#endif
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos == 0)
        return cli_usage_error(cmd, "at least one Darshan log is required");
    unsigned shard_k, shard_n;
    if ((rc = cli_shard(cmd, shard, &shard_k, &shard_n)) != 0)
        return rc;
    if (parts && shard != NULL)
        return cli_usage_error(cmd, "--parts and --shard do not go "
                               "together");

#ifdef TOKIO_HAVE_MPI
    /* under mpirun the other ranks only read logs for rank 0 */
    json_t **pre = NULL;
    cli_mpi_unhush();
    int mpi = cli_mpi_active() && shard == NULL && !parts;
    if (mpi && cli_mpi_start() != 0)
        return cli_mpi_serve(cmd, observe_remote, (void *)cmd);
    if (mpi && (pre = cli_mpi_map(cmd, (const char *const *)argv + 1,
                                  (size_t)npos, observe_remote,
                                  (void *)cmd)) == NULL)
        return cli_mpi_end(CLI_EXIT_FAILURE);
#endif
    if (tokio_darshan_bad_ost_new(&b) < 0) {
        rc = cli_fail(cmd, NULL);
        goto out;
    }
    json_t *logs = shard != NULL ? json_array() : NULL;
    if (shard != NULL && logs == NULL)
        rc = cli_fail(cmd, "out of memory");
    if (parts)
        rc = add_parts(cmd, b, argv, npos);
    for (int i = 1; i <= npos && rc == 0 && !parts; i++) {
        if (!tokio_darshan_in_shard(argv[i], shard_k, shard_n))
            continue;
        size_t before = tokio_darshan_bad_ost_file_count(b);
        size_t no_time = tokio_darshan_bad_ost_no_time(b);
#ifdef TOKIO_HAVE_MPI
        if (pre != NULL) {
            rc = add_observed(cmd, b, pre[i - 1]);
            continue;
        }
#endif
        rc = add_one(cmd, b, argv[i], stderr);
        if (rc == 0 && logs != NULL &&
            add_to_part(logs, b, i, argv[i], before, no_time) < 0)
            rc = cli_fail(cmd, "out of memory");
    }
    if (rc == 0 && logs != NULL) {
        json_t *part = json_pack("{s:{s:s, s:O}}", "darshan_bad_ost_part",
                                 "shard", shard, "logs", logs);
        rc = part == NULL ? cli_fail(cmd, "out of memory")
           : cli_write_json(cmd, output, part, 0);
        json_decref(part);
        json_decref(logs);
        tokio_darshan_bad_ost_free(b);
        return rc;
    }
    json_decref(logs);
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
out:
    tokio_darshan_bad_ost_free(b);
#ifdef TOKIO_HAVE_MPI
    if (mpi)
        rc = cli_mpi_finish(pre, (size_t)npos, rc);
#endif
    return rc;
}
