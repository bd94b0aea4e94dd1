/*
 * tests/cli/test_cache_darshan.c - `tokio cache-darshan` run as the
 * reference's goldens were made (golden/pytokio/COMMANDS.md, section
 * cache_darshan): from a working folder holding inputs/ (the pytokio
 * inputs) and darshan-logs/, output compared byte for byte with the
 * golden; then the empty and corrupt logs, -o, and usage errors.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include <zlib.h>

#define GOLDEN "golden/pytokio/cache_darshan/"
#define EMPTY_LOG "inputs/darshanlogs/2017/3/21/" \
    "glock_vpicio_uni_id4487503_3-21-14391-1931100114561819213_1.darshan"
#define SHANE "shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158"

/* ---- fixtures ------------------------------------------------------- */

struct work {
    char *dir;                  /* the working folder */
    char *tops[2];              /* the copies' parents, to remove */
};

static int
setup(void **state)
{
    struct work *w = calloc(1, sizeof(*w));
    char *inputs, *logs, link[4096];

    assert_non_null(w);
    *state = w;
    if (tokio_test_data("pytokio-inputs") == NULL)
        return 0;
    w->dir = tokio_test_mkdtemp();
    inputs = tokio_test_copy_data("pytokio-inputs", &w->tops[0]);
    logs = tokio_test_copy_data("darshan-logs", &w->tops[1]);
    assert_non_null(inputs);
    assert_non_null(logs);
    snprintf(link, sizeof(link), "%s/inputs", w->dir);
    assert_int_equal(symlink(inputs, link), 0);
    snprintf(link, sizeof(link), "%s/darshan-logs", w->dir);
    assert_int_equal(symlink(logs, link), 0);
    snprintf(link, sizeof(link), "%s/scratch", w->dir);
    assert_int_equal(mkdir(link, 0700), 0);
    free(inputs);
    free(logs);
    return 0;
}

static int
teardown(void **state)
{
    struct work *w = *state;

    if (w->dir != NULL) {
        tokio_test_rmtree(w->dir);
        for (int i = 0; i < 2; i++) {
            tokio_test_rmtree(w->tops[i]);
            free(w->tops[i]);
        }
        free(w->dir);
    }
    free(w);
    return 0;
}

#define NEED_WORK(w)                                                        \
    do {                                                                    \
        if ((w)->dir == NULL) {                                             \
            print_message("skipped: ../shared/testdata is absent\n");       \
            skip();                                                         \
        }                                                                   \
    } while (0)

/* A golden's text, gunzipped when it ends in .gz. */
static char *
read_golden(const char *name)
{
    char rel[512];
    size_t cap = 1 << 20, len = 0;

    snprintf(rel, sizeof(rel), GOLDEN "%s", name);
    const char *path = tokio_test_data(rel);
    assert_non_null(path);
    gzFile gz = gzopen(path, "rb");
    assert_non_null(gz);
    char *buf = malloc(cap + 1);
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
    return buf;
}

/* ---- golden comparisons --------------------------------------------- */

struct cli_case {
    const char *args[8];        /* after "cache-darshan" */
    const char *golden;
};

/*
 * Every cache_darshan golden whose bytes we reproduce.  Not here, compared
 * by value in tests/connectors/test_darshan_json.c:
 * sample.base+total+perf.json (the reference's metadata listed three
 * times).
 */
static const struct cli_case cases[] = {
#define LOG3(dir, name)                                                     \
    { { "--base", dir "/" name ".darshan" }, name ".base.json" },           \
    { { "--total", dir "/" name ".darshan" }, name ".total.json" },         \
    { { "--perf", dir "/" name ".darshan" }, name ".perf.json" }
    LOG3("inputs", "sample"),
    { { "--base", "darshan-logs/dxt.darshan" }, "dxt.base.json" },
    LOG3("inputs", "sample-2"),
    { { "--base", "inputs/sample-badost.darshan" },
      "sample-badost.base.json.gz" },
    { { "--total", "inputs/sample-badost.darshan" },
      "sample-badost.total.json" },
    { { "--perf", "inputs/sample-badost.darshan" },
      "sample-badost.perf.json" },
    LOG3("inputs", "sample-goodost"),
    LOG3("inputs", "noposix"),
    LOG3("inputs", "noposixopens"),
    { { "--total", "darshan-logs/dxt.darshan" }, "dxt.total.json" },
    { { "--perf", "darshan-logs/dxt.darshan" }, "dxt.perf.json" },
    LOG3("darshan-logs", "ior_hdf5_example"),
    LOG3("darshan-logs", "sample-dxt-simple"),
    LOG3("darshan-logs", SHANE),
    { { "--base", "--modules", "posix", "--counters",
        "BYTES_READ,BYTES_WRITTEN", "inputs/sample.darshan" },
      "sample.base.posix-only.json" },
    /* regression: --base is the default, and its filters apply without
     * it as in the reference's cache_darshan (they were dropped) */
    { { "--modules", "posix", "--counters", "BYTES_READ,BYTES_WRITTEN",
        "inputs/sample.darshan" },
      "sample.base.posix-only.json" },
    { { "--base", EMPTY_LOG },
      "glock_vpicio_uni_id4487503_3-21-14391-1931100114561819213_1"
      ".empty-log.base.json" },
#undef LOG3
};

static void
test_cache_darshan_matches_goldens_byte_for_byte(void **state)
{
    struct work *w = *state;

    NEED_WORK(w);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct cli_case *c = &cases[i];
        const char *argv[10] = { "cache-darshan" };
        for (size_t k = 0; k < 8 && c->args[k]; k++)
            argv[k + 1] = c->args[k];
        struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
        char *want = read_golden(c->golden);
        if (r.status != 0 || strcmp(r.out, want) != 0)
            fail_msg("%s: status %d, stderr: %s", c->golden, r.status,
                     r.err);
        free(want);
        tokio_run_free(&r);
    }
}

/* ---- edge cases ----------------------------------------------------- */

static void
test_cache_darshan_empty_log_prints_braces_and_warns(void **state)
{
    struct work *w = *state;
    const char *argv[] = { "cache-darshan", EMPTY_LOG, NULL };

    NEED_WORK(w);
    struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "{}\n");
    assert_contains(r.err, "glock_vpicio_uni_id4487503");
    assert_contains(r.err, "warning");
    tokio_run_free(&r);
}

static void
test_cache_darshan_corrupt_log_exits_1_naming_it(void **state)
{
    struct work *w = *state;
    char path[4096];
    size_t len;

    NEED_WORK(w);
    snprintf(path, sizeof(path), "%s/inputs/sample.darshan", w->dir);
    char *log = tokio_test_read_file(path, &len);
    assert_non_null(log);
    assert_true(len > 4000);
    snprintf(path, sizeof(path), "%s/scratch/cut-short.darshan", w->dir);
    tokio_test_write_file(path, log, 3000);
    free(log);

    const char *argv[] = { "cache-darshan", "scratch/cut-short.darshan",
                           NULL };
    struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "cut-short.darshan");
    tokio_run_free(&r);

    const char *missing[] = { "cache-darshan", "scratch/nothere.darshan",
                              NULL };
    r = tokio_test_run(w->dir, NULL, missing);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "nothere.darshan");
    tokio_run_free(&r);
}

static void
test_cache_darshan_output_file_holds_same_json(void **state)
{
    struct work *w = *state;
    char path[4096];
    json_error_t err;

    NEED_WORK(w);
    const char *argv[] = { "cache-darshan", "-o", "scratch/out.json",
                           "--total", "inputs/sample.darshan", NULL };
    struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    snprintf(path, sizeof(path), "%s/scratch/out.json", w->dir);
    json_t *ours = json_load_file(path, 0, &err);
    assert_non_null(ours);
    char *text = read_golden("sample.total.json");
    json_t *want = json_loads(text, 0, &err);
    assert_non_null(want);
    assert_true(json_equal(ours, want));
    json_decref(ours);
    json_decref(want);
    free(text);
}

static void
test_cache_darshan_bad_usage_exits_2(void **state)
{
    static const char *const bad[][4] = {
        { "cache-darshan", "--bogus", "x.darshan", NULL },
        { "cache-darshan", NULL },
        { "cache-darshan", "a.darshan", "b.darshan", NULL },
        { "cache-darshan", "--modules", NULL },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct tokio_run r = tokio_test_run(NULL, NULL, bad[i]);
        assert_int_equal(r.status, 2);
        assert_contains(r.err, "cache-darshan");
        tokio_run_free(&r);
    }
}

static void
test_cache_darshan_help_exits_0(void **state)
{
    const char *argv[] = { "cache-darshan", "--help", NULL };

    (void)state;
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "--counters");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_darshan_matches_goldens_byte_for_byte),
        cmocka_unit_test(test_cache_darshan_empty_log_prints_braces_and_warns),
        cmocka_unit_test(test_cache_darshan_corrupt_log_exits_1_naming_it),
        cmocka_unit_test(test_cache_darshan_output_file_holds_same_json),
        cmocka_unit_test(test_cache_darshan_bad_usage_exits_2),
        cmocka_unit_test(test_cache_darshan_help_exits_0),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
