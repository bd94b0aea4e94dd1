/*
 * tests/analysis/test_darshan_bad_ost.c - per-file performance, OST sets
 * and OST correlations (src/analysis/darshan_bad_ost.c).
 *
 * First logs made here with the project's Darshan writer, whose numbers
 * are chosen by hand: six files whose share of OST 7 and performance are
 * the vectors of test_stats.c's test_pearson_matches_mpmath, so OST 7's
 * coefficient and p-value are the mpmath values checked there; plus the
 * files the analysis must leave out.  Then the pack's logs.
 *
 * The pack's expected values were computed once, independently, by
 * darshan_bad_ost_reference.py beside this file (python3 + mpmath, 60
 * digits): it reads our `tokio cache-darshan --base` JSON of each log
 * (whose times are darshan-parser's "%f" text, as the reference read
 * them), and, following the reference's tokio/cli/darshan_bad_ost.py,
 * takes per file sum(BYTES_READ + BYTES_WRITTEN) / max(F_WRITE_TIME +
 * F_READ_TIME + F_META_TIME) over its ranks, its OSTs from
 * COMP1_OST_ID_<k> (every pack log has one component), the share
 * 1/len(OSTs), and r = sxy / sqrt(sxx syy), p = I_{1-r^2}((n-2)/2, 1/2)
 * with mpmath.betainc in 60 digits.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tokio/analysis/darshan_bad_ost.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

#define assert_close(got, want, tol)                                        \
    assert_close_at((got), (want), (tol), __FILE__, __LINE__)

static void
assert_close_at(double got, double want, double tol, const char *file,
                int line)
{
    double err = fabs(got - want);

    if (!(err <= tol * fabs(want))) {
        print_error("%s:%d: got %.17g, want %.17g (rel err %.3g > %.3g)\n",
                    file, line, got, want, err / fabs(want), tol);
        fail();
    }
}

/* ---- logs made here -------------------------------------------------- */

/* One POSIX record of a synthetic file. */
struct prec {
    int64_t rank, bytes_read, bytes_written;
    double write_time, read_time, meta_time;
};

/* A synthetic file: up to 2 POSIX records, up to 2 LUSTRE components
 * (each a list of OST ids, -1 ended). */
struct sfile {
    const char *name;
    size_t n_posix;
    struct prec posix[2];
    size_t n_comps;             /* 0: no LUSTRE record */
    int64_t comp_osts[2][5];
};

/*
 * Performance is bytes / 8 s: 2484 / 8 = 310.5 and so on, the y vector
 * of test_pearson_matches_mpmath; the shares of OST 7 are its x vector
 * (0.25: one of 4 OSTs, 0.5: one of 2, 0: not on it).
 */
static const struct sfile six[] = {
    /* two ranks: bytes add up, the slower rank's time counts */
    { "/scratch/f0", 2, { { 0, 1000, 484, 5.0, 2.5, 0.5 },
                          { 1, 1000, 0, 1.0, 1.0, 1.0 } },
      1, { { 1, 2, 3, 7, -1 } } },
    { "/scratch/f1", 1, { { -1, 3362, 0, 0.0, 8.0, 0.0 } },
      1, { { 1, 2, -1 } } },
    { "/scratch/f2", 1, { { -1, 0, 3320, 8.0, 0.0, 0.0 } },
      1, { { 3, 4, -1 } } },
    /* OST 7 twice (two components): still one of 4 distinct OSTs */
    { "/scratch/f3", 1, { { -1, 2000, 326, 4.0, 4.0, 0.0 } },
      2, { { 7, 1, -1 }, { 2, 3, 7, -1 } } },
    /* a progressive layout: the second component's OST counts too */
    { "/scratch/f4", 1, { { -1, 1441, 0, 0.0, 7.0, 1.0 } },
      2, { { 7, -1 }, { 4, -1 } } },
    { "/scratch/f5", 1, { { -1, 3204, 0, 2.0, 2.0, 4.0 } },
      1, { { 2, 3, -1 } } },
    /* left out: no time at all, a time "%f" prints as 0.000000, not on
     * Lustre */
    { "/scratch/idle", 1, { { -1, 0, 0, 0.0, 0.0, 0.0 } },
      1, { { 5, -1 } } },
    { "/scratch/blink", 1, { { -1, 100, 0, 4e-7, 0.0, 0.0 } },
      1, { { 6, -1 } } },
    { "/home/nolustre", 1, { { -1, 100, 0, 1.0, 0.0, 0.0 } },
      0, { { -1 } } },
    /* LUSTRE without POSIX (e.g. MPI-IO only through another layer) */
    { "/scratch/lustreonly", 0, { { 0, 0, 0, 0, 0, 0 } },
      1, { { 9, -1 } } },
};
#define N_SIX (sizeof(six) / sizeof(six[0]))

/* OST 7 over the six observations, from test_stats.c (mpmath). */
#define OST7_R (-0.99515884825591226476)
#define OST7_P 0.000035098394881849869827

static size_t
counter(int fcounter, const char *name)
{
    int i = tokio_darshan_counter_index(TOKIO_DARSHAN_POSIX, name, fcounter);

    if (i < 0)
        fail_msg("no counter %s", name);
    return (size_t)i;
}

/* A log holding `files`; with_posix/with_lustre 0 leave a module out. */
static struct tokio_darshan *
make_log(const struct sfile *files, size_t n, int with_posix,
         int with_lustre)
{
    struct tokio_darshan_job_info j;
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan *log = NULL;
    unsigned char *buf = NULL;
    size_t len;
    int64_t iv[256];
    double fv[64];

    memset(&j, 0, sizeof(j));
    j.jobid = 42;
    j.start_time = 1500000000;
    j.end_time = 1500000100;
    j.nprocs = 2;
    j.exe = "./ior";
    assert_int_equal(tokio_darshan_writer_new(&w, &j), TOKIO_OK);
    for (size_t f = 0; f < n; f++) {
        uint64_t id = tokio_darshan_writer_hash(files[f].name);
        assert_int_equal(tokio_darshan_writer_add_name(w, id, files[f].name),
                         TOKIO_OK);
        for (size_t k = 0; with_posix && k < files[f].n_posix; k++) {
            const struct prec *p = &files[f].posix[k];
            size_t ni = tokio_darshan_counter_count(TOKIO_DARSHAN_POSIX);
            size_t nf = tokio_darshan_fcounter_count(TOKIO_DARSHAN_POSIX);
            memset(iv, 0, sizeof(iv));
            memset(fv, 0, sizeof(fv));
            iv[counter(0, "POSIX_OPENS")] = 1;
            iv[counter(0, "POSIX_BYTES_READ")] = p->bytes_read;
            iv[counter(0, "POSIX_BYTES_WRITTEN")] = p->bytes_written;
            fv[counter(1, "POSIX_F_WRITE_TIME")] = p->write_time;
            fv[counter(1, "POSIX_F_READ_TIME")] = p->read_time;
            fv[counter(1, "POSIX_F_META_TIME")] = p->meta_time;
            assert_int_equal(tokio_darshan_writer_add_record(
                w, TOKIO_DARSHAN_POSIX, id, p->rank, iv, ni, fv, nf),
                TOKIO_OK);
        }
        if (!with_lustre || files[f].n_comps == 0)
            continue;
        struct tokio_darshan_lustre_comp c[2];
        int64_t osts[10];
        size_t n_osts = 0;
        memset(c, 0, sizeof(c));
        for (size_t k = 0; k < files[f].n_comps; k++) {
            int64_t count = 0;
            for (const int64_t *o = files[f].comp_osts[k]; *o >= 0; o++) {
                osts[n_osts++] = *o;
                count++;
            }
            c[k].counters[0] = 1 << 20;         /* STRIPE_SIZE */
            c[k].counters[1] = count;           /* STRIPE_COUNT */
            c[k].counters[4] = (int64_t)k << 30; /* EXT_START */
            c[k].counters[5] = k + 1 < files[f].n_comps
                ? (int64_t)(k + 1) << 30 : -1;   /* EXT_END */
        }
        assert_int_equal(tokio_darshan_writer_add_lustre(
            w, id, -1, c, files[f].n_comps, osts, n_osts), TOKIO_OK);
    }
    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, &len),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "made.darshan"),
                     TOKIO_OK);
    free(buf);
    tokio_darshan_writer_free(w);
    return log;
}

static struct tokio_darshan_bad_ost *
new_set(void)
{
    struct tokio_darshan_bad_ost *b = NULL;

    assert_int_equal(tokio_darshan_bad_ost_new(&b), TOKIO_OK);
    return b;
}

static const struct tokio_darshan_bad_ost_result *
find_ost(const struct tokio_darshan_bad_ost_result *res, size_t n,
         int64_t id)
{
    for (size_t i = 0; i < n; i++)
        if (res[i].ost_id == id)
            return &res[i];
    return NULL;
}

static void
test_files_performance_and_osts(void **state)
{
    static const double perf[] = { 310.5, 420.25, 415.0, 290.75, 180.125,
                                   400.5 };
    static const int64_t osts[][4] = { { 1, 2, 3, 7 }, { 1, 2 }, { 3, 4 },
                                       { 1, 2, 3, 7 }, { 4, 7 }, { 2, 3 } };
    static const size_t n_osts[] = { 4, 2, 2, 4, 2, 2 };
    struct tokio_darshan *log = make_log(six, N_SIX, 1, 1);
    struct tokio_darshan_bad_ost *b = new_set();

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "a.darshan"),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_bad_ost_file_count(b), 6);
    /* idle and blink (4e-7 s prints as 0.000000) */
    assert_int_equal(tokio_darshan_bad_ost_no_time(b), 2);
    for (size_t i = 0; i < 6; i++) {
        double p;
        const int64_t *o;
        size_t no;
        const char *key = tokio_darshan_bad_ost_file(b, i, &p, &o, &no);
        char want[64];
        snprintf(want, sizeof(want), "a.darshan@/scratch/f%zu", i);
        assert_string_equal(key, want);
        assert_true(p == perf[i]);
        assert_int_equal(no, n_osts[i]);
        for (size_t k = 0; k < no; k++)
            assert_int_equal(o[k], osts[i][k]);
    }
    assert_null(tokio_darshan_bad_ost_file(b, 6, NULL, NULL, NULL));
    tokio_darshan_bad_ost_free(b);
    tokio_darshan_free(log);
}

static void
test_correlation_of_ost7_matches_mpmath(void **state)
{
    struct tokio_darshan *log = make_log(six, N_SIX, 1, 1);
    struct tokio_darshan_bad_ost *b = new_set();
    struct tokio_darshan_bad_ost_result *res = NULL;
    size_t n = 0;

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "a"), TOKIO_OK);
    assert_int_equal(tokio_darshan_bad_ost_correlate(b, &res, &n), TOKIO_OK);
    /* OSTs 1, 2, 3, 4, 7; not 5, 6, 9 (files left out) */
    assert_int_equal(n, 5);
    const struct tokio_darshan_bad_ost_result *r = find_ost(res, n, 7);
    assert_non_null(r);
    assert_string_equal(r->ost_name, "OST#7");
    assert_close(r->coefficient, OST7_R, 1e-14);
    assert_close(r->p_value, OST7_P, 1e-11);
    assert_null(find_ost(res, n, 5));
    assert_null(find_ost(res, n, 9));
    /* most suspicious first */
    assert_true(res == r);
    for (size_t i = 1; i < n; i++)
        assert_true(res[i - 1].coefficient <= res[i].coefficient);
    free(res);
    tokio_darshan_bad_ost_free(b);
    tokio_darshan_free(log);
}

static void
test_same_label_merges_other_label_adds(void **state)
{
    struct tokio_darshan *log = make_log(six, N_SIX, 1, 1);
    /* f1 again, slower, and on OST 8 as well */
    static const struct sfile again[] = {
        { "/scratch/f1", 1, { { -1, 10, 0, 1.0, 0.0, 0.0 } },
          1, { { 8, -1 } } },
    };
    struct tokio_darshan *log2 = make_log(again, 1, 1, 1);
    struct tokio_darshan_bad_ost *b = new_set();
    const int64_t *o;
    size_t no;
    double p;

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "x"), TOKIO_OK);
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log2, "x"), TOKIO_OK);
    assert_int_equal(tokio_darshan_bad_ost_file_count(b), 6);
    assert_string_equal(tokio_darshan_bad_ost_file(b, 1, &p, &o, &no),
                        "x@/scratch/f1");
    assert_true(p == 420.25);           /* the better of 420.25 and 10 */
    assert_int_equal(no, 3);
    assert_int_equal(o[0], 1);
    assert_int_equal(o[1], 2);
    assert_int_equal(o[2], 8);
    /* the whole log again under its own name merges into itself */
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "x"), TOKIO_OK);
    assert_int_equal(tokio_darshan_bad_ost_file_count(b), 6);
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "y"), TOKIO_OK);
    assert_int_equal(tokio_darshan_bad_ost_file_count(b), 12);
    assert_string_equal(tokio_darshan_bad_ost_file(b, 6, NULL, NULL, NULL),
                        "y@/scratch/f0");
    assert_int_equal(tokio_darshan_bad_ost_no_time(b), 6);
    tokio_darshan_bad_ost_free(b);
    tokio_darshan_free(log);
    tokio_darshan_free(log2);
}

static void
test_times_are_rounded_as_darshan_parser_printed_them(void **state)
{
    static const struct sfile one[] = {
        { "/scratch/r", 1, { { -1, 123457, 0, 0.1234567, 0.0, 0.0 } },
          1, { { 1, -1 } } },
    };
    struct tokio_darshan *log = make_log(one, 1, 1, 1);
    struct tokio_darshan_bad_ost *b = new_set();
    double p;

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "r"), TOKIO_OK);
    tokio_darshan_bad_ost_file(b, 0, &p, NULL, NULL);
    /* "%f" of 0.1234567 is "0.123457" */
    assert_true(p == 123457.0 / 0.123457);
    assert_true(p != 123457.0 / 0.1234567);
    tokio_darshan_bad_ost_free(b);
    tokio_darshan_free(log);
}

static void
test_log_without_posix_or_lustre_is_named(void **state)
{
    struct tokio_darshan *np = make_log(six, N_SIX, 0, 1);
    struct tokio_darshan *nl = make_log(six, N_SIX, 1, 0);
    struct tokio_darshan_bad_ost *b = new_set();

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, np, "np.darshan"),
                     TOKIO_ENOTFOUND);
    assert_string_equal(tokio_errmsg(), "'np.darshan' has no POSIX records");
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, nl, "nl.darshan"),
                     TOKIO_ENOTFOUND);
    assert_string_equal(tokio_errmsg(),
                        "'nl.darshan' has no LUSTRE records");
    assert_int_equal(tokio_darshan_bad_ost_file_count(b), 0);
    tokio_darshan_bad_ost_free(b);
    tokio_darshan_free(np);
    tokio_darshan_free(nl);
}

static void
test_nothing_to_correlate_gives_no_results(void **state)
{
    /* one file; then two files performing the same; then two files that
     * share every OST equally */
    static const struct sfile same[] = {
        { "/s/a", 1, { { -1, 100, 0, 1.0, 0.0, 0.0 } }, 1, { { 1, -1 } } },
        { "/s/b", 1, { { -1, 200, 0, 2.0, 0.0, 0.0 } }, 1, { { 2, -1 } } },
    };
    static const struct sfile flat[] = {
        { "/s/a", 1, { { -1, 100, 0, 1.0, 0.0, 0.0 } },
          1, { { 1, 2, -1 } } },
        { "/s/b", 1, { { -1, 300, 0, 1.0, 0.0, 0.0 } },
          1, { { 2, 1, -1 } } },
    };
    struct tokio_darshan_bad_ost_result *res = (void *)1;
    size_t n = 99;

    (void)state;
    for (size_t k = 0; k < 3; k++) {
        struct tokio_darshan *log = k == 2 ? make_log(flat, 2, 1, 1)
                                           : make_log(same, k + 1, 1, 1);
        struct tokio_darshan_bad_ost *b = new_set();
        assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "l"),
                         TOKIO_OK);
        assert_int_equal(tokio_darshan_bad_ost_correlate(b, &res, &n),
                         TOKIO_OK);
        assert_null(res);
        assert_int_equal(n, 0);
        tokio_darshan_bad_ost_free(b);
        tokio_darshan_free(log);
    }
    /* an empty set too */
    struct tokio_darshan_bad_ost *b = new_set();
    assert_int_equal(tokio_darshan_bad_ost_correlate(b, &res, &n), TOKIO_OK);
    assert_int_equal(n, 0);
    tokio_darshan_bad_ost_free(b);
}

static void
test_two_files_correlate_with_p_one(void **state)
{
    static const struct sfile two[] = {
        { "/s/a", 1, { { -1, 100, 0, 1.0, 0.0, 0.0 } }, 1, { { 1, -1 } } },
        { "/s/b", 1, { { -1, 300, 0, 1.0, 0.0, 0.0 } }, 1, { { 2, -1 } } },
    };
    struct tokio_darshan *log = make_log(two, 2, 1, 1);
    struct tokio_darshan_bad_ost *b = new_set();
    struct tokio_darshan_bad_ost_result *res = NULL;
    size_t n = 0;

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "l"), TOKIO_OK);
    assert_int_equal(tokio_darshan_bad_ost_correlate(b, &res, &n), TOKIO_OK);
    assert_int_equal(n, 2);
    assert_int_equal(res[0].ost_id, 1);
    assert_true(res[0].coefficient == -1.0 && res[0].p_value == 1.0);
    assert_int_equal(res[1].ost_id, 2);
    assert_true(res[1].coefficient == 1.0 && res[1].p_value == 1.0);
    free(res);
    tokio_darshan_bad_ost_free(b);
    tokio_darshan_free(log);
}

/* ---- selecting and printing ------------------------------------------ */

static const struct tokio_darshan_bad_ost_result some[] = {
    { 14, "OST#14", -0.7031362972573595, 2.473047514448351e-305 },
    { 8, "OST#8", -0.10165123052242116, 4.0394021483217724e-06 },
    { 21, "OST#21", -0.042717140348388824, 0.05325355598926962 },
    { 4, "OST#4", 0.140262289948913, 1.8271224759310404e-10 },
    { 9, "OST#9", 0.6, 0.001 },
    { 3, "OST#3", 0.0, 0.0 },
};

static void
test_keep_uses_strict_thresholds(void **state)
{
    struct tokio_darshan_bad_ost_opts o = TOKIO_DARSHAN_BAD_OST_OPTS_DEFAULT;
    struct tokio_darshan_bad_ost_result nan_r = { 1, "OST#1", NAN, 0.0 };

    (void)state;
    assert_true(o.p_threshold == 0.05 && o.c_threshold == 0.0 &&
                o.c_warning == 0.5);
    assert_true(tokio_darshan_bad_ost_keep(&some[0], &o));
    assert_false(tokio_darshan_bad_ost_keep(&some[2], &o));  /* p > 0.05 */
    assert_false(tokio_darshan_bad_ost_keep(&some[5], &o));  /* |r| = 0 */
    assert_false(tokio_darshan_bad_ost_keep(&nan_r, &o));
    o.c_threshold = 0.5;
    o.p_threshold = 0.00001;
    assert_true(tokio_darshan_bad_ost_keep(&some[0], &o));
    assert_false(tokio_darshan_bad_ost_keep(&some[1], &o));
    assert_false(tokio_darshan_bad_ost_keep(&some[4], &o));  /* p too big */
}

static void
test_json_is_the_references_list(void **state)
{
    struct tokio_darshan_bad_ost_opts o = TOKIO_DARSHAN_BAD_OST_OPTS_DEFAULT;
    json_t *j = NULL;

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_to_json(some, 6, &o, &j),
                     TOKIO_OK);
    assert_int_equal(json_array_size(j), 4);
    json_t *first = json_array_get(j, 0);
    assert_int_equal(json_object_size(first), 3);
    assert_string_equal(json_string_value(json_object_get(first,
                                                          "ost_name")),
                        "OST#14");
    assert_true(json_real_value(json_object_get(first, "coefficient")) ==
                some[0].coefficient);
    assert_true(json_real_value(json_object_get(first, "p-value")) ==
                some[0].p_value);
    json_decref(j);
    o.p_threshold = 0.0;                /* nothing passes */
    assert_int_equal(tokio_darshan_bad_ost_to_json(some, 6, &o, &j),
                     TOKIO_OK);
    assert_int_equal(json_array_size(j), 0);
    json_decref(j);
}

static void
test_text_is_the_references_table(void **state)
{
    struct tokio_darshan_bad_ost_opts o = TOKIO_DARSHAN_BAD_OST_OPTS_DEFAULT;
    char *text = NULL;
    size_t len = 0;

    (void)state;
    FILE *fp = open_memstream(&text, &len);
    assert_non_null(fp);
    assert_int_equal(tokio_darshan_bad_ost_write_text(some, 6, &o, fp),
                     TOKIO_OK);
    fclose(fp);
    /* Python's "%-10s %12.3f %10.4g" gives the same text as C's */
    assert_string_equal(text,
        "OST Name    Correlation    P-Value\n"
        "OST#14           -0.703 2.473e-305 <-- this OST looks unhealthy\n"
        "OST#8            -0.102  4.039e-06\n"
        "OST#4             0.140  1.827e-10\n"
        "OST#9             0.600      0.001 <-- this OST is running "
        "unusually quickly\n");
    free(text);
}

/* ---- the pack's logs -------------------------------------------------- */

/* Every OST of sample-badost.darshan, by coefficient (the script's). */
static const struct {
    int64_t id;
    double r, p;
} badost[] = {
    { 14, -0.70313629725735990294, 2.4730475144456275304e-305 },
    { 8, -0.10165123052242116438, 4.0394021483217723899e-6 },
    { 7, -0.066879561687738503074, 0.0024604260024282944594 },
    { 9, -0.06043424235163661919, 0.0062234017422123351486 },
    { 21, -0.042717140348388824376, 0.05325355598926962099 },
    { 10, -0.039664104560085545338, 0.072717011200412201731 },
    { 6, -0.012028016180608078922, 0.58643236893239385381 },
    { 12, -0.0098067630110640768812, 0.65737291931812323316 },
    { 19, 0.0047377076774019600654, 0.83033301925499338067 },
    { 17, 0.026020910614107438696, 0.2391746142252809132 },
    { 0, 0.030950901186007711292, 0.16146595599261193341 },
    { 18, 0.036190973341725983582, 0.10155674549448515561 },
    { 1, 0.037503375292216018434, 0.08974020267920779048 },
    { 22, 0.044374329477398925239, 0.044652225393436157087 },
    { 2, 0.048637025979997124729, 0.027734653881530194408 },
    { 20, 0.051364155428544803966, 0.020093805508223548065 },
    { 23, 0.055780046408167853613, 0.011578347703060429225 },
    { 16, 0.067698730223677811552, 0.0021742165954692553912 },
    { 5, 0.075373464220313284575, 0.00064066422054984001141 },
    { 15, 0.08240152556725650151, 0.00018910699849346244621 },
    { 3, 0.10021519554257282928, 5.5223930087525333837e-6 },
    { 11, 0.11442331562881004839, 2.0792692721821750219e-7 },
    { 13, 0.1185384222582332821, 7.4427978513033586122e-8 },
    { 4, 0.14026228994891300254, 1.8271224759310404075e-10 },
};

static struct tokio_darshan_bad_ost *
pack_set(const char *const *rels, size_t n)
{
    struct tokio_darshan_bad_ost *b = new_set();

    for (size_t i = 0; i < n; i++) {
        const char *path = tokio_test_data(rels[i]);
        struct tokio_darshan *log = NULL;
        if (path == NULL) {
            tokio_darshan_bad_ost_free(b);
            print_message("skipped: ../shared/testdata/%s is absent\n",
                          rels[i]);
            skip();
        }
        assert_int_equal(tokio_darshan_open(&log, path), TOKIO_OK);
        assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, rels[i]),
                         TOKIO_OK);
        tokio_darshan_free(log);
    }
    return b;
}

static void
test_sample_badost_flags_ost14(void **state)
{
    static const char *const rels[] = {
        "pytokio-inputs/sample-badost.darshan" };
    struct tokio_darshan_bad_ost *b = pack_set(rels, 1);
    struct tokio_darshan_bad_ost_result *res = NULL;
    struct tokio_darshan_bad_ost_opts o = { 0.00001, 0.50, 0.5 };
    size_t n = 0, kept = 0;

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_file_count(b), 2048);
    assert_int_equal(tokio_darshan_bad_ost_no_time(b), 0);
    assert_int_equal(tokio_darshan_bad_ost_correlate(b, &res, &n), TOKIO_OK);
    assert_int_equal(n, 24);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(res[i].ost_id, badost[i].id);
        /* r from 2048 double sums; p amplifies r's error ~3000-fold at
         * r = -0.7 with 1023 degrees of freedom (d ln p / dr) */
        assert_close(res[i].coefficient, badost[i].r, 1e-13);
        assert_close(res[i].p_value, badost[i].p, 1e-10);
        kept += tokio_darshan_bad_ost_keep(&res[i], &o);
    }
    /* the reference's test_bad_log: -p 0.00001 -c 0.50 keeps one OST */
    assert_int_equal(kept, 1);
    assert_true(tokio_darshan_bad_ost_keep(&res[0], &o));
    assert_string_equal(res[0].ost_name, "OST#14");
    free(res);
    tokio_darshan_bad_ost_free(b);
}

static void
test_sample_goodost_flags_nothing(void **state)
{
    static const char *const rels[] = {
        "pytokio-inputs/sample-goodost.darshan" };
    struct tokio_darshan_bad_ost *b = pack_set(rels, 1);
    struct tokio_darshan_bad_ost_result *res = NULL;
    struct tokio_darshan_bad_ost_opts o = { 0.01, 0.0, 0.5 };
    size_t n = 0;

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_file_count(b), 48);
    assert_int_equal(tokio_darshan_bad_ost_correlate(b, &res, &n), TOKIO_OK);
    assert_int_equal(n, 24);
    /* the smallest p-value (the script: OST#22, r -0.3297...) is above
     * the reference's test_good_log cutoff of 0.01 */
    assert_int_equal(res[0].ost_id, 22);
    assert_close(res[0].coefficient, -0.32970884573245895279, 1e-13);
    assert_close(res[0].p_value, 0.022109483568782951984, 1e-12);
    for (size_t i = 0; i < n; i++)
        assert_false(tokio_darshan_bad_ost_keep(&res[i], &o));
    free(res);
    tokio_darshan_bad_ost_free(b);
}

static void
test_badost_and_goodost_together_flag_nothing_above_c010(void **state)
{
    static const char *const rels[] = {
        "pytokio-inputs/sample-badost.darshan",
        "pytokio-inputs/sample-goodost.darshan" };
    struct tokio_darshan_bad_ost *b = pack_set(rels, 2);
    struct tokio_darshan_bad_ost_result *res = NULL;
    struct tokio_darshan_bad_ost_opts o = { 0.05, 0.10, 0.5 };
    size_t n = 0;

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_file_count(b), 2096);
    assert_int_equal(tokio_darshan_bad_ost_correlate(b, &res, &n), TOKIO_OK);
    /* OST 14 is still first, but the good log's fast files on it dilute
     * it below the reference's test_multi_file_log cutoff of 0.10 */
    assert_int_equal(res[0].ost_id, 14);
    assert_close(res[0].coefficient, -0.07580158867634770803, 1e-13);
    assert_close(res[0].p_value, 0.00051413291703324313898, 1e-11);
    for (size_t i = 0; i < n; i++)
        assert_false(tokio_darshan_bad_ost_keep(&res[i], &o));
    free(res);
    tokio_darshan_bad_ost_free(b);
}

static void
test_sample_single_file_gives_nothing(void **state)
{
    static const char *const rels[] = { "pytokio-inputs/sample.darshan" };
    struct tokio_darshan_bad_ost *b = pack_set(rels, 1);
    struct tokio_darshan_bad_ost_result *res = NULL;
    size_t n = 9;

    (void)state;
    assert_int_equal(tokio_darshan_bad_ost_file_count(b), 1);
    assert_int_equal(tokio_darshan_bad_ost_correlate(b, &res, &n), TOKIO_OK);
    assert_int_equal(n, 0);
    tokio_darshan_bad_ost_free(b);
}

static void
test_pack_logs_without_posix_or_lustre(void **state)
{
    TOKIO_TEST_NEED_DATA(noposix, "pytokio-inputs/noposix.darshan");
    char *np = strdup(noposix);
    TOKIO_TEST_NEED_DATA(nolustre, "pytokio-inputs/noposixopens.darshan");
    struct tokio_darshan_bad_ost *b = new_set();
    struct tokio_darshan *log = NULL;

    (void)state;
    assert_int_equal(tokio_darshan_open(&log, np), TOKIO_OK);
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "noposix"),
                     TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "no POSIX records");
    tokio_darshan_free(log);
    assert_int_equal(tokio_darshan_open(&log, nolustre), TOKIO_OK);
    assert_int_equal(tokio_darshan_bad_ost_add_log(b, log, "noposixopens"),
                     TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "no LUSTRE records");
    tokio_darshan_free(log);
    tokio_darshan_bad_ost_free(b);
    free(np);
}

/* ---- anomalies --------------------------------------------------------- */

static void
test_survives_every_oom(void **state)
{
    struct tokio_darshan *log = make_log(six, N_SIX, 1, 1);

    (void)state;
    for (size_t n = 1;; n++) {
        struct tokio_darshan_bad_ost *b = NULL;
        struct tokio_darshan_bad_ost_result *res = NULL;
        size_t nr = 0;
        int rc;

        tokio_test_fail_alloc_at(n);
        if ((rc = tokio_darshan_bad_ost_new(&b)) >= 0 &&
            (rc = tokio_darshan_bad_ost_add_log(b, log, "a")) >= 0 &&
            (rc = tokio_darshan_bad_ost_add_log(b, log, "a")) >= 0 &&
            (rc = tokio_darshan_bad_ost_add_log(b, log, "b")) >= 0)
            rc = tokio_darshan_bad_ost_correlate(b, &res, &nr);
        tokio_test_fail_alloc_at(0);
        if (rc >= 0) {
            assert_int_equal(nr, 5);
            assert_int_equal(tokio_darshan_bad_ost_file_count(b), 12);
            free(res);
            tokio_darshan_bad_ost_free(b);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(res);
        assert_int_equal(nr, 0);
        /* a failed add leaves the set as it was: 0, 6 or 12 files */
        if (b != NULL)
            assert_int_equal(tokio_darshan_bad_ost_file_count(b) % 6, 0);
        tokio_darshan_bad_ost_free(b);
    }
    tokio_darshan_free(log);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files_performance_and_osts),
        cmocka_unit_test(test_correlation_of_ost7_matches_mpmath),
        cmocka_unit_test(test_same_label_merges_other_label_adds),
        cmocka_unit_test(test_times_are_rounded_as_darshan_parser_printed_them),
        cmocka_unit_test(test_log_without_posix_or_lustre_is_named),
        cmocka_unit_test(test_nothing_to_correlate_gives_no_results),
        cmocka_unit_test(test_two_files_correlate_with_p_one),
        cmocka_unit_test(test_keep_uses_strict_thresholds),
        cmocka_unit_test(test_json_is_the_references_list),
        cmocka_unit_test(test_text_is_the_references_table),
        cmocka_unit_test(test_sample_badost_flags_ost14),
        cmocka_unit_test(test_sample_goodost_flags_nothing),
        cmocka_unit_test(
            test_badost_and_goodost_together_flag_nothing_above_c010),
        cmocka_unit_test(test_sample_single_file_gives_nothing),
        cmocka_unit_test(test_pack_logs_without_posix_or_lustre),
        cmocka_unit_test(test_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
