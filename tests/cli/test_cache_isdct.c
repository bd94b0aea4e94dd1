/*
 * tests/cli/test_cache_isdct.c - `tokio cache-isdct` run as the
 * reference's goldens were made (golden/pytokio/COMMANDS.md, section
 * cache_isdct): from a working folder holding inputs/ and golden/; JSON
 * compared by value and CSV cell by cell, both also byte for byte.  Then
 * -o, a garbled tarball, a missing file and usage errors.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

#define GOLDEN "golden/pytokio/cache_isdct/"

/* `tokio cache-isdct FLAG inputs/INPUT` against golden INPUT.EXT */
static void
run_golden(const struct tokio_workdir *wd, const char *flag,
           const char *input, const char *ext)
{
    char in[256], golden[256];
    snprintf(in, sizeof(in), "inputs/%s", input);
    snprintf(golden, sizeof(golden), GOLDEN "%s.%s", input, ext);
    const char *argv[] = { "cache-isdct", flag, in, NULL };
    struct tokio_run r = tokio_test_run(wd->dir, NULL, argv);

    if (r.status != 0)
        fail_msg("%s %s: %s", flag, input, r.err);
    /* JSON by value: assert_golden would read "x.json.gz.csv" as JSON,
     * so CSV is compared byte for byte, which is stricter */
    char *want = tokio_test_read_file(tokio_test_data(golden), NULL);
    assert_non_null(want);
    if (strcmp(ext, "json") == 0)
        assert_golden(r.out, golden);
    assert_string_equal(r.out, want);
    free(want);
    tokio_run_free(&r);
}

static void
test_cache_isdct_tgz_matches_golden(void **state)
{
    struct tokio_workdir *wd = *state;
    TOKIO_TEST_NEED_INPUTS(wd);
    run_golden(wd, "--json", "sample_nersc_isdct.tgz", "json");
    run_golden(wd, "--csv", "sample_nersc_isdct.tgz", "csv");
}

static void
test_cache_isdct_timestamped_tgz_matches_golden(void **state)
{
    struct tokio_workdir *wd = *state;
    TOKIO_TEST_NEED_INPUTS(wd);
    run_golden(wd, "--json", "sample_nersc_isdct_timestamped.tgz", "json");
    run_golden(wd, "--csv", "sample_nersc_isdct_timestamped.tgz", "csv");
}

static void
test_cache_isdct_json_gz_matches_golden(void **state)
{
    struct tokio_workdir *wd = *state;
    TOKIO_TEST_NEED_INPUTS(wd);
    run_golden(wd, "--json", "sample_nersc_isdct.json.gz", "json");
    run_golden(wd, "--csv", "sample_nersc_isdct.json.gz", "csv");
    run_golden(wd, "--json", "sample_nersc_isdct-1.json.gz", "json");
    run_golden(wd, "--csv", "sample_nersc_isdct-1.json.gz", "csv");
}

/* -o: the same JSON and CSV, CSV without print()'s extra newline; the
 * JSON file reads back as the same dump. */
static void
test_cache_isdct_output_file(void **state)
{
    struct tokio_workdir *wd = *state;
    TOKIO_TEST_NEED_INPUTS(wd);
    char path[4096];
    snprintf(path, sizeof(path), "%s/out.json", wd->dir);
    const char *argv[] = { "cache-isdct", "-o", path,
                           "inputs/sample_nersc_isdct.tgz", NULL };
    struct tokio_run r = tokio_test_run(wd->dir, NULL, argv);

    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    char *got = tokio_test_read_file(path, NULL);
    assert_non_null(got);
    assert_golden(got, GOLDEN "sample_nersc_isdct.tgz.json");
    free(got);

    /* and back: the saved file is an input like the tarball */
    const char *again[] = { "cache-isdct", "--csv", path, NULL };
    r = tokio_test_run(wd->dir, NULL, again);
    assert_int_equal(r.status, 0);
    char *want = tokio_test_read_file(
        tokio_test_data(GOLDEN "sample_nersc_isdct.tgz.csv"), NULL);
    assert_string_equal(r.out, want);
    tokio_run_free(&r);

    snprintf(path, sizeof(path), "%s/out.csv", wd->dir);
    const char *csv[] = { "cache-isdct", "--csv", "-o", path,
                          "inputs/sample_nersc_isdct.tgz", NULL };
    r = tokio_test_run(wd->dir, NULL, csv);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    got = tokio_test_read_file(path, NULL);
    assert_non_null(got);
    want[strlen(want) - 1] = '\0';
    assert_string_equal(got, want);
    free(got);
    free(want);
}

static const char GARBLED[] =
    "\n- Intel SSD DC P3608 Series CVFAAA-1 -\n\nIndex : 0\n"
    "this line lost its colon\n";

/* A tarball with a garbled member: exit 1, naming member and line. */
static void
test_cache_isdct_garbled_member_fails_naming_it(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), path[4096];

    snprintf(path, sizeof(path), "%s/dump/nid00042", dir);
    char top[4096];
    snprintf(top, sizeof(top), "%s/dump", dir);
    assert_int_equal(mkdir(top, 0700), 0);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/dump/nid00042/ssd0_drive_info.txt", dir);
    tokio_test_write_file(path, GARBLED, SIZE_MAX);
    const char *argv[] = { "cache-isdct", "dump", NULL };
    struct tokio_run r = tokio_test_run(dir, NULL, argv);

    assert_int_equal(r.status, 1);
    assert_contains(r.err, "tokio cache-isdct: error:");
    assert_contains(r.err, "'dump/nid00042/ssd0_drive_info.txt' line 5: "
                           "expected 'key : value'");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_isdct_missing_file_fails(void **state)
{
    (void)state;
    const char *argv[] = { "cache-isdct", "/nonexistent/dump.tgz", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    assert_int_equal(r.status, 1);
    assert_contains(r.err, "/nonexistent/dump.tgz");
    tokio_run_free(&r);
}

static void
test_cache_isdct_usage_errors(void **state)
{
    (void)state;
    const char *none[] = { "cache-isdct", NULL };
    const char *two[] = { "cache-isdct", "a", "b", NULL };
    const char *bad[] = { "cache-isdct", "--bogus", "a", NULL };
    const char *help[] = { "cache-isdct", "--help", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, none);

    assert_int_equal(r.status, 2);
    assert_contains(r.err, "an ISDCT dump is required");
    tokio_run_free(&r);
    r = tokio_test_run(NULL, NULL, two);
    assert_int_equal(r.status, 2);
    tokio_run_free(&r);
    r = tokio_test_run(NULL, NULL, bad);
    assert_int_equal(r.status, 2);
    tokio_run_free(&r);
    r = tokio_test_run(NULL, NULL, help);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "--csv");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_isdct_tgz_matches_golden),
        cmocka_unit_test(test_cache_isdct_timestamped_tgz_matches_golden),
        cmocka_unit_test(test_cache_isdct_json_gz_matches_golden),
        cmocka_unit_test(test_cache_isdct_output_file),
        cmocka_unit_test(test_cache_isdct_garbled_member_fails_naming_it),
        cmocka_unit_test(test_cache_isdct_missing_file_fails),
        cmocka_unit_test(test_cache_isdct_usage_errors),
    };
    return cmocka_run_group_tests(tests, tokio_test_workdir_setup,
                                  tokio_test_workdir_teardown);
}
