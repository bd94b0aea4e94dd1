/*
 * tests/cli/test_cache_collectdes.c - `tokio cache-collectdes`: the
 * reference's four goldens (golden/pytokio/COMMANDS.md, cache_collectdes)
 * byte for byte from --input; then live, against tests/http_server.c
 * serving the same recorded hits: the output equals the --input run's,
 * the scroll is freed, basic auth comes from the environment or the
 * site configuration; then the failures the issue lists (a dropped
 * connection, HTTP 404/429/500, a page that is not JSON, a server slower
 * than --timeout, an expired scroll, nothing listening): exit 1, the
 * server and the failure named, no -o file, and the scroll freed
 * wherever the server still answers.
 */
#include "testutil.h"
#include "http_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define CMD "cache-collectdes"
#define GOLDEN "golden/pytokio/cache_collectdes/"
#define START "2017-12-13T00:00:00"
#define END "2017-12-13T01:00:00"

static const char *const env[] = { "TZ=America/Los_Angeles",
                                   "PYTOKIO_ES_USER=", "PYTOKIO_ES_PASSWORD=",
                                   NULL };

static void
test_cache_collectdes_matches_goldens(void **state)
{
    static const struct tokio_golden_case cases[] = {
        { "sample_collectdes-full.json.gz.csv", NULL,
          { CMD, "--csv", "--input", "inputs/sample_collectdes-full.json.gz",
            START, END, NULL } },
        { "sample_collectdes-part.json.gz.csv", NULL,
          { CMD, "--csv", "--input", "inputs/sample_collectdes-part.json.gz",
            START, END, NULL } },
        { "collectdes_cpuloads.json.gz.csv", NULL,
          { CMD, "--csv", "--input", "inputs/collectdes_cpuloads.json.gz",
            START, END, NULL } },
        { "collectdes_cpuloads.json.gz.json", NULL,
          { CMD, "--input", "inputs/collectdes_cpuloads.json.gz", START, END,
            NULL } },
    };
    struct tokio_workdir *wd = *state;

    TOKIO_TEST_NEED_INPUTS(wd);
    tokio_test_golden_cases(wd->dir, GOLDEN, cases,
                            sizeof(cases) / sizeof(cases[0]), 1);
}

/* Run `tokio cache-collectdes` against `s` with `extra` options. */
static struct tokio_run
run_live(const struct http_server *s, const char *const *e, const char *a1,
         const char *a2, const char *a3, const char *a4)
{
    char port[16];
    /* long enough for a loaded machine running ASan to serve a page;
     * the slow server of check_fault() waits longer */
    const char *argv[16] = { CMD, "-h", "127.0.0.1", "-p", port,
                             "--timeout", "8" };
    size_t n = 7;

    snprintf(port, sizeof(port), "%d", s->port);
    for (const char *const *a = (const char *const[]){ a1, a2, a3, a4 };
         n < 11 && *a != NULL; a++)
        argv[n++] = *a;
    argv[n++] = START;
    argv[n++] = END;
    argv[n] = NULL;
    return tokio_test_run(NULL, e ? e : env, argv);
}

static size_t
count(const char *text, const char *needle)
{
    size_t n = 0;

    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* The disk-only samples: their hits served 5000 a page, as recorded, so
 * the live JSON is the input's pages and the CSV the golden. */
static void
test_cache_collectdes_live_equals_input(void **state)
{
    (void)state;
    static const char *const samples[] = { "sample_collectdes-full",
                                           "sample_collectdes-part" };

    for (size_t i = 0; i < 2; i++) {
        char rel[256], gold[256];

        snprintf(rel, sizeof(rel), "pytokio-inputs/%s.json.gz", samples[i]);
        json_t *hits = http_server_hits_of(rel);
        struct http_server_config c = { .hits = hits, .page_hits = 5000 };
        struct http_server s;
        http_server_start(&s, &c);

        struct tokio_run r = run_live(&s, NULL, "--csv", NULL, NULL, NULL);
        if (r.status != 0)
            fail_msg("exit %d: %s", r.status, r.err);
        snprintf(gold, sizeof(gold), GOLDEN "%s.json.gz.csv", samples[i]);
        char *want = tokio_test_read_file(tokio_test_data(gold), NULL);
        assert_string_equal(r.out, want);
        free(want);
        tokio_run_free(&r);

        const char *input_argv[] = { CMD, "--input",
                                     tokio_test_data(rel), START, END, NULL };
        struct tokio_run in = tokio_test_run(NULL, env, input_argv);
        assert_int_equal(in.status, 0);
        r = run_live(&s, NULL, NULL, NULL, NULL, NULL);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.out, in.out);
        tokio_run_free(&r);
        tokio_run_free(&in);

        /* three queries (cpu, disk, memory), each scroll freed */
        char *log = http_server_log(&s);
        assert_int_equal(count(log, "POST /cori-collectd-%2A/_search?"), 6);
        assert_int_equal(count(log, "DELETE /_search/scroll"), 6);
        assert_int_equal(count(log, "freed=1"), 6);
        free(log);
        http_server_stop(&s);
        json_decref(hits);
    }
}

/* Hits of all three plugins, 7 a page: the live output holds every
 * query's hits (the reference printed the last query's alone); saved
 * with -o and read back with --input, it gives the same CSV. */
static void
test_cache_collectdes_live_keeps_all_queries(void **state)
{
    (void)state;
    json_t *hits = http_server_hits_of("pytokio-inputs/"
                                       "collectdes_cpuloads.json.gz");
    char *dir = tokio_test_mkdtemp(), saved[4200];
    struct http_server_config c = { .hits = hits, .page_hits = 7 };
    struct http_server s;
    http_server_start(&s, &c);
    snprintf(saved, sizeof(saved), "%s/pages.json", dir);

    struct tokio_run r = run_live(&s, NULL, "-o", saved, NULL, NULL);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    r = run_live(&s, NULL, "--csv", NULL, NULL, NULL);
    assert_int_equal(r.status, 0);
    const char *input_argv[] = { CMD, "--csv", "--input", saved, START, END,
                                 NULL };
    struct tokio_run in = tokio_test_run(NULL, env, input_argv);
    assert_int_equal(in.status, 0);
    assert_string_equal(r.out, in.out);
    /* 300 recorded hits, all bb hosts in range: cpu 96, disk 92, memory
     * 112 (counted per plugin in the input; cpu type_instance is always
     * idle, user or system there), so 300 rows + header + print()'s
     * newline */
    assert_int_equal(count(r.out, "\n"), 302);
    assert_int_equal(count(r.out, ",cpu,percent,"), 96);
    assert_int_equal(count(r.out, ",disk,disk_"), 92);
    assert_int_equal(count(r.out, ",memory,memory,"), 112);
    /* cpu first, memory last, as the queries ran */
    assert_true(strstr(r.out, ",cpu,") < strstr(r.out, ",disk,"));
    assert_true(strstr(r.out, ",disk,") < strstr(r.out, ",memory,"));
    tokio_run_free(&r);
    tokio_run_free(&in);
    http_server_stop(&s);
    json_decref(hits);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Basic auth from PYTOKIO_ES_USER/PYTOKIO_ES_PASSWORD, else from the
 * site configuration's es_user and es_password; with neither, the
 * server's 401 is the message. */
static void
test_cache_collectdes_basic_auth(void **state)
{
    (void)state;
    json_t *hits = json_pack("[{s:s,s:{s:s,s:s,s:s,s:f,s:s,s:s}}]", "_id",
                             "a", "_source", "@timestamp",
                             "2017-12-13T08:00:01.000Z", "hostname", "bb1",
                             "plugin", "memory", "value", 5.0,
                             "type_instance", "free", "collectd_type",
                             "memory");
    struct http_server_config c = { .hits = hits, .user = "reader",
                                    .password = "s3cret" };
    struct http_server s;
    static const char *const with[] = { "TZ=America/Los_Angeles",
                                        "PYTOKIO_ES_USER=reader",
                                        "PYTOKIO_ES_PASSWORD=s3cret", NULL };

    http_server_start(&s, &c);
    struct tokio_run r = run_live(&s, with, "--csv", NULL, NULL, NULL);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_string_equal(r.out,
        ",@timestamp,hostname,plugin,collectd_type,type_instance,"
        "plugin_instance,value,longterm,midterm,shortterm,majflt,minflt,"
        "if_octets,if_packets,if_errors,rx,tx,read,write,io_time\n"
        "0,2017-12-13T08:00:01.000Z,bb1,memory,memory,free,,5.0,,,,,,,,,,,,,"
        "\n\n");
    tokio_run_free(&r);
    r = run_live(&s, NULL, "--csv", NULL, NULL, NULL);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, s.url);
    assert_contains(r.err, "HTTP 401 Unauthorized: security_exception");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);

    /* else from the site configuration's es_user and es_password */
    char *dir = tokio_test_mkdtemp(), site[4200], site_env[4300];
    snprintf(site, sizeof(site), "%s/site.json", dir);
    tokio_test_write_file(site, "{\"es_user\": \"reader\", "
                          "\"es_password\": \"s3cret\"}", SIZE_MAX);
    snprintf(site_env, sizeof(site_env), "PYTOKIO_CONFIG=%s", site);
    const char *from_site[] = { "TZ=America/Los_Angeles", "PYTOKIO_ES_USER=",
                                "PYTOKIO_ES_PASSWORD=", site_env, NULL };
    r = run_live(&s, from_site, "--csv", NULL, NULL, NULL);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_contains(r.out, "\n0,2017-12-13T08:00:01.000Z,bb1,memory,");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
    http_server_stop(&s);
    json_decref(hits);
}

/* The server's log once it shows a scroll freed (the DELETE may trail
 * the client's end by a moment; at most 5 s): free() it. */
static char *
log_when_freed(const struct http_server *s)
{
    char *log = NULL;

    for (int i = 0; i < 500; i++) {
        free(log);
        log = http_server_log(s);
        if (strstr(log, "freed=1") != NULL)
            break;
        usleep(10000);
    }
    return log;
}

/* One failure: exit 1, the server and `what` in the message, no -o
 * file; `freed`: the log must show the scroll freed. */
static void
check_fault(const json_t *hits, enum http_fault fault, size_t at, int status,
            const char *what, int freed)
{
    struct http_server_config c = { .hits = hits, .page_hits = 1000,
                                    .fault = fault, .fault_at = at,
                                    .status = status, .slow_seconds = 10 };
    struct http_server s;
    char *dir = tokio_test_mkdtemp(), out[4200];

    http_server_start(&s, &c);
    snprintf(out, sizeof(out), "%s/out.csv", dir);
    struct tokio_run r = run_live(&s, NULL, "--csv", "-o", out, NULL);
    if (r.status != 1)
        fail_msg("fault %d: exit %d: %s", (int)fault, r.status, r.err);
    assert_contains(r.err, "127.0.0.1:");
    assert_contains(r.err, what);
    assert_string_equal(r.out, "");
    assert_int_equal(tokio_test_count_entries(dir), 0);
    tokio_run_free(&r);
    if (freed) {
        char *log = log_when_freed(&s);
        assert_contains(log, "DELETE /_search/scroll\nfreed=1");
        free(log);
    }
    http_server_stop(&s);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_collectdes_failures(void **state)
{
    (void)state;
    json_t *hits = http_server_hits_of("pytokio-inputs/"
                                       "sample_collectdes-full.json.gz");

    /* the disk query is the second: its pages come after the cpu query's
     * one (empty) answer; 7038 hits are 8 pages of 1000 */
    check_fault(hits, HTTP_FAULT_DROP, 3, 0, "transfer closed", 1);
    check_fault(hits, HTTP_FAULT_STATUS, 0, 404,
                "HTTP 404 Not Found: index_not_found_exception", 0);
    check_fault(hits, HTTP_FAULT_STATUS, 2, 429,
                "HTTP 429 Too Many Requests: es_rejected_execution_exception",
                1);
    check_fault(hits, HTTP_FAULT_STATUS, 5, 500,
                "HTTP 500 Internal Server Error", 1);
    check_fault(hits, HTTP_FAULT_MALFORMED, 4, 0, "line 1 column", 1);
    check_fault(hits, HTTP_FAULT_SLOW, 2, 0, "no answer within 8 s", 1);
    check_fault(hits, HTTP_FAULT_EXPIRE, 6, 0,
                "HTTP 404 Not Found: search_context_missing_exception: No "
                "search context found", 0);
    json_decref(hits);

    /* nothing listening */
    char port[16];
    snprintf(port, sizeof(port), "%d", http_server_free_port());
    const char *argv[] = { CMD, "-h", "127.0.0.1", "-p", port, START, END,
                           NULL };
    tokio_test_run_fails(env, argv, 1, "Couldn't connect to server");
}

/* Issue 17, item 7: a cache of pages whose hits are not Elasticsearch
 * hits ('[[1]]') was printed back with exit 0; cache-nersc-globuslogs
 * refused it.  Each hit must be an object with an object _source. */
static void
test_cache_collectdes_input_of_other_hits_is_refused(void **state)
{
    static const char *const bad[] = {
        "[[1]]", "[[{\"_id\": 1}]]", "[[{\"_source\": {}}], [{\"_source\": [1]}]]"
    };
    char *dir = tokio_test_mkdtemp(), path[4200];

    (void)state;
    snprintf(path, sizeof(path), "%s/pages.json", dir);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *argv[] = { CMD, "--input", path, START, END, NULL };
        tokio_test_write_file(path, bad[i], SIZE_MAX);
        tokio_test_run_fails(env, argv, 1, i < 2
                             ? "pages.json' page 0: hit 0 has no object "
                               "_source"
                             : "pages.json' page 1: hit 0 has no object "
                               "_source");
    }
    tokio_test_rmtree(dir);
    free(dir);
}

/* SIGINT while a page is on its way: the scroll is freed first, then
 * the process dies of the signal, leaving no -o file. */
static void
test_cache_collectdes_interrupt_frees_scroll(void **state)
{
    (void)state;
    json_t *hits = http_server_hits_of("pytokio-inputs/"
                                       "sample_collectdes-full.json.gz");
    char *dir = tokio_test_mkdtemp(), out[4200], port[16];
    int status;
    struct http_server_config c = { .hits = hits, .page_hits = 1000,
                                    .fault = HTTP_FAULT_SLOW, .fault_at = 3,
                                    .slow_seconds = 3 };
    struct http_server s;
    http_server_start(&s, &c);
    snprintf(out, sizeof(out), "%s/out.csv", dir);
    snprintf(port, sizeof(port), "%d", s.port);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("TZ", "America/Los_Angeles", 1);
        execl(getenv("TOKIO_BIN"), "tokio", CMD, "-h", "127.0.0.1", "-p",
              port, "--timeout", "20", "--csv", "-o", out, START, END,
              (char *)NULL);
        _exit(127);
    }
    /* wait (bounded) until the slow answer is being waited for */
    for (int i = 0; i < 500; i++) {
        char *log = http_server_log(&s);
        size_t n = count(log, "POST /_search/scroll");
        free(log);
        if (n >= 3)
            break;
        usleep(10000);
    }
    usleep(300000);
    kill(pid, SIGINT);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGINT);
    assert_int_equal(tokio_test_count_entries(dir), 0);
    char *log = log_when_freed(&s);
    assert_contains(log, "DELETE /_search/scroll\nfreed=1");
    free(log);
    http_server_stop(&s);
    json_decref(hits);
    tokio_test_rmtree(dir);
    free(dir);
}

/* A server whose certificate nobody vouches for is refused: TLS
 * verification is on (openssl's s_server with a fresh self-signed
 * certificate; skipped without the openssl command). */
static void
test_cache_collectdes_tls_verifies_the_server(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), cmd[9000], port[16], host[64];
    int p = http_server_free_port();

    snprintf(cmd, sizeof(cmd), "cd '%s' && openssl req -x509 -newkey "
             "rsa:2048 -nodes -keyout key.pem -out cert.pem -days 1 "
             "-subj /CN=127.0.0.1 > /dev/null 2>&1", dir);
    if (system(cmd) != 0) {
        tokio_test_rmtree(dir);
        free(dir);
        print_message("skipped: no openssl command to make a certificate\n");
        skip();
    }
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        snprintf(port, sizeof(port), "%d", p);
        if (chdir(dir) != 0)
            _exit(127);
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execlp("openssl", "openssl", "s_server", "-accept", port, "-cert",
               "cert.pem", "-key", "key.pem", "-www", "-quiet",
               (char *)NULL);
        _exit(127);
    }
    snprintf(port, sizeof(port), "%d", p);
    snprintf(host, sizeof(host), "https://127.0.0.1");
    const char *argv[] = { CMD, "-h", host, "-p", port, "--timeout", "5",
                           START, END, NULL };
    struct tokio_run r = { 0 };
    /* until s_server listens (bounded) */
    for (int i = 0; i < 100; i++) {
        tokio_run_free(&r);
        r = tokio_test_run(NULL, env, argv);
        if (strstr(r.err, "Couldn't connect") == NULL)
            break;
        usleep(50000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "https://127.0.0.1:");
    assert_contains(r.err, "SSL certificate problem: self-signed "
                           "certificate");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_collectdes_usage_errors(void **state)
{
    (void)state;
    const char *swapped[] = { CMD, "--input", "x", END, START, NULL };
    const char *bad[] = { CMD, "--input", "x", "2017-12-13", END, NULL };
    const char *port[] = { CMD, "-p", "70000", START, END, NULL };
    const char *timeout[] = { CMD, "--timeout", "0", START, END, NULL };
    const char *one[] = { CMD, START, NULL };

    tokio_test_run_fails(env, swapped, 2, "<end> is before <start>");
    tokio_test_run_fails(env, bad, 2, "<start> '2017-12-13' is not a time "
                         "YYYY-MM-DDTHH:MM:SS");
    tokio_test_run_fails(env, port, 2, "--port");
    tokio_test_run_fails(env, timeout, 2, "--timeout must be 1 to 86400 "
                         "seconds");
    tokio_test_run_fails(env, one, 2, "start and an end");
}

static void
test_cache_collectdes_bad_input(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), in[4200];
    static const struct { const char *text, *msg; } cases[] = {
        { "[[{\"_source\": {\"plugin\": \"cpu\"}}], [{\"_id\": \"x\"}]]",
          "page 1: hit 0 has no object _source" },
        { "[[{\"_source\": {\"value\": [1]}}]]",
          "page 0: hit 0: field 'value' is a list or object" },
        { "[{\"_source\": {}}]", "page 0: not a list of hits" },
        { "{\"hits\": []}", "not a list of pages" },
        { "[[{\"_source\": ", "line 1 column" },
    };

    snprintf(in, sizeof(in), "%s/pages.json", dir);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tokio_test_write_file(in, cases[i].text, SIZE_MAX);
        const char *argv[] = { CMD, "--csv", "--input", in, START, END,
                               NULL };
        tokio_test_run_fails(env, argv, 1, cases[i].msg);
    }
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- the JSON form of --input, one page at a time (issue 18) ---------- */

/* A cache of `pages` pages of 1000 hits as json.dumps() writes it, which
 * is also what the JSON form writes back with -o; its length. */
static size_t
write_cache(const char *path, size_t pages)
{
    FILE *fp = fopen(path, "w");
    long len;

    assert_non_null(fp);
    for (size_t p = 0; p < pages; p++) {
        fputs(p == 0 ? "[[" : ", [", fp);
        for (size_t i = 0; i < 1000; i++)
            fprintf(fp, "%s{\"_index\": \"cori-collectd-2017.12.13\", "
                    "\"_id\": \"p%zuh%zu\", \"_source\": {\"@timestamp\": "
                    "\"2017-12-13T08:%02zu:%02zu.000Z\", \"hostname\": "
                    "\"bb%zu\", \"plugin\": \"disk\", \"plugin_instance\": "
                    "\"nvme%zu\", \"read\": %zu, \"write\": %zu.5}}",
                    i ? ", " : "", p, i, i % 60, p % 60, i % 288, i % 4,
                    i * 7, i);
        fputc(']', fp);
    }
    fputc(']', fp);
    len = ftell(fp);
    assert_int_equal(fclose(fp), 0);
    return (size_t)len;
}

/* Peak memory follows one page, not the cache: 64 pages of 1000 hits
 * (13 MB) took 137 MB when the cache was one jansson tree, now about
 * what one page does; and the output is the cache, byte for byte. */
static void
test_cache_collectdes_json_input_one_page_at_a_time(void **state)
{
    const char *dir = *state;
    const struct tokio_test_limits lim = { 0, 60 };
    long rss[2] = { 0, 0 };
    size_t len[2];
    const size_t pages[2] = { 1, 64 };

    for (int i = 0; i < 2; i++) {
        char *in = tokio_test_join(dir, "cache.json");
        char *out = tokio_test_join(dir, "out.json");
        const char *const argv[] = { CMD, "-o", out, "--input", in, START,
                                     END, NULL };

        len[i] = write_cache(in, pages[i]);
        struct tokio_run r = tokio_test_run_bounded(dir, env, argv, &lim,
                                                    &rss[i]);
        assert_int_equal(r.status, 0);
        tokio_run_free(&r);
        size_t n = 0;
        char *want = tokio_test_read_file(in, NULL);
        char *got = tokio_test_read_file(out, &n);
        assert_non_null(got);
        assert_int_equal(n, len[i]);
        assert_memory_equal(got, want, n);
        free(want);
        free(got);
        free(in);
        free(out);
    }
    print_message("1 page: %ld KiB peak; %zu pages (%zu KiB): %ld KiB\n",
                  rss[0], pages[1], len[1] >> 10, rss[1]);
    if (!tokio_test_sanitized())    /* ASan's quarantine is not ours */
        assert_true(rss[1] < rss[0] + 8 * 1024);
}

/* The JSON form refuses a bad cache as the CSV form does: exit 1, one
 * line naming the file (and where, for a syntax error), nothing on
 * stdout and no -o file, also when good pages came first. */
static void
test_cache_collectdes_json_bad_input(void **state)
{
    const char *dir = *state;
#define HIT "{\"_source\": {\"plugin\": \"cpu\"}}"
    static const struct { const char *text, *msg; } cases[] = {
        /* a truncated last page after good ones */
        { "[[" HIT "], [" HIT "], [" HIT ", {\"_source\": {\"a",
          "pages.json' line 1 column 117: premature end of input" },
        { "[\n    [\n        " HIT "\n    ],\n    [\n        " HIT ",\n"
          "        {\"_source\": [}\n", "pages.json' line 7 column 22: "
          "unexpected token near '}'" },
        { "[[" HIT "], [" HIT "]", "pages.json' line 1 column 67: ']' "
          "expected near end of file" },
        { "[[" HIT "] [" HIT "]]", "pages.json' line 1 column 35: ',' or "
          "']' expected" },
        { "[[" HIT "]] x", "pages.json' line 1 column 36: end of file "
          "expected" },
        { "[", "pages.json' line 1 column 1: ']' expected near end of "
          "file" },
        { "[[" HIT "], {\"_source\": {}}]", "pages.json' page 1: not a list "
          "of hits" },
        { "[[" HIT "], [{\"_id\": \"x\"}]]", "pages.json' page 1: hit 0 has "
          "no object _source" },
        { "{\"hits\": []}", "pages.json': not a list of pages" },
        { "hello", "pages.json': not JSON" },
        { "", "pages.json' line 1 column 0: '[' or '{' expected" },
    };
#undef HIT
    char *in = tokio_test_join(dir, "pages.json");
    char *out = tokio_test_join(dir, "out.json");

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *const with_o[] = { CMD, "-o", out, "--input", in, START,
                                       END, NULL };
        const char *const to_stdout[] = { CMD, "--input", in, START, END,
                                          NULL };

        tokio_test_write_file(in, cases[i].text, SIZE_MAX);
        tokio_test_run_fails(env, to_stdout, 1, cases[i].msg);
        tokio_test_run_fails(env, with_o, 1, cases[i].msg);
        assert_int_equal(tokio_test_count_entries(dir), 1);
    }
    free(in);
    free(out);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        TOKIO_TEST_IN_WORKDIR(test_cache_collectdes_matches_goldens),
        cmocka_unit_test(test_cache_collectdes_live_equals_input),
        cmocka_unit_test(test_cache_collectdes_live_keeps_all_queries),
        cmocka_unit_test(test_cache_collectdes_basic_auth),
        cmocka_unit_test(test_cache_collectdes_failures),
        cmocka_unit_test(test_cache_collectdes_input_of_other_hits_is_refused),
        cmocka_unit_test(test_cache_collectdes_interrupt_frees_scroll),
        cmocka_unit_test(test_cache_collectdes_tls_verifies_the_server),
        cmocka_unit_test(test_cache_collectdes_usage_errors),
        cmocka_unit_test(test_cache_collectdes_bad_input),
        cmocka_unit_test_setup_teardown(
            test_cache_collectdes_json_input_one_page_at_a_time,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_cache_collectdes_json_bad_input,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
