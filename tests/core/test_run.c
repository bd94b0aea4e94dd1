/*
 * tests/core/test_run.c - running a site tool: output collected whole,
 * a missing program told apart from a failing one, the failing one's
 * complaint quoted, a size cap, arguments passed without a shell.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/run.h"
#include "tokio/common.h"

static void
test_run_collects_stdout_and_passes_arguments_verbatim(void **state)
{
    (void)state;
    /* no shell: the ; and $HOME reach printf as they are */
    const char *argv[] = { "printf", "%s|%s\\n", "a b; echo x", "$HOME",
                           NULL };
    char *out = NULL;
    size_t len = 0;

    assert_int_equal(tokio__run_capture(argv, "printf", 0, &out, &len),
                     TOKIO_OK);
    assert_string_equal(out, "a b; echo x|$HOME\n");
    assert_int_equal(len, strlen(out));
    free(out);
}

/* Regression (issue 17, 13): the database passwords tokio reads from the
 * environment reached sacct and xtdb2proc; a child sees none of them,
 * and the rest of the environment unchanged. */
static void
test_run_keeps_secrets_from_the_child(void **state)
{
    (void)state;
    const char *argv[] = { "env", NULL };
    char *out = NULL;
    size_t len = 0;

    setenv("PYTOKIO_LMT_PASSWORD", "lmt-secret", 1);
    setenv("NERSC_JOBSDB_PASSWORD", "jobs-secret", 1);
    setenv("TOKIO_ES_Token", "es-secret", 1);
    setenv("TOKIO_HARMLESS", "visible", 1);
    assert_int_equal(tokio__run_capture(argv, "env", 0, &out, &len),
                     TOKIO_OK);
    assert_null(strstr(out, "secret"));
    assert_null(strstr(out, "PASSWORD"));
    assert_contains(out, "TOKIO_HARMLESS=visible\n");
    /* ours is untouched */
    assert_string_equal(getenv("NERSC_JOBSDB_PASSWORD"), "jobs-secret");
    free(out);
    unsetenv("PYTOKIO_LMT_PASSWORD");
    unsetenv("NERSC_JOBSDB_PASSWORD");
    unsetenv("TOKIO_ES_Token");
    unsetenv("TOKIO_HARMLESS");
}

static void
test_run_empty_output_is_an_empty_string(void **state)
{
    (void)state;
    const char *argv[] = { "true", NULL };
    char *out = NULL;
    size_t len = 1;

    assert_int_equal(tokio__run_capture(argv, "true", 0, &out, &len),
                     TOKIO_OK);
    assert_non_null(out);
    assert_string_equal(out, "");
    assert_int_equal(len, 0);
    free(out);
}

static void
test_run_missing_program_is_enotfound_naming_the_tool(void **state)
{
    (void)state;
    const char *argv[] = { "tokio-no-such-program-xyz", "-p", NULL };
    char *out = NULL;
    size_t len = 0;

    assert_int_equal(tokio__run_capture(argv, "Slurm's 'sacct'", 0, &out,
                                        &len), TOKIO_ENOTFOUND);
    assert_null(out);
    assert_contains(tokio_errmsg(), "Slurm's 'sacct'");
    assert_contains(tokio_errmsg(), "not on PATH");
}

static void
test_run_failure_quotes_status_and_last_stderr_line(void **state)
{
    (void)state;
    /* a test may use sh as the program; the library never does */
    const char *argv[] = { "sh", "-c",
                           "echo partial; echo first >&2; "
                           "echo 'sacct: error: no such job' >&2; exit 3",
                           NULL };
    char *out = NULL;
    size_t len = 0;

    assert_int_equal(tokio__run_capture(argv, "sh", 0, &out, &len),
                     TOKIO_EIO);
    assert_null(out);
    assert_contains(tokio_errmsg(), "exit status 3");
    assert_contains(tokio_errmsg(), ": sacct: error: no such job");
    /* only the last line of stderr, at the end of the message */
    const char *m = tokio_errmsg(), *tail = "exit status 3: sacct: error: "
                                             "no such job";
    assert_true(strlen(m) >= strlen(tail));
    assert_string_equal(m + strlen(m) - strlen(tail), tail);
}

static void
test_run_killed_program_names_the_signal(void **state)
{
    (void)state;
    const char *argv[] = { "sh", "-c", "kill -9 $$", NULL };
    char *out = NULL;
    size_t len = 0;

    assert_int_equal(tokio__run_capture(argv, "sh", 0, &out, &len),
                     TOKIO_EIO);
    assert_contains(tokio_errmsg(), "killed by signal 9");
}

static void
test_run_output_over_the_cap_is_refused(void **state)
{
    (void)state;
    /* 200,000 bytes against a cap of 100,000; the child is still reaped */
    const char *argv[] = { "head", "-c", "200000", "/dev/zero", NULL };
    char *out = NULL;
    size_t len = 0;

    assert_int_equal(tokio__run_capture(argv, "head", 100000, &out, &len),
                     TOKIO_ENOMEM);
    assert_null(out);
    assert_contains(tokio_errmsg(), "larger than 100000 bytes");
    assert_int_equal(tokio__run_capture(argv, "head", 200000, &out, &len),
                     TOKIO_OK);
    assert_int_equal(len, 200000);
    free(out);
}

static int
run_echo(void *ctx)
{
    const char *argv[] = { "echo", "hello", NULL };
    char *out = NULL;
    size_t len = 0;
    int rc = tokio__run_capture(argv, "echo", 0, &out, &len);

    (void)ctx;
    if (rc >= 0)
        assert_string_equal(out, "hello\n");
    free(out);
    return rc;
}

static void
test_run_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(run_echo, NULL, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_collects_stdout_and_passes_arguments_verbatim),
        cmocka_unit_test(test_run_keeps_secrets_from_the_child),
        cmocka_unit_test(test_run_empty_output_is_an_empty_string),
        cmocka_unit_test(test_run_missing_program_is_enotfound_naming_the_tool),
        cmocka_unit_test(test_run_failure_quotes_status_and_last_stderr_line),
        cmocka_unit_test(test_run_killed_program_names_the_signal),
        cmocka_unit_test(test_run_output_over_the_cap_is_refused),
        cmocka_unit_test(test_run_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
