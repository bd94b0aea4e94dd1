/*
 * tests/connectors/test_darshan_derived_only.c - tokio_darshan_open_select()
 * handing records to tokio_darshan_fold_record() (TOKIO_DARSHAN_FOLD_TOTALS
 * | FOLD_PERF): records folded into --total and --perf as they are
 * inflated, a piece of the region at a time, never kept; and either fold
 * alone.
 * The figures (and cache-darshan's JSON of them) must equal a full
 * read's: on logs made here with records spanning many pieces, many
 * ranks (the rank table grows), every compression, truncations and a
 * rank beyond nprocs; then the OOM sweep; then on every pack log.
 */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/connectors/darshan_writer.h"
#include "tokio/output.h"

#define MADE "made.darshan"   /* the name logs are written under */

#define BOTH (TOKIO_DARSHAN_FOLD_TOTALS | TOKIO_DARSHAN_FOLD_PERF)

static const int mods[] = {
    TOKIO_DARSHAN_POSIX, TOKIO_DARSHAN_MPIIO, TOKIO_DARSHAN_STDIO,
    TOKIO_DARSHAN_DFS, TOKIO_DARSHAN_DAOS,
};
#define N_MODS (sizeof(mods) / sizeof(mods[0]))

static const struct tokio_darshan_mount test_mounts[] = {
    { "/scratch", "lustre" },
};

/* 3.41 uncompressed: the job record follows the 1328-byte header and
 * nprocs is its sixth u64. */
#define NPROCS_OFF (1328 + 40)

/* A deterministic generator of counters. */
static uint64_t
next(uint64_t *x)
{
    *x = *x * UINT64_C(6364136223846793005) + 1442695040888963407u;
    return *x >> 33;
}

/*
 * `n` POSIX records (704 bytes each inflated: n = 1000 spans some forty
 * 16 KiB pieces) over `nranks` ranks and a shared one, and a few MPI-IO,
 * STDIO, DFS and DAOS records, with counters varied enough to move every
 * aggregation rule.  Written with `comp`.
 */
static unsigned char *
make_log(size_t n, int64_t nranks, int comp, size_t *len)
{
    struct tokio_darshan_job_info job = {
        .uid = 7, .jobid = 8, .start_time = 1500000000,
        .end_time = 1500000100, .nprocs = nranks, .exe = "/bin/x",
        .n_mounts = 1, .mounts = test_mounts,
    };
    struct tokio_darshan_writer *w = NULL;
    unsigned char *buf = NULL;
    uint64_t x = 99;

    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_set_compression(w, comp), TOKIO_OK);
    for (size_t k = 0; k < N_MODS; k++) {
        int mod = mods[k];
        size_t ni = tokio_darshan_counter_count(mod);
        size_t nf = tokio_darshan_fcounter_count(mod);
        size_t count = mod == TOKIO_DARSHAN_POSIX ? n : 7;
        int64_t c[128];
        double f[32];
        unsigned char uuid[16] = { 1, 2, 3 };
        for (size_t i = 0; i < count; i++) {
            for (size_t j = 0; j < ni; j++)
                c[j] = (int64_t)(next(&x) % 5000) - (j % 9 == 0 ? 100 : 0);
            for (size_t j = 0; j < nf; j++)
                f[j] = (double)(next(&x) % 100000) / 1000.0 - 1.0;
            int64_t rank = i % 11 == 0 ? -1 : (int64_t)(i % (size_t)nranks);
            uint64_t id = 1000 + i % 37;
            if (mod == TOKIO_DARSHAN_DFS || mod == TOKIO_DARSHAN_DAOS) {
                struct tokio_darshan_record r = {
                    .id = id, .rank = rank, .n_counters = ni,
                    .counters = c, .n_fcounters = nf, .fcounters = f,
                    .pool_uuid = uuid, .cont_uuid = uuid,
                };
                assert_int_equal(tokio_darshan_writer_add(w, mod, &r),
                                 TOKIO_OK);
            } else {
                assert_int_equal(tokio_darshan_writer_add_record(
                                     w, mod, id, rank, c, ni, f, nf),
                                 TOKIO_OK);
            }
        }
    }
    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, len), TOKIO_OK);
    tokio_darshan_writer_free(w);
    return buf;
}

/* Read `path` as cache-darshan --total --perf does: the derived modules
 * only, no names, records folded into *fold (`views`) as inflated. */
static int
open_folded(struct tokio_darshan **log, struct tokio_darshan_fold **fold,
            const char *path, unsigned views)
{
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_DERIVED_MODULES, .skip_names = 1,
        .record = tokio_darshan_fold_record,
    };
    int rc;

    *log = NULL;
    if ((rc = tokio_darshan_fold_new(fold, views)) < 0)
        return rc;
    sel.payload = *fold;
    return tokio_darshan_open_select(log, path, &sel);
}

/* cache-darshan's JSON (--total --perf) of `log` (its figures from `fold`
 * when not NULL), or NULL and *rc_out. */
static char *
json_text(const struct tokio_darshan *log,
          const struct tokio_darshan_fold *fold, int *rc_out)
{
    struct tokio_darshan_json_opts o = { .total = 1, .perf = 1,
                                         .fold = fold };

    return tokio_test_darshan_json_text(log, &o, TOKIO_JSON_INDENT(4),
                                        rc_out);
}

/* The figures of a full read and a folded read of `path` are the same,
 * failures included (same status, same message). */
static void
assert_same_figures(const char *path)
{
    struct tokio_darshan *all = NULL, *some = NULL;
    struct tokio_darshan_fold *fold = NULL;
    int rc = tokio_darshan_open(&all, path);
    char *msg = rc < 0 ? strdup(tokio_errmsg()) : NULL;
    int rc2 = open_folded(&some, &fold, path, BOTH);

    if (rc < 0) {
        /* reading less may pass where the full read failed (damage in a
         * module it skips), never the other way round */
        if (rc2 < 0 && strcmp(tokio_errmsg(), msg) != 0) {
            print_message("%s: '%s' vs '%s'\n", path, msg, tokio_errmsg());
            fail();
        }
        free(msg);
        tokio_darshan_free(some);
        tokio_darshan_fold_free(fold);
        return;
    }
    assert_int_equal(rc2, rc);
    for (size_t k = 0; k < N_MODS; k++) {
        int mod = mods[k];
        struct tokio_darshan_total *a = NULL, *b = NULL;
        assert_int_equal(tokio_darshan_totals(all, mod, &a), TOKIO_OK);
        assert_int_equal(tokio_darshan_fold_totals(fold, mod, &b),
                         TOKIO_OK);
        assert_int_equal(a->n_records, b->n_records);
        assert_int_equal(a->id, b->id);
        assert_memory_equal(a->counters, b->counters,
                            a->n_counters * sizeof(int64_t));
        assert_memory_equal(a->fcounters, b->fcounters,
                            a->n_fcounters * sizeof(double));
        tokio_darshan_total_free(a);
        tokio_darshan_total_free(b);
        struct tokio_darshan_perf p, q;
        int prc = tokio_darshan_perf(all, mod, &p);
        char *pmsg = prc < 0 ? strdup(tokio_errmsg()) : NULL;
        assert_int_equal(tokio_darshan_fold_perf(fold, mod, &q), prc);
        if (prc < 0)
            assert_string_equal(tokio_errmsg(), pmsg);
        free(pmsg);
        assert_memory_equal(&p, &q, sizeof(p));
        assert_int_equal(tokio_darshan_record_count(some, mod), 0);
    }
    int jrc, jrc2;
    char *ja = json_text(all, NULL, &jrc);
    char *jb = json_text(some, fold, &jrc2);
    assert_int_equal(jrc, jrc2);
    if (ja != NULL)
        assert_string_equal(ja, jb);
    free(ja);
    free(jb);
    tokio_darshan_free(all);
    tokio_darshan_free(some);
    tokio_darshan_fold_free(fold);
}

static void
test_folded_figures_equal_a_full_read(void **state)
{
    static const int comps[] = {
        TOKIO_DARSHAN_ZLIB, TOKIO_DARSHAN_BZIP2, TOKIO_DARSHAN_NONE,
    };
    struct tokio_test_tmpfile t = { 0 };

    (void)state;
    for (size_t c = 0; c < 3; c++) {
        size_t len;
        /* 40 ranks: the rank table starts at 16 and grows */
        unsigned char *buf = make_log(1000, 40, comps[c], &len);
        tokio_test_tmpfile_put(&t, MADE, buf, len);
        assert_same_figures(t.path);

        struct tokio_darshan *log = NULL;
        struct tokio_darshan_fold *fold = NULL;
        assert_int_equal(open_folded(&log, &fold, t.path, BOTH), TOKIO_OK);
        /* decoded, folded, not kept */
        assert_true(tokio_darshan_module_decoded(log, TOKIO_DARSHAN_POSIX));
        assert_int_equal(tokio_darshan_record_count(log,
                                                    TOKIO_DARSHAN_POSIX), 0);
        size_t raw_len = 1;
        assert_null(tokio_darshan_module_raw(log, TOKIO_DARSHAN_POSIX,
                                             &raw_len));
        assert_int_equal(raw_len, 0);
        struct tokio_darshan_total *tot = NULL;
        assert_int_equal(tokio_darshan_fold_totals(fold, TOKIO_DARSHAN_POSIX,
                                                   &tot), TOKIO_OK);
        assert_int_equal(tot->n_records, 1000);
        tokio_darshan_total_free(tot);
        tokio_darshan_free(log);
        tokio_darshan_fold_free(fold);
        free(buf);
    }
    tokio_test_tmpfile_free(&t);
}

static void
test_one_fold_alone_refuses_the_other_view(void **state)
{
    struct tokio_test_tmpfile t = { 0 };
    size_t len;
    unsigned char *buf = make_log(500, 20, TOKIO_DARSHAN_ZLIB, &len);
    struct tokio_darshan *all = NULL, *tlog = NULL, *plog = NULL;
    struct tokio_darshan_fold *tot = NULL, *perf = NULL;

    (void)state;
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    assert_int_equal(tokio_darshan_open(&all, t.path), TOKIO_OK);
    assert_int_equal(open_folded(&tlog, &tot, t.path,
                                 TOKIO_DARSHAN_FOLD_TOTALS), TOKIO_OK);
    assert_int_equal(open_folded(&plog, &perf, t.path,
                                 TOKIO_DARSHAN_FOLD_PERF), TOKIO_OK);
    for (size_t k = 0; k < N_MODS; k++) {
        int mod = mods[k];
        struct tokio_darshan_total *a = NULL, *b = NULL;
        struct tokio_darshan_perf p, q;
        assert_int_equal(tokio_darshan_totals(all, mod, &a), TOKIO_OK);
        assert_int_equal(tokio_darshan_fold_totals(tot, mod, &b), TOKIO_OK);
        assert_int_equal(a->n_records, b->n_records);
        assert_memory_equal(a->counters, b->counters,
                            a->n_counters * sizeof(int64_t));
        assert_memory_equal(a->fcounters, b->fcounters,
                            a->n_fcounters * sizeof(double));
        tokio_darshan_total_free(a);
        tokio_darshan_total_free(b);
        assert_int_equal(tokio_darshan_fold_perf(tot, mod, &q), TOKIO_EINVAL);
        assert_contains(tokio_errmsg(), "without --perf");
        b = (struct tokio_darshan_total *)1;
        assert_int_equal(tokio_darshan_fold_totals(perf, mod, &b),
                         TOKIO_EINVAL);
        assert_null(b);
        assert_contains(tokio_errmsg(), "without --total");
        assert_int_equal(tokio_darshan_perf(all, mod, &p), TOKIO_OK);
        assert_int_equal(tokio_darshan_fold_perf(perf, mod, &q), TOKIO_OK);
        assert_memory_equal(&p, &q, sizeof(p));
    }
    /* modules without derived views are refused alike */
    struct tokio_darshan_total *b = NULL;
    assert_int_equal(tokio_darshan_fold_totals(tot, TOKIO_DARSHAN_LUSTRE, &b),
                     TOKIO_EINVAL);
    tokio_darshan_free(all);
    tokio_darshan_free(tlog);
    tokio_darshan_free(plog);
    tokio_darshan_fold_free(tot);
    tokio_darshan_fold_free(perf);
    free(buf);
    tokio_test_tmpfile_free(&t);
}

static void
test_folded_truncations_fail_as_a_full_read(void **state)
{
    static const int comps[] = { TOKIO_DARSHAN_ZLIB, TOKIO_DARSHAN_BZIP2 };
    struct tokio_test_tmpfile t = { 0 };

    (void)state;
    for (size_t c = 0; c < 2; c++) {
        size_t len;
        unsigned char *buf = make_log(300, 5, comps[c], &len);
        /* cut anywhere, or one byte changed: the same status and message
         * (or figures) */
        for (size_t cut = 1400; cut < len; cut += len / 37) {
            tokio_test_tmpfile_put(&t, MADE, buf, cut);
            assert_same_figures(t.path);
            buf[cut] ^= 0x41;
            tokio_test_tmpfile_put(&t, MADE, buf, len);
            assert_same_figures(t.path);
            buf[cut] ^= 0x41;
        }
        free(buf);
    }
    tokio_test_tmpfile_free(&t);
}

static void
test_folded_rank_beyond_nprocs_fails_perf_only(void **state)
{
    struct tokio_test_tmpfile t = { 0 };
    size_t len;
    unsigned char *buf = make_log(200, 8, TOKIO_DARSHAN_NONE, &len);
    int64_t nprocs;

    (void)state;
    memcpy(&nprocs, buf + NPROCS_OFF, sizeof(nprocs));
    assert_int_equal(nprocs, 8);
    nprocs = 5;
    memcpy(buf + NPROCS_OFF, &nprocs, sizeof(nprocs));
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    assert_same_figures(t.path);
    struct tokio_darshan *log = NULL;
    struct tokio_darshan_fold *fold = NULL;
    assert_int_equal(open_folded(&log, &fold, t.path, BOTH), TOKIO_OK);
    struct tokio_darshan_perf p;
    assert_int_equal(tokio_darshan_fold_perf(fold, TOKIO_DARSHAN_POSIX, &p),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "made.darshan");
    /* records 0 (shared) .. 4 are fine; record 5 has rank 5 */
    assert_contains(tokio_errmsg(), "POSIX record 5 has rank 5 but the job "
                    "has 5 processes");
    assert_int_equal(p.total_bytes, 0);
    struct tokio_darshan_total *tot = NULL;
    assert_int_equal(tokio_darshan_fold_totals(fold, TOKIO_DARSHAN_POSIX,
                                               &tot), TOKIO_OK);
    assert_int_equal(tot->n_records, 200);
    tokio_darshan_total_free(tot);
    tokio_darshan_free(log);
    tokio_darshan_fold_free(fold);
    free(buf);
    tokio_test_tmpfile_free(&t);
}

struct oom_ctx {
    const char *path;
};

static int
oom_trial(void *p)
{
    const struct oom_ctx *c = p;
    struct tokio_darshan *log = NULL;
    struct tokio_darshan_fold *fold = NULL;
    int rc = open_folded(&log, &fold, c->path, BOTH);

    if (rc >= 0) {
        int jrc;
        free(json_text(log, fold, &jrc));
        rc = jrc;
    }
    tokio_darshan_free(log);
    tokio_darshan_fold_free(fold);
    return rc;
}

static void
test_folded_read_survives_every_oom(void **state)
{
    struct tokio_test_tmpfile t = { 0 };
    size_t len;
    unsigned char *buf = make_log(400, 40, TOKIO_DARSHAN_ZLIB, &len);

    (void)state;
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    struct oom_ctx c = { t.path };
    tokio_test_every_oom(oom_trial, &c, 1);
    free(buf);
    tokio_test_tmpfile_free(&t);
}

static int
check_folded(const char *path, void *ctx)
{
    (void)ctx;
    assert_same_figures(path);
    return 1;
}

static void
test_folded_figures_on_pack_logs(void **state)
{
    (void)state;
    assert_true(tokio_test_each_pack_darshan_log(check_folded, NULL) >= 10);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_folded_figures_equal_a_full_read),
        cmocka_unit_test(test_one_fold_alone_refuses_the_other_view),
        cmocka_unit_test(test_folded_truncations_fail_as_a_full_read),
        cmocka_unit_test(test_folded_rank_beyond_nprocs_fails_perf_only),
        cmocka_unit_test(test_folded_read_survives_every_oom),
        cmocka_unit_test(test_folded_figures_on_pack_logs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
