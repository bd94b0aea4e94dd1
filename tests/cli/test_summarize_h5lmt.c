/*
 * tests/cli/test_summarize_h5lmt.c - `tokio summarize-h5lmt`, run as a user
 * runs it: every golden of golden/pytokio/summarize_h5lmt/ (binned
 * summaries, --summary, units and --bins of TTS and H5LMT files, with
 * the reference's "does not evenly divide" warning where it gave one)
 * reproduced from the reference's working-folder layout (COMMANDS.md:
 * inputs -> pytokio-inputs, golden -> golden/pytokio), text byte for byte
 * and JSON by value (json_equal), then usage errors and a failing input.
 *
 * Differs from pytokio (asserted below): -0.0 against 0.0 in the "min_"
 * values of sample_tokiots.hdf5 bins may print with the other sign; equal
 * by value, which is what the JSON comparison checks.
 */
#include "testutil.h"
#include "tokio/timeseries.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN "golden/pytokio/summarize_h5lmt/"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

/* what the reference warned of on stderr, once */
#define UNEVEN "does not evenly divide into FSStepsDataSet size"

/* The table of COMMANDS.md, section summarize_h5lmt, successful runs. */
static const struct tokio_golden_case cases[] = {
    { "snx11025_2018-01-28.h5lmt.default.txt", UNEVEN,
      { "summarize-h5lmt", "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "snx11025_2018-01-28.h5lmt.summary.txt", UNEVEN,
      { "summarize-h5lmt", "--summary", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.default.json", UNEVEN,
      { "summarize-h5lmt", "--json", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.summary.json", UNEVEN,
      { "summarize-h5lmt", "--json", "--summary",
        "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "snx11025_2018-01-28.h5lmt.bytes.txt", UNEVEN,
      { "summarize-h5lmt", "--bytes", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.mibs.txt", UNEVEN,
      { "summarize-h5lmt", "--mibs", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.bins.12.txt", NULL,
      { "summarize-h5lmt", "--bins", "12", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.bins.60.summary.txt", NULL,
      { "summarize-h5lmt", "--bins", "60", "--summary",
        "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "snx11025_2018-01-28.hdf5.default.txt", UNEVEN,
      { "summarize-h5lmt", "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.summary.txt", UNEVEN,
      { "summarize-h5lmt", "--summary", "inputs/snx11025_2018-01-28.hdf5",
        NULL } },
    { "snx11025_2018-01-28.hdf5.default.json", UNEVEN,
      { "summarize-h5lmt", "--json", "inputs/snx11025_2018-01-28.hdf5",
        NULL } },
    { "snx11025_2018-01-28.hdf5.summary.json", UNEVEN,
      { "summarize-h5lmt", "--json", "--summary",
        "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.bytes.txt", UNEVEN,
      { "summarize-h5lmt", "--bytes", "inputs/snx11025_2018-01-28.hdf5",
        NULL } },
    { "snx11025_2018-01-28.hdf5.mibs.txt", UNEVEN,
      { "summarize-h5lmt", "--mibs", "inputs/snx11025_2018-01-28.hdf5",
        NULL } },
    { "snx11025_2018-01-28.hdf5.bins.12.txt", NULL,
      { "summarize-h5lmt", "--bins", "12", "inputs/snx11025_2018-01-28.hdf5",
        NULL } },
    { "snx11025_2018-01-28.hdf5.bins.60.summary.txt", NULL,
      { "summarize-h5lmt", "--bins", "60", "--summary",
        "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "sample_tokiots.hdf5.default.txt", NULL,
      { "summarize-h5lmt", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.summary.txt", NULL,
      { "summarize-h5lmt", "--summary", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.default.json", NULL,
      { "summarize-h5lmt", "--json", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.summary.json", NULL,
      { "summarize-h5lmt", "--json", "--summary", "inputs/sample_tokiots.hdf5",
        NULL } },
    { "sample_tokiots.hdf5.bytes.txt", NULL,
      { "summarize-h5lmt", "--bytes", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.mibs.txt", NULL,
      { "summarize-h5lmt", "--mibs", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.bins.12.txt", NULL,
      { "summarize-h5lmt", "--bins", "12", "inputs/sample_tokiots.hdf5",
        NULL } },
    { "sample_tokiots.hdf5.bins.60.summary.txt", NULL,
      { "summarize-h5lmt", "--bins", "60", "--summary",
        "inputs/sample_tokiots.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.default.txt", UNEVEN,
      { "summarize-h5lmt", "golden/archive_lmtdb/snx11025_2018-01-28.hdf5",
        NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.summary.txt", UNEVEN,
      { "summarize-h5lmt", "--summary",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.default.json", UNEVEN,
      { "summarize-h5lmt", "--json",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.summary.json", UNEVEN,
      { "summarize-h5lmt", "--json", "--summary",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.bytes.txt", UNEVEN,
      { "summarize-h5lmt", "--bytes",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.mibs.txt", UNEVEN,
      { "summarize-h5lmt", "--mibs",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.bins.12.txt", NULL,
      { "summarize-h5lmt", "--bins", "12",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.bins.60.summary.txt", NULL,
      { "summarize-h5lmt", "--bins", "60", "--summary",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
};

/* ------------------------------------------------------------------ */
/* Golden outputs                                                      */

static void
test_summarize_h5lmt_matches_every_golden(void **state)
{
    (void)state;
    struct tokio_workdir wd;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    tokio_test_golden_cases(wd.dir, GOLDEN, cases,
                            sizeof(cases) / sizeof(cases[0]), 0);
    tokio_test_workdir_free(&wd);
}

/* ------------------------------------------------------------------ */
/* Warnings and failures                                               */

static void
test_summarize_h5lmt_uneven_bins_warn_once(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/snx11025_2018-01-28.hdf5");
    const char *argv[] = { "summarize-h5lmt", path, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    const char *msg = "warning: Bin count 24 does not evenly divide into "
                      "FSStepsDataSet size 60\n";

    assert_int_equal(r.status, 0);
    assert_contains(r.err, msg);
    assert_null(strstr(strstr(r.err, msg) + 1, msg));  /* once, as Python */
    tokio_run_free(&r);
}

/* Differs from pytokio: it crashed on empty bins (max() of nothing) */
static void
test_summarize_h5lmt_more_bins_than_steps_fails(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/snx11025_2018-01-28.h5lmt");
    const char *argv[] = { "summarize-h5lmt", "--bins", "61", path, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    assert_int_equal(r.status, 1);
    assert_contains(r.err, "snx11025_2018-01-28.h5lmt");
    assert_contains(r.err, "61 bins");
    tokio_run_free(&r);
}

static void
test_summarize_h5lmt_unknown_version_fails_naming_file(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/versions_test.hdf5");
    const char *argv[] = { "summarize-h5lmt", path, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    assert_int_equal(r.status, 1);
    assert_contains(r.err, "versions_test.hdf5");
    tokio_run_free(&r);
}

/* Regression (issue 17, 8): NaN, an infinity, or a dataset without
 * columns gave "out of memory summarizing" (and the text's header before
 * it); the message now says what is wrong, naming the file, and nothing
 * is printed. */
static void
test_summarize_h5lmt_bad_values_are_named(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "x.hdf5");
    const double nan[] = { 1, 2, 3, NAN }, inf[] = { 1, INFINITY, 3, 4 };
    const struct {
        const double *data;
        size_t cols;
        const char *what;
    } bad[] = {
        { nan, 2, "'datatargets/readbytes' holds NaN at row 1, column 1" },
        { inf, 2, "'datatargets/readbytes' holds an infinity at row 0, "
                  "column 1" },
        { NULL, 0, "'datatargets/readbytes' has no columns to summarize" },
    };
    const char *modes[][3] = { { "--bins", "1", NULL },
                               { "--bins", "2", "--json" },
                               { "--bins", "1", "--summary" } };

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        tokio_test_tts_raw(path, 2, bad[i].cols, bad[i].data);
        for (size_t m = 0; m < 3; m++) {
            const char *argv[] = { "summarize-h5lmt", modes[m][0],
                                   modes[m][1], modes[m][2] ? modes[m][2]
                                                            : path,
                                   modes[m][2] ? path : NULL, NULL };
            struct tokio_run r = tokio_test_run(NULL, env, argv);

            assert_int_equal(r.status, 1);
            assert_contains(r.err, "x.hdf5'");
            assert_contains(r.err, bad[i].what);
            assert_null(strstr(r.err, "out of memory"));
            assert_string_equal(r.out, "");
            tokio_run_free(&r);
        }
    }
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

/* Bins the text cannot show (a file without OST bytes) print nothing,
 * and the message names the file. */
static void
test_summarize_h5lmt_unprintable_bins_name_the_file(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(good, "pytokio-inputs/snx11025_2018-01-28.hdf5");
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "x.hdf5");
    struct tokio_timeseries *ts = tokio_test_tts_read(good,
                                                      "dataservers/cpuload");
    const char *argv[] = { "summarize-h5lmt", "--bins", "1", path, NULL };

    tokio_test_tts_write(path, ts);
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "x.hdf5'");
    assert_contains(r.err, "no OST bytes");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    tokio_timeseries_free(ts);
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

static void
test_summarize_h5lmt_usage_errors_exit_2(void **state)
{
    (void)state;
    const char *none[] = { "summarize-h5lmt", NULL };
    const char *zero[] = { "summarize-h5lmt", "--bins", "0", "a", NULL };
    const char *word[] = { "summarize-h5lmt", "--bins", "x", "a", NULL };
    const char *const *argvs[] = { none, zero, word };

    for (size_t i = 0; i < 3; i++)
        tokio_test_run_fails(env, argvs[i], 2, "summarize-h5lmt --help");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summarize_h5lmt_matches_every_golden),
        cmocka_unit_test(test_summarize_h5lmt_uneven_bins_warn_once),
        cmocka_unit_test(test_summarize_h5lmt_more_bins_than_steps_fails),
        cmocka_unit_test(
            test_summarize_h5lmt_unknown_version_fails_naming_file),
        cmocka_unit_test(test_summarize_h5lmt_bad_values_are_named),
        cmocka_unit_test(
            test_summarize_h5lmt_unprintable_bins_name_the_file),
        cmocka_unit_test(test_summarize_h5lmt_usage_errors_exit_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
