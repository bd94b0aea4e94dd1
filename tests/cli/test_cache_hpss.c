/*
 * tests/cli/test_cache_hpss.c - `tokio cache-hpss` run from a working
 * folder laid out as golden/pytokio/COMMANDS.md describes; its JSON is
 * compared by value with the reference's goldens (section hpss: json.dumps
 * of HpssDailyReport, HsiLog.from_file, FtpLog.from_file), then kind
 * options, -o and reading it back, CSV, and failures.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN "golden/pytokio/hpss/"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

static const struct {
    const char *golden;
    const char *argv[6];
} cases[] = {
    { "hpss_daily.HpssDailyReport.json",
      { "cache-hpss", "inputs/hpss_daily.txt", NULL } },
    { "hpss_daily.HpssDailyReport.json",
      { "cache-hpss", "--daily", "--json", "inputs/hpss_daily.txt", NULL } },
    { "hsilog.HsiLog.json", { "cache-hpss", "inputs/hsilog.txt.gz", NULL } },
    { "hsilog.HsiLog.json",
      { "cache-hpss", "--hsi", "inputs/hsilog.txt.gz", NULL } },
    { "hpssftplog.FtpLog.json",
      { "cache-hpss", "inputs/hpssftplog.txt.gz", NULL } },
    { "hpssftplog.FtpLog.json",
      { "cache-hpss", "--ftp", "-j", "inputs/hpssftplog.txt.gz", NULL } },
    /* the goldens read back as input */
    { "hsilog.HsiLog.json",
      { "cache-hpss", "golden/hpss/hsilog.HsiLog.json", NULL } },
    { "hpss_daily.HpssDailyReport.json",
      { "cache-hpss", "golden/hpss/hpss_daily.HpssDailyReport.json",
        NULL } },
};

static void
test_cache_hpss_matches_goldens(void **state)
{
    (void)state;
    struct tokio_workdir wd;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char rel[256];
        struct tokio_run r = tokio_test_run(wd.dir, env, cases[i].argv);
        if (r.status != 0)
            fail_msg("case %zu: exit %d: %s", i, r.status, r.err);
        assert_string_equal(r.err, "");
        snprintf(rel, sizeof(rel), GOLDEN "%s", cases[i].golden);
        assert_golden(r.out, rel);
        tokio_run_free(&r);
    }
    tokio_test_workdir_free(&wd);
}

/* A fixture of our own: one hsi and one htar line. */
static const char hsi_log[] =
    "Sat Aug 10 00:05:26 2019 dtn01 hsi 57074 31117\tLH\t0\t0.02\t543608"
    "\t12356.7\t4\t/src/a.h5\t/home/p/a.h5\t57074\n"
    "Sat Aug 10 00:05:28 2019 cori02 htar 58888 14301\tcreate\tLH\t0\t5"
    "\t397.20\t146472.0\t/nersc/p/x.tar\t\t5\t58888\n";

static void
test_cache_hpss_output_file_reads_back(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), in[4096], out[4096], *saved;
    tokio_test_write_file(strcat(strcpy(in, dir), "/hsi.log"), hsi_log,
                          SIZE_MAX);
    snprintf(out, sizeof(out), "%s/out.json", dir);
    const char *argv[] = { "cache-hpss", "-o", out, in, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    saved = tokio_test_read_file(out, NULL);
    assert_non_null(saved);
    assert_contains(saved, "\"htar\": [\n        {\n            "
                    "\"account_id\": 58888,");
    assert_contains(saved, "\"end_timestamp\": 1565420726.0,");
    /* the JSON read back prints the same */
    const char *argv2[] = { "cache-hpss", out, NULL };
    r = tokio_test_run(NULL, env, argv2);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, saved);
    tokio_run_free(&r);
    /* and its CSV is the text's CSV */
    const char *argv3[] = { "cache-hpss", "--csv", out, NULL };
    const char *argv4[] = { "cache-hpss", "--csv", "--hsi", in, NULL };
    struct tokio_run a = tokio_test_run(NULL, env, argv3);
    struct tokio_run b = tokio_test_run(NULL, env, argv4);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_string_equal(a.out, b.out);
    assert_contains(a.out, "app,access_latency_sec,");
    assert_contains(a.out, "\nhtar,,,58888,5,146472.0,0.1,14301,5,,397.2,"
                    "0.01,1565420728.0,/nersc/p/x.tar,58888,create,LH,,"
                    "cori02,0,\n");
    tokio_run_free(&a);
    tokio_run_free(&b);
    free(saved);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_hpss_failures(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), bad[4096];
    snprintf(bad, sizeof(bad), "%s/bad.log", dir);
    tokio_test_write_file(bad, "Sat Aug 10 00:05:26 2019 h hsi 1 2\tLH\n",
                          SIZE_MAX);
    static const struct {
        int status;
        const char *argv[6];
        const char *msg;
    } bad_cases[] = {
        { 2, { "cache-hpss", NULL }, "an input file is required" },
        { 2, { "cache-hpss", "a", "b", NULL }, "only one input file" },
        { 2, { "cache-hpss", "--json", "--csv", "a", NULL }, "not both" },
        { 2, { "cache-hpss", "--bogus", "a", NULL }, "bogus" },
        { 1, { "cache-hpss", "/nonexistent/x.log", NULL },
          "/nonexistent/x.log" },
        { 1, { "cache-hpss", "BAD", NULL }, "bad.log' line 1: hsi line has "
          "10 fields" },
        { 1, { "cache-hpss", "--daily", "BAD", NULL },
          "no 'HPSS Report for Date' line" },
        { 1, { "cache-hpss", "--hsi", "-o", "/nonexistent/dir/out.json",
               "/dev/null", NULL }, "/nonexistent/dir" },
    };

    for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
        const char *argv[6];
        for (size_t k = 0; k < 6; k++) {
            const char *a = bad_cases[i].argv[k];
            argv[k] = a && strcmp(a, "BAD") == 0 ? bad : a;
        }
        struct tokio_run r = tokio_test_run(NULL, env, argv);
        if (r.status != bad_cases[i].status)
            fail_msg("case %zu: exit %d, stderr %s", i, r.status, r.err);
        assert_contains(r.err, bad_cases[i].msg);
        assert_string_equal(r.out, "");
        tokio_run_free(&r);
    }
    tokio_test_rmtree(dir);
    free(dir);
}

/* Empty input is an empty log, as the reference's HsiLog of "" is. */
static void
test_cache_hpss_empty_input_is_empty_log(void **state)
{
    (void)state;
    const char *argv[] = { "cache-hpss", "/dev/null", NULL };
    const char *csv[] = { "cache-hpss", "--csv", "/dev/null", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "{}\n");
    tokio_run_free(&r);
    r = tokio_test_run(NULL, env, csv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "app,access_latency_sec,"
                        "access_latency_sec_resolution,account_id,bytes,"
                        "bytes_sec,bytes_sec_resolution,client_pid,cos_id,"
                        "dest_path,duration_sec,duration_sec_resolution,"
                        "end_timestamp,hpss_path,hpss_uid,htar_op,opname,"
                        "remote_ftp_host,remote_host,return_code,"
                        "source_path\n");
    tokio_run_free(&r);
}

static void
test_cache_hpss_help(void **state)
{
    (void)state;
    const char *argv[] = { "cache-hpss", "--help", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    assert_int_equal(r.status, 0);
    assert_contains(r.out, "tokio cache-hpss [--daily | --hsi | --ftp]");
    assert_contains(r.out, "--csv");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_hpss_matches_goldens),
        cmocka_unit_test(test_cache_hpss_output_file_reads_back),
        cmocka_unit_test(test_cache_hpss_failures),
        cmocka_unit_test(test_cache_hpss_empty_input_is_empty_log),
        cmocka_unit_test(test_cache_hpss_help),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
