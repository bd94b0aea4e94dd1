/*
 * tests/cli/test_archive_collectdes.c - `tokio archive-collectdes` run as
 * golden/pytokio/COMMANDS.md section archive_collectdes runs the
 * reference (which failed there only because h5py 3 opens read-only by
 * default): equal to its golden in every dataset and attribute but the
 * update time.  The golden holds disk data only, so the CPU and memory
 * datasets are checked on collectdes_cpuloads.json.gz against values
 * worked out here from its hits: a CPU cell is the mean of its samples
 * (100 - idle for cpuload), a memory cell the last sample.  Live against
 * tests/http_server.c the same hits give the same file; failures leave
 * the file as it was.
 */
#include "testutil.h"
#include "http_server.h"
#include "lmt_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tokio/time.h"

#define CMD "archive-collectdes"
#define GOLDEN "golden/pytokio/archive_collectdes/sample_collectdes-full.hdf5"
#define START "2017-12-13T00:00:00"
#define END "2017-12-13T01:00:00"

static const char *const sets[] = {
    "datatargets/readrates", "datatargets/writerates",
    "datatargets/readoprates", "datatargets/writeoprates",
    "dataservers/memcached", "dataservers/membuffered",
    "dataservers/memfree", "dataservers/memused", "dataservers/memslab",
    "dataservers/memslab_unrecl", "dataservers/cpuload",
    "dataservers/cpuuser", "dataservers/cpusys",
};
#define N_SETS (sizeof(sets) / sizeof(sets[0]))

static const char *const env[] = { "TZ=America/Los_Angeles",
                                   "PYTOKIO_ES_USER=", NULL };

static void
run_ok(const char *dir, const char *const *argv)
{
    struct tokio_run r = tokio_test_run(dir, env, argv);

    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
}

static void
test_archive_collectdes_matches_golden(void **state)
{
    struct tokio_workdir *wd = *state;
    char out[4200];

    TOKIO_TEST_NEED_INPUTS(wd);
    const char *argv[] = { CMD, "--init-start", START, "--init-end", END,
                           "--input", "inputs/sample_collectdes-full.json.gz",
                           "--num-nodes", "288", "--ssds-per-node", "4",
                           "--timestep", "10", "--output", "c.hdf5", START,
                           END, NULL };
    run_ok(wd->dir, argv);
    snprintf(out, sizeof(out), "%s/c.hdf5", wd->dir);
    tts_assert_same(out, tokio_test_data(GOLDEN), sets, N_SETS);
    /* archiving the same again changes nothing */
    run_ok(wd->dir, argv);
    tts_assert_same(out, tokio_test_data(GOLDEN), sets, N_SETS);
}

/* The expected value of dataset `set`, column `col`, at `t`. */
static double
expected(const json_t *hits, const char *set, const char *col, int64_t row,
         int64_t start)
{
    double sum = 0, last = -0.0;
    size_t n = 0, i;
    const json_t *hit;
    int cpu = strncmp(set, "dataservers/cpu", 15) == 0;

    json_array_foreach(hits, i, hit) {
        const json_t *src = json_object_get(hit, "_source");
        const char *plugin = json_string_value(json_object_get(src, "plugin"));
        const char *type = json_string_value(json_object_get(src,
                                                             "type_instance"));
        const char *host = json_string_value(json_object_get(src, "hostname"));
        int64_t t;

        if (plugin == NULL || type == NULL || strcmp(host, col) != 0 ||
            !json_is_number(json_object_get(src, "value")))
            continue;
        assert_int_equal(tokio_time_parse(json_string_value(
            json_object_get(src, "@timestamp")), &t), 0);
        if ((t - start) / 10 != row)
            continue;
        double v = json_number_value(json_object_get(src, "value"));
        const char *want = strrchr(set, '/') + 1;
        if (cpu && strcmp(plugin, "cpu") == 0 &&
            ((strcmp(want, "cpuload") == 0 && strcmp(type, "idle") == 0) ||
             (strcmp(want, "cpuuser") == 0 && strcmp(type, "user") == 0) ||
             (strcmp(want, "cpusys") == 0 && strcmp(type, "system") == 0))) {
            sum += strcmp(want, "cpuload") == 0 ? 100.0 - v : v;
            n++;
        } else if (!cpu && strcmp(plugin, "memory") == 0) {
            char name[64];
            snprintf(name, sizeof(name), "mem%s",
                     strcmp(type, "slab_recl") == 0 ? "slab" : type);
            if (strcmp(name, want) == 0)
                last = v;
        }
    }
    return cpu ? (n ? sum / (double)n : -0.0) : last;
}

static void
check_derived(const char *path, const json_t *hits)
{
    struct tokio_hdf5 *h = NULL;
    int64_t start;
    size_t checked = 0;

    assert_int_equal(tokio_time_parse_format(START, "%Y-%m-%dT%H:%M:%S",
                                             &start), 0);
    assert_int_equal(tokio_hdf5_open(&h, path, 0), 0);
    for (size_t s = 4; s < N_SETS; s++) {
        struct tokio_timeseries *ts = NULL;

        assert_int_equal(tokio_hdf5_to_timeseries(h, sets[s], &ts), 0);
        size_t rows = tokio_timeseries_rows(ts), cols = tokio_timeseries_cols(ts);
        assert_int_equal(rows, 360);
        assert_int_equal(cols, 288);
        const double *d = tokio_timeseries_cdata(ts);
        for (size_t c = 0; c < tokio_timeseries_n_names(ts); c++)
            for (size_t r = 0; r < rows; r++) {
                double want = expected(hits, sets[s],
                                       tokio_timeseries_column(ts, c),
                                       (int64_t)r, start);
                double got = d[r * cols + c];
                if (!(got == want && signbit(got) == signbit(want)) &&
                    fabs(got - want) > 1e-12 * fabs(want))
                    fail_msg("%s %s row %zu: %.17g, want %.17g", sets[s],
                             tokio_timeseries_column(ts, c), r, got, want);
                checked += !tokio_timeseries_is_missing(want);
            }
        tokio_timeseries_free(ts);
    }
    /* the 208 cpu and memory samples fall into 25 cells (distinct
     * dataset, host and 10 s row; counted in the input by hand): all of
     * them were compared with a value */
    assert_int_equal(checked, 25);
    tokio_hdf5_free(h);
}

static void
test_archive_collectdes_cpu_and_memory(void **state)
{
    struct tokio_workdir *wd = *state;
    char out[4200], live[4200];

    TOKIO_TEST_NEED_INPUTS(wd);
    json_t *hits = http_server_hits_of("pytokio-inputs/"
                                       "collectdes_cpuloads.json.gz");
    const char *argv[] = { CMD, "--input", "inputs/collectdes_cpuloads.json.gz",
                           "-o", "cpu.hdf5", START, END, NULL };
    run_ok(wd->dir, argv);
    snprintf(out, sizeof(out), "%s/cpu.hdf5", wd->dir);
    check_derived(out, hits);

    /* live, 7 hits a page: the same file */
    struct http_server_config c = { .hits = hits, .page_hits = 7 };
    struct http_server s;
    char port[16];
    http_server_start(&s, &c);
    snprintf(port, sizeof(port), "%d", s.port);
    const char *live_argv[] = { CMD, "-h", "127.0.0.1", "-p", port,
                                "-o", "live.hdf5", START, END, NULL };
    run_ok(wd->dir, live_argv);
    snprintf(live, sizeof(live), "%s/live.hdf5", wd->dir);
    tts_assert_same(live, out, sets, N_SETS);
    char *log = http_server_log(&s);
    assert_contains(log, "DELETE /_search/scroll\nfreed=1");
    free(log);
    http_server_stop(&s);

    /* a connection dropped mid-scroll leaves the file as it was */
    struct stat before, after;
    assert_int_equal(stat(live, &before), 0);
    struct http_server_config f = { .hits = hits, .page_hits = 7,
                                    .fault = HTTP_FAULT_DROP, .fault_at = 5 };
    http_server_start(&s, &f);
    snprintf(port, sizeof(port), "%d", s.port);
    struct tokio_run r = tokio_test_run(wd->dir, env, live_argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, s.url);
    assert_contains(r.err, "transfer closed");
    tokio_run_free(&r);
    http_server_stop(&s);
    assert_int_equal(stat(live, &after), 0);
    assert_int_equal(before.st_ino, after.st_ino);
    tts_assert_same(live, out, sets, N_SETS);
    json_decref(hits);
}

/* The cache read by src/connectors/es_hits.c, and the same with a page
 * that reader leaves to jansson (an escaped non-ASCII plugin, which the
 * archive passes over): the same file; live, a page each way, too. */
static void
test_archive_collectdes_either_reader(void **state)
{
    struct tokio_workdir *wd = *state;
    char fast[4200], slow[4200];

    TOKIO_TEST_NEED_INPUTS(wd);
    json_t *hits = http_server_hits_of("pytokio-inputs/"
                                       "collectdes_cpuloads.json.gz");
    json_t *pages = json_pack("[O]", hits);
    snprintf(fast, sizeof(fast), "%s/fast.json", wd->dir);
    snprintf(slow, sizeof(slow), "%s/slow.json", wd->dir);
    assert_int_equal(json_dump_file(pages, fast, 0), 0);
    json_array_append_new(pages, json_pack("[{s:{s:s}}]", "_source",
                                           "plugin", "\xc3\xa9"));
    assert_int_equal(json_dump_file(pages, slow, JSON_ENSURE_ASCII), 0);
    const char *a[] = { CMD, "--input", "fast.json", "-o", "fast.hdf5",
                        START, END, NULL };
    const char *b[] = { CMD, "--input", "slow.json", "-o", "slow.hdf5",
                        START, END, NULL };
    run_ok(wd->dir, a);
    run_ok(wd->dir, b);
    snprintf(fast, sizeof(fast), "%s/fast.hdf5", wd->dir);
    snprintf(slow, sizeof(slow), "%s/slow.hdf5", wd->dir);
    check_derived(fast, hits);
    tts_assert_same(fast, slow, sets, N_SETS);

    /* live, a page of the cpu query left to jansson (a plugin_instance
     * beyond ASCII, which cpu ignores), the others read by es_hits.c */
    json_t *mixed = json_deep_copy(hits);
    size_t i;
    json_t *hit;
    json_array_foreach(mixed, i, hit) {
        json_t *src = json_object_get(hit, "_source");
        if (strcmp(json_string_value(json_object_get(src, "plugin")),
                   "cpu") == 0) {
            json_object_set_new(src, "plugin_instance",
                                json_string("\xc3\xa9"));
            break;
        }
    }
    struct http_server_config c = { .hits = mixed, .page_hits = 7 };
    struct http_server srv;
    char port[16], live[4200];
    http_server_start(&srv, &c);
    snprintf(port, sizeof(port), "%d", srv.port);
    const char *l[] = { CMD, "-h", "127.0.0.1", "-p", port, "-o",
                        "live.hdf5", START, END, NULL };
    run_ok(wd->dir, l);
    http_server_stop(&srv);
    snprintf(live, sizeof(live), "%s/live.hdf5", wd->dir);
    tts_assert_same(live, fast, sets, N_SETS);
    json_decref(mixed);
    json_decref(pages);
    json_decref(hits);
}

static void
test_archive_collectdes_bad_input(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), in[4200], out[4200];
    static const struct { const char *text, *msg; } cases[] = {
        { "[[{\"_source\": {\"plugin\": \"disk\"}}]]",
          "page 0: hit 0: no '@timestamp'" },
        { "[[{\"_id\": 1}]]", "page 0: hit 0: no object '_source'" },
        { "[[{\"_source\": {\"hostname\": \"bb1\"}}]]", "hit 0: no 'plugin'" },
        { "[[{\"_source\": {\"plugin\": \"cpu\", \"value\": \"high\", "
          "\"@timestamp\": \"2017-12-13T08:00:00Z\"}}]]",
          "hit 0: a number is expected in 'value'" },
        { "[[{\"_source\": {\"plugin\": \"memory\", \"value\": 1, "
          "\"@timestamp\": \"yesterday\"}}]]",
          "hit 0: a date is expected in '@timestamp'" },
        /* the first host fits the one column, a second does not */
        { "[[{\"_source\": {\"plugin\": \"memory\", \"value\": 1, "
          "\"type_instance\": \"free\", \"hostname\": \"bb1\", "
          "\"@timestamp\": \"2017-12-13T08:00:00Z\"}}, {\"_source\": "
          "{\"plugin\": \"memory\", \"value\": 1, \"type_instance\": "
          "\"free\", \"hostname\": \"bb2\", \"@timestamp\": "
          "\"2017-12-13T08:00:00Z\"}}]]",
          "dataservers/memfree: 'bb2' is one column more than its 1" },
    };

    snprintf(in, sizeof(in), "%s/pages.json", dir);
    snprintf(out, sizeof(out), "%s/out.hdf5", dir);
    /* each read by es_hits.c, then by jansson (a last page it leaves to
     * jansson): the same message */
    for (size_t k = 0; k < 2 * sizeof(cases) / sizeof(cases[0]); k++) {
        size_t i = k / 2;
        char text[1024];

        snprintf(text, sizeof(text), "%.*s%s]", (int)strlen(cases[i].text)
                 - 1, cases[i].text, k % 2 ? ", [{\"_source\": "
                 "{\"plugin\": \"\\u00e9\"}}]" : "");
        tokio_test_write_file(in, text, SIZE_MAX);
        const char *argv[] = { CMD, "--input", in, "-o", out, "--num-nodes",
                               i == 5 ? "1" : "2", START, END, NULL };
        struct tokio_run r = tokio_test_run(NULL, env, argv);
        if (r.status != 1)
            fail_msg("case %zu: exit %d: %s", k, r.status, r.err);
        assert_contains(r.err, cases[i].msg);
        tokio_run_free(&r);
        assert_null(tokio_test_read_file(out, NULL));
    }
    const char *swapped[] = { CMD, "--input", in, END, START, NULL };
    const char *nodes[] = { CMD, "--input", in, "--num-nodes", "0", START,
                            END, NULL };
    tokio_test_run_fails(env, swapped, 2, "<start> must come before <end>");
    tokio_test_run_fails(env, nodes, 2, "--num-nodes");
    const char *port[] = { CMD, "-p", "0", START, END, NULL };
    const char *timeout[] = { CMD, "--timeout", "86401", START, END, NULL };
    tokio_test_run_fails(env, port, 2, "--port must be a port number");
    tokio_test_run_fails(env, timeout, 2, "--timeout must be 1 to 86400 "
                         "seconds");
    /* issue 17 item 3, as for archive-lmtdb: a runaway range, or one
     * outside the file's span, is refused before any work */
    const char *runaway[] = { CMD, "--input", in, "1900-01-01T00:00:00",
                              "2200-01-01T00:00:00", NULL };
    const char *outside[] = { CMD, "--input", in, "--init-start", START,
                              "--init-end", END, "1900-01-01T00:00:00",
                              END, NULL };
    tokio_test_run_fails(env, runaway, 2, "rows of 10 s a file may hold");
    tokio_test_run_fails(env, outside, 2, "must lie within --init-start");
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        TOKIO_TEST_IN_WORKDIR(test_archive_collectdes_matches_golden),
        TOKIO_TEST_IN_WORKDIR(test_archive_collectdes_cpu_and_memory),
        TOKIO_TEST_IN_WORKDIR(test_archive_collectdes_either_reader),
        cmocka_unit_test(test_archive_collectdes_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
