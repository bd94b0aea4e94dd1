/*
 * tests/cli/test_archive_lmtdb.c - `tokio archive-lmtdb` from SQLite LMT
 * caches: every dataset of the HDF5 file it writes equals the
 * reference's golden (golden/pytokio/archive_lmtdb/: values bit for bit
 * including -0.0 for missing data and counter resets, columns,
 * timestamps, units and versions; "updated" differs by design), from the
 * sample and from the OSS-reboot day; updating the file again with the
 * same data changes nothing; an archive from a cache written by
 * cache-lmtdb equals one from the original; failures leave an existing
 * output file untouched; usage errors.
 */
#include "testutil.h"
#include "lmt_check.h"

#include <stdlib.h>
#include <string.h>

#define INPUTS "pytokio-inputs/"
#define GOLDEN "golden/pytokio/archive_lmtdb/"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

static void
archive(const char *input, const char *out, const char *day,
        const char *next, const char *end)
{
    char init_end[32], qs[32], qe[32];

    snprintf(qs, sizeof(qs), "%sT00:00:00", day);
    snprintf(qe, sizeof(qe), "%sT%s", next ? next : day, end);
    snprintf(init_end, sizeof(init_end), "%s", qe);
    const char *argv[] = { "archive-lmtdb", "--init-start", qs, "--init-end",
                           init_end, "--input", input, "--timestep", "5",
                           "--output", out, qs, qe, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    if (r.status != 0)
        fail_msg("exit %d\nstderr: %s", r.status, r.err);
    assert_string_equal(r.err, "");
    tokio_run_free(&r);
}

static void
test_archive_lmtdb_matches_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), out[4200], golden[4200];
    (void)state;

    snprintf(golden, sizeof(golden), "%s",
             tokio_test_data(GOLDEN "snx11025_2018-01-28.hdf5"));
    snprintf(out, sizeof(out), "%s/snx11025_2018-01-28.hdf5", dir);
    archive(in, out, "2018-01-28", NULL, "00:05:00");
    lmt_assert_same_tts(out, golden);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Counters that go backwards (an OSS reboot) become -0.0, not negative. */
static void
test_archive_lmtdb_reset_matches_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "lmtdb-reset.sqlite3");
    char *dir = tokio_test_mkdtemp(), out[4200], golden[4200];
    (void)state;

    snprintf(golden, sizeof(golden), "%s",
             tokio_test_data(GOLDEN "lmtdb-reset.hdf5"));
    snprintf(out, sizeof(out), "%s/lmtdb-reset.hdf5", dir);
    archive(in, out, "2018-04-18", "2018-04-19", "00:00:00");
    lmt_assert_same_tts(out, golden);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Archiving the same range into an existing file changes no value. */
static void
test_archive_lmtdb_update_is_idempotent(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), out[4200], golden[4200];
    (void)state;

    snprintf(golden, sizeof(golden), "%s",
             tokio_test_data(GOLDEN "snx11025_2018-01-28.hdf5"));
    snprintf(out, sizeof(out), "%s/a.hdf5", dir);
    archive(in, out, "2018-01-28", NULL, "00:05:00");
    archive(in, out, "2018-01-28", NULL, "00:05:00");
    lmt_assert_same_tts(out, golden);
    tokio_test_rmtree(dir);
    free(dir);
}

/* A cache written by cache-lmtdb archives like the database it came from. */
static void
test_archive_lmtdb_from_own_cache(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), cache[4200], out[4200], golden[4200];
    (void)state;

    snprintf(golden, sizeof(golden), "%s",
             tokio_test_data(GOLDEN "snx11025_2018-01-28.hdf5"));
    snprintf(cache, sizeof(cache), "%s/c.sqlite3", dir);
    snprintf(out, sizeof(out), "%s/a.hdf5", dir);
    /* one timestep past the end: archive-lmtdb needs it for the deltas */
    const char *argv[] = { "cache-lmtdb", "-i", in, "-o", cache,
                           "2018-01-28T00:00:00", "2018-01-28T00:05:05",
                           NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    archive(cache, out, "2018-01-28", NULL, "00:05:00");
    lmt_assert_same_tts(out, golden);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Bad input or a range the existing file does not cover: exit 1, and
 * the file is exactly as before. */
static void
test_archive_lmtdb_failures_leave_output(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), out[4200], junk[4200];
    size_t len0, len1;
    (void)state;

    snprintf(out, sizeof(out), "%s/a.hdf5", dir);
    snprintf(junk, sizeof(junk), "%s/junk.sqlite3", dir);
    tokio_test_write_file(junk, "not a database, not at all, no no no no.",
                          SIZE_MAX);
    archive(in, out, "2018-01-28", NULL, "00:05:00");
    char *before = tokio_test_read_file(out, &len0);

    const char *bad_input[] = { "archive-lmtdb", "-i", junk, "-o", out,
                                "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                                NULL };
    struct tokio_run r = tokio_test_run(NULL, env, bad_input);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "junk.sqlite3");
    tokio_run_free(&r);

    /* a range the file does not cover: nothing is committed */
    const char *outside[] = { "archive-lmtdb", "-i", in, "-o", out,
                              "2018-01-28T00:10:00", "2018-01-28T00:15:00",
                              NULL };
    r = tokio_test_run(NULL, env, outside);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "not a subset");
    tokio_run_free(&r);

    char *after = tokio_test_read_file(out, &len1);
    assert_int_equal(len0, len1);
    assert_memory_equal(before, after, len0);
    free(before);
    free(after);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_archive_lmtdb_usage_errors(void **state)
{
    static const char *const cases[][8] = {
        { "archive-lmtdb", NULL },
        { "archive-lmtdb", "2018-01-28T00:05:00", "2018-01-28T00:00:00",
          NULL },
        { "archive-lmtdb", "--timestep", "0", "2018-01-28T00:00:00",
          "2018-01-28T00:05:00", NULL },
        { "archive-lmtdb", "--init-start", "noon", "2018-01-28T00:00:00",
          "2018-01-28T00:05:00", NULL },
        { "archive-lmtdb", "--password", "x", "2018-01-28T00:00:00",
          "2018-01-28T00:05:00", NULL },
    };
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_run r = tokio_test_run(NULL, env, cases[i]);

        assert_int_equal(r.status, 2);
        assert_contains(r.err, "see 'tokio archive-lmtdb --help'");
        tokio_run_free(&r);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_archive_lmtdb_matches_golden),
        cmocka_unit_test(test_archive_lmtdb_reset_matches_golden),
        cmocka_unit_test(test_archive_lmtdb_update_is_idempotent),
        cmocka_unit_test(test_archive_lmtdb_from_own_cache),
        cmocka_unit_test(test_archive_lmtdb_failures_leave_output),
        cmocka_unit_test(test_archive_lmtdb_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
