/*
 * tests/cli/test_cache_mmperfmon.c - `tokio cache-mmperfmon` run as the
 * reference's goldens were made (golden/pytokio/COMMANDS.md, section
 * cache_mmperfmon): all 21 of them, from a working folder holding inputs/
 * (the pytokio inputs).  JSON and CSV are compared by value and, as this
 * command writes what the reference wrote, byte for byte too.  Then -o,
 * a JSON written by -o read back, a small input of our own that needs no
 * test data, usage errors and failures naming the file and line.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define GOLDEN "golden/pytokio/cache_mmperfmon/"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

#define CMD "cache-mmperfmon"
#define USAGE "inputs/mmperfmon-usage.txt.gz"
#define NSDDS "inputs/mmperfmon-nsdds.txt.gz"
#define GPFSOPS "inputs/mmperfmon-gpfsNumberOperations.txt.gz"
#define TGZ "inputs/mmperfmon.tgz"
#define MICRO "inputs/mmperfmon.2019-05-15-micro.tgz"
#define MINI "inputs/mmperfmon.2019-05-15-mini.tgz"

static const struct tokio_golden_case cases[] = {
    { "mmperfmon-usage.txt.gz.json", NULL, { CMD, USAGE, NULL } },
    { "mmperfmon-usage.txt.gz.metric-cpu_user.csv", NULL,
      { CMD, "--csv", "--metric", "cpu_user", USAGE, NULL } },
    { "mmperfmon-usage.txt.gz.host-ngfsv468.nersc.gov.csv", NULL,
      { CMD, "--csv", "--host", "ngfsv468.nersc.gov", USAGE, NULL } },
    { "mmperfmon-nsdds.txt.gz.json", NULL, { CMD, NSDDS, NULL } },
    { "mmperfmon-nsdds.txt.gz.metric-gpfs_nsdds_bytes_read.csv", NULL,
      { CMD, "--csv", "--metric", "gpfs_nsdds_bytes_read", NSDDS, NULL } },
    { "mmperfmon-nsdds.txt.gz.host-ngfsv468.nersc.gov.csv", NULL,
      { CMD, "--csv", "--host", "ngfsv468.nersc.gov", NSDDS, NULL } },
    { "mmperfmon-gpfsNumberOperations.txt.gz.json", NULL,
      { CMD, GPFSOPS, NULL } },
    { "mmperfmon-gpfsNumberOperations.txt.gz.metric-gpfs_fs_bytes_read.csv",
      NULL,
      { CMD, "--csv", "--metric", "gpfs_fs_bytes_read", GPFSOPS, NULL } },
    { "mmperfmon-gpfsNumberOperations.txt.gz.host-ngfsv492.nersc.gov.csv",
      NULL,
      { CMD, "--csv", "--host", "ngfsv492.nersc.gov", GPFSOPS, NULL } },
    { "mmperfmon.tgz.json", NULL, { CMD, TGZ, NULL } },
    { "mmperfmon.tgz.metric-cpu_user.csv", NULL,
      { CMD, "--csv", "--metric", "cpu_user", TGZ, NULL } },
    { "mmperfmon.tgz.host-ngfsv448.nersc.gov.csv", NULL,
      { CMD, "--csv", "--host", "ngfsv448.nersc.gov", TGZ, NULL } },
    { "mmperfmon.2019-05-15-micro.tgz.json", NULL, { CMD, MICRO, NULL } },
    { "mmperfmon.2019-05-15-micro.tgz.metric-gpfs_nsdds_bytes_read.csv", NULL,
      { CMD, "--csv", "--metric", "gpfs_nsdds_bytes_read", MICRO, NULL } },
    { "mmperfmon.2019-05-15-micro.tgz.host-ngfsv492.nersc.gov.csv", NULL,
      { CMD, "--csv", "--host", "ngfsv492.nersc.gov", MICRO, NULL } },
    { "mmperfmon.2019-05-15-mini.tgz.json", NULL, { CMD, MINI, NULL } },
    { "mmperfmon.2019-05-15-mini.tgz.metric-gpfs_nsdds_bytes_read.csv", NULL,
      { CMD, "--csv", "--metric", "gpfs_nsdds_bytes_read", MINI, NULL } },
    { "mmperfmon.2019-05-15-mini.tgz.host-ngfsv492.nersc.gov.csv", NULL,
      { CMD, "--csv", "--host", "ngfsv492.nersc.gov", MINI, NULL } },
    /* a 0-byte file: {} */
    { "mmperfmon.2019-05-16-mini.tgz.json", NULL,
      { CMD, "inputs/mmperfmon.2019-05-16-mini.tgz", NULL } },
    { "mmperfmon-usage.txt.gz+mmperfmon-usage.txt.gz.json", NULL,
      { CMD, USAGE, USAGE, NULL } },
    { "mmperfmon-usage.txt.gz+mmperfmon-nsdds.txt.gz.json", NULL,
      { CMD, USAGE, NSDDS, NULL } },
};

static void
test_cache_mmperfmon_matches_every_golden(void **state)
{
    (void)state;
    struct tokio_workdir wd;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    tokio_test_golden_cases(wd.dir, GOLDEN, cases,
                            sizeof(cases) / sizeof(cases[0]), 1);
    tokio_test_workdir_free(&wd);
}

/* -o writes the same JSON; read back, it gives the same JSON and CSV */
static void
test_cache_mmperfmon_output_file_reads_back(void **state)
{
    (void)state;
    struct tokio_workdir wd;
    char path[4096];

    TOKIO_TEST_NEED_WORKDIR(&wd);
    const char *save[] = { CMD, "-o", "saved.json", MINI, NULL };
    struct tokio_run r = tokio_test_run(wd.dir, env, save);

    if (r.status != 0)
        fail_msg("%s", r.err);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    snprintf(path, sizeof(path), "%s/saved.json", wd.dir);
    char *text = tokio_test_read_file(path, NULL);
    assert_non_null(text);
    assert_golden(text, GOLDEN "mmperfmon.2019-05-15-mini.tgz.json");
    free(text);

    const char *csv[] = { CMD, "--csv", "--metric", "gpfs_nsdds_bytes_read",
                          "saved.json", NULL };
    r = tokio_test_run(wd.dir, env, csv);
    if (r.status != 0)
        fail_msg("%s", r.err);
    assert_golden(r.out, GOLDEN
                  "mmperfmon.2019-05-15-mini.tgz.metric-gpfs_nsdds_bytes_read"
                  ".csv");
    tokio_run_free(&r);

    /* CSV into a file: to_csv()'s text, without print()'s newline */
    const char *csvo[] = { CMD, "-c", "--host", "ngfsv492.nersc.gov", "-o",
                           "out.csv", MINI, NULL };
    r = tokio_test_run(wd.dir, env, csvo);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    snprintf(path, sizeof(path), "%s/out.csv", wd.dir);
    text = tokio_test_read_file(path, NULL);
    char *want = tokio_test_read_file(tokio_test_data(
        GOLDEN "mmperfmon.2019-05-15-mini.tgz.host-ngfsv492.nersc.gov.csv"),
        NULL);
    assert_non_null(text);
    assert_non_null(want);
    want[strlen(want) - 1] = '\0';
    assert_string_equal(text, want);
    free(text);
    free(want);
    tokio_test_workdir_free(&wd);
}

/* ---- without the test data ------------------------------------------- */

static const char small[] =
    "Legend:\n"
    " 1:\ta.example|CPU|cpu_user\n"
    " 2:\ta.example|Memory|mem_free\n"
    "Row           Timestamp cpu_user    mem_free \n"
    "  1 2019-01-11-10:00:00      0.2  18786.5 MB \n"
    "  2 2019-01-11-10:01:00     0.25        null \n";

static void
test_cache_mmperfmon_small_input(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), path[4096];

    snprintf(path, sizeof(path), "%s/small.txt", dir);
    tokio_test_write_file(path, small, SIZE_MAX);
    const char *json[] = { CMD, "small.txt", NULL };
    struct tokio_run r = tokio_test_run(dir, env, json);

    assert_int_equal(r.status, 0);
    /* 18786.5 * 2^20 bytes */
    assert_string_equal(r.out, "{\"1547229600\": {\"a.example\": "
                        "{\"cpu_user\": 0.2, \"mem_free_bytes\": "
                        "19699073024.0}}, \"1547229660\": {\"a.example\": "
                        "{\"cpu_user\": 0.25}}}");
    tokio_run_free(&r);
    const char *csv[] = { CMD, "--csv", "--host", "a.example", "small.txt",
                          NULL };
    r = tokio_test_run(dir, env, csv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "timestamp,cpu_user,mem_free_bytes\n"
                        "2019-01-11 10:00:00,0.2,19699073024.0\n"
                        "2019-01-11 10:01:00,0.25,\n\n");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_mmperfmon_usage_errors(void **state)
{
    (void)state;
    const char *none[] = { CMD, NULL };
    const char *nohost[] = { CMD, "--csv", "x", NULL };
    const char *both[] = { CMD, "--csv", "--host", "a", "--metric", "b", "x",
                           NULL };
    const char *const *all[] = { none, nohost, both };

    for (size_t i = 0; i < 3; i++) {
        struct tokio_run r = tokio_test_run(NULL, env, all[i]);

        assert_int_equal(r.status, 2);
        assert_string_equal(r.out, "");
        assert_contains(r.err, "cache-mmperfmon");
        tokio_run_free(&r);
    }
}

static void
test_cache_mmperfmon_bad_input_fails_naming_line(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), path[4096];

    snprintf(path, sizeof(path), "%s/bad.txt", dir);
    tokio_test_write_file(path, "Legend:\n 1:\ta|CPU|cpu_user\n"
                          "Row           Timestamp cpu_user\n"
                          "  1 2019-01-11-10:00:00      0.2\n"
                          "garbage\n", SIZE_MAX);
    const char *bad[] = { CMD, "bad.txt", NULL };
    struct tokio_run r = tokio_test_run(dir, env, bad);

    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "'bad.txt' line 5");
    tokio_run_free(&r);

    const char *missing[] = { CMD, "missing.txt", NULL };
    r = tokio_test_run(dir, env, missing);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "missing.txt");
    tokio_run_free(&r);

    /* a failed run leaves no output file behind */
    const char *out[] = { CMD, "-o", "out.json", "bad.txt", NULL };
    r = tokio_test_run(dir, env, out);
    assert_int_equal(r.status, 1);
    snprintf(path, sizeof(path), "%s/out.json", dir);
    assert_null(tokio_test_read_file(path, NULL));
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_mmperfmon_matches_every_golden),
        cmocka_unit_test(test_cache_mmperfmon_output_file_reads_back),
        cmocka_unit_test(test_cache_mmperfmon_small_input),
        cmocka_unit_test(test_cache_mmperfmon_usage_errors),
        cmocka_unit_test(test_cache_mmperfmon_bad_input_fails_naming_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
