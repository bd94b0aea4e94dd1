/*
 * tests/cli/test_insights.c - `tokio insights`: on every Darshan log of
 * the test data pack (links restored, read with the pack's site.json
 * from a working folder laid out as COMMANDS.md says) it exits 0 and
 * its --json passes tests/analysis/insights.schema.json, or, for the
 * files no Darshan reader accepts (empty, version strings no release
 * wrote), exits 1 naming the file with nothing on standard output.  Then
 * the pack's known cases (sample-badost's OST#14), the three output
 * forms, colour only on a terminal, and bad command lines (exit 2).
 */
#include "testutil.h"

#define _XOPEN_SOURCE_EXTENDED 1
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis/schema_check.h"
#include "tokio/connectors/darshan.h"

static json_t *
load_schema(void)
{
    json_error_t e;
    json_t *schema = json_load_file(tokio_test_source(
                                        "tests/analysis/insights.schema.json"),
                                    0, &e);

    if (schema == NULL)
        fail_msg("insights.schema.json: %s", e.text);
    return schema;
}

/* The logs of the pack, found by walking the working folder's copy. */
static char *logs[256];
static size_t n_logs;

static int
collect(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    size_t n = strlen(path);

    (void)st;
    (void)ftw;
    if ((flag == FTW_F || flag == FTW_SL) && n > 8 &&
        strcmp(path + n - 8, ".darshan") == 0 &&
        n_logs < sizeof(logs) / sizeof(*logs))
        logs[n_logs++] = strdup(path);
    return 0;
}

static void
test_every_pack_log_exits_0_with_valid_json(void **state)
{
    struct tokio_workdir *wd = *state;
    const char *env[] = { "PYTOKIO_CONFIG=inputs/site.json", NULL };
    json_t *schema;
    size_t good = 0, bad = 0;
    char *derived = NULL, *top = NULL;

    TOKIO_TEST_NEED_INPUTS(wd);
    schema = load_schema();
    derived = tokio_test_copy_data("darshan-logs-derived", &top);
    n_logs = 0;
    nftw(wd->inputs, collect, 16, FTW_PHYS);
    if (derived != NULL)
        nftw(derived, collect, 16, FTW_PHYS);
    char *more = NULL, *top2 = NULL;
    if ((more = tokio_test_copy_data("darshan-logs", &top2)) != NULL)
        nftw(more, collect, 16, FTW_PHYS);
    assert_true(n_logs >= 40);
    for (size_t i = 0; i < n_logs; i++) {
        struct tokio_darshan *log = NULL;
        int readable = tokio_darshan_open(&log, logs[i]) >= 0;
        const char *argv[] = { "insights", "--json", logs[i], NULL };
        struct tokio_run r = tokio_test_run(wd->dir, env, argv);
        tokio_darshan_free(log);
        if (!readable) {
            /* the reader's own verdict: one line naming the file */
            if (r.status != 1 || r.out[0] != '\0' ||
                strstr(r.err, logs[i]) == NULL)
                fail_msg("%s: exit %d, stderr %s", logs[i], r.status, r.err);
            bad++;
        } else {
            json_error_t e;
            json_t *res = json_loads(r.out, 0, &e);
            char err[1024];
            if (r.status != 0 || res == NULL)
                fail_msg("%s: exit %d: %s", logs[i], r.status, r.err);
            if (schema_check(schema, res, err, sizeof(err)) != 0)
                fail_msg("%s: %s", logs[i], err);
            json_decref(res);
            good++;
        }
        tokio_run_free(&r);
        free(logs[i]);
    }
    /* the pack's 27 readable logs (and links to them), the two empty
     * ones and the six version strings no release wrote */
    assert_true(good >= 30);
    assert_true(bad >= 8);
    json_decref(schema);
    if (top != NULL)
        tokio_test_rmtree(top);
    if (top2 != NULL)
        tokio_test_rmtree(top2);
    free(derived);
    free(top);
    free(more);
    free(top2);
}

/* sample-badost.darshan is the reference's example of a bad OST:
 * darshan-bad-ost finds OST#14; so does the slow_ost rule over its own
 * files, and its file system is scratch1 by the site's mount_to_fsname. */
static void
test_sample_badost_finds_ost_14(void **state)
{
    struct tokio_workdir *wd = *state;
    const char *env[] = { "PYTOKIO_CONFIG=inputs/site.json", NULL };
    const char *argv[] = { "insights", "--json",
                           "inputs/sample-badost.darshan", NULL };
    struct tokio_run r;
    json_t *res;
    const json_t *x;
    size_t i;
    int seen = 0;

    TOKIO_TEST_NEED_INPUTS(wd);
    r = tokio_test_run(wd->dir, env, argv);
    assert_int_equal(r.status, 0);
    res = json_loads(r.out, 0, NULL);
    assert_non_null(res);
    assert_string_equal(json_string_value(json_object_get(
        json_array_get(res, 0), "file_system")), "scratch1");
    json_array_foreach(json_object_get(json_array_get(res, 0), "findings"),
                       i, x)
        if (strcmp(json_string_value(json_object_get(x, "code")),
                   "slow_ost") == 0) {
            seen = 1;
            assert_string_equal(json_string_value(json_object_get(x,
                                                                  "level")),
                                "high");
            assert_true(json_number_value(json_object_get(
                json_object_get(x, "numbers"), "worst_ost")) == 14);
        }
    assert_true(seen);
    json_decref(res);
    tokio_run_free(&r);
}

/* Text (the default), CSV with a column per rule, and -o written whole. */
static void
test_output_forms(void **state)
{
    struct tokio_workdir *wd = *state;
    const char *env[] = { "PYTOKIO_CONFIG=", NULL };
    const char *text[] = { "insights", "--client-only",
                           "inputs/sample.darshan", NULL };
    const char *csv[] = { "insights", "--csv", "--client-only",
                          "inputs/sample.darshan", "inputs/sample-2.darshan",
                          NULL };
    const char *file[] = { "insights", "-j", "-o", "out.json",
                           "inputs/sample.darshan", NULL };
    struct tokio_run r;

    TOKIO_TEST_NEED_INPUTS(wd);
    r = tokio_test_run(wd->dir, env, text);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "== inputs/sample.darshan\njob 4478544, 2048 "
                           "processes");
    /* no colour into a pipe */
    assert_null(strchr(r.out, '\033'));
    assert_contains(r.out, "HIGH     misaligned_file");
    tokio_run_free(&r);
    r = tokio_test_run(wd->dir, env, csv);
    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, "log,jobid,stdio_share,", 22) == 0);
    assert_contains(r.out, "\ninputs/sample.darshan,4478544,ok,ok,");
    assert_contains(r.out, "\ninputs/sample-2.darshan,");
    tokio_run_free(&r);
    r = tokio_test_run(wd->dir, env, file);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    char *path = tokio_test_join(wd->dir, "out.json");
    json_t *res = json_load_file(path, 0, NULL);
    assert_non_null(res);
    assert_int_equal(json_array_size(res), 1);
    json_decref(res);
    free(path);
}

/* Levels are coloured when standard output is a terminal, and not with
 * NO_COLOR (a pseudo-terminal stands in for one). */
static void
test_colour_on_a_terminal(void **state)
{
    struct tokio_workdir *wd = *state;
    const char *argv[] = { "insights", "--client-only",
                           "inputs/sample.darshan", NULL };
    char buf[65536];

    TOKIO_TEST_NEED_INPUTS(wd);
    for (int no_color = 0; no_color < 2; no_color++) {
        int master = posix_openpt(O_RDWR | O_NOCTTY);
        size_t len = 0;
        ssize_t n;
        assert_true(master >= 0);
        assert_int_equal(grantpt(master), 0);
        assert_int_equal(unlockpt(master), 0);
        if (no_color)
            setenv("NO_COLOR", "1", 1);
        struct tokio_run r = tokio_test_run_stdout_to(wd->dir,
                                                      ptsname(master), argv);
        unsetenv("NO_COLOR");
        assert_int_equal(r.status, 0);
        fcntl(master, F_SETFL, O_NONBLOCK);
        while (len + 1 < sizeof(buf) &&
               (n = read(master, buf + len, sizeof(buf) - 1 - len)) > 0)
            len += (size_t)n;
        buf[len] = '\0';
        close(master);
        if (no_color)
            assert_null(strchr(buf, '\033'));
        else
            assert_contains(buf, "\033[1;31mHIGH");
        tokio_run_free(&r);
    }
}

static void
test_thresholds_listed_and_overridden(void **state)
{
    struct tokio_workdir *wd = *state;
    const char *env[] = { "PYTOKIO_CONFIG=", NULL };
    const char *list[] = { "insights", "--thresholds", "--threshold",
                           "small_requests=0.25", NULL };
    const char *none[] = { "insights", "--json", "--client-only",
                           "--threshold", "misaligned_requests=1",
                           "inputs/sample.darshan", NULL };
    struct tokio_run r = tokio_test_run(wd->dir, env, list);
    json_t *t;

    assert_int_equal(r.status, 0);
    t = json_loads(r.out, 0, NULL);
    assert_true(json_number_value(json_object_get(t, "small_requests")) ==
                0.25);
    assert_true(json_number_value(json_object_get(t, "small_bytes")) ==
                1048576);
    json_decref(t);
    tokio_run_free(&r);
    /* the site's insights key, here in YAML, Drishti's nesting too */
    char *yaml = tokio_test_join(wd->dir, "site.yaml");
    const char *yenv[] = { "PYTOKIO_CONFIG=site.yaml", NULL };
    const char *show[] = { "insights", "--thresholds", NULL };
    tokio_test_write_file(yaml, "insights:\n  small_requests: 0.2\n"
                          "  metadata:\n    time_rank: 60\n", SIZE_MAX);
    r = tokio_test_run(wd->dir, yenv, show);
    assert_int_equal(r.status, 0);
    t = json_loads(r.out, 0, NULL);
    assert_true(json_number_value(json_object_get(t, "small_requests")) ==
                0.2);
    assert_true(json_number_value(json_object_get(t,
                                                  "metadata_time_rank")) ==
                60);
    json_decref(t);
    tokio_run_free(&r);
    /* a bad key there is the site's fault: exit 1, naming the key */
    tokio_test_write_file(yaml, "insights:\n  nope: 1\n", SIZE_MAX);
    r = tokio_test_run(wd->dir, yenv, show);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "site configuration key insights");
    tokio_run_free(&r);
    free(yaml);
    TOKIO_TEST_NEED_INPUTS(wd);
    /* sample.darshan's misaligned files are high at 0.1, ok at 1 */
    r = tokio_test_run(wd->dir, env, none);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "\"misaligned_requests\": 1.0");
    assert_null(strstr(r.out, "\"level\": \"high\""));
    tokio_run_free(&r);
}

/* Bad command lines exit 2; an input that is no log exits 1 naming it
 * and writes nothing, unless --silent-errors skips it. */
static void
test_bad_command_lines_and_inputs(void **state)
{
    struct tokio_workdir *wd = *state;
    const char *env[] = { "PYTOKIO_CONFIG=", NULL };
    const char *no_logs[] = { "insights", NULL };
    const char *bad_th[] = { "insights", "--threshold", "nope=1", "x", NULL };
    const char *bad_val[] = { "insights", "--threshold",
                              "small_requests=2", "x", NULL };
    const char *bad_top[] = { "insights", "--top", "99", "x", NULL };
    const char *two_ids[] = { "insights", "--slurm-jobid", "1", "a", "b",
                              NULL };
    const char *missing[] = { "insights", "/nonexistent/x.darshan", NULL };

    tokio_test_run_fails(env, no_logs, 2, "give one or more Darshan logs");
    tokio_test_run_fails(env, bad_th, 2, "'nope' is no threshold");
    tokio_test_run_fails(env, bad_val, 2, "small_requests must be from 0 "
                                          "to 1");
    tokio_test_run_fails(env, bad_top, 2, "--top must be 0 to 32");
    tokio_test_run_fails(env, two_ids, 2, "--slurm-jobid");
    tokio_test_run_fails(env, missing, 1, "/nonexistent/x.darshan");
    TOKIO_TEST_NEED_INPUTS(wd);
    const char *mixed[] = { "insights", "--csv", "--client-only",
                            "inputs/sample.darshan", "inputs/hpss_daily.txt",
                            NULL };
    const char *skipped[] = { "insights", "--csv", "--client-only",
                              "--silent-errors", "inputs/sample.darshan",
                              "inputs/hpss_daily.txt", NULL };
    struct tokio_run r = tokio_test_run(wd->dir, env, mixed);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "inputs/hpss_daily.txt");
    tokio_run_free(&r);
    r = tokio_test_run(wd->dir, env, skipped);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "inputs/sample.darshan,4478544");
    assert_null(strstr(r.out, "hpss_daily"));
    assert_contains(r.err, "warning: skipped");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        TOKIO_TEST_IN_WORKDIR(test_every_pack_log_exits_0_with_valid_json),
        TOKIO_TEST_IN_WORKDIR(test_sample_badost_finds_ost_14),
        TOKIO_TEST_IN_WORKDIR(test_output_forms),
        TOKIO_TEST_IN_WORKDIR(test_colour_on_a_terminal),
        TOKIO_TEST_IN_WORKDIR(test_thresholds_listed_and_overridden),
        TOKIO_TEST_IN_WORKDIR(test_bad_command_lines_and_inputs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
