/*
 * tests/cli/test_cache_nersc_globuslogs.c - `tokio cache-nersc-globuslogs`
 * from a working folder laid out as golden/pytokio/COMMANDS.md describes
 * (section cache_nersc_globuslogs): JSON by value, CSV cell by cell
 * against the reference's goldens; then -o, a fixture of our own, and
 * usage errors; then live against tests/http_server.c serving the same
 * recorded hits: the output equals the --input run's, and --user/--type
 * and the time range filter as the server applies the query.
 */
#include "testutil.h"
#include "http_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN "golden/pytokio/cache_nersc_globuslogs/"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

static void
test_cache_nersc_globuslogs_matches_goldens(void **state)
{
    (void)state;
    struct tokio_workdir wd;
    const char *json[] = { "cache-nersc-globuslogs", "--input",
                           "inputs/globuslogs.json.gz", "2019-01-29T00:00:00",
                           "2019-01-29T00:10:00", NULL };
    const char *csv[] = { "cache-nersc-globuslogs", "--csv", "--input",
                          "inputs/globuslogs.json.gz", "2019-01-29T00:00:00",
                          "2019-01-29T00:10:00", NULL };

    TOKIO_TEST_NEED_WORKDIR(&wd);
    struct tokio_run r = tokio_test_run(wd.dir, env, json);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_golden(r.out, GOLDEN "globuslogs.json.gz.json");
    tokio_run_free(&r);
    r = tokio_test_run(wd.dir, env, csv);
    assert_int_equal(r.status, 0);
    /* byte for byte: assert_golden() would read a name holding ".json"
     * as JSON */
    char *want = tokio_test_read_file(tokio_test_data(GOLDEN
                                      "globuslogs.json.gz.csv"), NULL);
    assert_non_null(want);
    assert_string_equal(r.out, want);
    free(want);
    tokio_run_free(&r);
    tokio_test_workdir_free(&wd);
}

/* Two pages, then an empty one that ends the scroll (the last is never
 * read); a missing integer makes its column floats; a boolean. */
static const char pages[] =
    "[[{\"_id\": \"a\", \"_source\": {\"USER\": \"u1\", \"NBYTES\": 5, "
    "\"BLOCK\": 7, \"bandwidth_mbps\": 1.5, \"TASKID\": true}}],\n"
    " [{\"_id\": \"b\", \"_source\": {\"USER\": \"x,y\", \"BLOCK\": 8}}],\n"
    " [],\n"
    " [{\"_id\": \"c\", \"_source\": {\"USER\": \"never\"}}]]\n";

static void
test_cache_nersc_globuslogs_fixture_and_output_file(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), in[4096], out[4096], *saved;

    snprintf(in, sizeof(in), "%s/pages.json", dir);
    snprintf(out, sizeof(out), "%s/out.json", dir);
    tokio_test_write_file(in, pages, SIZE_MAX);
    const char *csv[] = { "cache-nersc-globuslogs", "-c", "--input", in,
                          "--user", "nobody", "2019-01-29T00:00:00",
                          "2019-01-29T00:10:00", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, csv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out,
        ",@timestamp,BLOCK,BUFFER,CODE,DATE,DEST,DESTIP,FILE,HOST,NBYTES,"
        "START,STREAMS,STRIPES,TASKID,TYPE,USER,VOLUME,bandwidth_mbps,"
        "duration,start_date,end_date,host\n"
        "0,,7,,,,,,,,5.0,,,,True,,u1,,1.5,,,,\n"
        "1,,8,,,,,,,,,,,,,,\"x,y\",,,,,,\n\n");
    tokio_run_free(&r);

    const char *to_file[] = { "cache-nersc-globuslogs", "--input", in, "-o",
                              out, "2019-01-29T00:00:00",
                              "2019-01-29T00:10:00", NULL };
    r = tokio_test_run(NULL, env, to_file);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    saved = tokio_test_read_file(out, NULL);
    /* one line, the pages before the empty one */
    assert_string_equal(saved,
        "[[{\"_id\": \"a\", \"_source\": {\"USER\": \"u1\", \"NBYTES\": 5, "
        "\"BLOCK\": 7, \"bandwidth_mbps\": 1.5, \"TASKID\": true}}], "
        "[{\"_id\": \"b\", \"_source\": {\"USER\": \"x,y\", \"BLOCK\": 8}}]]");
    free(saved);
    /* what it wrote reads back */
    const char *back[] = { "cache-nersc-globuslogs", "--input", out,
                           "2019-01-29T00:00:00", "2019-01-29T00:10:00",
                           NULL };
    r = tokio_test_run(NULL, env, back);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "\"USER\": \"x,y\"");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_nersc_globuslogs_failures(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), bad[4096];
    snprintf(bad, sizeof(bad), "%s/bad.json", dir);
    tokio_test_write_file(bad, "[[{\"_id\": 1}]]", SIZE_MAX);
    const char *s = "2019-01-29T00:00:00", *e = "2019-01-29T00:10:00";
    const struct {
        int status;
        const char *argv[7];
        const char *msg;
    } cases[] = {
        { 2, { "cache-nersc-globuslogs", "--input", "x", s, NULL },
          "a start and an end time are required" },
        { 2, { "cache-nersc-globuslogs", "--input", "x", "2019-01-29", e,
               NULL }, "<start> '2019-01-29' is not a time "
                       "YYYY-MM-DDTHH:MM:SS" },
        { 2, { "cache-nersc-globuslogs", "--input", "x", e, s, NULL },
          "<end> is before <start>" },
        { 2, { "cache-nersc-globuslogs", "-p", "0", s, e, NULL },
          "--port must be a port number" },
        { 2, { "cache-nersc-globuslogs", "--timeout", "86401", s, e, NULL },
          "--timeout must be 1 to 86400 seconds" },
        { 1, { "cache-nersc-globuslogs", "--input", "/nonexistent/p.json", s,
               e, NULL }, "/nonexistent/p.json" },
        { 1, { "cache-nersc-globuslogs", "--input", bad, s, e, NULL },
          "bad.json': page 0 hit 0 has no object _source" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        tokio_test_run_fails(env, cases[i].argv, cases[i].status,
                             cases[i].msg);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Run live against `srv` with the extra options, from START to END. */
static struct tokio_run
live(const struct http_server *srv, const char *start, const char *end,
     const char *o1, const char *o2, const char *o3, const char *o4)
{
    char port[16];
    const char *argv[16] = { "cache-nersc-globuslogs", "-h", "127.0.0.1",
                             "-p", port };
    const char *opts[] = { o1, o2, o3, o4 };
    size_t n = 5;

    snprintf(port, sizeof(port), "%d", srv->port);
    for (size_t i = 0; i < 4 && opts[i] != NULL; i++)
        argv[n++] = opts[i];
    argv[n++] = start;
    argv[n++] = end;
    argv[n] = NULL;
    return tokio_test_run(NULL, env, argv);
}

static void
test_cache_nersc_globuslogs_live(void **state)
{
    (void)state;
    json_t *hits = http_server_hits_of("pytokio-inputs/globuslogs.json.gz");
    const char *s = "2019-01-29T00:00:00", *e = "2019-01-29T00:10:00";
    struct http_server_config c = { .hits = hits };
    struct http_server srv;
    http_server_start(&srv, &c);
    for (int csv = 0; csv < 2; csv++) {
        const char *in[] = { "cache-nersc-globuslogs", "--input",
                             tokio_test_data("pytokio-inputs/"
                                             "globuslogs.json.gz"),
                             csv ? "--csv" : s, csv ? s : e, csv ? e : NULL,
                             NULL };
        struct tokio_run want = tokio_test_run(NULL, env, in);
        struct tokio_run got = live(&srv, s, e, csv ? "--csv" : NULL, NULL,
                                    NULL, NULL);
        if (got.status != 0)
            fail_msg("exit %d: %s", got.status, got.err);
        assert_string_equal(got.out, want.out);
        tokio_run_free(&want);
        tokio_run_free(&got);
    }
    /* the three recorded transfers: fusera's RETR, useroll's two STOR;
     * between 08:04:49Z and 08:04:54Z (00:04:49 .. 00:04:54 PST) */
    struct tokio_run r = live(&srv, s, e, "--csv", "--user", "fusera", NULL);
    assert_int_equal(r.status, 0);
    size_t rows = 0;
    for (const char *p = r.out; (p = strchr(p, '\n')) != NULL; p++)
        rows++;
    assert_int_equal(rows, 1 + 1 + 1);     /* header, a row, newline */
    assert_non_null(strstr(r.out, ",RETR,fusera,"));
    tokio_run_free(&r);
    r = live(&srv, s, e, "--csv", "--type", "stor", NULL);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "RETR"));
    assert_non_null(strstr(r.out, "\n1,"));   /* two rows */
    assert_null(strstr(r.out, "\n2,"));
    tokio_run_free(&r);
    r = live(&srv, "2019-01-29T00:06:00", e, NULL, NULL, NULL, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "[]\n");
    tokio_run_free(&r);
    char *log = http_server_log(&srv);
    assert_contains(log, "POST /dtn-dtn-log%2A/_search?scroll=1m&size=10000");
    assert_contains(log, "DELETE /_search/scroll\nfreed=1");
    free(log);
    http_server_stop(&srv);
    json_decref(hits);

    /* a server that is gone */
    char port[16];
    snprintf(port, sizeof(port), "%d", http_server_free_port());
    const char *gone[] = { "cache-nersc-globuslogs", "-h", "127.0.0.1", "-p",
                           port, s, e, NULL };
    tokio_test_run_fails(env, gone, 1, "Couldn't connect to server");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_nersc_globuslogs_matches_goldens),
        cmocka_unit_test(test_cache_nersc_globuslogs_fixture_and_output_file),
        cmocka_unit_test(test_cache_nersc_globuslogs_failures),
        cmocka_unit_test(test_cache_nersc_globuslogs_live),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
