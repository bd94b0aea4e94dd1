/*
 * tests/cli/test_config.c - `tokio config`, run as a user runs it: which
 * file, one key or all of it, dotted keys, and the exit statuses.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#define SITE_JSON "pytokio-inputs/site.json"

static void
expect_run(struct tokio_run *r, int status)
{
    if (r->status != status)
        fail_msg("exit %d, want %d\nstdout: %s\nstderr: %s", r->status,
                 status, r->out, r->err);
}

/* ------------------------------------------------------------------ */
/* The documented examples, exactly                                     */

static void
test_cli_config_key_from_env_file(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(site, SITE_JSON);
    char env0[4200];
    snprintf(env0, sizeof(env0), "PYTOKIO_CONFIG=%s", site);
    const char *env[] = { env0, NULL };
    const char *argv[] = { "config", "lmt_timestep", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    expect_run(&r, 0);
    assert_string_equal(r.out, "5\n");
    assert_string_equal(r.err, "");
    tokio_run_free(&r);
}

static void
test_cli_config_override_without_file(void **state)
{
    (void)state;
    const char *env[] = { "PYTOKIO_HDF5_FILES=\"/x/%Y\"", NULL };
    const char *argv[] = { "config", "hdf5_files", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    expect_run(&r, 0);
    assert_string_equal(r.out, "\"/x/%Y\"\n");
    tokio_run_free(&r);
}

/* ------------------------------------------------------------------ */
/* Whole configuration                                                  */

static void
test_cli_config_whole_reparses_to_file(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(site, SITE_JSON);
    const char *argv[] = { "config", "--config", site, NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    json_error_t err;

    expect_run(&r, 0);
    json_t *got = json_loads(r.out, 0, &err);
    json_t *want = json_load_file(site, 0, &err);
    assert_non_null(got);
    assert_non_null(want);
    assert_true(json_equal(got, want));
    /* indent 4, sorted keys: "darshan_log_dirs" sorts first */
    assert_true(strncmp(r.out, "{\n    \"darshan_log_dirs\": {\n        "
                        "\"testsystem\": ", 50) == 0);
    assert_true(r.out[strlen(r.out) - 1] == '\n');
    json_decref(got);
    json_decref(want);
    tokio_run_free(&r);
}

static void
test_cli_config_bundled_example_skips_comment(void **state)
{
    (void)state;
    const char *argv[] = { "config", "--config",
                           tokio_test_source("examples/site.json"), NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    expect_run(&r, 0);
    json_t *got = json_loads(r.out, 0, NULL);
    assert_non_null(got);
    assert_null(json_object_get(got, "_comment"));
    assert_int_equal(json_integer_value(json_object_get(got,
                                                        "lmt_timestep")), 5);
    json_decref(got);
    tokio_run_free(&r);
}

static void
test_cli_config_option_beats_env(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp();
    char a[4096], b[4096], env0[4200];

    snprintf(a, sizeof(a), "%s/a.json", dir);
    snprintf(b, sizeof(b), "%s/b.yaml", dir);
    tokio_test_write_file(a, "{\"which\": \"a\"}\n", SIZE_MAX);
    tokio_test_write_file(b, "which: b\nLIST: [1, 2.5, yes]\n", SIZE_MAX);
    snprintf(env0, sizeof(env0), "PYTOKIO_CONFIG=%s", a);
    const char *env[] = { env0, NULL };

    const char *argv1[] = { "config", "which", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv1);
    expect_run(&r, 0);
    assert_string_equal(r.out, "\"a\"\n");
    tokio_run_free(&r);

    const char *argv2[] = { "config", "--config", b, "which", NULL };
    r = tokio_test_run(NULL, env, argv2);
    expect_run(&r, 0);
    assert_string_equal(r.out, "\"b\"\n");
    tokio_run_free(&r);

    /* YAML typed as PyYAML types it; a list prints on one line */
    const char *argv3[] = { "config", "--config=", NULL, NULL };
    char opt[4200];
    snprintf(opt, sizeof(opt), "--config=%s", b);
    argv3[1] = opt;
    argv3[2] = "list";
    r = tokio_test_run(NULL, env, argv3);
    expect_run(&r, 0);
    assert_string_equal(r.out, "[1, 2.5, true]\n");
    tokio_run_free(&r);

    const char *argv4[] = { "config", "--path", NULL };
    r = tokio_test_run(NULL, env, argv4);
    expect_run(&r, 0);
    char want[4200];
    snprintf(want, sizeof(want), "%s\n", a);
    assert_string_equal(r.out, want);
    tokio_run_free(&r);

    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cli_config_path_without_file(void **state)
{
    (void)state;
    if (access(TOKIO_DEFAULT_CONFIG, F_OK) == 0) {
        print_message("skipped: %s is installed\n", TOKIO_DEFAULT_CONFIG);
        skip();
    }
    const char *argv[] = { "config", "--path", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    expect_run(&r, 0);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "no configuration file was loaded");
    tokio_run_free(&r);

    /* and the whole (empty) configuration is still valid JSON */
    const char *argv2[] = { "config", NULL };
    r = tokio_test_run(NULL, NULL, argv2);
    expect_run(&r, 0);
    assert_string_equal(r.out, "{}\n");
    tokio_run_free(&r);
}

/* ------------------------------------------------------------------ */
/* Dotted keys                                                          */

static void
test_cli_config_dotted_keys(void **state)
{
    static const struct {
        const char *key;
        const char *out;
    } cases[] = {
        { "darshan_log_dirs.testsystem", "\"inputs/darshanlogs\"\n" },
        { "hdf5_files.scratch1.1",
          "\"inputs/%Y-%m-%d/edison_snx11025.h5lmt\"\n" },
        { "darshan_log_dirs", "{\"testsystem\": \"inputs/darshanlogs\"}\n" },
        /* keys holding dots themselves (regular expressions) */
        { "mount_to_fsname.^/var/opt/cray/dws/mounts/.*/ss",
          "\"bb-shared\"\n" },
        { "esnet_snmp_interfaces.nersc.sacr-cr5.0", "\"to_nersc_ip-e\"\n" },
    };
    (void)state;
    TOKIO_TEST_NEED_DATA(site, SITE_JSON);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *argv[] = { "config", "--config", site, cases[i].key,
                               NULL };
        struct tokio_run r = tokio_test_run(NULL, NULL, argv);
        expect_run(&r, 0);
        assert_string_equal(r.out, cases[i].out);
        tokio_run_free(&r);
    }
}

static void
test_cli_config_missing_key_exits_1(void **state)
{
    static const char *const keys[] = {
        "no_such_key", "darshan_log_dirs.nope", "hdf5_files.scratch1.2",
        "hdf5_files.scratch1.x", "lmt_timestep.0", "hdf5_files.",
        "LMT_TIMESTEP",
    };
    (void)state;
    const char *site = tokio_test_source("examples/site.json");
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const char *argv[] = { "config", "--config", site, keys[i], NULL };
        struct tokio_run r = tokio_test_run(NULL, NULL, argv);
        expect_run(&r, 1);
        assert_string_equal(r.out, "");
        char want[256];
        snprintf(want, sizeof(want), "no key '%s'", keys[i]);
        assert_contains(r.err, want);
        assert_contains(r.err, site);
        tokio_run_free(&r);
    }
}

/* ------------------------------------------------------------------ */
/* Usage and failures                                                   */

static void
test_cli_config_bad_usage_exits_2(void **state)
{
    static const char *const argvs[][5] = {
        { "config", "--bogus", NULL },
        { "config", "a", "b", NULL },
        { "config", "--path", "lmt_timestep", NULL },
        { "config", "--config", NULL },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(argvs) / sizeof(argvs[0]); i++) {
        struct tokio_run r = tokio_test_run(NULL, NULL, argvs[i]);
        expect_run(&r, 2);
        assert_string_equal(r.out, "");
        assert_contains(r.err, "see 'tokio config --help'");
        tokio_run_free(&r);
    }
}

static void
test_cli_config_help_exits_0(void **state)
{
    (void)state;
    const char *argv[] = { "config", "--help", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    expect_run(&r, 0);
    assert_contains(r.out, "usage: tokio config [--config <file>] [<key>]");
    assert_contains(r.out, "--path");
    tokio_run_free(&r);

    const char *argv2[] = { "help", "config", NULL };
    r = tokio_test_run(NULL, NULL, argv2);
    expect_run(&r, 0);
    assert_contains(r.out, "usage: tokio config");
    tokio_run_free(&r);
}

static void
test_cli_config_malformed_file_exits_1(void **state)
{
    (void)state;
    const char *bad = tokio_test_source(
        "tests/core/config/bad/trailing_comma.json");
    char env0[4200];
    snprintf(env0, sizeof(env0), "PYTOKIO_CONFIG=%s", bad);
    const char *env[] = { env0, NULL };
    const char *argv[] = { "config", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    expect_run(&r, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "tokio config: error: ");
    assert_contains(r.err, bad);
    assert_contains(r.err, "line 4 column 1");
    tokio_run_free(&r);

    const char *yaml = tokio_test_source(
        "tests/core/config/bad/bad_indentation.yaml");
    const char *argv2[] = { "config", "--config", yaml, "x", NULL };
    r = tokio_test_run(NULL, NULL, argv2);
    expect_run(&r, 1);
    assert_contains(r.err, yaml);
    assert_contains(r.err, "line 4 column 3");
    tokio_run_free(&r);
}

static void
test_cli_config_missing_file_exits_1(void **state)
{
    (void)state;
    const char *argv[] = { "config", "--config", "/nonexistent/site.json",
                           NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    expect_run(&r, 1);
    assert_contains(r.err, "'/nonexistent/site.json'");
    tokio_run_free(&r);

    const char *env[] = { "TOKIO_CONFIG=/nonexistent/env.yaml", NULL };
    const char *argv2[] = { "config", "--path", NULL };
    r = tokio_test_run(NULL, env, argv2);
    expect_run(&r, 1);
    assert_contains(r.err, "/nonexistent/env.yaml");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_config_key_from_env_file),
        cmocka_unit_test(test_cli_config_override_without_file),
        cmocka_unit_test(test_cli_config_whole_reparses_to_file),
        cmocka_unit_test(test_cli_config_bundled_example_skips_comment),
        cmocka_unit_test(test_cli_config_option_beats_env),
        cmocka_unit_test(test_cli_config_path_without_file),
        cmocka_unit_test(test_cli_config_dotted_keys),
        cmocka_unit_test(test_cli_config_missing_key_exits_1),
        cmocka_unit_test(test_cli_config_bad_usage_exits_2),
        cmocka_unit_test(test_cli_config_help_exits_0),
        cmocka_unit_test(test_cli_config_malformed_file_exits_1),
        cmocka_unit_test(test_cli_config_missing_file_exits_1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
