/*
 * tests/connectors/test_darshan_json.c - a log's JSON (darshan_json.c):
 * tokio_darshan_to_json() against the reference's cache_darshan goldens
 * (testdata/golden/pytokio/cache_darshan/), compared by value with
 * json_equal(): integers as integers, reals exactly (the goldens hold
 * the reals darshan-parser's "%f" text reads back as), strings ("N/A")
 * as strings; tokio_darshan_write_json()'s bytes are compared with them
 * by tests/cli/test_cache_darshan.c.  Then options; logs made here with
 * the writer for what the pack lacks (records sharing a name, merged or
 * a repeated counter refused before anything is written, a record named
 * like the "_total" pseudo-record, unnamed records, no records); write
 * failures and the OOM loops; the "%f" shortcut.
 */
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "core/alloc.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/connectors/darshan_writer.h"
#include "tokio/input.h"
#include "tokio/output.h"

/* ---- fixtures ------------------------------------------------------- */

#define GOLDEN "golden/pytokio/cache_darshan/"

enum { BASE = 1, TOTAL = 2, PERF = 4 };

struct golden_case {
    const char *log;            /* relative to the pack */
    const char *golden;         /* relative to GOLDEN */
    int views;
};

static const struct golden_case cases[] = {
    { "pytokio-inputs/sample.darshan", "sample.base.json", BASE },
    { "pytokio-inputs/sample.darshan", "sample.total.json", TOTAL },
    { "pytokio-inputs/sample.darshan", "sample.perf.json", PERF },
    { "pytokio-inputs/sample-2.darshan", "sample-2.base.json", BASE },
    { "pytokio-inputs/sample-2.darshan", "sample-2.total.json", TOTAL },
    { "pytokio-inputs/sample-2.darshan", "sample-2.perf.json", PERF },
    { "pytokio-inputs/sample-badost.darshan", "sample-badost.base.json.gz",
      BASE },
    { "pytokio-inputs/sample-badost.darshan", "sample-badost.total.json",
      TOTAL },
    { "pytokio-inputs/sample-badost.darshan", "sample-badost.perf.json",
      PERF },
    { "pytokio-inputs/sample-goodost.darshan", "sample-goodost.base.json",
      BASE },
    { "pytokio-inputs/sample-goodost.darshan", "sample-goodost.total.json",
      TOTAL },
    { "pytokio-inputs/sample-goodost.darshan", "sample-goodost.perf.json",
      PERF },
    { "pytokio-inputs/noposix.darshan", "noposix.base.json", BASE },
    { "pytokio-inputs/noposix.darshan", "noposix.total.json", TOTAL },
    { "pytokio-inputs/noposix.darshan", "noposix.perf.json", PERF },
    { "pytokio-inputs/noposixopens.darshan", "noposixopens.base.json", BASE },
    { "pytokio-inputs/noposixopens.darshan", "noposixopens.total.json",
      TOTAL },
    { "pytokio-inputs/noposixopens.darshan", "noposixopens.perf.json", PERF },
    { "darshan-logs/dxt.darshan", "dxt.base.json", BASE },
    { "darshan-logs/dxt.darshan", "dxt.total.json", TOTAL },
    { "darshan-logs/dxt.darshan", "dxt.perf.json", PERF },
    { "darshan-logs/ior_hdf5_example.darshan", "ior_hdf5_example.base.json",
      BASE },
    { "darshan-logs/ior_hdf5_example.darshan",
      "ior_hdf5_example.total.json", TOTAL },
    { "darshan-logs/ior_hdf5_example.darshan", "ior_hdf5_example.perf.json",
      PERF },
    { "darshan-logs/sample-dxt-simple.darshan",
      "sample-dxt-simple.base.json", BASE },
    { "darshan-logs/sample-dxt-simple.darshan",
      "sample-dxt-simple.total.json", TOTAL },
    { "darshan-logs/sample-dxt-simple.darshan",
      "sample-dxt-simple.perf.json", PERF },
    { "darshan-logs/shane_macsio_id29959_5-22-32552-7035573431850780836_"
      "1590156158.darshan",
      "shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158"
      ".base.json", BASE },
    { "darshan-logs/shane_macsio_id29959_5-22-32552-7035573431850780836_"
      "1590156158.darshan",
      "shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158"
      ".total.json", TOTAL },
    { "darshan-logs/shane_macsio_id29959_5-22-32552-7035573431850780836_"
      "1590156158.darshan",
      "shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158"
      ".perf.json", PERF },
    { "pytokio-inputs/sample.darshan", "sample.base+total+perf.json",
      BASE | TOTAL | PERF },
};

/*
 * jansson cannot load integers above INT64_MAX (dxt.darshan's
 * POSIX_RENAMED_FROM ids), so before parsing, the golden's three are
 * rewritten into the form tokio_json_uint64() gives them: a string
 * "\0u64:DIGITS", loaded with JSON_ALLOW_NUL.  json_equal() then checks
 * the exact digits.
 */
static const char *const dxt_renamed[][2] = {
    { "12783323417440050486", "\"\\u0000u64:12783323417440050486\"" },
    { "13171404639239222665", "\"\\u0000u64:13171404639239222665\"" },
    { "16639669389163978655", "\"\\u0000u64:16639669389163978655\"" },
};

/* A golden file's text, gunzipped when it is gzip. */
static char *
read_golden(const char *path, size_t *len_out)
{
    unsigned char *buf = NULL;

    assert_int_equal(tokio_read_file(path, 0, &buf, len_out), TOKIO_OK);
    return (char *)buf;
}

/* `text` (freed) with every `from` replaced by `to`; a new string. */
static char *
replace_all(char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    char *out = malloc(strlen(text) * (nt > nf ? nt / nf + 2 : 1) + 1);
    const char *p = text, *hit;

    assert_non_null(out);
    while ((hit = strstr(p, from)) != NULL) {
        memcpy(out + n, p, (size_t)(hit - p));
        n += (size_t)(hit - p);
        memcpy(out + n, to, nt);
        n += nt;
        p = hit + nf;
    }
    strcpy(out + n, p);
    free(text);
    return out;
}

static json_t *
load_golden(const char *name)
{
    char rel[512];
    size_t len;
    json_error_t err;

    snprintf(rel, sizeof(rel), GOLDEN "%s", name);
    const char *path = tokio_test_data(rel);
    assert_non_null(path);
    char *text = read_golden(path, &len);
    if (strncmp(name, "dxt.", 4) == 0)
        for (size_t i = 0; i < 3; i++)
            text = replace_all(text, dxt_renamed[i][0],
                               dxt_renamed[i][1]);
    json_t *j = json_loads(text, JSON_ALLOW_NUL, &err);
    if (j == NULL)
        fail_msg("%s line %d: %s", name, err.line, err.text);
    free(text);
    return j;
}

static json_t *
build(const char *log_rel, const struct tokio_darshan_json_opts *o)
{
    struct tokio_darshan *log = NULL;
    json_t *j = NULL;
    const char *path = tokio_test_data(log_rel);

    assert_non_null(path);
    assert_true(tokio_darshan_open(&log, path) >= 0);
    int rc = tokio_darshan_to_json(log, o, &j);
    if (rc < 0)
        fail_msg("%s: %s", log_rel, tokio_errmsg());
    tokio_darshan_free(log);
    return j;
}

/* Print the first difference, to make a failure readable. */
static void
show_diff(const json_t *a, const json_t *b, const char *path)
{
    if (json_is_object(a) && json_is_object(b)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)a, k, v) {
            json_t *w = json_object_get(b, k);
            if (w == NULL) {
                print_message("only ours: %s/%s\n", path, k);
                return;
            }
            if (!json_equal(v, w)) {
                char sub[1024];
                snprintf(sub, sizeof(sub), "%s/%s", path, k);
                show_diff(v, w, sub);
                return;
            }
        }
        print_message("golden has more keys at %s\n", path);
        return;
    }
    char *x = json_dumps(a, JSON_ENCODE_ANY), *y =
        json_dumps(b, JSON_ENCODE_ANY);
    print_message("%s: ours %.80s, golden %.80s\n", path, x, y);
    free(x);
    free(y);
}

/* ---- golden comparisons --------------------------------------------- */

static void
test_darshan_json_matches_every_golden(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(dir, GOLDEN);
    (void)dir;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct golden_case *c = &cases[i];
        struct tokio_darshan_json_opts o = {
            .base = !!(c->views & BASE), .total = !!(c->views & TOTAL),
            .perf = !!(c->views & PERF),
        };
        json_t *ours = build(c->log, &o);
        json_t *want = load_golden(c->golden);
        if (c->views == (BASE | TOTAL | PERF)) {
            /* Differs from pytokio: the reference ran darshan-parser
             * three times and appended the header's metadata each time;
             * we list it once. */
            json_t *md = json_object_get(json_object_get(want, "header"),
                                         "metadata");
            assert_int_equal(json_array_size(md), 6);
            for (int k = 0; k < 4; k++)
                json_array_remove(md, 2);
        }
        if (!json_equal(ours, want)) {
            show_diff(ours, want, c->golden);
            fail_msg("%s differs from %s", c->log, c->golden);
        }
        json_decref(ours);
        json_decref(want);
    }
}

static void
test_darshan_json_filters_modules_and_counters(void **state)
{
    static const char *const mods[] = { "posix" };
    static const char *const ctrs[] = { "BYTES_READ", "BYTES_WRITTEN" };
    struct tokio_darshan_json_opts o = {
        .base = 1, .modules = mods, .n_modules = 1,
        .counters = ctrs, .n_counters = 2,
    };

    (void)state;
    TOKIO_TEST_NEED_DATA(dir, GOLDEN);
    (void)dir;
    json_t *ours = build("pytokio-inputs/sample.darshan", &o);
    json_t *want = load_golden("sample.base.posix-only.json");
    assert_true(json_equal(ours, want));
    json_decref(ours);
    json_decref(want);
}

static void
test_darshan_json_null_opts_is_base(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(dir, GOLDEN);
    (void)dir;
    json_t *ours = build("pytokio-inputs/noposixopens.darshan", NULL);
    json_t *want = load_golden("noposixopens.base.json");
    assert_true(json_equal(ours, want));
    json_decref(ours);
    json_decref(want);
}

static void
test_darshan_json_keeps_na_strings_and_real_zeros(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(dir, GOLDEN);
    (void)dir;
    json_t *j = build("pytokio-inputs/sample.darshan", NULL);
    json_t *lustre = json_object_get(json_object_get(j, "counters"),
                                     "lustre");
    const char *k;
    json_t *rec;
    json_object_foreach(lustre, k, rec) {
        json_t *r = json_object_get(rec, "-1");
        assert_string_equal(json_string_value(
            json_object_get(r, "COMP1_FLAGS")), "N/A");
        assert_true(json_is_integer(json_object_get(r, "COMP1_OST_ID_0")));
        break;
    }
    json_t *posix = json_object_get(json_object_get(j, "counters"), "posix");
    json_object_foreach(posix, k, rec) {
        json_t *r = json_object_get(rec, "-1");
        /* "0.000000" was a float to the reference */
        assert_true(json_is_real(json_object_get(r, "F_READ_TIME")));
        break;
    }
    json_decref(j);
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

/* Two ids named alike (ranks 1 and 0, then 3 and 2, or 1 again), a
 * record named "_total", records without a name, a LUSTRE record. */
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

/* The JSON of `log` with `o` as a tree, and the same written and read
 * back: they must be alike (the written text is the tree, key order and
 * all, as tokio_json_write() gives it). */
static json_t *
both_ways(const struct tokio_darshan *log,
          const struct tokio_darshan_json_opts *o)
{
    json_t *tree = NULL;
    char *want = NULL;
    int rc;

    assert_int_equal(tokio_darshan_to_json(log, o, &tree), TOKIO_OK);
    char *text = tokio_test_darshan_json_text(log, o, TOKIO_JSON_INDENT(4),
                                              &rc);
    assert_int_equal(rc, TOKIO_OK);
    assert_int_equal(tokio_json_dumps(&want, tree, TOKIO_JSON_SORT_KEYS |
                                      TOKIO_JSON_INDENT(4)), TOKIO_OK);
    assert_string_equal(text, want);
    free(text);
    free(want);
    return tree;
}

static json_t *
path_get(json_t *j, const char *a, const char *b, const char *c)
{
    return json_object_get(json_object_get(json_object_get(j, a), b), c);
}

static void
test_darshan_json_merges_records_sharing_a_name(void **state)
{
    static const char *const ctrs[] = { "OPENS", "F_READ_TIME" };
    struct tokio_darshan *log = tricky_log(0);
    struct tokio_darshan_json_opts o = { .base = 1, .total = 1, .perf = 1 };

    (void)state;
    json_t *j = both_ways(log, &o);
    /* "/scratch/a" has ranks 0, 1, 2, 3 from ids 11 and 12 */
    json_t *a = path_get(j, "counters", "posix", "/scratch/a");
    assert_int_equal(json_object_size(a), 4);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(a,
                     "2"), "OPENS")), 400);
    /* "_total" holds both the record's rank and the totals */
    json_t *t = path_get(j, "counters", "posix", "_total");
    assert_non_null(json_object_get(t, "-1"));
    assert_non_null(json_object_get(t, "BYTES_READ"));
    assert_non_null(path_get(j, "counters", "posix", "_perf"));
    /* unnamed records are "(null)", as darshan-parser prints them */
    assert_int_equal(json_object_size(path_get(j, "counters", "posix",
                                               "(null)")), 2);
    assert_string_equal(json_string_value(json_object_get(json_object_get(
        path_get(j, "counters", "lustre", "/scratch/a"), "-1"),
        "COMP1_POOL_NAME")), "pool1");
    json_decref(j);

    /* filtered: only the counters asked, and no other view */
    o = (struct tokio_darshan_json_opts){ .base = 1, .counters = ctrs,
                                          .n_counters = 2 };
    j = both_ways(log, &o);
    json_t *r = json_object_get(path_get(j, "counters", "posix",
                                         "/scratch/a"), "3");
    assert_int_equal(json_object_size(r), 2);
    assert_true(json_is_real(json_object_get(r, "F_READ_TIME")));
    /* LUSTRE records give none of those counters: no module at all */
    assert_null(path_get(j, "counters", "lustre", "/scratch/a"));
    /* the record named "_total" alone: no totals without --total */
    assert_int_equal(json_object_size(path_get(j, "counters", "posix",
                                               "_total")), 1);
    assert_null(path_get(j, "counters", "posix", "_perf"));
    json_decref(j);
    tokio_darshan_free(log);
}

static void
test_darshan_json_refuses_a_repeated_counter_before_writing(void **state)
{
    struct tokio_darshan *log = tricky_log(1);
    struct tokio_darshan_json_opts o = { .base = 1 };
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    json_t *j = (json_t *)1;

    (void)state;
    assert_non_null(fp);
    assert_int_equal(tokio_darshan_write_json(log, fp, &o, 0),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "made.darshan");
    assert_contains(tokio_errmsg(), "posix record '/scratch/a' rank 1 has "
                    "counter");
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(len, 0);   /* nothing went out */
    free(buf);
    assert_int_equal(tokio_darshan_to_json(log, &o, &j), TOKIO_EFORMAT);
    assert_null(j);
    tokio_darshan_free(log);
}

static void
test_darshan_json_of_a_log_without_records(void **state)
{
    struct tokio_darshan *log = open_written(new_writer());
    struct tokio_darshan_json_opts o = { .base = 1, .total = 1, .perf = 1 };

    (void)state;
    json_t *j = both_ways(log, &o);
    /* no module: no "counters" */
    assert_int_equal(json_object_size(j), 2);
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(j, "header"), "jobid")), "42");
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(j, "mounts"), "/scratch")), "lustre");
    json_decref(j);
    tokio_darshan_free(log);
}

/* ---- anomalies ------------------------------------------------------ */

static void
test_darshan_json_null_log_is_einval(void **state)
{
    json_t *j = (json_t *)1;

    (void)state;
    assert_int_equal(tokio_darshan_to_json(NULL, NULL, &j), TOKIO_EINVAL);
    assert_null(j);
    assert_int_equal(tokio_darshan_write_json(NULL, stdout, NULL, 0),
                     TOKIO_EINVAL);
}

static void
test_darshan_json_write_errors_are_eio(void **state)
{
    struct tokio_darshan *log = tricky_log(0);
    FILE *fp = fopen("/dev/full", "w");

    (void)state;
    if (fp == NULL) {
        tokio_darshan_free(log);
        print_message("skipped: no /dev/full\n");
        skip();
    }
    assert_int_equal(tokio_darshan_write_json(log, fp, NULL, 0), TOKIO_EIO);
    fclose(fp);
    assert_int_equal(tokio_darshan_write_json(log, NULL, NULL, 0),
                     TOKIO_EINVAL);
    tokio_darshan_free(log);
}

struct oom_ctx {
    const struct tokio_darshan *log;
};

static int
oom_write(void *p)
{
    struct oom_ctx *c = p;
    struct tokio_darshan_json_opts o = { .base = 1, .total = 1, .perf = 1 };
    FILE *fp = fopen("/dev/null", "w");

    assert_non_null(fp);
    int rc = tokio_darshan_write_json(c->log, fp, &o, TOKIO_JSON_INDENT(2));
    fclose(fp);
    return rc;
}

static void
test_darshan_json_survives_every_oom(void **state)
{
    struct tokio_darshan_json_opts o = { .base = 1, .total = 1, .perf = 1 };
    struct tokio_darshan *log = tricky_log(0);

    (void)state;
    struct oom_ctx c = { log };
    tokio_test_every_oom(oom_write, &c, 1);
    for (size_t n = 1;; n++) {
        json_t *j = NULL;
        tokio_test_fail_alloc_at(n);
        int rc = tokio_darshan_to_json(log, &o, &j);
        tokio_test_fail_alloc_at(0);
        if (rc >= 0) {
            json_decref(j);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(j);
    }
    tokio_darshan_free(log);
}
/* ---- the "%f" shortcut ----------------------------------------------- */

static uint64_t
next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* tokio_darshan_printed() gives the very double that strtod() reads from
 * snprintf("%f") (what the reference saw), over exact ties (k / 2^n),
 * values one ulp from them, times, tiny and negative values, and any
 * bit pattern.  TOKIO_TEST_DOUBLES sets the count (default 1e6). */
static void
test_darshan_printed_equals_printf_strtod(void **state)
{
    const char *env = getenv("TOKIO_TEST_DOUBLES");
    size_t count = env != NULL ? (size_t)strtoull(env, NULL, 10) : 1000000;
    uint64_t rng = 1;
    char text[400];

    (void)state;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = next_random(&rng);
        double v, fast;
        switch (i % 6) {
        case 0:     /* ties of "%f": odd multiples of 2^-n, n <= 27 */
            v = ldexp((double)((r >> 8) % 100000000 | 1), -(int)(r % 28));
            break;
        case 1:     /* one ulp from such a tie */
            v = nextafter(ldexp((double)((r >> 8) % 1000000 | 1),
                                -(int)(r % 28)),
                          (r >> 40) & 1 ? INFINITY : -INFINITY);
            break;
        case 2:     /* times */
            v = (double)(r % 4000000000000000u) / 1e6;
            break;
        case 3:     /* tiny, near the rounding to zero */
            v = (double)(r % 2000000) * 1e-13;
            break;
        case 4:     /* any bit pattern */
            memcpy(&v, &r, sizeof(v));
            break;
        default:    /* near the 4e9 cut-off */
            v = 3.99e9 + (double)(r % 100000000) / 1000.0;
            break;
        }
        if ((r >> 63) && i % 6 != 4)
            v = -v;
        if (!isfinite(v))
            continue;
        fast = tokio_darshan_printed(v);
        snprintf(text, sizeof(text), "%f", v);
        double slow = strtod(text, NULL);
        if (memcmp(&fast, &slow, sizeof(fast)) != 0)
            fail_msg("%a (%s): fast %a, strtod %a", v, text, fast, slow);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_darshan_printed_equals_printf_strtod),
        cmocka_unit_test(test_darshan_json_matches_every_golden),
        cmocka_unit_test(test_darshan_json_filters_modules_and_counters),
        cmocka_unit_test(test_darshan_json_null_opts_is_base),
        cmocka_unit_test(test_darshan_json_keeps_na_strings_and_real_zeros),
        cmocka_unit_test(test_darshan_json_merges_records_sharing_a_name),
        cmocka_unit_test(
            test_darshan_json_refuses_a_repeated_counter_before_writing),
        cmocka_unit_test(test_darshan_json_of_a_log_without_records),
        cmocka_unit_test(test_darshan_json_null_log_is_einval),
        cmocka_unit_test(test_darshan_json_write_errors_are_eio),
        cmocka_unit_test(test_darshan_json_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
