/*
 * tests/connectors/test_darshan_derived.c - the derived views of the
 * Darshan connector (darshan_derived.c): `darshan-parser --total`,
 * `--perf` and `--file` against darshan-parser 3.5.0's goldens
 * (testdata/golden/darshan-parser*), a few values recomputed here from
 * the records through the public accessors, bad arguments, and the OOM
 * loop (these two on a log made here, so they run without the pack).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

/* ---- fixtures ------------------------------------------------------- */

/* Open a log under testdata, following alias files. */
static struct tokio_darshan *
open_log(const char *path, int expect_rc)
{
    size_t len = 0;
    unsigned char *buf = (unsigned char *)tokio_test_read_data(path, &len);
    struct tokio_darshan *log = NULL;

    assert_non_null(buf);
    int rc = tokio_darshan_open_mem(&log, buf, len, path);
    if (rc != expect_rc)
        print_message("%s: rc %d: %s\n", path, rc, tokio_errmsg());
    assert_int_equal(rc, expect_rc);
    free(buf);
    return log;
}

/* A log made with the writer: POSIX, MPI-IO and STDIO records of four
 * ranks and shared ones, counters varied enough to move the figures. */
static struct tokio_darshan *
made_log(void)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" },
    };
    struct tokio_darshan_job_info job = {
        .uid = 7, .jobid = 8, .start_time = 1500000000,
        .end_time = 1500000100, .nprocs = 4, .exe = "/bin/x",
        .n_mounts = 1, .mounts = mounts,
    };
    static const int mods[] = {
        TOKIO_DARSHAN_POSIX, TOKIO_DARSHAN_MPIIO, TOKIO_DARSHAN_STDIO,
    };
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan *log = NULL;
    unsigned char *buf = NULL;
    size_t len = 0;
    int64_t c[128];
    double f[32];

    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_add_name(w, 1, "/scratch/a"), 0);
    for (size_t k = 0; k < sizeof(mods) / sizeof(mods[0]); k++)
        for (int64_t i = 0; i < 12; i++) {
            size_t ni = tokio_darshan_counter_count(mods[k]);
            size_t nf = tokio_darshan_fcounter_count(mods[k]);
            for (size_t j = 0; j < ni; j++)
                c[j] = (i * 37 + (int64_t)j * 11) % 1000;
            for (size_t j = 0; j < nf; j++)
                f[j] = (double)((i * 13 + (int64_t)j) % 50) / 4.0;
            assert_int_equal(tokio_darshan_writer_add_record(
                                 w, mods[k], 1 + (uint64_t)(i % 3),
                                 i % 5 - 1, c, ni, f, nf), TOKIO_OK);
        }
    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, &len), 0);
    tokio_darshan_writer_free(w);
    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "made.darshan"),
                     TOKIO_OK);
    free(buf);
    return log;
}

typedef int (*writer_fn)(const struct tokio_darshan *, FILE *);

static const struct {
    const char *mode;
    writer_fn write;
} views[] = {
    { "total", tokio_darshan_write_total },
    { "perf", tokio_darshan_write_perf },
    { "file", tokio_darshan_write_file },
};

#define N_VIEWS (sizeof(views) / sizeof(views[0]))

static char *
view_text(const struct tokio_darshan *log, writer_fn write, size_t *len_out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);

    assert_non_null(fp);
    int rc = write(log, fp);
    if (rc != TOKIO_OK)
        print_message("write: %s\n", tokio_errmsg());
    assert_int_equal(rc, TOKIO_OK);
    fclose(fp);
    *len_out = len;
    return text;
}

/* Compare every view of `logrel` with golden/<gdir>/<gbase>.<mode>.txt. */
static void
check_views(const char *logrel, const char *gdir, const char *gbase,
            int expect_rc)
{
    TOKIO_TEST_NEED_DATA(logpath, logrel);
    char lp[4096];
    snprintf(lp, sizeof(lp), "%s", logpath);
    struct tokio_darshan *log = open_log(lp, expect_rc);
    const char *slash = strrchr(gbase, '/');

    for (size_t v = 0; v < N_VIEWS; v++) {
        char gr[512];
        snprintf(gr, sizeof(gr), "golden/%s/%s.%s.txt", gdir,
                 slash ? slash + 1 : gbase, views[v].mode);
        const char *gp = tokio_test_data(gr);
        assert_non_null(gp);
        size_t glen = 0, tlen = 0;
        char *golden = tokio_test_read_data(gp, &glen);
        assert_non_null(golden);
        char *text = view_text(log, views[v].write, &tlen);
        if (tlen != glen || memcmp(text, golden, glen) != 0) {
            size_t i = 0;
            while (i < tlen && i < glen && text[i] == golden[i])
                i++;
            print_message("%s: differs from %s at byte %zu:\n got: %.80s\n"
                          "want: %.80s\n", logrel, gr, i, text + i,
                          golden + i);
            fail();
        }
        free(text);
        free(golden);
    }
    tokio_darshan_free(log);
}

/* ---- golden comparisons --------------------------------------------- */

static void
test_darshan_derived_match_golden_sample_logs(void **state)
{
    static const char *const logs[] = {
        "dxt", "example", "ior_hdf5_example", "noposix", "noposixopens",
        "sample-badost", "sample-dxt-simple", "sample-goodost", "sample",
        "shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158",
    };
    char lr[512];

    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs");
    (void)d;
    for (size_t i = 0; i < sizeof(logs) / sizeof(*logs); i++) {
        snprintf(lr, sizeof(lr), "darshan-logs/%s.darshan", logs[i]);
        check_views(lr, "darshan-parser", logs[i], TOKIO_OK);
    }
}

static void
test_darshan_derived_match_golden_pytokio_logs(void **state)
{
    static const char *const logs[] = {
        "noposix", "noposixopens", "sample-2", "sample-badost",
        "sample-goodost", "sample",
        "glock_vpicio_uni_id4478544_3-20-7667-18385393005962577517_1",
        "darshanlogs/2017/3/20/"
        "glock_dbscan_read_id4478544_3-20-7800-15217972833987807816_1",
        "darshanlogs/2017/3/20/"
        "glock_vpicio_uni_id4478544_3-20-7667-18385393005962577517_1",
    };
    char lr[512];

    (void)state;
    TOKIO_TEST_NEED_DATA(d, "pytokio-inputs");
    (void)d;
    for (size_t i = 0; i < sizeof(logs) / sizeof(*logs); i++) {
        snprintf(lr, sizeof(lr), "pytokio-inputs/%s.darshan", logs[i]);
        check_views(lr, "darshan-parser", logs[i], TOKIO_OK);
    }
}

static void
test_darshan_derived_match_golden_derived_logs(void **state)
{
    static const char *const logs[] = {
        "conv_bz_dxt", "conv_bz_ior_hdf5_example",
        "conv_bz_sample-dxt-simple", "conv_bz_sample", "conv_dxt",
        "conv_ior_hdf5_example", "conv_sample-dxt-simple", "conv_sample",
        "nocomp_ior", "nocomp_sample", "swap_dxtsimple", "swap_sample",
        "v320",
    };
    char lr[512], g[128];

    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs-derived");
    (void)d;
    for (size_t i = 0; i < sizeof(logs) / sizeof(*logs); i++) {
        snprintf(lr, sizeof(lr), "darshan-logs-derived/%s.darshan", logs[i]);
        check_views(lr, "darshan-parser-derived", logs[i], TOKIO_OK);
    }
    /* partial logs: we print what --show-incomplete prints */
    for (int k = 0; k < 2; k++) {
        const char *b = k ? "partial2_sample" : "partial_sample";
        snprintf(lr, sizeof(lr), "darshan-logs-derived/%s.darshan", b);
        snprintf(g, sizeof(g), "%s.show-incomplete", b);
        check_views(lr, "darshan-parser-derived", g, TOKIO_PARTIAL);
    }
}

/* ---- values recomputed from the records ------------------------------ */

/* Index of counter `name` of module `mod`. */
static size_t
counter(int mod, const char *name)
{
    for (size_t i = 0; i < tokio_darshan_counter_count(mod); i++)
        if (strcmp(tokio_darshan_counter_name(mod, i), name) == 0)
            return i;
    fail_msg("no counter %s", name);
    return 0;
}

static size_t
fcounter(int mod, const char *name)
{
    for (size_t i = 0; i < tokio_darshan_fcounter_count(mod); i++)
        if (strcmp(tokio_darshan_fcounter_name(mod, i), name) == 0)
            return i;
    fail_msg("no fcounter %s", name);
    return 0;
}

static void
test_darshan_derived_values_follow_from_records(void **state)
{
    const int mod = TOKIO_DARSHAN_POSIX;

    (void)state;
    TOKIO_TEST_NEED_DATA(p, "darshan-logs/sample-dxt-simple.darshan");
    struct tokio_darshan *log = open_log(p, TOKIO_OK);
    size_t br = counter(mod, "POSIX_BYTES_READ");
    size_t bw = counter(mod, "POSIX_BYTES_WRITTEN");
    size_t opens = counter(mod, "POSIX_OPENS");
    size_t rt = fcounter(mod, "POSIX_F_READ_TIME");
    size_t wt = fcounter(mod, "POSIX_F_WRITE_TIME");
    size_t mt = fcounter(mod, "POSIX_F_META_TIME");
    int64_t bytes = 0, n_opens = 0;
    double shared = 0.0, slowest = 0.0;
    int64_t nprocs = tokio_darshan_job(log)->nprocs;
    double *per_rank = calloc((size_t)nprocs, sizeof(double));
    assert_non_null(per_rank);

    size_t n = tokio_darshan_record_count(log, mod);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const struct tokio_darshan_record *r =
            tokio_darshan_record(log, mod, i);
        bytes += r->counters[br] + r->counters[bw];
        n_opens += r->counters[opens];
        if (r->rank < 0)
            shared += r->fcounters[fcounter(mod, "POSIX_F_SLOWEST_RANK_TIME")];
        else
            per_rank[r->rank] += r->fcounters[mt] + r->fcounters[rt] +
                                 r->fcounters[wt];
    }
    int64_t slowest_rank = 0;
    for (int64_t k = 0; k < nprocs; k++)
        if (per_rank[k] > slowest) {
            slowest = per_rank[k];
            slowest_rank = k;
        }
    free(per_rank);

    struct tokio_darshan_perf perf;
    assert_int_equal(tokio_darshan_perf(log, mod, &perf), TOKIO_OK);
    assert_int_equal(perf.total_bytes, bytes);
    assert_int_equal(perf.total_bytes, 4040);   /* the golden's value */
    assert_int_equal(perf.slowest_rank, slowest_rank);
    assert_true(perf.slowest_rank_io_time == slowest);
    assert_true(perf.shared_time_by_slowest == shared);
    assert_true(perf.agg_time_by_slowest == slowest + shared);
    assert_true(perf.agg_perf_by_slowest ==
                ((double)bytes / 1048576.0) / (slowest + shared));

    struct tokio_darshan_total *t = NULL;
    assert_int_equal(tokio_darshan_totals(log, mod, &t), TOKIO_OK);
    assert_int_equal(t->n_records, n);
    assert_int_equal(t->counters[opens], n_opens);
    assert_int_equal(t->counters[br] + t->counters[bw], bytes);
    tokio_darshan_total_free(t);

    struct tokio_darshan_file_counts fc;
    assert_int_equal(tokio_darshan_file_counts(log, mod, &fc), TOKIO_OK);
    const struct tokio_darshan_file_category *all =
        &fc.kind[TOKIO_DARSHAN_FILES_TOTAL];
    assert_int_equal(all->bytes_read + all->bytes_written, bytes);
    assert_int_equal(all->count, 18);
    assert_int_equal(fc.kind[TOKIO_DARSHAN_FILES_UNIQUE].count, 16);
    tokio_darshan_free(log);
}

static void
test_darshan_derived_sample_posix_is_one_shared_file(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(p, "darshan-logs/sample.darshan");
    struct tokio_darshan *log = open_log(p, TOKIO_OK);
    const int mod = TOKIO_DARSHAN_POSIX;
    int64_t bytes = 0;

    for (size_t i = 0; i < tokio_darshan_record_count(log, mod); i++) {
        const struct tokio_darshan_record *r =
            tokio_darshan_record(log, mod, i);
        bytes += r->counters[counter(mod, "POSIX_BYTES_READ")] +
                 r->counters[counter(mod, "POSIX_BYTES_WRITTEN")];
    }
    struct tokio_darshan_perf perf;
    assert_int_equal(tokio_darshan_perf(log, mod, &perf), TOKIO_OK);
    assert_int_equal(perf.total_bytes, bytes);
    assert_int_equal(bytes, INT64_C(2199023259968));
    assert_int_equal(perf.slowest_rank, 0);
    assert_true(perf.slowest_rank_io_time == 0.0);

    struct tokio_darshan_file_counts fc;
    assert_int_equal(tokio_darshan_file_counts(log, mod, &fc), TOKIO_OK);
    assert_int_equal(fc.kind[TOKIO_DARSHAN_FILES_SHARED].count, 1);
    assert_int_equal(fc.kind[TOKIO_DARSHAN_FILES_WRITE_ONLY].count, 1);
    assert_int_equal(fc.kind[TOKIO_DARSHAN_FILES_UNIQUE].count, 0);

    /* STDIO's FDOPENS are up-converted -1s and are summed unclamped */
    struct tokio_darshan_total *t = NULL;
    assert_int_equal(tokio_darshan_totals(log, TOKIO_DARSHAN_STDIO, &t),
                     TOKIO_OK);
    assert_int_equal(
        t->counters[counter(TOKIO_DARSHAN_STDIO, "STDIO_FDOPENS")], -129);
    tokio_darshan_total_free(t);
    tokio_darshan_free(log);
}

/* ---- bad arguments --------------------------------------------------- */

static void
test_darshan_derived_other_modules_are_einval(void **state)
{
    (void)state;
    struct tokio_darshan *log = made_log();
    struct tokio_darshan_total *t = (void *)1;
    struct tokio_darshan_perf perf;
    struct tokio_darshan_file_counts fc;

    assert_int_equal(tokio_darshan_totals(log, TOKIO_DARSHAN_LUSTRE, &t),
                     TOKIO_EINVAL);
    assert_null(t);
    assert_int_equal(tokio_darshan_perf(log, -1, &perf), TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_file_counts(log, 99, &fc), TOKIO_EINVAL);
    /* a module the log lacks: darshan-util's empty accumulator */
    assert_int_equal(tokio_darshan_totals(log, TOKIO_DARSHAN_DFS, &t),
                     TOKIO_OK);
    assert_int_equal(t->n_records, 0);
    assert_int_equal(t->counters[0], 0);
    tokio_darshan_total_free(t);
    assert_int_equal(tokio_darshan_perf(log, TOKIO_DARSHAN_DAOS, &perf),
                     TOKIO_OK);
    assert_int_equal(perf.total_bytes, 0);
    assert_true(perf.agg_perf_by_slowest == 0.0);
    tokio_darshan_total_free(NULL);
    tokio_darshan_free(log);
}

/* ---- anomalies -------------------------------------------------------- */

static void
test_darshan_derived_survive_every_oom(void **state)
{
    (void)state;
    struct tokio_darshan *log = made_log();

    for (size_t v = 0; v < N_VIEWS; v++) {
        for (size_t n = 1;; n++) {
            char *text = NULL;
            size_t len = 0;
            FILE *fp = open_memstream(&text, &len);
            assert_non_null(fp);
            tokio_test_fail_alloc_at(n);
            int rc = views[v].write(log, fp);
            tokio_test_fail_alloc_at(0);
            fclose(fp);
            free(text);
            if (rc >= 0)
                break;
            assert_int_equal(rc, TOKIO_ENOMEM);
        }
    }
    for (size_t n = 1;; n++) {
        struct tokio_darshan_total *t = NULL;
        tokio_test_fail_alloc_at(n);
        int rc = tokio_darshan_totals(log, TOKIO_DARSHAN_MPIIO, &t);
        tokio_test_fail_alloc_at(0);
        if (rc >= 0) {
            tokio_darshan_total_free(t);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(t);
    }
    tokio_darshan_free(log);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_darshan_derived_match_golden_sample_logs),
        cmocka_unit_test(test_darshan_derived_match_golden_pytokio_logs),
        cmocka_unit_test(test_darshan_derived_match_golden_derived_logs),
        cmocka_unit_test(test_darshan_derived_values_follow_from_records),
        cmocka_unit_test(
            test_darshan_derived_sample_posix_is_one_shared_file),
        cmocka_unit_test(test_darshan_derived_other_modules_are_einval),
        cmocka_unit_test(test_darshan_derived_survive_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
