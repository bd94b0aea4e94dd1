/*
 * tests/cli/test_compare_isdct.c - `tokio compare-isdct` run as the
 * reference's goldens were made (golden/pytokio/COMMANDS.md, section
 * compare_isdct): from a working folder holding inputs/ and golden/, the
 * older dump first; JSON by value (and byte for byte), the summary text
 * exactly.  Then tarball inputs, failures and usage errors.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define GOLDEN "golden/pytokio/compare_isdct/isdct-1_vs_isdct."
#define OLD "inputs/sample_nersc_isdct-1.json.gz"
#define NEW "inputs/sample_nersc_isdct.json.gz"

static void
run_golden(const struct tokio_workdir *wd, const char *const *flags,
           const char *name)
{
    const char *argv[8];
    size_t n = 0;
    char golden[256];

    argv[n++] = "compare-isdct";
    for (; *flags != NULL; flags++)
        argv[n++] = *flags;
    argv[n++] = OLD;
    argv[n++] = NEW;
    argv[n] = NULL;
    struct tokio_run r = tokio_test_run(wd->dir, NULL, argv);
    if (r.status != 0)
        fail_msg("%s: %s", name, r.err);
    snprintf(golden, sizeof(golden), GOLDEN "%s", name);
    assert_golden(r.out, golden);
    char *want = tokio_test_read_file(tokio_test_data(golden), NULL);
    assert_string_equal(r.out, want);
    free(want);
    tokio_run_free(&r);
}

static void
test_compare_isdct_default_matches_golden(void **state)
{
    struct tokio_workdir *wd = *state;
    TOKIO_TEST_NEED_INPUTS(wd);
    const char *none[] = { NULL };
    const char *zeros[] = { "--report-zeros", NULL };
    const char *gibs[] = { "--gibs", NULL };
    run_golden(wd, none, "default.json");
    run_golden(wd, zeros, "report-zeros.json");
    run_golden(wd, gibs, "gibs.json");
}

static void
test_compare_isdct_all_matches_golden(void **state)
{
    struct tokio_workdir *wd = *state;
    TOKIO_TEST_NEED_INPUTS(wd);
    const char *all[] = { "--all", NULL };
    const char *zeros[] = { "--all", "--report-zeros", NULL };
    const char *gibs[] = { "--all", "--gibs", NULL };
    run_golden(wd, all, "all.json");
    run_golden(wd, zeros, "all+report-zeros.json");
    run_golden(wd, gibs, "all+gibs.json");
}

static void
test_compare_isdct_summary_matches_golden(void **state)
{
    struct tokio_workdir *wd = *state;
    TOKIO_TEST_NEED_INPUTS(wd);
    const char *summary[] = { "--summary", NULL };
    run_golden(wd, summary, "summary.txt");
    /* short options, --summary winning over --all as in the reference */
    const char *shorts[] = { "-a", "-s", NULL };
    run_golden(wd, shorts, "summary.txt");
}

/* A dump against itself: nothing changed, nothing added or removed. */
static void
test_compare_isdct_tarball_against_itself(void **state)
{
    struct tokio_workdir *wd = *state;
    TOKIO_TEST_NEED_INPUTS(wd);
    const char *argv[] = { "compare-isdct", "--all",
                           "inputs/sample_nersc_isdct.tgz",
                           "inputs/sample_nersc_isdct_timestamped.tgz", NULL };
    struct tokio_run r = tokio_test_run(wd->dir, NULL, argv);

    assert_int_equal(r.status, 0);
    /* the two tarballs differ only in their time: 1503685872 from the
     * members' mtime, 1503685860 from timestamp_20170825113100 */
    assert_contains(r.out, "\"timestamp\": -12");
    assert_contains(r.out, "\"added_devices\": [],");
    assert_contains(r.out, "\"removed_devices\": []");
    tokio_run_free(&r);
}

static void
test_compare_isdct_failures(void **state)
{
    struct tokio_workdir *wd = *state;
    TOKIO_TEST_NEED_INPUTS(wd);
    const char *missing[] = { "compare-isdct", OLD, "inputs/absent.tgz",
                              NULL };
    const char *one[] = { "compare-isdct", OLD, NULL };
    const char *bad[] = { "compare-isdct", "--bogus", OLD, NEW, NULL };
    struct tokio_run r = tokio_test_run(wd->dir, NULL, missing);

    assert_int_equal(r.status, 1);
    assert_contains(r.err, "inputs/absent.tgz");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    /* the old dump is read first, and its error told */
    const char *old_missing[] = { "compare-isdct", "inputs/gone.tgz", NEW,
                                  NULL };
    const char *both_missing[] = { "compare-isdct", "inputs/gone.tgz",
                                   "inputs/absent.tgz", NULL };
    r = tokio_test_run(wd->dir, NULL, old_missing);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "inputs/gone.tgz");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    r = tokio_test_run(wd->dir, NULL, both_missing);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "inputs/gone.tgz");
    assert_null(strstr(r.err, "inputs/absent.tgz"));
    tokio_run_free(&r);
    r = tokio_test_run(wd->dir, NULL, one);
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "an old and a new ISDCT dump are required");
    tokio_run_free(&r);
    r = tokio_test_run(wd->dir, NULL, bad);
    assert_int_equal(r.status, 2);
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_isdct_default_matches_golden),
        cmocka_unit_test(test_compare_isdct_all_matches_golden),
        cmocka_unit_test(test_compare_isdct_summary_matches_golden),
        cmocka_unit_test(test_compare_isdct_tarball_against_itself),
        cmocka_unit_test(test_compare_isdct_failures),
    };
    return cmocka_run_group_tests(tests, tokio_test_workdir_setup,
                                  tokio_test_workdir_teardown);
}
