/*
 * tests/cli/test_summarize_tts.c - `tokio summarize-tts`, run as a user
 * runs it: every golden of golden/pytokio/summarize_tts/ (per-column
 * and per-timestep summaries of TTS and H5LMT files, text and --json)
 * reproduced from the reference's working-folder layout (COMMANDS.md:
 * inputs -> pytokio-inputs, golden -> golden/pytokio), text byte for byte
 * and JSON by value (json_equal), then usage errors and a failing input.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tokio/input.h"

#define GOLDEN "golden/pytokio/summarize_tts/"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

struct golden_case {
    const char *name;           /* file under GOLDEN */
    int warns;                  /* the reference warned on stderr */
    const char *argv[8];
};

/* The table of COMMANDS.md, section summarize_tts, successful runs. */
static const struct golden_case cases[] = {
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.default.txt", 0,
      { "summarize-tts", "golden/archive_lmtdb/snx11025_2018-01-28.hdf5",
        NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.default.json", 0,
      { "summarize-tts", "--json",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.columns.txt", 0,
      { "summarize-tts", "--columns",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.timesteps.txt", 0,
      { "summarize-tts", "--timesteps",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.columns.json", 0,
      { "summarize-tts", "--columns", "--json",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.snx11025_2018-01-28.hdf5.timesteps.json", 0,
      { "summarize-tts", "--timesteps", "--json",
        "golden/archive_lmtdb/snx11025_2018-01-28.hdf5", NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.default.txt", 0,
      { "summarize-tts", "golden/archive_lmtdb/lmtdb-reset.hdf5", NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.default.json", 0,
      { "summarize-tts", "--json", "golden/archive_lmtdb/lmtdb-reset.hdf5",
        NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.columns.txt", 0,
      { "summarize-tts", "--columns", "golden/archive_lmtdb/lmtdb-reset.hdf5",
        NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.timesteps.txt.gz", 0,
      { "summarize-tts", "--timesteps",
        "golden/archive_lmtdb/lmtdb-reset.hdf5", NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.columns.json", 0,
      { "summarize-tts", "--columns", "--json",
        "golden/archive_lmtdb/lmtdb-reset.hdf5", NULL } },
    { "archive_lmtdb.lmtdb-reset.hdf5.timesteps.json.gz", 0,
      { "summarize-tts", "--timesteps", "--json",
        "golden/archive_lmtdb/lmtdb-reset.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.default.txt", 0,
      { "summarize-tts", "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.default.json", 0,
      { "summarize-tts", "--json", "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.columns.txt", 0,
      { "summarize-tts", "--columns", "inputs/snx11025_2018-01-28.hdf5",
        NULL } },
    { "snx11025_2018-01-28.hdf5.timesteps.txt", 0,
      { "summarize-tts", "--timesteps", "inputs/snx11025_2018-01-28.hdf5",
        NULL } },
    { "snx11025_2018-01-28.hdf5.columns.json", 0,
      { "summarize-tts", "--columns", "--json",
        "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.hdf5.timesteps.json", 0,
      { "summarize-tts", "--timesteps", "--json",
        "inputs/snx11025_2018-01-28.hdf5", NULL } },
    { "snx11025_2018-01-28.h5lmt.default.txt", 0,
      { "summarize-tts", "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "snx11025_2018-01-28.h5lmt.default.json", 0,
      { "summarize-tts", "--json", "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "snx11025_2018-01-28.h5lmt.columns.txt", 0,
      { "summarize-tts", "--columns", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.timesteps.txt", 0,
      { "summarize-tts", "--timesteps", "inputs/snx11025_2018-01-28.h5lmt",
        NULL } },
    { "snx11025_2018-01-28.h5lmt.columns.json", 0,
      { "summarize-tts", "--columns", "--json",
        "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "snx11025_2018-01-28.h5lmt.timesteps.json", 0,
      { "summarize-tts", "--timesteps", "--json",
        "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { "sample_tokiots.hdf5.default.txt", 0,
      { "summarize-tts", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.default.json", 0,
      { "summarize-tts", "--json", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.columns.txt", 0,
      { "summarize-tts", "--columns", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.timesteps.txt", 0,
      { "summarize-tts", "--timesteps", "inputs/sample_tokiots.hdf5", NULL } },
    { "sample_tokiots.hdf5.columns.json", 0,
      { "summarize-tts", "--columns", "--json", "inputs/sample_tokiots.hdf5",
        NULL } },
    { "sample_tokiots.hdf5.timesteps.json", 0,
      { "summarize-tts", "--timesteps", "--json", "inputs/sample_tokiots.hdf5",
        NULL } },
};

/* A working folder laid out as COMMANDS.md says; free() the result and
 * tokio_test_rmtree() it and *top. */
static char *
working_folder(char **top)
{
    char *dir = tokio_test_mkdtemp();
    char *inputs = tokio_test_copy_data("pytokio-inputs", top);
    char link[4200];

    assert_non_null(inputs);
    snprintf(link, sizeof(link), "%s/inputs", dir);
    assert_int_equal(symlink(inputs, link), 0);
    snprintf(link, sizeof(link), "%s/golden", dir);
    assert_int_equal(symlink(tokio_test_data("golden/pytokio"), link), 0);
    free(inputs);
    return dir;
}

static void
check_case(const char *dir, const struct golden_case *gc)
{
    char rel[256];
    unsigned char *want = NULL;
    size_t len;
    struct tokio_run r = tokio_test_run(dir, env, gc->argv);

    snprintf(rel, sizeof(rel), GOLDEN "%s", gc->name);
    /* .gz goldens come back decompressed */
    assert_int_equal(tokio_read_file(tokio_test_data(rel), 0, &want, &len),
                     0);
    if (r.status != 0)
        fail_msg("%s: exit %d\nstderr: %s", gc->name, r.status, r.err);
    if (gc->warns)
        assert_contains(r.err, "does not evenly divide into "
                        "FSStepsDataSet size");
    else
        assert_string_equal(r.err, "");
    if (strstr(gc->name, ".json") != NULL) {
        json_error_t e;
        json_t *got = json_loads(r.out, 0, &e);
        json_t *exp = json_loads((const char *)want, 0, &e);

        assert_non_null(got);
        assert_non_null(exp);
        if (!json_equal(got, exp))
            fail_msg("%s: JSON differs", gc->name);
        json_decref(got);
        json_decref(exp);
    } else if (strcmp(r.out, (const char *)want) != 0) {
        fail_msg("%s: output differs\n--- got\n%s--- want\n%s", gc->name,
                 r.out, (const char *)want);
    }
    free(want);
    tokio_run_free(&r);
}

/* ------------------------------------------------------------------ */
/* Golden outputs                                                      */

static void
test_summarize_tts_matches_every_golden(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(inputs, "pytokio-inputs");
    char *top = NULL;
    char *dir = working_folder(&top);

    (void)inputs;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_case(dir, &cases[i]);
    tokio_test_rmtree(dir);
    tokio_test_rmtree(top);
    free(dir);
    free(top);
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

static void
test_summarize_tts_usage_errors_exit_2(void **state)
{
    (void)state;
    const char *none[] = { "summarize-tts", NULL };
    const char *two[] = { "summarize-tts", "a", "b", NULL };
    const char *bad[] = { "summarize-tts", "--nope", "a", NULL };
    const char *const *argvs[] = { none, two, bad };

    for (size_t i = 0; i < 3; i++) {
        struct tokio_run r = tokio_test_run(NULL, env, argvs[i]);

        assert_int_equal(r.status, 2);
        assert_contains(r.err, "summarize-tts --help");
        tokio_run_free(&r);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summarize_tts_matches_every_golden),
        cmocka_unit_test(test_summarize_tts_unknown_version_fails_naming_file),
        cmocka_unit_test(test_summarize_tts_missing_file_fails),
        cmocka_unit_test(test_summarize_tts_usage_errors_exit_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
