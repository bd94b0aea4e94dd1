/*
 * tests/cli/test_cache_nersc_jobsdb.c - `tokio cache-nersc-jobsdb` from
 * the SQLite sample: the cache file dumps as the reference's golden
 * (golden/pytokio/cache_nersc_jobsdb/), --json totals match the
 * reference's get_concurrent_jobs (golden/pytokio/nersc_jobsdb/
 * concurrent-windows.json, third window), a cache we wrote is read back
 * to the same totals, errors and usage.
 */
#include "testutil.h"
#include "lmt_check.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define INPUT "pytokio-inputs/sample_nersc_jobsdb.sqlite3"
#define GOLDEN "golden/pytokio/cache_nersc_jobsdb/sample_nersc_jobsdb.edison.sql"
#define WINDOWS "golden/pytokio/nersc_jobsdb/" \
                "sample_nersc_jobsdb.concurrent-windows.json"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

static void
test_cache_nersc_jobsdb_matches_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUT);
    char *dir = tokio_test_mkdtemp(), out[4200], *got, *want;
    const char *argv[] = { "cache-nersc-jobsdb", "-i", in, "-o", out,
                           "2017-03-18T14:24:59", "2017-03-21T23:20:56",
                           "edison", NULL };
    (void)state;

    snprintf(out, sizeof(out), "%s/jobs.sqlite3", dir);
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_contains(r.out, "Caching to ");
    tokio_run_free(&r);
    got = tokio_test_sqlite_dump(out);
    TOKIO_TEST_NEED_SQLITE3(got);
    want = tokio_test_read_file(tokio_test_data(GOLDEN), NULL);
    assert_string_equal(got, want);
    free(got);
    free(want);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Window 1490000000..1490003600 of the golden is 2017-03-20T01:53:20 ..
 * 02:53:20 in Los Angeles: the totals must be the same, from the sample
 * and from the cache we wrote of it. */
static void
test_cache_nersc_jobsdb_json_totals(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUT);
    char *dir = tokio_test_mkdtemp(), out[4200];
    json_t *windows = json_load_file(tokio_test_data(WINDOWS), 0, NULL);
    json_t *want = json_array_get(windows, 2);
    (void)state;

    assert_non_null(want);
    assert_int_equal(json_integer_value(json_object_get(want, "start")),
                     1490000000);
    json_object_del(want, "start");
    json_object_del(want, "end");
    snprintf(out, sizeof(out), "%s/jobs.sqlite3", dir);
    for (int pass = 0; pass < 2; pass++) {
        char out2[4300];
        snprintf(out2, sizeof(out2), "%s/again.sqlite3", dir);
        const char *argv[] = { "cache-nersc-jobsdb", "--json", "-i",
                               pass ? out : in, "-o", pass ? out2 : out,
                               "2017-03-20T01:53:20", "2017-03-20T02:53:20",
                               "edison", NULL };
        struct tokio_run r = tokio_test_run(NULL, env, argv);

        assert_int_equal(r.status, 0);
        json_t *got = json_loads(r.out, 0, NULL);
        assert_non_null(got);
        assert_true(json_equal(got, want));
        json_decref(got);
        tokio_run_free(&r);
    }
    json_decref(windows);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_nersc_jobsdb_errors(void **state)
{
    static const char *const usage[][8] = {
        { "cache-nersc-jobsdb", NULL },
        { "cache-nersc-jobsdb", "2017-03-18T14:24:59", "edison", NULL },
        { "cache-nersc-jobsdb", "x", "y", "edison", NULL },
        { "cache-nersc-jobsdb", "--json", "--csv", "2017-03-18T14:24:59",
          "2017-03-21T23:20:56", "edison", NULL },
    };
    static const char *const noenv[] = {
        "TZ=America/Los_Angeles", "NERSC_JOBSDB_HOST=", NULL };
    static const char *const nodb[] = { "cache-nersc-jobsdb",
                                        "2017-03-18T14:24:59",
                                        "2017-03-21T23:20:56", "edison",
                                        NULL };
    (void)state;

    for (size_t i = 0; i < sizeof(usage) / sizeof(usage[0]); i++) {
        struct tokio_run r = tokio_test_run(NULL, env, usage[i]);

        assert_int_equal(r.status, 2);
        tokio_run_free(&r);
    }
    struct tokio_run r = tokio_test_run(NULL, noenv, nodb);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "NERSC_JOBSDB_HOST");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_nersc_jobsdb_matches_golden),
        cmocka_unit_test(test_cache_nersc_jobsdb_json_totals),
        cmocka_unit_test(test_cache_nersc_jobsdb_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
