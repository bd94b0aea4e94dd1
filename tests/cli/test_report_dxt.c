/*
 * tests/cli/test_report_dxt.c - --dxt in report, summarize-job and
 * insights, on logs written here with the Darshan writer: the report's
 * heat map section (its cells counted), the dxt_* keys against values
 * derived by hand, the finding dxt_concentration at each of its levels,
 * nothing of DXT without --dxt, and memory: a log with 20 times the
 * segments costs report and summarize-job the same peak memory within a
 * small constant, with --dxt (the traces are folded into the heat map in
 * the pass that reads the log) and without (their regions are not even
 * inflated).
 */
#include "testutil.h"
#include "darshan_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis/schema_check.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

#define MIB 1048576
#define NPROCS 4

/* A traced access: rank, write or read, start second, bytes. */
struct access {
    int rank, write;
    double start;
    int64_t bytes;
};

/* The traces `acc` of module `mod` (DXT_POSIX or DXT_MPIIO) of a job of
 * `nprocs` ranks: each rank's accesses one record, writes first, each
 * taking 0.01 s, on a file of its own ("/lus/rank<R>.<suffix>"). */
static void
add_traces(struct tokio_darshan_writer *w, int mod, int nprocs,
           const struct access *acc, size_t n)
{
    struct tokio_darshan_segment segs[16];
    const char *suffix = mod == TOKIO_DARSHAN_DXT_POSIX ? "dat" : "mpiio";

    for (int r = 0; r < nprocs; r++) {
        struct tokio_darshan_record d = { 0 };
        char name[32];
        size_t k = 0;
        memset(segs, 0, sizeof(segs));
        for (int write = 1; write >= 0; write--)
            for (size_t i = 0; i < n; i++)
                if (acc[i].rank == r && acc[i].write == write) {
                    assert_true(k < 16);
                    segs[k].offset = (int64_t)k * MIB;
                    segs[k].length = acc[i].bytes;
                    segs[k].start_time = acc[i].start;
                    segs[k].end_time = acc[i].start + 0.01;
                    k++;
                    if (write)
                        d.n_writes++;
                    else
                        d.n_reads++;
                }
        if (k == 0)
            continue;
        snprintf(name, sizeof(name), "/lus/rank%d.%s", r, suffix);
        d.id = tokio_darshan_writer_hash(name);
        d.rank = r;
        d.hostname = "nid00001";
        d.segments = segs;
        assert_int_equal(tokio_darshan_writer_add_name(w, d.id, name),
                         TOKIO_OK);
        if (tokio_darshan_writer_add(w, mod, &d) != TOKIO_OK)
            fail_msg("%s", tokio_errmsg());
    }
}

/* A log of a 100-second job of `nprocs` ranks whose DXT_POSIX traces are
 * `posix` and DXT_MPIIO traces `mpiio` (add_traces()); with no access at
 * all, a log with no DXT module. */
static void
write_layers(const char *path, int nprocs, const struct access *posix,
             size_t n_posix, const struct access *mpiio, size_t n_mpiio)
{
    struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 4243, .start_time = 1600000000,
        .end_time = 1600000100, .nprocs = nprocs, .exe = "./dxt <b>app</b>",
    };
    const struct tokio_darshan_mount mounts[] = { { "/lus", "lustre" } };
    struct tokio_darshan_writer *w = NULL;

    job.n_mounts = 1;
    job.mounts = mounts;
    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    add_traces(w, TOKIO_DARSHAN_DXT_POSIX, nprocs, posix, n_posix);
    add_traces(w, TOKIO_DARSHAN_DXT_MPIIO, nprocs, mpiio, n_mpiio);
    if (tokio_darshan_writer_write(w, path) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    tokio_darshan_writer_free(w);
}

/* Only DXT_POSIX traces, `acc`. */
static void
write_log_of(const char *path, int nprocs, const struct access *acc,
             size_t n)
{
    write_layers(path, nprocs, acc, n, NULL, 0);
}

static void
write_log(const char *path, const struct access *acc, size_t n)
{
    write_log_of(path, NPROCS, acc, n);
}

/* Rank 0 writes 4 MiB in one burst at 10.2 s, rank 3 2 MiB at 10.4 s,
 * rank 1 reads 1 MiB at 50.2 s and 1 MiB at 70.2 s; rank 2 is idle. */
static const struct access concentrated[] = {
    { 0, 1, 10.20, MIB }, { 0, 1, 10.22, MIB }, { 0, 1, 10.24, MIB },
    { 0, 1, 10.26, MIB }, { 3, 1, 10.40, 2 * MIB }, { 1, 0, 50.20, MIB },
    { 1, 0, 70.20, MIB },
};

/* Every rank writes 1 MiB at 30.2 s: one burst, no rank above another. */
static const struct access burst[] = {
    { 0, 1, 30.2, MIB }, { 1, 1, 30.2, MIB }, { 2, 1, 30.2, MIB },
    { 3, 1, 30.2, MIB },
};

/* Each rank writes 1 MiB at its own time: spread in ranks and time. */
static const struct access spread[] = {
    { 0, 1, 10.2, MIB }, { 1, 1, 30.2, MIB }, { 2, 1, 50.2, MIB },
    { 3, 1, 70.2, MIB },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const env[] = { "TZ=UTC", NULL };

static char *
run_ok(const char *const *argv)
{
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    if (r.status != 0)
        print_message("%s: %s\n", argv[0], r.err);
    assert_int_equal(r.status, 0);
    free(r.err);
    return r.out;
}

static size_t
count(const char *hay, const char *needle)
{
    size_t n = 0;

    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The page of `tokio report [--dxt] -o <dir>/r.html log`. */
static char *
report(const char *dir, const char *log, int dxt)
{
    char *page = tokio_test_join(dir, "r.html");
    const char *argv[] = { "report", "-o", page, dxt ? "--dxt" : log,
                           dxt ? log : NULL, NULL };
    free(run_ok(argv));
    char *html = tokio_test_read_file(page, NULL);
    assert_non_null(html);
    free(page);
    return html;
}

/* The DXT section of a report's page, up to its figure's end. */
static char *
dxt_section(const char *html)
{
    const char *sec = strstr(html, "<h2>DXT: bytes by rank and time</h2>");
    assert_non_null(sec);
    const char *end = strstr(sec, "</figure>");
    assert_non_null(end);
    return strndup(sec, (size_t)(end - sec));
}

static void
test_report_dxt_section(void **state)
{
    const char *dir = *state;
    char *log = tokio_test_join(dir, "c.darshan");
    char *none = tokio_test_join(dir, "none.darshan");

    write_log(log, concentrated, N(concentrated));
    write_log(none, NULL, 0);

    char *html = report(dir, log, 1);
    char *part = dxt_section(html);
    assert_contains(part, "<p>7 POSIX segments traced moved 8.0 MiB in 60 "
                          "time bins");
    assert_contains(part, "the busiest bin moved 75% of the bytes, the "
                          "busiest rank (0) 50%.");
    /* 4 rows (ranks) by 60 bins of 5/3 s: rank 0 and 3 in bin 6, rank 1
     * in bins 30 and 42: four cells drawn, one SVG */
    assert_int_equal(count(part, "<svg"), 1);
    assert_int_equal(count(part, "stroke:none;fill-rule:nonzero;fill:rgb("),
                     4);
    free(part);
    /* nothing of the log is markup */
    assert_null(strstr(html, "<b>app"));
    /* --dxt also brings the finding */
    assert_contains(html, "rank 0 of 4 moved");
    free(html);

    html = report(dir, log, 0);
    assert_null(strstr(html, "DXT"));
    assert_null(strstr(html, "rank 0 of 4 moved"));
    free(html);

    html = report(dir, none, 1);
    assert_contains(html, "<h2>DXT: bytes by rank and time</h2>\n"
                          "<p class=\"absent\">The log holds no DXT traces");
    assert_int_equal(count(html, "<h2>DXT"), 1);
    free(html);

    /* 40 ranks each writing 1 MiB at 20.2 s: drawn as 32 rows (ranks
     * 0-1, 2, 3, 4, 5-6, ... grouped evenly), one cell each */
    struct access all[40];
    for (int r = 0; r < 40; r++)
        all[r] = (struct access){ r, 1, 20.2, MIB };
    write_log_of(log, 40, all, 40);
    html = report(dir, log, 1);
    part = dxt_section(html);
    assert_contains(part, "<p>40 POSIX segments traced moved 40.0 MiB in 60 "
                          "time bins of 1.67 s (32 rows of about 1.25 ranks "
                          "each)");
    assert_int_equal(count(part, "stroke:none;fill-rule:nonzero;fill:rgb("),
                     32);
    free(part);
    free(html);
    free(log);
    free(none);
}

static json_t *
summary(const char *log, int dxt)
{
    const char *argv[] = { "summarize-job", "-j", dxt ? "--dxt" : log,
                           dxt ? log : NULL, NULL };
    char *out = run_ok(argv);
    json_error_t e;
    json_t *rows = json_loads(out, 0, &e);

    assert_non_null(rows);
    free(out);
    json_t *row = json_incref(json_array_get(rows, 0));
    json_decref(rows);
    assert_non_null(row);
    return row;
}

static double
num(const json_t *row, const char *key)
{
    const json_t *v = json_object_get(row, key);

    if (!json_is_number(v))
        fail_msg("no number %s", key);
    return json_number_value(v);
}

/* summarize-job --dxt's row of `log`, its keys that every case checks
 * compared: segments, MiB, the busiest bin's and rank's shares, ranks. */
static json_t *
dxt_row(const char *log, int segments, double mib, double peak_bin_share,
        double busiest_rank_share, int active_ranks)
{
    json_t *row = summary(log, 1);

    assert_int_equal(num(row, "dxt_segments"), segments);
    assert_true(num(row, "dxt_bytes") == mib * MIB);
    assert_true(num(row, "dxt_peak_bin_share") == peak_bin_share);
    assert_true(num(row, "dxt_busiest_rank_share") == busiest_rank_share);
    assert_int_equal(num(row, "dxt_active_ranks"), active_ranks);
    return row;
}

static void
test_summarize_job_dxt_keys(void **state)
{
    const char *dir = *state;
    char *log = tokio_test_join(dir, "c.darshan");
    char *none = tokio_test_join(dir, "none.darshan");
    struct tokio_darshan *l = NULL;

    write_log(log, concentrated, N(concentrated));
    write_log(none, NULL, 0);
    assert_int_equal(tokio_darshan_open(&l, log), TOKIO_OK);
    double run = tokio_darshan_run_time(l);
    tokio_darshan_free(l);

    /* by hand: 7 segments, 4 + 2 + 2 MiB; bins of run/100 s, the one at
     * 10 s holding rank 0's 4 MiB and rank 3's 2 MiB (75%); 3 bins of
     * 100 busy; rank 0 moved half; ranks 0, 1, 3 moved any */
    json_t *row = dxt_row(log, 7, 8.0, 0.75, 0.5, 3);
    assert_true(fabs(num(row, "dxt_bin_seconds") - run / 100) < 1e-12);
    assert_true(num(row, "dxt_peak_bin_bytes") == 6.0 * MIB);
    assert_true(num(row, "dxt_active_bin_share") == 0.03);
    assert_int_equal(num(row, "dxt_busiest_rank"), 0);
    json_decref(row);

    /* without --dxt: no dxt_ key (the goldens stay as they are) */
    row = summary(log, 0);
    const char *key;
    json_t *v;
    json_object_foreach(row, key, v)
        assert_true(strncmp(key, "dxt_", 4) != 0);
    json_decref(row);

    /* a log without traces: dxt_segments 0 and nothing else */
    row = summary(none, 1);
    assert_int_equal(num(row, "dxt_segments"), 0);
    assert_null(json_object_get(row, "dxt_bytes"));
    json_decref(row);
    free(log);
    free(none);
}

/* The finding dxt_concentration of `tokio insights --client-only [--dxt]
 * -j log`, or NULL. */
static json_t *
finding(const char *log, int dxt)
{
    const char *argv[] = { "insights", "--client-only", "-j",
                           dxt ? "--dxt" : log, dxt ? log : NULL, NULL };
    char *out = run_ok(argv);
    json_error_t e;
    json_t *res = json_loads(out, 0, &e), *x, *found = NULL;
    size_t i;

    assert_non_null(res);
    free(out);
    /* valid against the committed schema, the new rule's code in it */
    json_t *schema = json_load_file(tokio_test_source(
                                        "tests/analysis/insights.schema.json"),
                                    0, &e);
    json_t *list = json_is_array(res) ? json_incref(res)
                                      : json_pack("[O]", res);
    char err[1024];
    if (schema == NULL)
        fail_msg("insights.schema.json: %s", e.text);
    if (schema_check(schema, list, err, sizeof(err)) != 0)
        fail_msg("not valid against the schema: %s", err);
    assert_int_equal(json_array_size(json_object_get(
                         json_array_get(list, 0), "findings")), 34 + dxt);
    json_decref(list);
    json_decref(schema);
    if (json_is_array(res)) {
        json_t *first = json_incref(json_array_get(res, 0));
        json_decref(res);
        res = first;
    }
    json_array_foreach(json_object_get(res, "findings"), i, x)
        if (strcmp(json_string_value(json_object_get(x, "code")),
                   "dxt_concentration") == 0)
            found = json_incref(x);
    json_decref(res);
    return found;
}

static const char *
level(const json_t *x)
{
    const json_t *l = json_object_get(x, "level");

    return json_is_string(l) ? json_string_value(l) : "null";
}

static void
test_insights_dxt_finding(void **state)
{
    const char *dir = *state;
    char *log = tokio_test_join(dir, "x.darshan");
    json_t *x;

    write_log(log, concentrated, N(concentrated));
    assert_null(finding(log, 0));
    x = finding(log, 1);
    assert_non_null(x);
    assert_string_equal(level(x), "warning");
    assert_contains(json_string_value(json_object_get(x, "title")),
                    "rank 0 of 4 moved 4");
    assert_contains(json_string_value(json_object_get(x, "title")),
                    "50% of the 8");
    const json_t *nums = json_object_get(x, "numbers");
    assert_true(num(nums, "busiest_rank_share") == 0.5);
    assert_true(num(nums, "peak_bin_share") == 0.75);
    assert_true(num(nums, "bytes") == 8.0 * MIB);
    assert_int_equal(num(nums, "segments"), 7);
    assert_true(num(json_object_get(x, "thresholds"), "dxt_rank_share") ==
                0.5);
    assert_true(json_is_string(json_object_get(x, "recommendation")));
    const json_t *f0 = json_array_get(json_object_get(x, "files"), 0);
    assert_int_equal(json_integer_value(json_object_get(f0, "rank")), 0);
    assert_true(num(f0, "bytes") == 4.0 * MIB);
    json_decref(x);

    write_log(log, burst, N(burst));
    x = finding(log, 1);
    assert_string_equal(level(x), "info");
    assert_contains(json_string_value(json_object_get(x, "title")),
                    "100% of the 4");
    assert_true(num(json_object_get(x, "numbers"), "busiest_rank_share") ==
                0.25);
    assert_true(json_is_string(json_object_get(x, "recommendation")));
    json_decref(x);

    write_log(log, spread, N(spread));
    x = finding(log, 1);
    assert_string_equal(level(x), "ok");
    assert_true(num(json_object_get(x, "numbers"), "peak_bin_share") ==
                0.25);
    json_decref(x);

    write_log(log, NULL, 0);
    x = finding(log, 1);
    assert_string_equal(level(x), "null");
    assert_contains(json_string_value(json_object_get(x, "title")),
                    "no DXT traces");
    json_decref(x);
    free(log);
}

/* report --dxt's page of `log` holds `says`; the finding is at `lvl`,
 * its source naming `source`. */
static void
assert_page_and_finding(const char *dir, const char *log, const char *says,
                        const char *lvl, const char *source)
{
    char *html = report(dir, log, 1);
    assert_contains(html, says);
    free(html);
    json_t *x = finding(log, 1);
    assert_string_equal(level(x), lvl);
    assert_contains(json_string_value(json_object_get(x, "source")), source);
    json_decref(x);
}

/* One layer's bytes, not both: the DXT_MPIIO traces when the log has no
 * DXT_POSIX segment, else the POSIX ones only (the reader hands POSIX's
 * records over first, in the pass that reads the rest of the log). */
static void
test_dxt_mpiio_only_without_posix(void **state)
{
    const char *dir = *state;
    char *log = tokio_test_join(dir, "m.darshan");
    json_t *row;

    /* MPI-IO only: the figures of `concentrated` as for POSIX */
    write_layers(log, NPROCS, NULL, 0, concentrated, N(concentrated));
    row = dxt_row(log, 7, 8.0, 0.75, 0.5, 3);
    assert_int_equal(num(row, "dxt_busiest_rank"), 0);
    json_decref(row);
    assert_page_and_finding(dir, log, "<p>7 MPI-IO segments traced moved "
                            "8.0 MiB in 60 time bins", "warning",
                            "DXT_MPIIO traces");

    /* both: POSIX's `spread` (4 x 1 MiB, one rank each, 4 bins), the
     * MPI-IO `concentrated` left out */
    write_layers(log, NPROCS, spread, N(spread), concentrated,
                 N(concentrated));
    row = dxt_row(log, 4, 4.0, 0.25, 0.25, 4);
    assert_true(num(row, "dxt_active_bin_share") == 0.04);
    json_decref(row);
    assert_page_and_finding(dir, log, "<p>4 POSIX segments traced moved "
                            "4.0 MiB in 60 time bins", "ok",
                            "DXT_POSIX traces");
    free(log);
}

/* Peak memory of `tokio report [--dxt] -o <dir>/r.html log` (its page
 * into *out), or with `summarize`, of `tokio summarize-job -j [--dxt]
 * log` (its output into *out). */
static long
peak_of(const char *dir, const char *log, int summarize, int dxt,
        char **out)
{
    const struct tokio_test_limits lim = { 0, 60 };
    char *page = tokio_test_join(dir, "r.html");
    const char *report_argv[] = { "report", "-o", page,
                                  dxt ? "--dxt" : log, dxt ? log : NULL,
                                  NULL };
    const char *summary_argv[] = { "summarize-job", "-j",
                                   dxt ? "--dxt" : log, dxt ? log : NULL,
                                   NULL };
    long rss = 0;
    struct tokio_run r = tokio_test_run_bounded(
        dir, env, summarize ? summary_argv : report_argv, &lim, &rss);

    if (r.status != 0)
        print_message("%s: %s\n", summarize ? "summarize-job" : "report",
                      r.err);
    assert_int_equal(r.status, 0);
    if (summarize) {
        *out = r.out;
        r.out = NULL;
    } else {
        *out = tokio_test_read_file(page, NULL);
    }
    tokio_run_free(&r);
    assert_non_null(*out);
    free(page);
    return rss;
}

static void
test_report_dxt_memory_does_not_grow_with_segments(void **state)
{
    const char *dir = *state;
    const size_t small = 5000, big = 20 * small;
    char *small_log = tokio_test_join(dir, "small.darshan");
    char *big_log = tokio_test_join(dir, "big.darshan");
    char *p_small, *p_big;
    /* the big log's segments alone are 16 MB decoded; ASan adds its own */
    const long slack = tokio_test_sanitized() ? 8192 : 2048;

    assert_int_equal(tokio_test_darshan_dxt_log(small_log, NPROCS, small),
                     TOKIO_OK);
    assert_int_equal(tokio_test_darshan_dxt_log(big_log, NPROCS, big),
                     TOKIO_OK);
    for (int dxt = 1; dxt >= 0; dxt--) {
        long rss_small = peak_of(dir, small_log, 0, dxt, &p_small);
        long rss_big = peak_of(dir, big_log, 0, dxt, &p_big);
        print_message("report%s peak RSS: %ld KiB (%zu segments), %ld KiB "
                      "(%zu)\n", dxt ? " --dxt" : "", rss_small,
                      NPROCS * small, rss_big, NPROCS * big);
        assert_true(rss_big <= rss_small + slack);
        assert_int_equal(count(p_small, "<h2>DXT"), dxt);
        if (dxt) {
            assert_contains(p_small, "<p>20000 POSIX segments traced");
            assert_contains(p_big, "<p>400000 POSIX segments traced");
        }
        free(p_small);
        free(p_big);
    }
    /* summarize-job folds the traces in its one pass over the log too */
    for (int dxt = 1; dxt >= 0; dxt--) {
        long rss_small = peak_of(dir, small_log, 1, dxt, &p_small);
        long rss_big = peak_of(dir, big_log, 1, dxt, &p_big);
        print_message("summarize-job%s peak RSS: %ld KiB (%zu segments), "
                      "%ld KiB (%zu)\n", dxt ? " --dxt" : "", rss_small,
                      NPROCS * small, rss_big, NPROCS * big);
        assert_true(rss_big <= rss_small + slack);
        assert_int_equal(count(p_small, "\"dxt_segments\": 20000"), dxt);
        assert_int_equal(count(p_big, "\"dxt_segments\": 400000"), dxt);
        free(p_small);
        free(p_big);
    }
    free(small_log);
    free(big_log);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_report_dxt_section,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_summarize_job_dxt_keys,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_insights_dxt_finding,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_dxt_mpiio_only_without_posix,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(
            test_report_dxt_memory_does_not_grow_with_segments,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
