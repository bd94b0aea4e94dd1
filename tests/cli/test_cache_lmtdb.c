/*
 * tests/cli/test_cache_lmtdb.c - `tokio cache-lmtdb` from an SQLite LMT
 * cache: the cache file it writes dumps (`sqlite3 .dump`) exactly as the
 * reference's goldens (golden/pytokio/cache_lmtdb/, with and without
 * --limit); the file is accepted back as input; a cache the reference
 * wrote is accepted too; failures leave an existing output untouched;
 * usage errors; the password is refused on the command line.
 */
#include "testutil.h"
#include "lmt_check.h"

#include <stdlib.h>
#include <string.h>

#define INPUT "pytokio-inputs/snx11025_2018-01-28.sqlite3"
#define GOLDEN "golden/pytokio/cache_lmtdb/"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

static void
run_ok(const char *dir, const char *const *argv)
{
    struct tokio_run r = tokio_test_run(dir, env, argv);

    if (r.status != 0)
        fail_msg("exit %d\nstderr: %s", r.status, r.err);
    assert_contains(r.out, "Caching to ");
    tokio_run_free(&r);
}

static void
check_golden(const char *limit, const char *golden)
{
    TOKIO_TEST_NEED_DATA(in, INPUT);
    char *dir = tokio_test_mkdtemp(), out[4200], *got, *want;
    const char *argv[] = { "cache-lmtdb", "-i", in, "-o", out,
                           "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                           limit ? "--limit" : NULL, limit, NULL };

    snprintf(out, sizeof(out), "%s/lmt.sqlite3", dir);
    run_ok(NULL, argv);
    got = tokio_test_sqlite_dump(out);
    TOKIO_TEST_NEED_SQLITE3(got);
    want = tokio_test_read_file(tokio_test_data(golden), NULL);
    assert_non_null(want);
    assert_string_equal(got, want);
    free(got);
    free(want);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_lmtdb_matches_golden(void **state)
{
    (void)state;
    check_golden(NULL, GOLDEN "snx11025_2018-01-28.sql");
}

static void
test_cache_lmtdb_limit_matches_golden(void **state)
{
    (void)state;
    check_golden("2", GOLDEN "snx11025_2018-01-28.limit2.sql");
}

/* Our cache in place of the database gives the same cache again. */
static void
test_cache_lmtdb_reads_its_own_cache(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUT);
    char *dir = tokio_test_mkdtemp(), a[4200], b[4200], *x, *y;
    const char *first[] = { "cache-lmtdb", "-i", in, "-o", a,
                            "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                            NULL };
    const char *second[] = { "cache-lmtdb", "-i", a, "-o", b,
                             "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                             NULL };
    (void)state;

    snprintf(a, sizeof(a), "%s/a.sqlite3", dir);
    snprintf(b, sizeof(b), "%s/b.sqlite3", dir);
    run_ok(NULL, first);
    run_ok(NULL, second);
    x = tokio_test_sqlite_dump(a);
    TOKIO_TEST_NEED_SQLITE3(x);
    y = tokio_test_sqlite_dump(b);
    assert_string_equal(x, y);
    free(x);
    free(y);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Without -o: the reference's first free lmtdb-N.sqlite in the cwd. */
static void
test_cache_lmtdb_default_name(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUT);
    char *dir = tokio_test_mkdtemp(), path[4200];
    const char *argv[] = { "cache-lmtdb", "-i", in, "--limit", "1",
                           "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                           NULL };
    (void)state;

    snprintf(path, sizeof(path), "%s/lmtdb-0.sqlite", dir);
    tokio_test_write_file(path, "taken", SIZE_MAX);
    run_ok(dir, argv);
    snprintf(path, sizeof(path), "%s/lmtdb-1.sqlite", dir);
    char *text = tokio_test_read_file(path, NULL);
    assert_non_null(text);
    assert_memory_equal(text, "SQLite format 3", 15);
    free(text);
    snprintf(path, sizeof(path), "%s/lmtdb-0.sqlite", dir);
    text = tokio_test_read_file(path, NULL);
    assert_string_equal(text, "taken");
    free(text);
    tokio_test_rmtree(dir);
    free(dir);
}

/* A range without data, a missing input, a non-database input: exit 1
 * naming the input, and the existing output file stays as it was. */
static void
test_cache_lmtdb_failures_leave_output(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUT);
    char *dir = tokio_test_mkdtemp(), out[4200], junk[4200], missing[4200];
    (void)state;

    snprintf(out, sizeof(out), "%s/out.sqlite3", dir);
    snprintf(junk, sizeof(junk), "%s/junk.sqlite3", dir);
    snprintf(missing, sizeof(missing), "%s/missing.sqlite3", dir);
    tokio_test_write_file(out, "old contents", SIZE_MAX);
    tokio_test_write_file(junk, "this is not a database, not at all.......",
                          SIZE_MAX);
    struct {
        const char *input, *start, *msg;
    } cases[] = {
        { in, "2019-01-01T00:00:00", "has no timestamps from 2019-01-01" },
        { missing, "2018-01-28T00:00:00", "missing.sqlite3" },
        { junk, "2018-01-28T00:00:00", "junk.sqlite3" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char end[32];
        snprintf(end, sizeof(end), "%.11s00:05:00", cases[i].start);
        const char *argv[] = { "cache-lmtdb", "-i", cases[i].input, "-o", out,
                               cases[i].start, end, NULL };
        struct tokio_run r = tokio_test_run(NULL, env, argv);

        assert_int_equal(r.status, 1);
        assert_contains(r.err, cases[i].msg);
        tokio_run_free(&r);
        char *text = tokio_test_read_file(out, NULL);
        assert_string_equal(text, "old contents");
        free(text);
    }
    tokio_test_rmtree(dir);
    free(dir);
}

/* Writing into a file that is not a database: exit 1, file unchanged,
 * no temporary file left behind. */
static void
test_cache_lmtdb_output_not_a_database(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUT);
    char *dir = tokio_test_mkdtemp(), out[4200];
    static const char junk[] = "not a database, but long enough to look at"
                               " as a header of one hundred bytes or so..";
    const char *argv[] = { "cache-lmtdb", "-i", in, "-o", out,
                           "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                           NULL };
    (void)state;

    snprintf(out, sizeof(out), "%s/out.sqlite3", dir);
    tokio_test_write_file(out, junk, SIZE_MAX);
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "out.sqlite3");
    tokio_run_free(&r);
    char *text = tokio_test_read_file(out, NULL);
    assert_string_equal(text, junk);
    free(text);
    char cmd[4300];
    /* nothing beside it but its lock (".out.sqlite3.lock", kept for the
     * next writer) */
    snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | grep -vc '\\.lock$') "
             "-eq 1", dir);
    assert_int_equal(system(cmd), 0);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_lmtdb_usage_errors(void **state)
{
    static const char *const cases[][8] = {
        { "cache-lmtdb", NULL },
        { "cache-lmtdb", "2018-01-28T00:00:00", NULL },
        { "cache-lmtdb", "yesterday", "today", NULL },
        { "cache-lmtdb", "--limit", "-3", "2018-01-28T00:00:00",
          "2018-01-28T00:05:00", NULL },
        { "cache-lmtdb", "--password", "hunter2", "2018-01-28T00:00:00",
          "2018-01-28T00:05:00", NULL },
    };
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_run r = tokio_test_run(NULL, env, cases[i]);

        assert_int_equal(r.status, 2);
        assert_contains(r.err, "see 'tokio cache-lmtdb --help'");
        tokio_run_free(&r);
    }
    struct tokio_run r = tokio_test_run(NULL, env, cases[4]);
    assert_contains(r.err, "PYTOKIO_LMT_PASSWORD");
    tokio_run_free(&r);
}

/* No input and no server: a clear error, exit 1. */
static void
test_cache_lmtdb_no_database(void **state)
{
    static const char *const argv[] = { "cache-lmtdb", "2018-01-28T00:00:00",
                                        "2018-01-28T00:05:00", NULL };
    static const char *const noenv[] = {
        "TZ=America/Los_Angeles", "PYTOKIO_LMT_HOST=", "PYTOKIO_LMT_USER=",
        "PYTOKIO_LMT_DB=", NULL };
    (void)state;

    struct tokio_run r = tokio_test_run(NULL, noenv, argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "no database to ask");
    tokio_run_free(&r);
}

/* A server that refuses: exit 1 saying so, naming the server. */
static void
test_cache_lmtdb_refused(void **state)
{
    static const char *const argv[] = { "cache-lmtdb", "--host", "127.0.0.1",
                                        "--port", "1", "--user", "u",
                                        "--database", "lmt",
                                        "2018-01-28T00:00:00",
                                        "2018-01-28T00:05:00", NULL };
    (void)state;

    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "u@127.0.0.1:1/lmt");
    assert_contains(r.err, "connection refused");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_lmtdb_matches_golden),
        cmocka_unit_test(test_cache_lmtdb_limit_matches_golden),
        cmocka_unit_test(test_cache_lmtdb_reads_its_own_cache),
        cmocka_unit_test(test_cache_lmtdb_default_name),
        cmocka_unit_test(test_cache_lmtdb_failures_leave_output),
        cmocka_unit_test(test_cache_lmtdb_output_not_a_database),
        cmocka_unit_test(test_cache_lmtdb_usage_errors),
        cmocka_unit_test(test_cache_lmtdb_no_database),
        cmocka_unit_test(test_cache_lmtdb_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
