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

/* $TOKIO_BIN's folder (where the build puts tokio-full too); free it */
static char *
bin_dir(void)
{
    char *dir = strdup(getenv("TOKIO_BIN"));
    assert_non_null(dir);
    char *slash = strrchr(dir, '/');
    assert_non_null(slash);
    *slash = '\0';
    return dir;
}

/*
 * The front `tokio` runs the commands that need libarchive through
 * tokio-libarchive and those that need HDF5 or MariaDB through
 * tokio-full: all three offer the same commands, with the same help, and
 * each reaches every command.
 */
static void
test_every_executable_offers_every_command(void **state)
{
    static const char *const exes[] = { "tokio-libarchive", "tokio-full" };
    const char *help[] = { "help", NULL };
    const char *h5help[] = { "help", "export-tts", NULL };
    const char *tarhelp[] = { "cache-mmperfmon", "--help", NULL };
    char *front = strdup(getenv("TOKIO_BIN"));
    char *dir = bin_dir();

    (void)state;
    struct tokio_run f1 = tokio_test_run(NULL, NULL, help);
    struct tokio_run f2 = tokio_test_run(NULL, NULL, h5help);
    struct tokio_run f3 = tokio_test_run(NULL, NULL, tarhelp);
    assert_int_equal(f1.status, 0);
    assert_contains(f1.out, "  export-tts ");
    assert_contains(f1.out, "  cache-darshan ");
    assert_int_equal(f2.status, 0);
    assert_contains(f2.out, "usage: tokio export-tts");
    assert_int_equal(f3.status, 0);
    assert_contains(f3.out, "usage: tokio cache-mmperfmon");
    for (size_t i = 0; i < sizeof(exes) / sizeof(exes[0]); i++) {
        char exe[4096];
        snprintf(exe, sizeof(exe), "%s/%s", dir, exes[i]);
        setenv("TOKIO_BIN", exe, 1);
        struct tokio_run a1 = tokio_test_run(NULL, NULL, help);
        struct tokio_run a2 = tokio_test_run(NULL, NULL, h5help);
        struct tokio_run a3 = tokio_test_run(NULL, NULL, tarhelp);
        setenv("TOKIO_BIN", front, 1);
        assert_int_equal(a1.status, 0);
        assert_string_equal(f1.out, a1.out);
        assert_int_equal(a2.status, 0);
        assert_string_equal(f2.out, a2.out);
        assert_int_equal(a3.status, 0);
        assert_string_equal(f3.out, a3.out);
        tokio_run_free(&a1);
        tokio_run_free(&a2);
        tokio_run_free(&a3);
    }
    tokio_run_free(&f1);
    tokio_run_free(&f2);
    tokio_run_free(&f3);
    free(front);
    free(dir);
}

/* TOKIO_EXEC_PATH names the one folder the other executables are taken
 * from */
static void
test_exec_path_chooses_tokio_full(void **state)
{
    char *dir = bin_dir();
    char env_ok[4096];
    const char *env_bad[] = { "TOKIO_EXEC_PATH=/nonexistent-tokio-dir", NULL };
    const char *h5help[] = { "summarize-tts", "--help", NULL };
    const char *light[] = { "config", "--help", NULL };

    (void)state;
    snprintf(env_ok, sizeof(env_ok), "TOKIO_EXEC_PATH=%s", dir);
    const char *env_good[] = { env_ok, NULL };

    struct tokio_run r = tokio_test_run(NULL, env_good, h5help);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "usage: tokio summarize-tts");
    tokio_run_free(&r);

    /* missing: a clear error naming the command and the path, exit 1 */
    r = tokio_test_run(NULL, env_bad, h5help);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "summarize-tts is run by "
                           "/nonexistent-tokio-dir/tokio-full");
    assert_contains(r.err, "No such file or directory");
    tokio_run_free(&r);

    r = tokio_test_run(NULL, env_bad, (const char *[]){ "cache-mmperfmon",
                                                         "--help", NULL });
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "cache-mmperfmon is run by "
                           "/nonexistent-tokio-dir/tokio-libarchive");
    tokio_run_free(&r);

    /* the front's own commands do not need it */
    r = tokio_test_run(NULL, env_bad, light);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "usage: tokio config");
    tokio_run_free(&r);
    free(dir);
}

/*
 * compare-isdct and cache-isdct run in the front on saved JSON dumps, and
 * hand a tarball to tokio-libarchive, which runs the same command line
 * (options reordered by parsing included) from the start.
 */
static void
test_front_reads_json_dumps_and_hands_on_tarballs(void **state)
{
    TOKIO_TEST_NEED_DATA(old_json,
                         "pytokio-inputs/sample_nersc_isdct-1.json.gz");
    char *old_path = strdup(old_json);
    TOKIO_TEST_NEED_DATA(json, "pytokio-inputs/sample_nersc_isdct.json.gz");
    char *json_path = strdup(json);
    TOKIO_TEST_NEED_DATA(tgz, "pytokio-inputs/sample_nersc_isdct.tgz");
    const char *env_bad[] = { "TOKIO_EXEC_PATH=/nonexistent-tokio-dir", NULL };
    const char *on_tgz[] = { "compare-isdct", json_path, tgz, "--all",
                             NULL };
    const char *all_first[] = { "compare-isdct", "--all", json_path, tgz,
                                NULL };
    char *front = strdup(getenv("TOKIO_BIN"));
    char *dir = bin_dir();
    char helper[4096];

    (void)state;
    /* no tokio-libarchive to be found: JSON is read all the same */
    struct tokio_run r = tokio_test_run(NULL, env_bad, (const char *[]){
        "compare-isdct", old_path, json_path, "-a", NULL });
    assert_int_equal(r.status, 0);
    assert_golden(r.out, "golden/pytokio/compare_isdct/"
                         "isdct-1_vs_isdct.all.json");
    tokio_run_free(&r);
    r = tokio_test_run(NULL, env_bad, (const char *[]){ "cache-isdct",
                                                         json_path, NULL });
    assert_int_equal(r.status, 0);
    assert_golden(r.out, "golden/pytokio/cache_isdct/"
                         "sample_nersc_isdct.json.gz.json");
    tokio_run_free(&r);
    /* a tarball needs it, and the message says so */
    r = tokio_test_run(NULL, env_bad, on_tgz);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "sample_nersc_isdct.tgz' is a tar archive, read "
                           "by tokio-libarchive, which cannot be run: No "
                           "such file or directory");
    tokio_run_free(&r);
    /* found, it runs the whole command line: "--all" after the inputs
     * gives what tokio-libarchive gives with it first */
    r = tokio_test_run(NULL, NULL, on_tgz);
    snprintf(helper, sizeof(helper), "%s/tokio-libarchive", dir);
    setenv("TOKIO_BIN", helper, 1);
    struct tokio_run want = tokio_test_run(NULL, NULL, all_first);
    setenv("TOKIO_BIN", front, 1);
    assert_int_equal(r.status, 0);
    assert_int_equal(want.status, 0);
    assert_contains(want.out, "\"devices\": {");
    assert_string_equal(r.out, want.out);
    tokio_run_free(&r);
    tokio_run_free(&want);
    r = tokio_test_run(NULL, NULL, (const char *[]){ "cache-isdct", tgz,
                                                     NULL });
    assert_int_equal(r.status, 0);
    assert_golden(r.out, "golden/pytokio/cache_isdct/"
                         "sample_nersc_isdct.tgz.json");
    tokio_run_free(&r);
    free(dir);
    free(front);
    free(json_path);
    free(old_path);
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
        cmocka_unit_test(test_every_executable_offers_every_command),
        cmocka_unit_test(test_exec_path_chooses_tokio_full),
        cmocka_unit_test(test_front_reads_json_dumps_and_hands_on_tarballs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
