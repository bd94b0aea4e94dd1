/*
 * tests/cli/test_main.c - the `tokio` command's dispatch, help, version
 * and exit statuses.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "tokio/common.h"

static void
test_version_prints_library_version(void **state)
{
    const char *argv[] = { "--version", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    char expect[64];

    (void)state;
    snprintf(expect, sizeof(expect), "tokio %s\n", tokio_version());
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, expect);
    assert_string_equal(r.err, "");
    tokio_run_free(&r);
}

static void
test_help_lists_every_command_with_summary(void **state)
{
    const char *argv[] = { "help", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    (void)state;
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "usage: tokio <command>");
    assert_contains(r.out, "  config ");
    assert_contains(r.out, "effective site configuration");
    tokio_run_free(&r);
}

static void
test_no_arguments_is_usage_error(void **state)
{
    const char *argv[] = { NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    (void)state;
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "usage: tokio <command>");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
}

static void
test_unknown_command_exits_2_with_hint(void **state)
{
    const char *argv[] = { "frobnicate", "--x", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    (void)state;
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "'frobnicate' is not a tokio command");
    assert_contains(r.err, "see 'tokio help'");
    tokio_run_free(&r);
}

static void
test_unknown_global_option_exits_2(void **state)
{
    const char *argv[] = { "--frob", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    (void)state;
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "unknown option '--frob'");
    tokio_run_free(&r);
}

static void
test_unknown_command_option_exits_2_with_hint(void **state)
{
    const char *argv[] = { "config", "--no-such-option", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    (void)state;
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "tokio config: unknown option '--no-such-option'");
    assert_contains(r.err, "see 'tokio config --help'");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
}

static void
test_help_command_equals_command_help(void **state)
{
    const char *argv1[] = { "help", "config", NULL };
    const char *argv2[] = { "config", "--help", NULL };
    const char *argv3[] = { "config", "-h", NULL };
    struct tokio_run r1 = tokio_test_run(NULL, NULL, argv1);
    struct tokio_run r2 = tokio_test_run(NULL, NULL, argv2);
    struct tokio_run r3 = tokio_test_run(NULL, NULL, argv3);

    (void)state;
    assert_int_equal(r1.status, 0);
    assert_int_equal(r2.status, 0);
    assert_int_equal(r3.status, 0);
    assert_contains(r1.out, "usage: tokio config");
    assert_contains(r1.out, "-h, --help");
    assert_string_equal(r1.out, r2.out);
    assert_string_equal(r2.out, r3.out);
    tokio_run_free(&r1);
    tokio_run_free(&r2);
    tokio_run_free(&r3);
}

static void
test_help_of_unknown_command_exits_2(void **state)
{
    const char *argv[] = { "help", "nope", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    (void)state;
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "'nope' is not a tokio command");
    tokio_run_free(&r);
}

static void
test_reference_spelling_with_underscores_is_accepted(void **state)
{
    const char *argv[] = { "con_fig", NULL };   /* no such command either */
    const char *argv2[] = { "help", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    struct tokio_run r2 = tokio_test_run(NULL, NULL, argv2);

    (void)state;
    assert_int_equal(r.status, 2);
    /* every listed command answers to its underscore spelling */
    char *line = strtok(strstr(r2.out, "commands:\n") + 10, "\n");
    int checked = 0;
    while (line != NULL && strncmp(line, "  ", 2) == 0) {
        char name[64], underscored[64];
        sscanf(line, "%63s", name);
        strcpy(underscored, name);
        for (char *p = underscored; *p; p++)
            if (*p == '-')
                *p = '_';
        const char *argv3[] = { underscored, "--help", NULL };
        struct tokio_run r3 = tokio_test_run(NULL, NULL, argv3);
        assert_int_equal(r3.status, 0);
        assert_contains(r3.out, name);
        tokio_run_free(&r3);
        checked++;
        line = strtok(NULL, "\n");
    }
    assert_true(checked >= 1);
    tokio_run_free(&r);
    tokio_run_free(&r2);
}

/* One executable has every command: those reaching HDF5, libarchive and
 * MariaDB too. */
static void
test_one_executable_offers_every_command(void **state)
{
    static const char *const heavy[] = { "export-tts", "cache-mmperfmon",
                                         "cache-nersc-jobsdb" };

    (void)state;
    for (size_t i = 0; i < sizeof(heavy) / sizeof(heavy[0]); i++) {
        const char *argv[] = { heavy[i], "--help", NULL };
        char usage[128];
        struct tokio_run r = tokio_test_run(NULL, NULL, argv);
        snprintf(usage, sizeof(usage), "usage: tokio %s", heavy[i]);
        assert_int_equal(r.status, 0);
        assert_contains(r.out, usage);
        tokio_run_free(&r);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_prints_library_version),
        cmocka_unit_test(test_help_lists_every_command_with_summary),
        cmocka_unit_test(test_no_arguments_is_usage_error),
        cmocka_unit_test(test_unknown_command_exits_2_with_hint),
        cmocka_unit_test(test_unknown_global_option_exits_2),
        cmocka_unit_test(test_unknown_command_option_exits_2_with_hint),
        cmocka_unit_test(test_help_command_equals_command_help),
        cmocka_unit_test(test_help_of_unknown_command_exits_2),
        cmocka_unit_test(test_reference_spelling_with_underscores_is_accepted),
        cmocka_unit_test(test_one_executable_offers_every_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
