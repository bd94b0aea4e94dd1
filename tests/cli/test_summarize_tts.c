/*
 * tests/cli/test_summarize_tts.c - `tokio summarize-tts`, run as a user
 * runs it: every golden of golden/pytokio/summarize_tts/ (per-column
 * and per-timestep summaries of TTS and H5LMT files, text and --json)
 * reproduced from the reference's working-folder layout (COMMANDS.md:
 * inputs -> pytokio-inputs, golden -> golden/pytokio), text byte for byte
 * and JSON by value (json_equal), then usage errors and a failing input.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN "golden/pytokio/summarize_tts/"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

/* The table of COMMANDS.md, section summarize_tts, successful runs. */
static const struct tokio_golden_case cases[] = {
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.default.txt", NULL,
      { "summarize-tts", "golden/archive_lmtdb/snx11025_2018-01-28.hdf5",
        NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.default.json", NULL,
      { "summarize-tts", "--json",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.columns.txt", NULL,
      { "summarize-tts", "--columns",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.timesteps.txt", NULL,
      { "summarize-tts", "--timesteps",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.columns.json", NULL,
      { "summarize-tts", "--columns", "--json",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.timesteps.json", NULL,
      { "summarize-tts", "--timesteps", "--json",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.default.txt", NULL,
      { "summarize-tts", "golden/archive_lmtdb/lmtdb-reset.hdf5", NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.default.json", NULL,
      { "summarize-tts", "--json", "golden/archive_lmtdb/lmtdb-reset.hdf5",
        NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.columns.txt", NULL,
      { "summarize-tts", "--columns", "golden/archive_lmtdb/lmtdb-reset.hdf5",
        NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.timesteps.txt.gz", NULL,
      { "summarize-tts", "--timesteps",
        "golden/archive_lmtdb/lmtdb-reset.hdf5", NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.columns.json", NULL,
      { "summarize-tts", "--columns", "--json",
        "golden/archive_lmtdb/lmtdb-reset.hdf5", NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.timesteps.json.gz", NULL,
      { "summarize-tts", "--timesteps", "--json",
        "golden/archive_lmtdb/lmtdb-reset.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.default.txt", NULL,
      { "summarize-tts", "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.default.json", NULL,
      { "summarize-tts", "--json", "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.columns.txt", NULL,
      { "summarize-tts", "--columns", "inputs/snx11025_2018-01-28.hdf5",
        NULL } },
    { "snx11025_2018-01-28.hdf5.timesteps.txt", NULL,
      { "summarize-tts", "--timesteps", "inputs/snx11025_2018-01-28.hdf5",
        NULL } },
    { "snx11025_2018-01-28.hdf5.columns.json", NULL,
      { "summarize-tts", "--columns", "--json",
        "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.timesteps.json", NULL,
      { "summarize-tts", "--timesteps", "--json",
        "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.h5lmt.default.txt", NULL,
      { "summarize-tts", "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "snx11025_2018-01-28.h5lmt.default.json", NULL,
      { "summarize-tts", "--json", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.columns.txt", NULL,
      { "summarize-tts", "--columns", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.timesteps.txt", NULL,
      { "summarize-tts", "--timesteps", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.columns.json", NULL,
      { "summarize-tts", "--columns", "--json",
        "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "snx11025_2018-01-28.h5lmt.timesteps.json", NULL,
      { "summarize-tts", "--timesteps", "--json",
        "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "sample_tokiots.hdf5.default.txt", NULL,
      { "summarize-tts", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.default.json", NULL,
      { "summarize-tts", "--json", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.columns.txt", NULL,
      { "summarize-tts", "--columns", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.timesteps.txt", NULL,
      { "summarize-tts", "--timesteps", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.columns.json", NULL,
      { "summarize-tts", "--columns", "--json", "inputs/sample_tokiots.hdf5",
        NULL } },
    { "sample_tokiots.hdf5.timesteps.json", NULL,
      { "summarize-tts", "--timesteps", "--json", "inputs/sample_tokiots.hdf5",
        NULL } },
};

/* ------------------------------------------------------------------ */
/* Golden outputs                                                      */

static void
test_summarize_tts_matches_every_golden(void **state)
{
    (void)state;
    struct tokio_workdir wd;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    tokio_test_golden_cases(wd.dir, GOLDEN, cases,
                            sizeof(cases) / sizeof(cases[0]), 0);
    tokio_test_workdir_free(&wd);
}

/* ------------------------------------------------------------------ */
/* Failures                                                            */

/* The reference's KeyError 'Unknown schema version global' */
static void
test_summarize_tts_unknown_version_fails_naming_file(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/versions_test.hdf5");
    const char *argv[] = { "summarize-tts", path, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    assert_int_equal(r.status, 1);
    assert_contains(r.err, "versions_test.hdf5");
    assert_contains(r.err, "global");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
}

static void
test_summarize_tts_missing_file_fails(void **state)
{
    (void)state;
    const char *argv[] = { "summarize-tts", "/nonexistent/x.hdf5", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    assert_int_equal(r.status, 1);
    assert_contains(r.err, "/nonexistent/x.hdf5");
    tokio_run_free(&r);
}

/* Regression (issue 17, 8): NaN, an infinity, or a sum beyond a double
 * gave "out of memory summarizing" (jansson refuses them); the message
 * now names the file, the dataset and the cell, on one line, and nothing
 * is printed. */
static void
test_summarize_tts_non_finite_values_are_named(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "x.hdf5");
    const double nan[] = { 1, 2, 3, NAN }, inf[] = { -INFINITY, 2, 3, 4 };
    const double big[] = { 1e308, 1e308, 1e308, 1e308 };
    const struct { const double *data; const char *what; } bad[] = {
        { nan, "holds NaN at row 1, column 1" },
        { inf, "holds an infinity at row 0, column 0" },
        { big, "too large to add up" },
    };

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        tokio_test_tts_raw(path, 2, 2, bad[i].data);
        for (int json = 0; json < 2; json++) {
            const char *argv[] = { "summarize-tts", json ? "--json" : path,
                                   json ? path : NULL, NULL };
            struct tokio_run r = tokio_test_run(NULL, env, argv);

            assert_int_equal(r.status, 1);
            assert_contains(r.err, "x.hdf5': 'datatargets/readbytes'");
            assert_contains(r.err, bad[i].what);
            assert_null(strstr(r.err, "out of memory"));
            assert_ptr_equal(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);
            assert_string_equal(r.out, "");
            tokio_run_free(&r);
        }
    }
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

/* A dataset with no columns sums to nothing, as the reference's numpy
 * sums did: 0 bytes, 0 points, not an error. */
static void
test_summarize_tts_zero_columns_sum_to_nothing(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "x.hdf5");
    const char *argv[] = { "summarize-tts", "--json", path, NULL };

    tokio_test_tts_raw(path, 4, 0, NULL);
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "\"read_bytes\": 0.0");
    assert_contains(r.out, "\"total_pts\": 0");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

static void
test_summarize_tts_usage_errors_exit_2(void **state)
{
    (void)state;
    const char *none[] = { "summarize-tts", NULL };
    const char *two[] = { "summarize-tts", "a", "b", NULL };
    const char *bad[] = { "summarize-tts", "--nope", "a", NULL };
    const char *const *argvs[] = { none, two, bad };

    for (size_t i = 0; i < 3; i++)
        tokio_test_run_fails(env, argvs[i], 2, "summarize-tts --help");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summarize_tts_matches_every_golden),
        cmocka_unit_test(test_summarize_tts_unknown_version_fails_naming_file),
        cmocka_unit_test(test_summarize_tts_missing_file_fails),
        cmocka_unit_test(test_summarize_tts_non_finite_values_are_named),
        cmocka_unit_test(test_summarize_tts_zero_columns_sum_to_nothing),
        cmocka_unit_test(test_summarize_tts_usage_errors_exit_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
