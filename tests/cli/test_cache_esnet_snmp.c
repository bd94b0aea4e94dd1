/*
 * tests/cli/test_cache_esnet_snmp.c - `tokio cache-esnet-snmp`: the
 * reference's four goldens (golden/pytokio/COMMANDS.md, cache_esnet_snmp)
 * byte for byte from --input; live against tests/http_server.c serving
 * the same recorded rates (PYTOKIO_ESNET_SNMP_URI points at it): the
 * output equals the --input run's; then failures and usage errors.
 */
#include "testutil.h"
#include "http_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define CMD "cache-esnet-snmp"
#define GOLDEN "golden/pytokio/cache_esnet_snmp/"

static const char *const env[] = { "TZ=America/Los_Angeles",
                                   "PYTOKIO_CONFIG=inputs/site.json",
                                   "PYTOKIO_ESNET_SNMP_URI=", NULL };

static void
test_cache_esnet_snmp_matches_goldens(void **state)
{
    static const struct tokio_golden_case cases[] = {
        { "esnet_snmp.json.gz.json", NULL,
          { CMD, "--input", "inputs/esnet_snmp.json.gz", "--start",
            "2019-02-11T01:00:00", "--end", "2019-02-11T01:05:00", "--json",
            "nersc", NULL } },
        { "esnet_snmp.json.gz.csv", NULL,
          { CMD, "--input", "inputs/esnet_snmp.json.gz", "--start",
            "2019-02-11T01:00:00", "--end", "2019-02-11T01:05:00", "--csv",
            "nersc", NULL } },
        { "esnet_snmp-2.json.gz.json", NULL,
          { CMD, "--input", "inputs/esnet_snmp-2.json.gz", "--start",
            "2019-02-11T01:01:00", "--end", "2019-02-11T01:04:00", "--json",
            "nersc", NULL } },
        { "esnet_snmp-2.json.gz.csv", NULL,
          { CMD, "--input", "inputs/esnet_snmp-2.json.gz", "--start",
            "2019-02-11T01:01:00", "--end", "2019-02-11T01:04:00", "--csv",
            "nersc", NULL } },
    };
    struct tokio_workdir *wd = *state;

    TOKIO_TEST_NEED_INPUTS(wd);
    /* tokio_test_golden_cases() sets no site configuration: the
     * reference ran with inputs/site.json, for "nersc" */
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char rel[256];
        struct tokio_run r = tokio_test_run(wd->dir, env, cases[i].argv);

        if (r.status != 0)
            fail_msg("%s: exit %d: %s", cases[i].golden, r.status, r.err);
        snprintf(rel, sizeof(rel), GOLDEN "%s", cases[i].golden);
        char *want = tokio_test_read_file(tokio_test_data(rel), NULL);
        assert_non_null(want);
        assert_string_equal(r.out, want);
        free(want);
        tokio_run_free(&r);
    }
}

/* The same rates live and from --input: JSON, CSV and -o alike. */
static void
test_cache_esnet_snmp_live_equals_input(void **state)
{
    struct tokio_workdir *wd = *state;

    TOKIO_TEST_NEED_INPUTS(wd);
    json_t *rates = http_server_esnet_rates(wd->inputs);
    struct http_server_config c = { .esnet = rates };
    struct http_server s;
    struct http_esnet_env live_env;
    http_server_start(&s, &c);
    http_server_esnet_env(&live_env, &s, "/snmp/west");
    static const char *const forms[][2] = { { "--json", NULL },
                                            { "--csv", NULL },
                                            { "-o", "out.json" } };

    for (size_t f = 0; f < 3; f++) {
        const char *live[] = { CMD, "-s", "2019-02-11T01:00:00", "-e",
                               "2019-02-11T01:05:00", forms[f][0],
                               forms[f][1], "nersc", NULL };
        const char *input[] = { CMD, "-s", "2019-02-11T01:00:00", "-e",
                                "2019-02-11T01:05:00", "-i",
                                "inputs/esnet_snmp.json.gz", forms[f][0],
                                forms[f][1], "nersc", NULL };
        if (forms[f][1] == NULL) {
            live[6] = "nersc";
            live[7] = NULL;
            input[8] = "nersc";
            input[9] = NULL;
        } else {
            input[8] = "in.json";
        }
        struct tokio_run r = tokio_test_run(wd->dir, live_env.env, live);
        if (r.status != 0)
            fail_msg("exit %d: %s", r.status, r.err);
        struct tokio_run in = tokio_test_run(wd->dir, env, input);
        assert_int_equal(in.status, 0);
        assert_string_equal(r.out, in.out);
        if (forms[f][1] != NULL) {
            char a[4200], b[4200];
            snprintf(a, sizeof(a), "%s/out.json", wd->dir);
            snprintf(b, sizeof(b), "%s/in.json", wd->dir);
            char *x = tokio_test_read_file(a, NULL);
            char *y = tokio_test_read_file(b, NULL);
            json_t *jx = json_loads(x, 0, NULL), *jy = json_loads(y, 0, NULL);
            assert_true(json_equal(jx, jy));
            /* the file: one line, no newline, units after "in" as the
             * reference inserted them */
            assert_null(strchr(x, '\n'));
            assert_non_null(strstr(x, "}, \"units\": \"bytes/sec\", "
                                      "\"out\": {"));
            json_decref(jx);
            json_decref(jy);
            free(x);
            free(y);
        }
        tokio_run_free(&r);
        tokio_run_free(&in);
    }
    /* 5 interfaces x in, out, each asked for its average */
    char *log = http_server_log(&s);
    size_t n = 0;
    for (const char *p = log; (p = strstr(p, "GET /snmp/west/")) != NULL; p++)
        n++;
    assert_int_equal(n, 30);
    assert_contains(log, "GET /snmp/west/sunn-cr5/interface/to_nersc_ip-d_v4/"
                         "in?begin=1549875600&end=1549875900&calc_func="
                         "average\n");
    free(log);
    http_server_stop(&s);
    json_decref(rates);
}

static void
test_cache_esnet_snmp_failures(void **state)
{
    struct tokio_workdir *wd = *state;
    struct http_esnet_env e;

    TOKIO_TEST_NEED_INPUTS(wd);
    json_t *rates = http_server_esnet_rates(wd->inputs);
    static const struct { enum http_fault f; size_t at; int status;
                          const char *msg; } faults[] = {
        { HTTP_FAULT_STATUS, 3, 500, "HTTP 500 Internal Server Error" },
        { HTTP_FAULT_STATUS, 0, 429, "HTTP 429 Too Many Requests" },
        { HTTP_FAULT_MALFORMED, 2, 0, "line 1 column" },
        { HTTP_FAULT_DROP, 1, 0, "transfer closed" },
        { HTTP_FAULT_SLOW, 4, 0, "no answer within 1 s" },
    };

    for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
        struct http_server_config c = { .esnet = rates, .fault = faults[i].f,
                                        .fault_at = faults[i].at,
                                        .status = faults[i].status,
                                        .slow_seconds = 2 };
        struct http_server s;
        http_server_start(&s, &c);
        http_server_esnet_env(&e, &s, "/snmp/west");
        const char *argv[] = { CMD, "--timeout", "1", "-s",
                               "2019-02-11T01:00:00", "-o", "out.json",
                               "nersc", NULL };
        struct tokio_run r = tokio_test_run(wd->dir, e.env, argv);
        if (r.status != 1)
            fail_msg("fault %zu: exit %d: %s", i, r.status, r.err);
        assert_contains(r.err, s.url);
        assert_contains(r.err, faults[i].msg);
        char out[4200];
        snprintf(out, sizeof(out), "%s/out.json", wd->dir);
        assert_null(tokio_test_read_file(out, NULL));
        tokio_run_free(&r);
        http_server_stop(&s);
    }
    /* an interface the server does not know */
    struct http_server_config c = { .esnet = rates };
    struct http_server s;
    http_server_start(&s, &c);
    http_server_esnet_env(&e, &s, "");
    const char *unknown[] = { CMD, "sunn-cr5:to_nowhere", NULL };
    struct tokio_run r = tokio_test_run(wd->dir, e.env, unknown);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "/sunn-cr5/interface/to_nowhere/in?");
    assert_contains(r.err, "HTTP 404 Not Found");
    tokio_run_free(&r);
    http_server_stop(&s);
    json_decref(rates);

    /* nothing listening; no URL configured */
    snprintf(e.uri, sizeof(e.uri),
             "PYTOKIO_ESNET_SNMP_URI=http://127.0.0.1:%d",
             http_server_free_port());
    r = tokio_test_run(wd->dir, e.env, unknown);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "Couldn't connect to server");
    tokio_run_free(&r);
    const char *none[] = { "TZ=America/Los_Angeles", "PYTOKIO_CONFIG=",
                           "PYTOKIO_ESNET_SNMP_URI=", NULL };
    tokio_test_run_fails(none, unknown, 1, "no esnet_snmp_url");
}

static void
test_cache_esnet_snmp_usage_and_bad_input(void **state)
{
    struct tokio_workdir *wd = *state;
    const char *end_only[] = { CMD, "-e", "2019-02-11T01:00:00", "a:b", NULL };
    const char *swapped[] = { CMD, "-s", "2019-02-11T01:05:00", "-e",
                              "2019-02-11T01:00:00", "a:b", NULL };
    const char *none[] = { CMD, NULL };

    tokio_test_run_fails(env, end_only, 2, "--start must be specified");
    tokio_test_run_fails(env, swapped, 2, "--end is before --start");
    tokio_test_run_fails(env, none, 2, "<endpoints>");
    static const struct { const char *text, *msg; } bad[] = {
        { "{\"e\": {\"i\": {\"in\": {\"12x\": 1.0}}}}",
          "e/i/in: '12x' is not a timestamp" },
        { "{\"e\": {\"i\": {\"in\": {\"12\": \"fast\"}}}}",
          "e/i/in/12: the rate is not a number" },
        { "{\"e\": [1]}", "e: not an object of interfaces" },
        { "[]", "not an object of ESnet endpoints" },
        { "{\"e\": ", "line 1 column" },
    };
    char path[4200];
    snprintf(path, sizeof(path), "%s/bad.json", wd->dir);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        tokio_test_write_file(path, bad[i].text, SIZE_MAX);
        const char *argv[] = { CMD, "-c", "-i", path, "e:i", NULL };
        const char *no_site[] = { "PYTOKIO_CONFIG=", NULL };
        tokio_test_run_fails(no_site, argv, 1, bad[i].msg);
    }

    /* a name the site configuration does not know */
    TOKIO_TEST_NEED_INPUTS(wd);
    const char *unknown[] = { CMD, "-i", "inputs/esnet_snmp.json.gz",
                              "mars", NULL };
    struct tokio_run r = tokio_test_run(wd->dir, env, unknown);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "invalid endpoint specification 'mars'");
    assert_contains(r.err, "nersc, alcf");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        TOKIO_TEST_IN_WORKDIR(test_cache_esnet_snmp_matches_goldens),
        TOKIO_TEST_IN_WORKDIR(test_cache_esnet_snmp_live_equals_input),
        TOKIO_TEST_IN_WORKDIR(test_cache_esnet_snmp_failures),
        TOKIO_TEST_IN_WORKDIR(test_cache_esnet_snmp_usage_and_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
