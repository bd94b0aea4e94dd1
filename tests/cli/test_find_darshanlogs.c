/*
 * tests/cli/test_find_darshanlogs.c - `tokio find-darshanlogs`, run as a
 * user runs it: the pack's golden outputs reproduced from the reference's
 * working-folder layout (inputs -> pytokio-inputs, PYTOKIO_CONFIG =
 * inputs/site.json), then a tree of our own, then --load (the
 * reference's load_darshanlogs: its cache_darshan goldens, else what
 * `tokio cache-darshan` prints for the same logs), then the exit
 * statuses.
 *
 * The goldens were made with `| LC_ALL=C sort` because the reference
 * prints in set order; we print sorted, so they compare byte for byte.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#define GOLDEN "golden/pytokio/find_darshanlogs/"
#define GOLDEN_CD "golden/pytokio/cache_darshan/"

static const char *const site_env[] = {
    "PYTOKIO_CONFIG=inputs/site.json", "TZ=America/Los_Angeles", NULL
};

static void
expect_run(struct tokio_run *r, int status)
{
    if (r->status != status)
        fail_msg("exit %d, want %d\nstdout: %s\nstderr: %s", r->status,
                 status, r->out, r->err);
}

/* A temporary working folder whose `inputs` is the pack's inputs. */
static char *
working_folder(void)
{
    const char *inputs = tokio_test_data("pytokio-inputs");
    char *dir = tokio_test_mkdtemp();
    char link[4200];

    if (inputs != NULL) {
        snprintf(link, sizeof(link), "%s/inputs", dir);
        assert_int_equal(symlink(inputs, link), 0);
    }
    return dir;
}

static void
expect_golden(const char *golden_name, const char *const *argv)
{
    char rel[256];

    snprintf(rel, sizeof(rel), GOLDEN "%s", golden_name);
    TOKIO_TEST_NEED_DATA(golden, rel);
    char *want = tokio_test_read_file(golden, NULL);
    char *dir = working_folder();
    struct tokio_run r = tokio_test_run(dir, site_env, argv);

    assert_non_null(want);
    expect_run(&r, 0);
    assert_string_equal(r.out, want);
    assert_string_equal(r.err, "");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
    free(want);
}

/* ------------------------------------------------------------------ */
/* Golden outputs (golden/pytokio/COMMANDS.md, find_darshanlogs)        */

static void
test_cli_find_golden_config_dirs(void **state)
{
    const char *argv[] = { "find-darshanlogs", "-s", "2017-03-19", "-e",
                           "2017-03-21", NULL };
    (void)state;
    expect_golden("2017-03-19_2017-03-21.txt", argv);
}

static void
test_cli_find_golden_logdir_user_job(void **state)
{
    const char *argv[] = { "find-darshanlogs", "-s", "2017-03-20", "-u",
                           "glock", "-j", "4478544", "--logdir",
                           "inputs/darshanlogs", NULL };
    (void)state;
    expect_golden("2017-03-20.glock.4478544.txt", argv);
}

static void
test_cli_find_golden_host_job(void **state)
{
    const char *argv[] = { "find-darshanlogs", "-s", "2017-03-21", "-j",
                           "4487503", "--host", "testsystem", NULL };
    (void)state;
    expect_golden("2017-03-21.jobid4487503.txt", argv);
}

/* the reference's test_cli_find_darshanlogs spells the options out */
static void
test_cli_find_long_options_and_end_alone(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(golden, GOLDEN "2017-03-21.jobid4487503.txt");
    char *want = tokio_test_read_file(golden, NULL);
    char *dir = working_folder();
    /* --end alone stands for --start too */
    const char *argv[] = { "find-darshanlogs", "--end=2017-03-21",
                           "--jobid", "4487503", "--username", "glock",
                           "--host=testsystem", "--verbose", NULL };
    struct tokio_run r = tokio_test_run(dir, site_env, argv);

    expect_run(&r, 0);
    assert_string_equal(r.out, want);
    tokio_run_free(&r);

    /* an unknown --host: nothing, as in the reference */
    const char *argv2[] = { "find-darshanlogs", "-s", "2017-03-21",
                            "--host", "invalid key", NULL };
    r = tokio_test_run(dir, site_env, argv2);
    expect_run(&r, 0);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
    free(want);
}

/* ------------------------------------------------------------------ */
/* Our own tree: no pack needed                                         */

static void
test_cli_find_own_tree(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4200];
    static const char *const rels[] = {
        "logs", "logs/2021", "logs/2021/12", "logs/2021/12/31",
        "logs/2022", "logs/2022/1", "logs/2022/1/1",
    };

    (void)state;
    for (size_t i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, rels[i]);
        assert_int_equal(mkdir(path, 0777), 0);
    }
    snprintf(path, sizeof(path), "%s/logs/2021/12/31/"
             "u_a_b_id5_12-31-1-2_3.darshan", dir);
    tokio_test_write_file(path, "", 0);
    snprintf(path, sizeof(path), "%s/logs/2022/1/1/"
             "v_c_id6_1-1-1-2_3.darshan", dir);
    tokio_test_write_file(path, "", 0);
    snprintf(path, sizeof(path), "%s/site.json", dir);
    tokio_test_write_file(path, "{\"darshan_log_dirs\": \"logs\"}\n",
                          SIZE_MAX);
    const char *env[] = { "PYTOKIO_CONFIG=site.json", NULL };

    /* across a year's end, from the configuration */
    const char *argv[] = { "find-darshanlogs", "-s", "2021-12-31", "-e",
                           "2022-01-01", NULL };
    struct tokio_run r = tokio_test_run(dir, env, argv);
    expect_run(&r, 0);
    assert_string_equal(r.out, "logs/2021/12/31/u_a_b_id5_12-31-1-2_3."
                        "darshan\nlogs/2022/1/1/v_c_id6_1-1-1-2_3."
                        "darshan\n");
    tokio_run_free(&r);

    /* --logdir needs no configuration, even a broken one */
    const char *bad_env[] = { "PYTOKIO_CONFIG=no-such-site.json", NULL };
    snprintf(path, sizeof(path), "%s/logs", dir);
    const char *argv2[] = { "find-darshanlogs", "-s", "2021-12-31", "-e",
                            "2022-01-01", "-j", "6", "--logdir", path,
                            NULL };
    r = tokio_test_run(NULL, bad_env, argv2);
    expect_run(&r, 0);
    char want[4300];
    snprintf(want, sizeof(want), "%s/2022/1/1/v_c_id6_1-1-1-2_3.darshan\n",
             path);
    assert_string_equal(r.out, want);
    tokio_run_free(&r);

    /* without --logdir the broken configuration is the failure */
    const char *argv3[] = { "find-darshanlogs", "-s", "2021-12-31", NULL };
    r = tokio_test_run(dir, bad_env, argv3);
    expect_run(&r, 1);
    assert_contains(r.err, "no-such-site.json");
    tokio_run_free(&r);

    tokio_test_rmtree(dir);
    free(dir);
}

/* ------------------------------------------------------------------ */
/* Exit statuses                                                        */

static void
expect_usage_error(const char *const *argv, const char *msg)
{
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    expect_run(&r, 2);
    assert_string_equal(r.out, "");
    assert_contains(r.err, msg);
    assert_contains(r.err, "see 'tokio find-darshanlogs --help'");
    tokio_run_free(&r);
}

static void
test_cli_find_bad_dates_exit_2(void **state)
{
    (void)state;
    const char *a1[] = { "find-darshanlogs", "-s", "2017-13-01", NULL };
    expect_usage_error(a1, "--start: '2017-13-01' is not a valid time");
    const char *a2[] = { "find-darshanlogs", "-s", "2017-03-20", "-e",
                         "yesterday", NULL };
    expect_usage_error(a2, "--end: 'yesterday'");
    const char *a3[] = { "find-darshanlogs", "-s", "", NULL };
    expect_usage_error(a3, "--start");
}

static void
test_cli_find_end_before_start_exit_2(void **state)
{
    (void)state;
    const char *argv[] = { "find-darshanlogs", "-s", "2017-03-21", "-e",
                           "2017-03-20", "--logdir", ".", NULL };
    expect_usage_error(argv, "--end 2017-03-20 is before --start "
                       "2017-03-21");
}

static void
test_cli_find_needs_start_or_jobid_exit_2(void **state)
{
    (void)state;
    const char *a1[] = { "find-darshanlogs", "--logdir", ".", NULL };
    expect_usage_error(a1, "either --start/--end or --jobid");
    /* the reference tests the job id for truth */
    const char *a2[] = { "find-darshanlogs", "-j", "", NULL };
    expect_usage_error(a2, "either --start/--end or --jobid");
    const char *a3[] = { "find-darshanlogs", "-s", "2017-03-20", "extra",
                         NULL };
    expect_usage_error(a3, "unexpected argument 'extra'");
    const char *a4[] = { "find-darshanlogs", "--bogus", NULL };
    expect_usage_error(a4, "unknown option '--bogus'");

    /* a job id without a date needs the job databases: not yet */
    const char *a5[] = { "find-darshanlogs", "-j", "4478544", "--logdir",
                         ".", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, a5);
    expect_run(&r, 1);
    assert_contains(r.err, "job 4478544");
    tokio_run_free(&r);
}

/* ------------------------------------------------------------------ */
/* --load                                                               */

static json_t *
parse_json(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, 0, &err);

    if (j == NULL)
        fail_msg("line %d: %s\n%s", err.line, err.text, text);
    return j;
}

/* A copy of the pack's inputs with real links, or skip. */
static char *
copied_inputs(char **top)
{
    char *copy = tokio_test_copy_data("pytokio-inputs", top);

    if (copy == NULL) {
        print_message("skipped: ../shared/testdata/pytokio-inputs is "
                      "absent\n");
        skip();
    }
    return copy;
}

#define DBSCAN_0320 "darshanlogs/2017/3/20/glock_dbscan_read_id4478544_" \
    "3-20-7800-15217972833987807816_1.darshan"
#define VPICIO_0320 "darshanlogs/2017/3/20/glock_vpicio_uni_id4478544_" \
    "3-20-7667-18385393005962577517_1.darshan"

/* The reference's printout: the two logs of job 4478544 keyed by path,
 * indented by 4 with sorted keys, each the cache_darshan golden. */
static void
test_cli_find_load_base_matches_goldens(void **state)
{
    (void)state;
    char *top = NULL, *copy = copied_inputs(&top);
    const char *argv[] = { "find-darshanlogs", "-s", "2017-03-20", "-j",
                           "4478544", "--logdir", "darshanlogs", "--load",
                           "base", NULL };
    struct tokio_run r = tokio_test_run(copy, site_env, argv);

    expect_run(&r, 0);
    assert_string_equal(r.err, "");
    const char *head = "{\n    \"" DBSCAN_0320 "\": {\n";
    if (strncmp(r.out, head, strlen(head)) != 0)
        fail_msg("output starts %.200s", r.out);
    json_t *all = parse_json(r.out);
    assert_int_equal(json_object_size(all), 2);
    const char *const pairs[][2] = {
        { DBSCAN_0320, GOLDEN_CD "sample-2.base.json" },
        { VPICIO_0320, GOLDEN_CD "sample.base.json" },
    };
    for (size_t i = 0; i < 2; i++) {
        TOKIO_TEST_NEED_DATA(g, pairs[i][1]);
        char *text = tokio_test_read_file(g, NULL);
        json_t *want = parse_json(text);
        if (!json_equal(json_object_get(all, pairs[i][0]), want))
            fail_msg("%s differs from %s", pairs[i][0], pairs[i][1]);
        json_decref(want);
        free(text);
    }
    json_decref(all);
    tokio_run_free(&r);
    tokio_test_rmtree(top);
    free(top);
    free(copy);
}

/* Every view, any case, extra items ignored: each value is what
 * `tokio cache-darshan --base --total --perf` prints for that log. */
static void
test_cli_find_load_all_views_match_cache_darshan(void **state)
{
    (void)state;
    char *top = NULL, *copy = copied_inputs(&top);
    const char *argv[] = { "find-darshanlogs", "-e", "2017-03-21", "-s",
                           "2017-03-20", "--logdir", "darshanlogs", "-l",
                           "Perf,base,x,TOTAL", NULL };
    struct tokio_run r = tokio_test_run(copy, site_env, argv);

    expect_run(&r, 0);
    json_t *all = parse_json(r.out);
    /* two logs on the 20th, two 0-byte placeholders on the 21st */
    assert_int_equal(json_object_size(all), 4);
    const char *key;
    json_t *value;
    json_object_foreach(all, key, value) {
        const char *cd[] = { "cache-darshan", "--base", "--total", "--perf",
                             key, NULL };
        struct tokio_run c = tokio_test_run(copy, site_env, cd);
        expect_run(&c, 0);
        json_t *want = parse_json(c.out);
        if (!json_equal(value, want))
            fail_msg("%s differs from cache-darshan's", key);
        if (strstr(key, "/21/") != NULL)
            assert_int_equal(json_object_size(value), 0);
        json_decref(want);
        tokio_run_free(&c);
    }
    json_decref(all);
    tokio_run_free(&r);
    tokio_test_rmtree(top);
    free(top);
    free(copy);
}

/* A day without logs prints {}. */
static void
test_cli_find_load_no_logs_prints_empty_object(void **state)
{
    (void)state;
    char *top = NULL, *copy = copied_inputs(&top);
    const char *argv[] = { "find-darshanlogs", "-s", "2017-03-19",
                           "--logdir", "darshanlogs", "--load", "total",
                           NULL };
    struct tokio_run r = tokio_test_run(copy, site_env, argv);

    expect_run(&r, 0);
    assert_string_equal(r.out, "{}\n");
    tokio_run_free(&r);
    tokio_test_rmtree(top);
    free(top);
    free(copy);
}

/* The reference's "load invalid" (TypeError): a usage error here. */
static void
test_cli_find_load_invalid_exit_2(void **state)
{
    (void)state;
    const char *argv[] = { "find-darshanlogs", "-s", "2017-03-20", "-l",
                           "asdflkj", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    expect_run(&r, 2);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "tokio find-darshanlogs: --load: which must be "
                           "base, total, and/or perf, not 'asdflkj'\n");
    assert_contains(r.err, "see 'tokio find-darshanlogs --help'");
    tokio_run_free(&r);
}

/* find-darshanlogs --load base of the log folder `dir` holding one file,
 * 2020/1/5/<name>: the log of tokio_test_make_darshan_log(seed), or with
 * `seed` < 0 "garbage". */
static struct tokio_run
load_one(const char *dir, const char *name, int seed)
{
    static const char *const days[] = { "2020", "2020/1", "2020/1/5" };
    const char *argv[] = { "find-darshanlogs", "-s", "2020-01-05",
                           "--logdir", dir, "--load", "base", NULL };
    char path[4200];

    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, days[i]);
        mkdir(path, 0777);
    }
    snprintf(path, sizeof(path), "%s/2020/1/5/%s", dir, name);
    if (seed < 0)
        tokio_test_write_file(path, "garbage", SIZE_MAX);
    else
        tokio_test_make_darshan_log(path, (unsigned)seed);
    return tokio_test_run(NULL, NULL, argv);
}

/* An unreadable log fails the load, naming it. */
static void
test_cli_find_load_bad_log_exit_1(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp();
    struct tokio_run r = load_one(dir, "a_b_id1_1-5-1-1_1.darshan", -1);

    expect_run(&r, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "a_b_id1_1-5-1-1_1.darshan");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Issue 17 item 8: a valid log whose name is not UTF-8 loads, keyed with
 * '?' for its bytes above 0x7f (a JSON key is UTF-8), not "out of
 * memory". */
static void
test_cli_find_load_name_not_utf8(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp();
    struct tokio_run r = load_one(dir, "caf\xe9_b_id1_1-5-1-1_1.darshan", 3);

    expect_run(&r, 0);
    assert_contains(r.out, "/2020/1/5/caf?_b_id1_1-5-1-1_1.darshan\": {");
    assert_contains(r.out, "\"/scratch/out.dat\": {");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cli_find_missing_log_dir_exit_1(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp();
    const char *argv[] = { "find-darshanlogs", "-s", "2017-03-20",
                           "--logdir", "no/such/logs", NULL };
    struct tokio_run r = tokio_test_run(dir, NULL, argv);

    expect_run(&r, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "tokio find-darshanlogs: error: ");
    assert_contains(r.err, "'no/such/logs' does not exist");
    tokio_run_free(&r);

    /* from the configuration too */
    char path[4200];
    snprintf(path, sizeof(path), "%s/site.json", dir);
    tokio_test_write_file(path, "{\"darshan_log_dirs\": {\"x\": "
                          "\"gone\"}}\n", SIZE_MAX);
    const char *env[] = { "PYTOKIO_CONFIG=site.json", NULL };
    const char *argv2[] = { "find-darshanlogs", "-s", "2017-03-20", NULL };
    r = tokio_test_run(dir, env, argv2);
    expect_run(&r, 1);
    assert_contains(r.err, "'gone' does not exist");
    tokio_run_free(&r);

    /* no repository anywhere */
    tokio_test_write_file(path, "{}\n", SIZE_MAX);
    r = tokio_test_run(dir, env, argv2);
    expect_run(&r, 1);
    assert_contains(r.err, "darshan_log_dirs");
    tokio_run_free(&r);

    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cli_find_help(void **state)
{
    (void)state;
    const char *argv[] = { "find-darshanlogs", "--help", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    expect_run(&r, 0);
    assert_contains(r.out, "usage: tokio find-darshanlogs");
    assert_contains(r.out, "--logdir <dir>");
    assert_contains(r.out, "--host <name>");
    tokio_run_free(&r);

    /* the reference's spelling is accepted, and `tokio help` lists it */
    const char *argv2[] = { "help", NULL };
    r = tokio_test_run(NULL, NULL, argv2);
    expect_run(&r, 0);
    assert_contains(r.out, "find-darshanlogs");
    tokio_run_free(&r);
    const char *argv3[] = { "find_darshanlogs", "--help", NULL };
    r = tokio_test_run(NULL, NULL, argv3);
    expect_run(&r, 0);
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_find_golden_config_dirs),
        cmocka_unit_test(test_cli_find_golden_logdir_user_job),
        cmocka_unit_test(test_cli_find_golden_host_job),
        cmocka_unit_test(test_cli_find_long_options_and_end_alone),
        cmocka_unit_test(test_cli_find_own_tree),
        cmocka_unit_test(test_cli_find_bad_dates_exit_2),
        cmocka_unit_test(test_cli_find_end_before_start_exit_2),
        cmocka_unit_test(test_cli_find_needs_start_or_jobid_exit_2),
        cmocka_unit_test(test_cli_find_load_base_matches_goldens),
        cmocka_unit_test(test_cli_find_load_all_views_match_cache_darshan),
        cmocka_unit_test(test_cli_find_load_no_logs_prints_empty_object),
        cmocka_unit_test(test_cli_find_load_invalid_exit_2),
        cmocka_unit_test(test_cli_find_load_bad_log_exit_1),
        cmocka_unit_test(test_cli_find_load_name_not_utf8),
        cmocka_unit_test(test_cli_find_missing_log_dir_exit_1),
        cmocka_unit_test(test_cli_find_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
