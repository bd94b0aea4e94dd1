/*
 * tests/cli/test_archive_esnet_snmp.c - `tokio archive-esnet-snmp` run as
 * golden/pytokio/COMMANDS.md section archive_esnet_snmp runs the
 * reference (which failed there only because h5py 3 opens read-only by
 * default): equal to its golden in every dataset and attribute but the
 * update time; the same run live against tests/http_server.c serving
 * the recorded rates gives the same file; then the API's failures, which
 * leave the file as it was.
 */
#include "testutil.h"
#include "http_server.h"
#include "lmt_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#define CMD "archive-esnet-snmp"
#define GOLDEN "golden/pytokio/archive_esnet_snmp/esnet_snmp.hdf5"

static const char *const sets[] = { "datatargets/readrates",
                                    "datatargets/writerates" };

static const char *const env[] = { "TZ=America/Los_Angeles",
                                   "PYTOKIO_CONFIG=inputs/site.json",
                                   "PYTOKIO_ESNET_SNMP_URI=", NULL };

static void
run_ok(const char *dir, const char *const *e, const char *const *argv)
{
    struct tokio_run r = tokio_test_run(dir, e, argv);

    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
}

static void
test_archive_esnet_snmp_matches_golden(void **state)
{
    struct tokio_workdir *wd = *state;
    char out[4200];

    TOKIO_TEST_NEED_INPUTS(wd);
    const char *argv[] = { CMD, "--init-start", "2019-02-11T00:00:00",
                           "--init-end", "2019-02-11T23:59:59", "--input",
                           "inputs/esnet_snmp.json.gz", "--output", "e.hdf5",
                           "--timeout", "5", "2019-02-11T00:00:00",
                           "2019-02-11T23:59:59", "nersc", NULL };
    run_ok(wd->dir, env, argv);
    snprintf(out, sizeof(out), "%s/e.hdf5", wd->dir);
    tts_assert_same(out, tokio_test_data(GOLDEN), sets, 2);
    /* archiving the same again changes nothing */
    run_ok(wd->dir, env, argv);
    tts_assert_same(out, tokio_test_data(GOLDEN), sets, 2);
}

static void
test_archive_esnet_snmp_live_equals_input(void **state)
{
    struct tokio_workdir *wd = *state;
    char out[4200];

    TOKIO_TEST_NEED_INPUTS(wd);
    json_t *rates = http_server_esnet_rates(wd->inputs);
    struct http_server_config c = { .esnet = rates };
    struct http_server s;
    struct http_esnet_env live_env;
    http_server_start(&s, &c);
    http_server_esnet_env(&live_env, &s, "/snmp/west");
    const char *argv[] = { CMD, "--init-start", "2019-02-11T00:00:00",
                           "--init-end", "2019-02-11T23:59:59", "--output",
                           "live.hdf5", "2019-02-11T00:00:00",
                           "2019-02-11T23:59:59", "nersc", NULL };
    run_ok(wd->dir, live_env.env, argv);
    snprintf(out, sizeof(out), "%s/live.hdf5", wd->dir);
    tts_assert_same(out, tokio_test_data(GOLDEN), sets, 2);
    char *log = http_server_log(&s);
    assert_contains(log, "GET /snmp/west/sacr-cr5/interface/to_nersc_ip-e/"
                         "out?begin=1549872000&end=1549958399&calc_func="
                         "average&calc=30\n");
    free(log);
    http_server_stop(&s);

    /* failures leave the file as it was */
    struct stat before, after;
    assert_int_equal(stat(out, &before), 0);
    static const struct { enum http_fault f; size_t at; const char *msg; }
        faults[] = {
        { HTTP_FAULT_STATUS, 5, "HTTP 500" },
        { HTTP_FAULT_DROP, 3, "transfer closed" },
        { HTTP_FAULT_MALFORMED, 9, "line 1 column" },
    };
    for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
        struct http_server_config fc = { .esnet = rates, .fault = faults[i].f,
                                         .fault_at = faults[i].at,
                                         .status = 500 };
        http_server_start(&s, &fc);
        http_server_esnet_env(&live_env, &s, "");
        struct tokio_run r = tokio_test_run(wd->dir, live_env.env, argv);
        assert_int_equal(r.status, 1);
        assert_contains(r.err, s.url);
        assert_contains(r.err, faults[i].msg);
        tokio_run_free(&r);
        http_server_stop(&s);
    }
    /* an interface with no data at all */
    json_t *none = json_pack("{s:{s:{s:{},s:{}}}}", "e", "i", "in", "out");
    struct http_server_config nc = { .esnet = none };
    http_server_start(&s, &nc);
    http_server_esnet_env(&live_env, &s, "");
    const char *empty[] = { CMD, "--output", "live.hdf5",
                            "2019-02-11T00:00:00", "2019-02-11T23:59:59",
                            "e:i", NULL };
    struct tokio_run r = tokio_test_run(wd->dir, live_env.env, empty);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "e:i:in returned no data");
    tokio_run_free(&r);
    http_server_stop(&s);
    json_decref(none);
    assert_int_equal(stat(out, &after), 0);
    assert_int_equal(before.st_mtime, after.st_mtime);
    assert_int_equal(before.st_ino, after.st_ino);
    tts_assert_same(out, tokio_test_data(GOLDEN), sets, 2);
    json_decref(rates);
}

static void
test_archive_esnet_snmp_errors(void **state)
{
    struct tokio_workdir *wd = *state;

    TOKIO_TEST_NEED_INPUTS(wd);
    const char *missing[] = { CMD, "--input", "inputs/esnet_snmp.json.gz",
                              "-o", "m.hdf5", "2019-02-11T00:00:00",
                              "2019-02-11T23:59:59", "alcf", NULL };
    struct tokio_run r = tokio_test_run(wd->dir, env, missing);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "no \"in\" rates of star-cr5:to_anl_hpc_ip-a_v4v6");
    tokio_run_free(&r);
    char path[4200];
    snprintf(path, sizeof(path), "%s/m.hdf5", wd->dir);
    assert_null(tokio_test_read_file(path, NULL));

    const char *swapped[] = { CMD, "2019-02-11T01:00:00",
                              "2019-02-11T00:00:00", "a:b", NULL };
    const char *step[] = { CMD, "--timestep", "0", "2019-02-11T00:00:00",
                           "2019-02-11T01:00:00", "a:b", NULL };
    const char *init[] = { CMD, "--init-end", "2019-02-10T00:00:00",
                           "2019-02-11T00:00:00", "2019-02-11T01:00:00",
                           "a:b", NULL };
    tokio_test_run_fails(env, swapped, 2, "<start> must come before <end>");
    tokio_test_run_fails(env, step, 2, "--timestep must be 1 s to a year");
    tokio_test_run_fails(env, init, 2, "--init-start must come before --init-end");
    const char *runaway[] = { CMD, "1900-01-01T00:00:00",
                              "2200-01-01T00:00:00", "a:b", NULL };
    tokio_test_run_fails(env, runaway, 2, "rows of 30 s a file may hold");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        TOKIO_TEST_IN_WORKDIR(test_archive_esnet_snmp_matches_golden),
        TOKIO_TEST_IN_WORKDIR(test_archive_esnet_snmp_live_equals_input),
        TOKIO_TEST_IN_WORKDIR(test_archive_esnet_snmp_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
