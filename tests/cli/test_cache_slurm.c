/*
 * tests/cli/test_cache_slurm.c - `tokio cache-slurm` run as the reference's
 * goldens were made (golden/pytokio/COMMANDS.md, section cache_slurm):
 * from a working folder holding inputs/ (the pytokio inputs); JSON
 * compared by value, CSV and native text byte for byte.  Then -o, a fake
 * `sacct` first on PATH (a job id argument runs it), a failing one, none
 * at all, and usage errors.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#define GOLDEN "golden/pytokio/cache_slurm/"

struct work {
    char *dir;                  /* the working folder */
    char *top;                  /* the inputs copy's parent */
};

static int
setup(void **state)
{
    struct work *w = calloc(1, sizeof(*w));
    char link[4096];

    assert_non_null(w);
    *state = w;
    w->dir = tokio_test_mkdtemp();
    snprintf(link, sizeof(link), "%s/scratch", w->dir);
    assert_int_equal(mkdir(link, 0700), 0);
    snprintf(link, sizeof(link), "%s/bin", w->dir);
    assert_int_equal(mkdir(link, 0700), 0);
    if (tokio_test_data("pytokio-inputs") == NULL)
        return 0;
    char *inputs = tokio_test_copy_data("pytokio-inputs", &w->top);
    assert_non_null(inputs);
    snprintf(link, sizeof(link), "%s/inputs", w->dir);
    assert_int_equal(symlink(inputs, link), 0);
    free(inputs);
    return 0;
}

static int
teardown(void **state)
{
    struct work *w = *state;

    tokio_test_rmtree(w->dir);
    free(w->dir);
    if (w->top != NULL) {
        tokio_test_rmtree(w->top);
        free(w->top);
    }
    free(w);
    return 0;
}

#define NEED_INPUTS(w)                                                      \
    do {                                                                    \
        if ((w)->top == NULL) {                                             \
            print_message("skipped: ../shared/testdata is absent\n");       \
            skip();                                                         \
        }                                                                   \
    } while (0)

/* Put an executable script `name` into the working folder's bin/. */
static void
fake_command(struct work *w, const char *name, const char *script)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/bin/%s", w->dir, name);
    tokio_test_write_file(path, script, SIZE_MAX);
    assert_int_equal(chmod(path, 0755), 0);
}

/* ---- goldens ---------------------------------------------------------- */

static void
run_golden(struct work *w, const char *flag, const char *golden, int json)
{
    const char *argv[] = { "cache-slurm", flag, "inputs/sample.slurm", NULL };
    struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
    const char *gpath = tokio_test_data(golden);
    char *want = tokio_test_read_file(gpath, NULL);

    assert_non_null(want);
    if (r.status != 0)
        fail_msg("%s: %s", flag, r.err);
    if (json) {
        json_t *a = json_loads(r.out, 0, NULL), *b = json_loads(want, 0, NULL);
        assert_non_null(a);
        assert_true(json_equal(a, b));
        json_decref(a);
        json_decref(b);
    } else {
        assert_string_equal(r.out, want);
    }
    free(want);
    tokio_run_free(&r);
}

static void
test_cache_slurm_json_matches_golden(void **state)
{
    struct work *w = *state;
    NEED_INPUTS(w);
    run_golden(w, "--json", GOLDEN "sample.slurm.json", 1);
}

static void
test_cache_slurm_csv_matches_golden(void **state)
{
    struct work *w = *state;
    NEED_INPUTS(w);
    run_golden(w, "--csv", GOLDEN "sample.slurm.csv", 0);
}

static void
test_cache_slurm_native_matches_golden(void **state)
{
    struct work *w = *state;
    NEED_INPUTS(w);
    run_golden(w, "--native", GOLDEN "sample.slurm.native.txt", 0);
    run_golden(w, "-n", GOLDEN "sample.slurm.native.txt", 0);
}

static void
test_cache_slurm_output_file_is_one_line_json(void **state)
{
    struct work *w = *state;
    NEED_INPUTS(w);
    const char *argv[] = { "cache-slurm", "-j", "-o", "scratch/out.json",
                           "inputs/sample.slurm", NULL };
    struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
    char path[4096];

    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    snprintf(path, sizeof(path), "%s/scratch/out.json", w->dir);
    char *text = tokio_test_read_file(path, NULL);
    assert_non_null(text);
    assert_null(strchr(text, '\n'));
    json_t *a = json_loads(text, 0, NULL);
    json_t *b = json_load_file(tokio_test_data(GOLDEN "sample.slurm.json"),
                               0, NULL);
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    free(text);
    tokio_run_free(&r);
}

/* ---- running sacct ---------------------------------------------------- */

static void
test_cache_slurm_job_id_runs_sacct(void **state)
{
    struct work *w = *state;
    char env_path[4200], args_path[4096];

    snprintf(args_path, sizeof(args_path), "%s/scratch/args", w->dir);
    fake_command(w, "sacct",
        "#!/bin/sh\n"
        "echo \"$@\" > scratch/args\n"
        "echo 'JobIDRaw|Start|End|NodeList'\n"
        "echo '99|2019-02-14T10:00:00|2019-02-14T11:00:00|n[1-2]'\n"
        "echo '99.0|2019-02-14T10:00:01|2019-02-14T10:59:00|n1'\n");
    snprintf(env_path, sizeof(env_path), "PATH=%s/bin:/usr/bin:/bin",
             w->dir);
    const char *env[] = { env_path, NULL };
    const char *argv[] = { "cache-slurm", "99", NULL };
    struct tokio_run r = tokio_test_run(w->dir, env, argv);

    if (r.status != 0)
        fail_msg("%s", r.err);
    assert_string_equal(r.out, "jobidraw|start|end|nodelist\n"
                        "99|2019-02-14T10:00:00|2019-02-14T11:00:00|n1,n2\n"
                        "99.0|2019-02-14T10:00:01|2019-02-14T10:59:00|n1\n");
    char *args = tokio_test_read_file(args_path, NULL);
    assert_string_equal(args, "--jobs 99 --format=jobidraw,start,end,"
                        "nodelist --parsable2\n");
    free(args);
    tokio_run_free(&r);
}

static void
test_cache_slurm_failing_sacct_is_exit_1(void **state)
{
    struct work *w = *state;
    char env_path[4200];

    fake_command(w, "sacct",
        "#!/bin/sh\n"
        "echo 'sacct: error: Problem talking to the database' >&2\n"
        "exit 1\n");
    snprintf(env_path, sizeof(env_path), "PATH=%s/bin:/usr/bin:/bin",
             w->dir);
    const char *env[] = { env_path, NULL };
    const char *argv[] = { "cache-slurm", "--json", "99", NULL };
    struct tokio_run r = tokio_test_run(w->dir, env, argv);

    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "'sacct --jobs 99 --format=jobidraw,start,end,"
                    "nodelist --parsable2' failed with exit status 1: "
                    "sacct: error: Problem talking to the database");
    tokio_run_free(&r);
}

static void
test_cache_slurm_unknown_job_is_exit_1(void **state)
{
    struct work *w = *state;
    char env_path[4200];

    fake_command(w, "sacct", "#!/bin/sh\necho 'JobIDRaw|Start|End|"
                 "NodeList'\n");
    snprintf(env_path, sizeof(env_path), "PATH=%s/bin:/usr/bin:/bin",
             w->dir);
    const char *env[] = { env_path, NULL };
    const char *argv[] = { "cache-slurm", "12345", NULL };
    struct tokio_run r = tokio_test_run(w->dir, env, argv);

    assert_int_equal(r.status, 1);
    assert_contains(r.err, "sacct knows no job '12345'");
    tokio_run_free(&r);
}

static void
test_cache_slurm_without_sacct_is_exit_1(void **state)
{
    struct work *w = *state;
    char env_path[4200];

    snprintf(env_path, sizeof(env_path), "PATH=%s/scratch", w->dir);
    const char *env[] = { env_path, NULL };
    const char *argv[] = { "cache-slurm", "12345", NULL };
    struct tokio_run r = tokio_test_run(w->dir, env, argv);

    assert_int_equal(r.status, 1);
    assert_contains(r.err, "'sacct' command is not on PATH");
    tokio_run_free(&r);
}

/* Issue 17, item 8: a file that is not there, without sacct on PATH,
 * said only that sacct is not on PATH; a name no job id could have is
 * a missing file. */
static void
test_cache_slurm_missing_file_is_named(void **state)
{
    struct work *w = *state;
    char env_path[4200];

    snprintf(env_path, sizeof(env_path), "PATH=%s/scratch", w->dir);
    const char *env[] = { env_path, NULL };
    const char *argv[] = { "cache-slurm", "--json", "nosuch.slurm", NULL };
    struct tokio_run r = tokio_test_run(w->dir, env, argv);

    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "tokio cache-slurm: error: 'nosuch.slurm' is "
                        "no file here, nor a Slurm job id\n");
    tokio_run_free(&r);
}

/* Issue 17, item 8: a JSON cache whose tasks differ in their fields
 * cannot be a CSV table; the message named neither the file nor said
 * it was an input's fault ("Slurm task '2' has no 'a' field ..."). */
static void
test_cache_slurm_csv_of_uneven_tasks_names_the_file(void **state)
{
    struct work *w = *state;
    const char *argv[] = { "cache-slurm", "--csv", "uneven.json", NULL };
    char path[4200];

    snprintf(path, sizeof(path), "%s/uneven.json", w->dir);
    tokio_test_write_file(path, "{\"1\": {\"jobidraw\": \"1\", \"a\": \"x\"},"
                          " \"2\": {\"jobidraw\": \"2\"}}", SIZE_MAX);
    struct tokio_run r = tokio_test_run(w->dir, NULL, argv);

    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "tokio cache-slurm: error: 'uneven.json': "
                        "Slurm task '2' has no 'a' field, which the first "
                        "task has\n");
    tokio_run_free(&r);
}

/* ---- usage ------------------------------------------------------------ */

static void
test_cache_slurm_usage_errors_are_exit_2(void **state)
{
    struct work *w = *state;
    const char *none[] = { "cache-slurm", NULL };
    const char *two[] = { "cache-slurm", "1", "2", NULL };
    const char *bad[] = { "cache-slurm", "--bogus", "1", NULL };
    const char *help[] = { "cache-slurm", "--help", NULL };
    struct tokio_run r;

    r = tokio_test_run(w->dir, NULL, none);
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "see 'tokio cache-slurm --help'");
    tokio_run_free(&r);
    r = tokio_test_run(w->dir, NULL, two);
    assert_int_equal(r.status, 2);
    tokio_run_free(&r);
    r = tokio_test_run(w->dir, NULL, bad);
    assert_int_equal(r.status, 2);
    tokio_run_free(&r);
    r = tokio_test_run(w->dir, NULL, help);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "--csv");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_slurm_json_matches_golden),
        cmocka_unit_test(test_cache_slurm_csv_matches_golden),
        cmocka_unit_test(test_cache_slurm_native_matches_golden),
        cmocka_unit_test(test_cache_slurm_output_file_is_one_line_json),
        cmocka_unit_test(test_cache_slurm_job_id_runs_sacct),
        cmocka_unit_test(test_cache_slurm_failing_sacct_is_exit_1),
        cmocka_unit_test(test_cache_slurm_unknown_job_is_exit_1),
        cmocka_unit_test(test_cache_slurm_without_sacct_is_exit_1),
        cmocka_unit_test(test_cache_slurm_csv_of_uneven_tasks_names_the_file),
        cmocka_unit_test(test_cache_slurm_missing_file_is_named),
        cmocka_unit_test(test_cache_slurm_usage_errors_are_exit_2),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
