/*
 * tests/connectors/test_darshan_json.c - tokio_darshan_to_json() against
 * the reference's cache_darshan goldens
 * (testdata/golden/pytokio/cache_darshan/), compared by value with
 * json_equal(): integers as integers, reals exactly (the goldens hold
 * the reals darshan-parser's "%f" text reads back as), strings ("N/A")
 * as strings.  Then options, and the OOM loop.
 */
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <zlib.h>

#include "core/alloc.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"

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

/* A golden file's text, gunzipped when it ends in .gz (gzread passes
 * plain files through). */
static char *
read_golden(const char *path, size_t *len_out)
{
    gzFile gz = gzopen(path, "rb");
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap + 1);

    assert_non_null(gz);
    assert_non_null(buf);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            assert_non_null(buf);
        }
        int k = gzread(gz, buf + len, (unsigned)(cap - len));
        assert_true(k >= 0);
        if (k == 0)
            break;
        len += (size_t)k;
    }
    gzclose(gz);
    buf[len] = '\0';
    *len_out = len;
    return buf;
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

/* ---- anomalies ------------------------------------------------------ */

static void
test_darshan_json_null_log_is_einval(void **state)
{
    json_t *j = (json_t *)1;

    (void)state;
    assert_int_equal(tokio_darshan_to_json(NULL, NULL, &j), TOKIO_EINVAL);
    assert_null(j);
}

static void
test_darshan_json_survives_every_oom(void **state)
{
    struct tokio_darshan_json_opts o = { .base = 1, .total = 1, .perf = 1 };
    struct tokio_darshan *log = NULL;

    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/noposixopens.darshan");
    assert_true(tokio_darshan_open(&log, path) >= 0);
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
        cmocka_unit_test(test_darshan_json_null_log_is_einval),
        cmocka_unit_test(test_darshan_json_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
