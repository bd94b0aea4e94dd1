/*
 * tests/connectors/test_darshan_select.c - reading less of a log:
 * tokio_darshan_open_select() (only some module regions inflated, the
 * name table optional, records handed to a callback as they are decoded
 * instead of kept) and the reader's own zlib framing (raw inflate
 * between a checked header and a checked Adler-32 trailer).  Logs are made
 * here with the writer; the pack's logs, when present, are compared
 * between full and selective reads.
 */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "connectors/darshan_private.h"
#include "core/alloc.h"
#include "core/error.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

#define MADE "made.darshan"   /* the name logs are written under */

#define POSIX_BIT TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_POSIX)
#define STDIO_BIT TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_STDIO)

/* 3.41 header: the module map starts at byte 48, 16 bytes a module; the
 * record versions at byte 1072, 4 bytes a module. */
#define MOD_MAP_OFF 48
#define MOD_VER_OFF 1072

/* ---- logs made here ----------------------------------------------------- */

static const struct tokio_darshan_mount test_mounts[] = {
    { "/scratch", "lustre" },
};

/* POSIX and STDIO records (STDIO's region is the file's last bytes). */
static unsigned char *
make_log(size_t *len)
{
    struct tokio_darshan_job_info job = {
        .uid = 7, .jobid = 8, .start_time = 1500000000,
        .end_time = 1500000010, .nprocs = 2, .exe = "/bin/x",
        .n_mounts = 1, .mounts = test_mounts,
    };
    struct tokio_darshan_writer *w = NULL;
    unsigned char *buf = NULL;

    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_add_name(w, 1, "/scratch/f"), 0);
    assert_int_equal(tokio_darshan_writer_add_name(w, 2, "<STDOUT>"), 0);
    for (int mod = TOKIO_DARSHAN_POSIX; mod <= TOKIO_DARSHAN_STDIO;
         mod += TOKIO_DARSHAN_STDIO - TOKIO_DARSHAN_POSIX) {
        size_t n = tokio_darshan_counter_count(mod);
        size_t nf = tokio_darshan_fcounter_count(mod);
        int64_t *c = calloc(n, sizeof(*c));
        double *f = calloc(nf, sizeof(*f));
        assert_non_null(c);
        assert_non_null(f);
        for (size_t i = 0; i < n; i++)
            c[i] = (int64_t)(i * 3 + (size_t)mod);
        for (int64_t rank = 0; rank < 2; rank++)
            assert_int_equal(tokio_darshan_writer_add_record(
                                 w, mod, mod == TOKIO_DARSHAN_POSIX ? 1 : 2,
                                 rank, c, n, f, nf), TOKIO_OK);
        free(c);
        free(f);
    }
    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, len), TOKIO_OK);
    tokio_darshan_writer_free(w);
    return buf;
}

/* tokio_darshan_open_select() of the modules in `bits`, records kept. */
static int
select_open(struct tokio_darshan **log, const char *path, uint64_t bits,
            int skip_names)
{
    struct tokio_darshan_select sel = { .modules = bits,
                                        .skip_names = skip_names };

    return tokio_darshan_open_select(log, path, &sel);
}

static uint64_t
u64_at(const unsigned char *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

static void
test_select_reads_only_the_chosen_modules(void **state)
{
    struct tokio_test_tmpfile t = { 0 };
    size_t len;
    unsigned char *buf = make_log(&len);
    struct tokio_darshan *all = NULL, *some = NULL;

    (void)state;
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    assert_int_equal(tokio_darshan_open(&all, t.path), TOKIO_OK);
    assert_int_equal(select_open(&some, t.path, POSIX_BIT, 0), TOKIO_OK);
    /* POSIX as in the full read */
    assert_int_equal(tokio_darshan_record_count(some, TOKIO_DARSHAN_POSIX),
                     2);
    for (size_t i = 0; i < 2; i++) {
        const struct tokio_darshan_record *a =
            tokio_darshan_record(all, TOKIO_DARSHAN_POSIX, i);
        const struct tokio_darshan_record *b =
            tokio_darshan_record(some, TOKIO_DARSHAN_POSIX, i);
        assert_int_equal(a->n_counters, b->n_counters);
        assert_memory_equal(a->counters, b->counters,
                            a->n_counters * sizeof(int64_t));
        assert_int_equal(a->rank, b->rank);
    }
    assert_string_equal(tokio_darshan_name(some, 1), "/scratch/f");
    /* STDIO: known from the header, not read */
    assert_int_equal(tokio_darshan_record_count(all, TOKIO_DARSHAN_STDIO), 2);
    assert_int_equal(tokio_darshan_record_count(some, TOKIO_DARSHAN_STDIO), 0);
    assert_int_equal(tokio_darshan_module_decoded(some, TOKIO_DARSHAN_STDIO),
                     0);
    size_t raw_len = 1;
    assert_null(tokio_darshan_module_raw(some, TOKIO_DARSHAN_STDIO,
                                         &raw_len));
    assert_int_equal(raw_len, 0);
    assert_int_equal(tokio_darshan_module_len(some, TOKIO_DARSHAN_STDIO),
                     tokio_darshan_module_len(all, TOKIO_DARSHAN_STDIO));
    assert_int_equal(tokio_darshan_job(some)->jobid, 8);
    assert_int_equal(tokio_darshan_mount_count(some), 1);
    tokio_darshan_free(some);

    /* without the name table */
    assert_int_equal(select_open(&some, t.path, UINT64_MAX, 1), TOKIO_OK);
    assert_null(tokio_darshan_name(some, 1));
    assert_int_equal(tokio_darshan_name_count(some), 0);
    assert_int_equal(tokio_darshan_record_count(some, TOKIO_DARSHAN_STDIO), 2);
    tokio_darshan_free(some);
    tokio_darshan_free(all);
    free(buf);
    tokio_test_tmpfile_free(&t);
}

static void
test_zlib_framing_is_checked(void **state)
{
    struct tokio_test_tmpfile t = { 0 };
    size_t len;
    unsigned char *buf = make_log(&len);
    struct tokio_darshan *log = NULL;
    uint64_t off = u64_at(buf + MOD_MAP_OFF + 16 * TOKIO_DARSHAN_STDIO);
    uint64_t rlen = u64_at(buf + MOD_MAP_OFF + 16 * TOKIO_DARSHAN_STDIO + 8);

    (void)state;
    assert_true(off + rlen == len);     /* STDIO is the last region */

    /* a wrong Adler-32 trailer */
    buf[len - 1] ^= 0x5a;
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    assert_int_equal(tokio_darshan_open(&log, t.path), TOKIO_EFORMAT);
    assert_null(log);
    assert_contains(tokio_errmsg(), "made.darshan");
    assert_contains(tokio_errmsg(), "STDIO module region");
    assert_contains(tokio_errmsg(), "incorrect data check");
    /* ... unnoticed when STDIO is not read */
    assert_int_equal(select_open(&log, t.path, POSIX_BIT, 0), TOKIO_OK);
    tokio_darshan_free(log);
    buf[len - 1] ^= 0x5a;

    /* no zlib header */
    buf[off] = 0x00;
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    assert_int_equal(tokio_darshan_open(&log, t.path), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "no zlib header");
    buf[off] = 0x78;

    /* the trailer cut off */
    tokio_test_tmpfile_put(&t, MADE, buf, len - 2);
    uint64_t short_len = rlen - 2;
    memcpy(buf + MOD_MAP_OFF + 16 * TOKIO_DARSHAN_STDIO + 8, &short_len, 8);
    tokio_test_tmpfile_put(&t, MADE, buf, len - 2);
    assert_int_equal(tokio_darshan_open(&log, t.path), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "truncated compressed stream");

    /* a skipped region reaching past the end is still an error */
    uint64_t long_len = rlen + 100;
    memcpy(buf + MOD_MAP_OFF + 16 * TOKIO_DARSHAN_STDIO + 8, &long_len, 8);
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    assert_int_equal(select_open(&log, t.path, POSIX_BIT, 0),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "STDIO module region: truncated");
    free(buf);
    tokio_test_tmpfile_free(&t);
}

static void
test_select_of_a_missing_file_names_it(void **state)
{
    struct tokio_darshan *log = (struct tokio_darshan *)1;

    (void)state;
    assert_int_equal(select_open(&log, "/nonexistent/x.darshan", POSIX_BIT,
                                 0), TOKIO_EIO);
    assert_null(log);
    assert_contains(tokio_errmsg(), "/nonexistent/x.darshan");
}

struct oom_ctx {
    const char *path;
};

/* A decoded module's records hold all of its region, which is not kept;
 * a module the reader cannot decode keeps its region, read whole. */
static void
test_undecoded_module_keeps_its_region(void **state)
{
    struct tokio_test_tmpfile t = { 0 };
    size_t len, raw_len = 1;
    unsigned char *buf = make_log(&len);
    struct tokio_darshan *log = NULL;
    uint32_t ver = 99;

    (void)state;
    memcpy(buf + MOD_VER_OFF + 4 * TOKIO_DARSHAN_STDIO, &ver, 4);
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    assert_int_equal(tokio_darshan_open(&log, t.path), TOKIO_OK);
    assert_true(tokio_darshan_module_decoded(log, TOKIO_DARSHAN_POSIX));
    assert_null(tokio_darshan_module_raw(log, TOKIO_DARSHAN_POSIX,
                                         &raw_len));
    assert_int_equal(raw_len, 0);
    assert_false(tokio_darshan_module_decoded(log, TOKIO_DARSHAN_STDIO));
    assert_int_equal(tokio_darshan_record_count(log, TOKIO_DARSHAN_STDIO), 0);
    const unsigned char *raw = tokio_darshan_module_raw(
        log, TOKIO_DARSHAN_STDIO, &raw_len);
    assert_non_null(raw);
    /* two 248-byte STDIO v2 records */
    assert_int_equal(raw_len, 2 * 248);
    tokio_darshan_free(log);
    free(buf);
    tokio_test_tmpfile_free(&t);
}

static int
oom_trial(void *p)
{
    const struct oom_ctx *c = p;
    struct tokio_darshan *log = NULL;
    int rc = select_open(&log, c->path, POSIX_BIT | STDIO_BIT, 0);

    tokio_darshan_free(log);
    return rc;
}

static void
test_select_survives_every_oom(void **state)
{
    struct tokio_test_tmpfile t = { 0 };
    size_t len;
    unsigned char *buf = make_log(&len);

    (void)state;
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    struct oom_ctx c = { t.path };
    tokio_test_every_oom(oom_trial, &c, 1);
    free(buf);
    tokio_test_tmpfile_free(&t);
}

/* ---- records handed to a callback -------------------------------------- */

/* POSIX, LUSTRE, STDIO and DXT_POSIX records: fixed-size records (read a
 * piece at a time) and records of any size (decoded whole). */
static unsigned char *
make_mixed_log(int comp, size_t *len)
{
    struct tokio_darshan_job_info job = {
        .uid = 7, .jobid = 9, .start_time = 1500000000,
        .end_time = 1500000010, .nprocs = 4, .exe = "/bin/y",
        .n_mounts = 1, .mounts = test_mounts,
    };
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan_lustre_comp c = { { 1048576, 2, 0, 0, 0, -1, 0 },
                                           "" };
    const int64_t osts[] = { 5, 9 };
    const struct tokio_darshan_segment segs[] = {
        { 0, 100, 0.5, 0.75, 0 }, { 100, 50, 1.0, 1.25, 0 },
    };
    unsigned char *buf = NULL;
    int64_t iv[128];
    double fv[32];

    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_set_compression(w, comp), 0);
    assert_int_equal(tokio_darshan_writer_add_name(w, 1, "/scratch/f"), 0);
    /* 300 POSIX records inflate to 211,200 bytes: many 16 KiB pieces */
    for (int mod = TOKIO_DARSHAN_POSIX; mod <= TOKIO_DARSHAN_STDIO;
         mod += TOKIO_DARSHAN_STDIO - TOKIO_DARSHAN_POSIX)
        for (size_t i = 0; i < (mod == TOKIO_DARSHAN_POSIX ? 300u : 3u);
             i++) {
            size_t n = tokio_darshan_counter_count(mod);
            size_t nf = tokio_darshan_fcounter_count(mod);
            for (size_t k = 0; k < n; k++)
                iv[k] = (int64_t)(i * 1000 + k);
            for (size_t k = 0; k < nf; k++)
                fv[k] = (double)i + (double)k / 8.0;
            assert_int_equal(tokio_darshan_writer_add_record(
                                 w, mod, 1 + i % 3, (int64_t)(i % 5) - 1,
                                 iv, n, fv, nf), TOKIO_OK);
        }
    assert_int_equal(tokio_darshan_writer_add_lustre(w, 1, -1, &c, 1, osts,
                                                     2), TOKIO_OK);
    struct tokio_darshan_record d = {
        .id = 1, .rank = 2, .hostname = "nid1", .n_writes = 1,
        .n_reads = 1, .segments = segs,
    };
    assert_int_equal(tokio_darshan_writer_add(w, TOKIO_DARSHAN_DXT_POSIX,
                                              &d), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, len), TOKIO_OK);
    tokio_darshan_writer_free(w);
    return buf;
}

static void
assert_same_record(const struct tokio_darshan_record *x,
                   const struct tokio_darshan_record *y)
{
    assert_int_equal(x->id, y->id);
    assert_int_equal(x->rank, y->rank);
    assert_int_equal(x->n_counters, y->n_counters);
    assert_int_equal(x->n_fcounters, y->n_fcounters);
    if (x->n_counters > 0)
        assert_memory_equal(x->counters, y->counters,
                            x->n_counters * sizeof(int64_t));
    if (x->n_fcounters > 0)
        assert_memory_equal(x->fcounters, y->fcounters,
                            x->n_fcounters * sizeof(double));
    assert_int_equal(x->file_rec_id, y->file_rec_id);
    assert_int_equal(x->n_extra, y->n_extra);
    if (x->n_extra > 0)
        assert_memory_equal(x->extra, y->extra,
                            x->n_extra * sizeof(int64_t));
    assert_int_equal(x->n_comps, y->n_comps);
    if (x->n_comps > 0)
        assert_memory_equal(x->comps, y->comps, x->n_comps *
                            sizeof(struct tokio_darshan_lustre_comp));
    assert_int_equal(x->pool_uuid == NULL, y->pool_uuid == NULL);
    if (x->pool_uuid != NULL) {
        assert_memory_equal(x->pool_uuid, y->pool_uuid, 16);
        assert_memory_equal(x->cont_uuid, y->cont_uuid, 16);
    }
    assert_int_equal(x->oid_hi, y->oid_hi);
    assert_int_equal(x->oid_lo, y->oid_lo);
    assert_int_equal(x->hostname == NULL, y->hostname == NULL);
    if (x->hostname != NULL)
        assert_string_equal(x->hostname, y->hostname);
    assert_int_equal(x->n_writes, y->n_writes);
    assert_int_equal(x->n_reads, y->n_reads);
    if (x->n_writes + x->n_reads > 0)
        assert_memory_equal(x->segments, y->segments,
                            (x->n_writes + x->n_reads) *
                                sizeof(struct tokio_darshan_segment));
}

/* The callback's view: each record must be the full read's next one. */
struct handed {
    const struct tokio_darshan *full;
    size_t seen[TOKIO_DARSHAN_MAX_MODULES];
    size_t total;
    size_t fail_at;             /* fail on this record (1-based), 0: never */
};

static int
take_record(void *payload, const struct tokio_darshan *log, int mod,
            const struct tokio_darshan_record *r)
{
    struct handed *h = payload;
    size_t i = h->seen[mod]++;

    /* the job, mounts and names are complete when records arrive */
    assert_int_equal(tokio_darshan_job(log)->jobid,
                     tokio_darshan_job(h->full)->jobid);
    assert_int_equal(tokio_darshan_mount_count(log),
                     tokio_darshan_mount_count(h->full));
    assert_int_equal(tokio_darshan_name_count(log),
                     tokio_darshan_name_count(h->full));
    assert_true(i < tokio_darshan_record_count(h->full, mod));
    assert_same_record(r, tokio_darshan_record(h->full, mod, i));
    if (++h->total == h->fail_at)
        return tokio__error(TOKIO_EINVAL, "enough records");
    return TOKIO_OK;
}

/* Reading `path` with every record handed over gives the full read's
 * records, in order, and keeps none. */
static int
check_handed(const char *path, void *ctx)
{
    struct tokio_darshan *full = NULL, *log = NULL;
    struct handed h = { 0 };
    struct tokio_darshan_select sel = { .modules = UINT64_MAX,
                                        .record = take_record,
                                        .payload = &h };
    int rc = tokio_darshan_open(&full, path);

    (void)ctx;
    if (rc < 0)
        return 0;
    h.full = full;
    assert_int_equal(tokio_darshan_open_select(&log, path, &sel), rc);
    for (int mod = 0; mod < TOKIO_DARSHAN_MAX_MODULES; mod++) {
        size_t raw_len = 1;
        assert_int_equal(tokio_darshan_module_decoded(log, mod),
                         tokio_darshan_module_decoded(full, mod));
        if (!tokio_darshan_module_decoded(log, mod))
            continue;
        assert_int_equal(h.seen[mod], tokio_darshan_record_count(full, mod));
        assert_int_equal(tokio_darshan_record_count(log, mod), 0);
        assert_null(tokio_darshan_module_raw(log, mod, &raw_len));
        assert_int_equal(raw_len, 0);
    }
    tokio_darshan_free(log);
    tokio_darshan_free(full);
    return 1;
}

static void
test_callback_gets_every_record_of_a_full_read(void **state)
{
    static const int comps[] = {
        TOKIO_DARSHAN_ZLIB, TOKIO_DARSHAN_BZIP2, TOKIO_DARSHAN_NONE,
    };
    struct tokio_test_tmpfile t = { 0 };

    (void)state;
    for (size_t c = 0; c < 3; c++) {
        size_t len;
        unsigned char *buf = make_mixed_log(comps[c], &len);
        tokio_test_tmpfile_put(&t, MADE, buf, len);
        assert_int_equal(check_handed(t.path, NULL), 1);
        free(buf);
    }
    tokio_test_tmpfile_free(&t);
}

static void
test_callback_failure_stops_the_open(void **state)
{
    struct tokio_test_tmpfile t = { 0 };
    size_t len;
    unsigned char *buf = make_mixed_log(TOKIO_DARSHAN_ZLIB, &len);
    struct tokio_darshan *full = NULL, *log = (struct tokio_darshan *)1;

    (void)state;
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    assert_int_equal(tokio_darshan_open(&full, t.path), TOKIO_OK);
    /* in a POSIX piece, and in the LUSTRE module decoded whole */
    const size_t at[] = { 1, 150, 301, 304 };
    for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
        struct handed h = { .full = full, .fail_at = at[k] };
        struct tokio_darshan_select sel = { .modules = UINT64_MAX,
                                            .record = take_record,
                                            .payload = &h };
        assert_int_equal(tokio_darshan_open_select(&log, t.path, &sel),
                         TOKIO_EINVAL);
        assert_null(log);
        assert_string_equal(tokio_errmsg(), "enough records");
        assert_int_equal(h.total, at[k]);
    }
    tokio_darshan_free(full);
    free(buf);
    tokio_test_tmpfile_free(&t);
}

struct oom_handed_ctx {
    const char *path;
    const struct tokio_darshan *full;
};

static int
oom_handed(void *p)
{
    const struct oom_handed_ctx *c = p;
    struct tokio_darshan *log = NULL;
    struct handed h = { .full = c->full };
    struct tokio_darshan_select sel = { .modules = UINT64_MAX,
                                        .record = take_record,
                                        .payload = &h };
    int rc = tokio_darshan_open_select(&log, c->path, &sel);

    tokio_darshan_free(log);
    return rc;
}

static void
test_callback_read_survives_every_oom(void **state)
{
    struct tokio_test_tmpfile t = { 0 };
    size_t len;
    unsigned char *buf = make_mixed_log(TOKIO_DARSHAN_ZLIB, &len);
    struct tokio_darshan *full = NULL;

    (void)state;
    tokio_test_tmpfile_put(&t, MADE, buf, len);
    assert_int_equal(tokio_darshan_open(&full, t.path), TOKIO_OK);
    struct oom_handed_ctx c = { t.path, full };
    tokio_test_every_oom(oom_handed, &c, 1);
    tokio_darshan_free(full);
    free(buf);
    tokio_test_tmpfile_free(&t);
}

/* ---- the pack's logs: a selective read has the same POSIX/STDIO ------- */

static void
assert_same_module(const struct tokio_darshan *a, const struct tokio_darshan *b,
                   int mod, const char *path)
{
    size_t n = tokio_darshan_record_count(a, mod);

    if (tokio_darshan_record_count(b, mod) != n) {
        print_message("%s: module %d: %zu records vs %zu\n", path, mod, n,
                      tokio_darshan_record_count(b, mod));
        fail();
    }
    for (size_t i = 0; i < n; i++) {
        const struct tokio_darshan_record *x = tokio_darshan_record(a, mod, i);
        const struct tokio_darshan_record *y = tokio_darshan_record(b, mod, i);
        assert_int_equal(x->id, y->id);
        assert_int_equal(x->rank, y->rank);
        assert_int_equal(x->n_counters, y->n_counters);
        assert_int_equal(x->n_fcounters, y->n_fcounters);
        assert_memory_equal(x->counters, y->counters,
                            x->n_counters * sizeof(int64_t));
        assert_memory_equal(x->fcounters, y->fcounters,
                            x->n_fcounters * sizeof(double));
    }
}

static int
check_select(const char *path, void *ctx)
{
    struct tokio_darshan *all = NULL, *some = NULL;
    int rc = tokio_darshan_open(&all, path);
    int rc2 = select_open(&some, path, POSIX_BIT | STDIO_BIT, 0);

    (void)ctx;
    if (rc < 0) {
        /* a selective read may pass where the full one failed, never
         * the other way round */
        tokio_darshan_free(some);
        return 0;
    }
    assert_int_equal(rc2, rc);
    assert_same_module(all, some, TOKIO_DARSHAN_POSIX, path);
    assert_same_module(all, some, TOKIO_DARSHAN_STDIO, path);
    assert_int_equal(tokio_darshan_name_count(all),
                     tokio_darshan_name_count(some));
    tokio_darshan_free(all);
    tokio_darshan_free(some);
    return 1;
}

static void
test_select_agrees_with_full_read_on_pack_logs(void **state)
{
    (void)state;
    assert_true(tokio_test_each_pack_darshan_log(check_select, NULL) >= 10);
}

static void
test_callback_agrees_with_full_read_on_pack_logs(void **state)
{
    (void)state;
    assert_true(tokio_test_each_pack_darshan_log(check_handed, NULL) >= 10);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_reads_only_the_chosen_modules),
        cmocka_unit_test(test_zlib_framing_is_checked),
        cmocka_unit_test(test_select_of_a_missing_file_names_it),
        cmocka_unit_test(test_undecoded_module_keeps_its_region),
        cmocka_unit_test(test_select_survives_every_oom),
        cmocka_unit_test(test_select_agrees_with_full_read_on_pack_logs),
        cmocka_unit_test(test_callback_gets_every_record_of_a_full_read),
        cmocka_unit_test(test_callback_failure_stops_the_open),
        cmocka_unit_test(test_callback_read_survives_every_oom),
        cmocka_unit_test(test_callback_agrees_with_full_read_on_pack_logs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
