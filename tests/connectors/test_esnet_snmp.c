/*
 * tests/connectors/test_esnet_snmp.c - ESnet SNMP (src/connectors/
 * esnet_snmp.c): the reference's to_dataframe(multiindex=True) golden
 * (golden/pytokio/esnet_snmp/), the <endpoints> argument read as the
 * reference's commands read it, answers of tests/http_server.c added as
 * _insert_result() adds them, malformed caches and answers, and
 * out-of-memory sweeps.
 */
#include "testutil.h"
#include "http_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/config.h"
#include "tokio/connectors/esnet_snmp.h"
#include "tokio/time.h"

#define GOLDEN "golden/pytokio/esnet_snmp/esnet_snmp.json.gz.to_dataframe." \
               "multiindex.csv"

static char *
csv_of(const struct tokio_esnet_snmp *e, int multiindex)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_int_equal(tokio_esnet_snmp_write_csv(e, fp, multiindex), 0);
    fclose(fp);
    return buf;
}

static void
test_esnet_snmp_multiindex_golden(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/esnet_snmp.json.gz");
    struct tokio_esnet_snmp *e = NULL;

    assert_int_equal(tokio_esnet_snmp_open(&e, path,
                                           tokio_test_local(2019, 2, 11, 1, 0, 0),
                                           tokio_test_local(2019, 2, 11, 1, 5, 0)),
                     0);
    char *csv = csv_of(e, 1);
    char *want = tokio_test_read_file(tokio_test_data(GOLDEN), NULL);
    assert_string_equal(csv, want);
    free(want);
    free(csv);
    /* the rates of one interface, keys as the cache had them */
    const json_t *in = tokio_esnet_snmp_rates(e, "sunn-cr5",
                                              "to_nersc_ip-d_v4", "in");
    assert_int_equal(json_object_size(in), 11);
    assert_true(json_real_value(json_object_get(in, "1549875600")) ==
                130809025.03333333);
    assert_null(tokio_esnet_snmp_rates(e, "sunn-cr5", "to_nersc_ip-d_v4",
                                       "units"));
    tokio_esnet_snmp_free(e);
}

static void
test_esnet_snmp_endpoints_argument(void **state)
{
    (void)state;
    static const char site[] =
        "{\"esnet_snmp_interfaces\": {\"nersc\": {\"r1\": [\"a\", \"b\"], "
        "\"r2\": [\"c\"]}, \"bad\": {\"r\": \"x\"}}, "
        "\"esnet_snmp_url\": \"http://snmp.example/west\"}";
    struct tokio_config *cfg = NULL;
    json_t *out = NULL;
    const char *url;

    assert_int_equal(tokio_config_open_mem(&cfg, site, sizeof(site) - 1,
                                           "site"), 0);
    assert_int_equal(tokio_esnet_snmp_interfaces(cfg, "nersc", &out), 0);
    char *text = json_dumps(out, 0);
    assert_string_equal(text, "{\"r1\": [\"a\", \"b\"], \"r2\": [\"c\"]}");
    free(text);
    json_decref(out);
    assert_int_equal(tokio_esnet_snmp_interfaces(cfg, "r1:x,r2:y,r1:z:w",
                                                 &out), 0);
    text = json_dumps(out, 0);
    assert_string_equal(text, "{\"r1\": [\"x\", \"z:w\"], \"r2\": [\"y\"]}");
    free(text);
    json_decref(out);
    assert_int_equal(tokio_esnet_snmp_interfaces(cfg, "mars", &out),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "(nersc, bad)");
    assert_int_equal(tokio_esnet_snmp_interfaces(cfg, "a:b,c", &out),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "'c' is not endpoint:interface");
    assert_int_equal(tokio_esnet_snmp_interfaces(cfg, "bad", &out),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_esnet_snmp_url(cfg, &url), 0);
    assert_string_equal(url, "http://snmp.example/west");
    tokio_config_free(cfg);
    /* PYTOKIO_ESNET_SNMP_URI wins */
    setenv("PYTOKIO_ESNET_SNMP_URI", "http://other/", 1);
    assert_int_equal(tokio_config_open_mem(&cfg, site, sizeof(site) - 1,
                                           "site"), 0);
    assert_int_equal(tokio_esnet_snmp_url(cfg, &url), 0);
    assert_string_equal(url, "http://other/");
    tokio_config_free(cfg);
    unsetenv("PYTOKIO_ESNET_SNMP_URI");
}

/* A small recording: two directions, an integer rate and a null. */
static const char recording[] =
    "{\"r\": {\"i\": {\"in\": {\"100\": 1.5, \"130\": 2, \"160\": null}, "
    "\"out\": {\"100\": 7, \"130\": 8}}}}";

static void
test_esnet_snmp_gets_answers(void **state)
{
    (void)state;
    json_t *rec = json_loads(recording, 0, NULL);
    struct http_server_config c = { .esnet = rec };
    struct http_server s;
    struct tokio_esnet_snmp *e = NULL;
    size_t n;

    http_server_start(&s, &c);
    assert_int_equal(tokio_esnet_snmp_new(&e, 100, 130), 0);
    assert_int_equal(tokio_esnet_snmp_connect(e, s.url, 5, NULL), 0);
    assert_int_equal(tokio_esnet_snmp_get(e, "r", "i", "in", "average", 30,
                                          &n), 0);
    assert_int_equal(n, 2);                 /* both ends included */
    assert_int_equal(tokio_esnet_snmp_get(e, "r", "i", "out", NULL, 0, &n), 0);
    assert_int_equal(tokio_esnet_snmp_timestep(e), 30);
    json_t *j = NULL;
    tokio_esnet_snmp_to_json(e, &j);
    char *text = json_dumps(j, 0);
    /* units after the first direction, as the reference inserted them */
    assert_string_equal(text, "{\"r\": {\"i\": {\"in\": {\"100\": 1.5, "
                              "\"130\": 2}, \"units\": \"bytes/sec\", "
                              "\"out\": {\"100\": 7, \"130\": 8}}}}");
    free(text);
    json_decref(j);
    char *csv = csv_of(e, 0);
    /* one real makes the column reals; local times in $TZ */
    char t0[32], t1[32], want[512];
    tokio_time_format(t0, sizeof(t0), 100, "%Y-%m-%d %H:%M:%S");
    tokio_time_format(t1, sizeof(t1), 130, "%Y-%m-%d %H:%M:%S");
    snprintf(want, sizeof(want),
             ",endpoint,interface,direction,timestamp,data_rate\n"
             "0,r,i,in,%s,1.5\n1,r,i,in,%s,2.0\n2,r,i,out,%s,7.0\n"
             "3,r,i,out,%s,8.0\n", t0, t1, t0, t1);
    assert_string_equal(csv, want);
    free(csv);
    assert_int_equal(tokio_esnet_snmp_get(e, "r", "i", "sideways", NULL, 0,
                                          NULL), TOKIO_EINVAL);
    assert_int_equal(tokio_esnet_snmp_get(e, "r", "nope", "in", NULL, 0,
                                          NULL), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "/r/interface/nope/in?begin=100&end=130");
    assert_contains(tokio_errmsg(), "HTTP 404 Not Found");
    char *log = http_server_log(&s);
    assert_contains(log, "GET /r/interface/i/in?begin=100&end=130&calc_func="
                         "average&calc=30\nGET /r/interface/i/out?begin=100&"
                         "end=130\n");
    free(log);
    tokio_esnet_snmp_free(e);
    http_server_stop(&s);
    json_decref(rec);
}

static void
test_esnet_snmp_refuses_malformed_caches(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } cases[] = {
        { "{\"e\": {\"i\": {\"in\": {\"1x\": 1}}}}", "e/i/in: '1x' is not a "
          "timestamp" },
        /* regression (fuzz_esnet_snmp): the objects made for the
         * endpoint and interface after a failure leaked */
        { "{\"e\": {\"i\": {\"in\": {\"1x\": 1}}, \"j\": {}}, \"f\": {}}",
          "e/i/in: '1x' is not a timestamp" },
        { "{\"e\": {\"i\": {\"in\": {\"1\": [1]}}}}", "e/i/in/1: the rate is "
          "not a number" },
        { "{\"e\": {\"i\": 5}}", "e/i: not an object of directions" },
        { "{\"e\": 5}", "e: not an object of interfaces" },
        { "[1]", "not an object of ESnet endpoints" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *j = json_loads(cases[i].text, 0, NULL);
        struct tokio_esnet_snmp *e = (void *)1;

        assert_int_equal(tokio_esnet_snmp_from_json(&e, j, "c", 1, 2),
                         TOKIO_EFORMAT);
        assert_null(e);
        assert_contains(tokio_errmsg(), cases[i].msg);
        json_decref(j);
    }
    struct tokio_esnet_snmp *e = NULL;
    assert_int_equal(tokio_esnet_snmp_new(&e, 2, 2), TOKIO_EINVAL);
    /* " 0100" is Python's int() 100: saved as "100" */
    json_t *j = json_loads("{\"e\": {\"i\": {\"in\": {\" 0100\": 1}}}}", 0,
                           NULL);
    assert_int_equal(tokio_esnet_snmp_from_json(&e, j, "c", 1, 2), 0);
    assert_non_null(json_object_get(tokio_esnet_snmp_rates(e, "e", "i", "in"),
                                    "100"));
    tokio_esnet_snmp_free(e);
    json_decref(j);
}

static int
cache_trial(void *ctx)
{
    struct tokio_esnet_snmp *e = NULL;
    FILE *fp = fopen("/dev/null", "w");
    int rc = tokio_esnet_snmp_from_json(&e, ctx, "c", 1, 2);

    if (rc >= 0)
        rc = tokio_esnet_snmp_write_csv(e, fp, 0);
    if (rc >= 0)
        rc = tokio_esnet_snmp_write_csv(e, fp, 1);
    tokio_esnet_snmp_free(e);
    fclose(fp);
    return rc;
}

static int
get_trial(void *ctx)
{
    const struct http_server *s = ctx;
    struct tokio_esnet_snmp *e = NULL;
    int rc = tokio_esnet_snmp_new(&e, 100, 200);

    if (rc >= 0)
        rc = tokio_esnet_snmp_connect(e, s->url, 5, NULL);
    for (int d = 0; d < 2 && rc >= 0; d++)
        rc = tokio_esnet_snmp_get(e, "r", "i", d ? "out" : "in", "average",
                                  30, NULL);
    tokio_esnet_snmp_free(e);
    return rc;
}

static void
test_esnet_snmp_survives_every_oom(void **state)
{
    (void)state;
    json_t *rec = json_loads(recording, 0, NULL);
    struct http_server_config c = { .esnet = rec };
    struct http_server s;

    tokio_test_every_oom(cache_trial, rec, 1);
    http_server_start(&s, &c);
    tokio_test_every_oom(get_trial, &s, 1);
    http_server_stop(&s);
    json_decref(rec);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_esnet_snmp_multiindex_golden),
        cmocka_unit_test(test_esnet_snmp_endpoints_argument),
        cmocka_unit_test(test_esnet_snmp_gets_answers),
        cmocka_unit_test(test_esnet_snmp_refuses_malformed_caches),
        cmocka_unit_test(test_esnet_snmp_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
