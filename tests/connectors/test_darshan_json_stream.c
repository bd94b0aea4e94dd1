/*
 * tests/connectors/test_darshan_json_stream.c - tokio_darshan_write_json()
 * (the JSON written without a tree) gives the very bytes that
 * tokio_json_write() gives for tokio_darshan_to_json()'s tree (itself
 * checked against the reference's goldens in test_darshan_json.c), on
 * every log of the test-data pack with every view and filter, and on
 * logs made here with the writer for the cases the pack lacks: records
 * sharing a name (merged, or a repeated counter refused before anything
 * is written), a record named like the "_total" pseudo-record, unnamed
 * records.  Then write failures and the OOM sweep.
 */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "core/alloc.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/connectors/darshan_writer.h"
#include "tokio/output.h"

/* What the tree gives, or NULL with *rc_out its failure. */
static char *
tree_text(const struct tokio_darshan *log,
          const struct tokio_darshan_json_opts *o, unsigned flags,
          int *rc_out)
{
    json_t *j = NULL;
    char *text = NULL;

    *rc_out = tokio_darshan_to_json(log, o, &j);
    if (*rc_out < 0)
        return NULL;
    assert_int_equal(tokio_json_dumps(&text, j, flags), TOKIO_OK);
    json_decref(j);
    return text;
}

/* Stream and tree agree byte for byte, or fail alike. */
static void
assert_same(const struct tokio_darshan *log,
            const struct tokio_darshan_json_opts *o, const char *what)
{
    static const unsigned flags[] = {
        TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4), TOKIO_JSON_SORT_KEYS,
    };

    for (size_t f = 0; f < 2; f++) {
        int rc_s, rc_t;
        char *s = tokio_test_darshan_json_text(log, o, flags[f], &rc_s);
        char *t = tree_text(log, o, flags[f], &rc_t);
        if (rc_s != rc_t || (s && t && strcmp(s, t) != 0)) {
            size_t i = 0;
            while (s && t && s[i] && s[i] == t[i])
                i++;
            print_message("%s (flags %#x): stream %d, tree %d; first "
                          "difference at byte %zu:\n stream: %.80s\n"
                          "   tree: %.80s\n", what, flags[f], rc_s, rc_t, i,
                          s ? s + i : "", t ? t + i : "");
            fail();
        }
        free(s);
        free(t);
    }
}

/* Every view and some filters of one log. */
static void
assert_same_views(const struct tokio_darshan *log, const char *name)
{
    static const char *const mods[] = { "posix", "lustre", "stdio" };
    static const char *const nomod[] = { "nosuchmodule" };
    static const char *const ctrs[] = {
        "BYTES_READ", "COMP1_OST_ID_0", "COMP1_FLAGS", "F_OPEN_START_TIMESTAMP",
        "",
    };
    struct tokio_darshan_json_opts o[] = {
        { .base = 1 },
        { .total = 1 },
        { .perf = 1 },
        { .base = 1, .total = 1, .perf = 1 },
        { .total = 1, .perf = 1 },
        { .base = 1, .modules = mods, .n_modules = 3 },
        { .base = 1, .total = 1, .modules = nomod, .n_modules = 1 },
        { .base = 1, .perf = 1, .counters = ctrs, .n_counters = 5 },
        { .counters = ctrs, .n_counters = 1, .modules = mods,
          .n_modules = 1 },
    };
    char what[512];

    for (size_t i = 0; i < sizeof(o) / sizeof(o[0]); i++) {
        snprintf(what, sizeof(what), "%s, options #%zu", name, i);
        assert_same(log, &o[i], what);
    }
}

/* ---- the pack's logs ------------------------------------------------ */

static int
check_stream(const char *path, void *ctx)
{
    struct tokio_darshan *log = NULL;

    (void)ctx;
    if (tokio_darshan_open(&log, path) < 0)
        return 0;       /* placeholders, stored symlinks */
    assert_same_views(log, path);
    tokio_darshan_free(log);
    return 1;
}

static void
test_stream_equals_tree_on_every_pack_log(void **state)
{
    size_t seen;

    (void)state;
    seen = tokio_test_each_pack_darshan_log(check_stream, NULL);
    print_message("%zu logs, stream and tree alike\n", seen);
    assert_true(seen >= 10);
}

/* ---- logs made here --------------------------------------------------- */

static const struct tokio_darshan_mount test_mounts[] = {
    { "/scratch", "lustre" }, { "/", "rootfs" },
};

static struct tokio_darshan_writer *
new_writer(void)
{
    struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 42, .start_time = 1500000000,
        .end_time = 1500000100, .nprocs = 4, .exe = "/bin/app -x",
        .n_mounts = 2, .mounts = test_mounts,
    };
    struct tokio_darshan_writer *w = NULL;

    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    return w;
}

/* A POSIX (or STDIO) record whose counters are `base` + their index. */
static void
add_rec(struct tokio_darshan_writer *w, int mod, uint64_t id, int64_t rank,
        int64_t base)
{
    size_t n = tokio_darshan_counter_count(mod);
    size_t nf = tokio_darshan_fcounter_count(mod);
    int64_t *c = calloc(n, sizeof(*c));
    double *f = calloc(nf, sizeof(*f));

    assert_non_null(c);
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        c[i] = base + (int64_t)i;
    for (size_t i = 0; i < nf; i++)
        f[i] = (double)base / 8 + (double)i;
    assert_int_equal(tokio_darshan_writer_add_record(w, mod, id, rank, c, n,
                                                     f, nf), TOKIO_OK);
    free(c);
    free(f);
}

static struct tokio_darshan *
open_written(struct tokio_darshan_writer *w)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    struct tokio_darshan *log = NULL;

    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, &len),
                     TOKIO_OK);
    tokio_darshan_writer_free(w);
    assert_true(tokio_darshan_open_mem(&log, buf, len, "made.darshan") >= 0);
    free(buf);
    return log;
}

/* Two ids named alike (ranks 0 and 1, then 2 and 1 again), a record named
 * "_total", records without a name, out-of-order ranks, a LUSTRE record. */
static struct tokio_darshan *
tricky_log(int repeat_rank)
{
    struct tokio_darshan_writer *w = new_writer();

    assert_int_equal(tokio_darshan_writer_add_name(w, 11, "/scratch/a"), 0);
    assert_int_equal(tokio_darshan_writer_add_name(w, 12, "/scratch/a"), 0);
    assert_int_equal(tokio_darshan_writer_add_name(w, 13, "_total"), 0);
    assert_int_equal(tokio_darshan_writer_add_name(w, 14, "/home/\xc3\xa9"
                                                   "\"q\""), 0);
    add_rec(w, TOKIO_DARSHAN_POSIX, 11, 1, 100);
    add_rec(w, TOKIO_DARSHAN_POSIX, 12, 0, 200);
    add_rec(w, TOKIO_DARSHAN_POSIX, 11, 3, 300);
    add_rec(w, TOKIO_DARSHAN_POSIX, 12, repeat_rank ? 1 : 2, 400);
    add_rec(w, TOKIO_DARSHAN_POSIX, 13, -1, 500);
    add_rec(w, TOKIO_DARSHAN_POSIX, 14, 0, 600);
    add_rec(w, TOKIO_DARSHAN_POSIX, 99, 0, 700);   /* no name */
    add_rec(w, TOKIO_DARSHAN_POSIX, 98, 1, 800);   /* no name either */
    add_rec(w, TOKIO_DARSHAN_STDIO, 11, 2, 900);
    struct tokio_darshan_lustre_comp comp = {
        .counters = { 1048576, 2, 0, 0, -1, 1, 0 }, .pool_name = "pool1",
    };
    const int64_t osts[] = { 5, 3 };
    assert_int_equal(tokio_darshan_writer_add_lustre(w, 11, -1, &comp, 1,
                                                     osts, 2), TOKIO_OK);
    return open_written(w);
}

static void
test_stream_merges_records_sharing_a_name(void **state)
{
    (void)state;
    struct tokio_darshan *log = tricky_log(0);
    assert_same_views(log, "tricky log");

    /* and the merge is there: "/scratch/a" has ranks 0, 1, 2, 3 */
    struct tokio_darshan_json_opts o = { .base = 1, .total = 1 };
    int rc;
    char *s = tokio_test_darshan_json_text(log, &o, TOKIO_JSON_SORT_KEYS,
                                           &rc);
    assert_non_null(s);
    json_error_t err;
    json_t *j = json_loads(s, 0, &err);
    assert_non_null(j);
    json_t *a = json_object_get(json_object_get(json_object_get(j,
                                "counters"), "posix"), "/scratch/a");
    assert_int_equal(json_object_size(a), 4);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(a,
                     "2"), "OPENS")), 400);
    /* "_total" holds both the record's rank and the totals */
    json_t *t = json_object_get(json_object_get(json_object_get(j,
                                "counters"), "posix"), "_total");
    assert_non_null(json_object_get(t, "-1"));
    assert_non_null(json_object_get(t, "BYTES_READ"));
    json_decref(j);
    free(s);
    tokio_darshan_free(log);
}

static void
test_stream_refuses_a_repeated_counter_before_writing(void **state)
{
    (void)state;
    struct tokio_darshan *log = tricky_log(1);
    struct tokio_darshan_json_opts o = { .base = 1 };
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_darshan_write_json(log, &o, fp, 0),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "made.darshan");
    assert_contains(tokio_errmsg(), "posix record '/scratch/a' rank 1 has "
                    "counter");
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(len, 0);   /* nothing went out */
    free(buf);
    assert_same_views(log, "tricky log, a rank repeated");
    tokio_darshan_free(log);
}

static void
test_stream_of_an_empty_log(void **state)
{
    (void)state;
    struct tokio_darshan *log = open_written(new_writer());
    assert_same_views(log, "log without records");
    tokio_darshan_free(log);
}

/* ---- failures ---------------------------------------------------------- */

static void
test_stream_reports_write_errors(void **state)
{
    (void)state;
    FILE *fp = fopen("/dev/full", "w");
    if (fp == NULL) {
        print_message("skipped: no /dev/full\n");
        skip();
    }
    struct tokio_darshan *log = tricky_log(0);
    assert_int_equal(tokio_darshan_write_json(log, NULL, fp, 0), TOKIO_EIO);
    fclose(fp);
    assert_int_equal(tokio_darshan_write_json(NULL, NULL, stdout, 0),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_write_json(log, NULL, NULL, 0),
                     TOKIO_EINVAL);
    tokio_darshan_free(log);
}

struct oom_ctx {
    const struct tokio_darshan *log;
};

static int
oom_trial(void *p)
{
    struct oom_ctx *c = p;
    struct tokio_darshan_json_opts o = { .base = 1, .total = 1, .perf = 1 };
    FILE *fp = fopen("/dev/null", "w");

    assert_non_null(fp);
    int rc = tokio_darshan_write_json(c->log, &o, fp, TOKIO_JSON_INDENT(2));
    fclose(fp);
    return rc;
}

static void
test_stream_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_fail_alloc_at(0);
    struct oom_ctx c = { tricky_log(0) };
    tokio_test_every_oom(oom_trial, &c, 1);
    tokio_darshan_free((struct tokio_darshan *)c.log);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_equals_tree_on_every_pack_log),
        cmocka_unit_test(test_stream_merges_records_sharing_a_name),
        cmocka_unit_test(test_stream_refuses_a_repeated_counter_before_writing),
        cmocka_unit_test(test_stream_of_an_empty_log),
        cmocka_unit_test(test_stream_reports_write_errors),
        cmocka_unit_test(test_stream_survives_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
