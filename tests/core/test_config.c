/*
 * tests/core/test_config.c - the site configuration loader
 * (src/core/config.c): the reference's site.json, environment precedence
 * and overrides, YAML typing and ${VAR} expansion, malformed inputs as
 * data (config/bad/NAME.{json,yaml} beside NAME.expect), I/O failures and
 * every out-of-memory point.
 */
#include "testutil.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "tokio/config.h"

static const char *const override_names[] = { TOKIO_CONFIG_OVERRIDES };
#define N_OVERRIDES (sizeof(override_names) / sizeof(override_names[0]))

/* Every test starts from an environment that names no configuration. */
static void
clear_env(void)
{
    char var[64];

    unsetenv("PYTOKIO_CONFIG");
    unsetenv("TOKIO_CONFIG");
    for (size_t i = 0; i < N_OVERRIDES; i++) {
        snprintf(var, sizeof(var), "PYTOKIO_%s", override_names[i]);
        unsetenv(var);
    }
}

static int
setup(void **state)
{
    (void)state;
    clear_env();
    return 0;
}

static int
teardown(void **state)
{
    (void)state;
    clear_env();
    tokio_test_fail_alloc_at(0);
    return 0;
}

static struct tokio_config *
load_ok(const char *path)
{
    struct tokio_config *cfg = NULL;
    int rc = tokio_config_open(&cfg, path);

    if (rc != TOKIO_OK)
        print_error("tokio_config_open(%s): %s\n", path ? path : "NULL",
                    tokio_errmsg());
    assert_int_equal(rc, TOKIO_OK);
    assert_non_null(cfg);
    return cfg;
}

static struct tokio_config *
load_mem_ok(const char *text, const char *name)
{
    struct tokio_config *cfg = NULL;
    int rc = tokio_config_open_mem(&cfg, text, strlen(text), name);

    if (rc != TOKIO_OK)
        print_error("load_mem(%s): %s\n", name, tokio_errmsg());
    assert_int_equal(rc, TOKIO_OK);
    return cfg;
}

static const char *
get_str(const struct tokio_config *cfg, const char *key)
{
    const json_t *v = tokio_config_get(cfg, key);

    assert_non_null(v);
    assert_true(json_is_string(v));
    return json_string_value(v);
}

/* ------------------------------------------------------------------ */
/* Golden: the reference's own site.json                                */

static void
test_config_site_json_matches_jansson(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/site.json");
    struct tokio_config *cfg = load_ok(path);
    json_error_t err;
    json_t *raw = json_load_file(path, 0, &err);
    const char *key;
    json_t *value;

    assert_non_null(raw);
    assert_string_equal(tokio_config_path(cfg), path);
    assert_int_equal(json_integer_value(tokio_config_get(cfg,
                                                         "lmt_timestep")), 5);
    /* the file has only lower-case keys and no comments: all of it */
    assert_int_equal(json_object_size(tokio_config_json(cfg)),
                     json_object_size(raw));
    json_object_foreach(raw, key, value) {
        const json_t *got = tokio_config_get(cfg, key);
        if (got == NULL)
            fail_msg("key '%s' missing", key);
        assert_true(json_equal((json_t *)got, value));
    }
    assert_string_equal(get_str(cfg, "isdct_files"),
                        "inputs/%Y-%m-%d/Intel_DCT_%Y%m%d.tgz");
    json_decref(raw);
    tokio_config_free(cfg);
}

static void
test_config_sample_config_keeps_big_integer(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/sample_config.json");
    struct tokio_config *cfg = load_ok(path);

    /* the reference's test_configfile_env checks this DEADBEEF value */
    assert_true(json_integer_value(tokio_config_get(cfg, "debug_dummy")) ==
                0xDEADBEEFLL);
    tokio_config_free(cfg);
}

static void
test_config_bundled_example_is_complete(void **state)
{
    static const char *const keys[] = {
        "mount_to_fsname", "fsname_to_backend_name", "hdf5_files",
        "lfsstatus_fullness_files", "lfsstatus_map_files",
        "darshan_log_dirs", "isdct_files", "jobinfo_jobid_providers",
        "lfsstatus_fullness_providers", "lmt_timestep"
    };
    (void)state;
    struct tokio_config *cfg = load_ok(tokio_test_source("examples/site.json"));

    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (tokio_config_get(cfg, keys[i]) == NULL)
            fail_msg("examples/site.json lacks '%s'", keys[i]);
    assert_null(tokio_config_get(cfg, "_comment"));
    assert_int_equal(json_object_size(tokio_config_json(cfg)),
                     sizeof(keys) / sizeof(keys[0]));
    tokio_config_free(cfg);
}

/* ------------------------------------------------------------------ */
/* Which file: argument, $PYTOKIO_CONFIG, $TOKIO_CONFIG, default        */

static void
test_config_env_precedence(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp();
    char a[4096], b[4096], c[4096];
    struct tokio_config *cfg;

    snprintf(a, sizeof(a), "%s/a.json", dir);
    snprintf(b, sizeof(b), "%s/b.yaml", dir);
    snprintf(c, sizeof(c), "%s/c.json", dir);
    tokio_test_write_file(a, "{\"which\": \"a\"}", SIZE_MAX);
    tokio_test_write_file(b, "which: b\n", SIZE_MAX);
    tokio_test_write_file(c, "{\"which\": \"c\"}", SIZE_MAX);

    setenv("TOKIO_CONFIG", a, 1);
    cfg = load_ok(NULL);
    assert_string_equal(get_str(cfg, "which"), "a");
    assert_string_equal(tokio_config_path(cfg), a);
    tokio_config_free(cfg);

    setenv("PYTOKIO_CONFIG", b, 1);         /* the reference's name wins */
    cfg = load_ok(NULL);
    assert_string_equal(get_str(cfg, "which"), "b");
    assert_string_equal(tokio_config_path(cfg), b);
    tokio_config_free(cfg);

    cfg = load_ok(c);                       /* an argument beats both */
    assert_string_equal(get_str(cfg, "which"), "c");
    tokio_config_free(cfg);

    setenv("PYTOKIO_CONFIG", "", 1);        /* empty is as good as unset */
    cfg = load_ok(NULL);
    assert_string_equal(get_str(cfg, "which"), "a");
    tokio_config_free(cfg);

    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_config_env_names_missing_file_is_eio(void **state)
{
    (void)state;
    struct tokio_config *cfg = (struct tokio_config *)&cfg;

    setenv("PYTOKIO_CONFIG", "/nonexistent/tokio/site.json", 1);
    assert_int_equal(tokio_config_open(&cfg, NULL), TOKIO_EIO);
    assert_null(cfg);
    assert_contains(tokio_errmsg(), "'/nonexistent/tokio/site.json'");
    assert_contains(tokio_errmsg(), strerror(ENOENT));
    unsetenv("PYTOKIO_CONFIG");

    setenv("TOKIO_CONFIG", "/nonexistent/other.yaml", 1);
    assert_int_equal(tokio_config_open(&cfg, NULL), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "/nonexistent/other.yaml");
    unsetenv("TOKIO_CONFIG");

    assert_int_equal(tokio_config_open(&cfg, "/nonexistent/x.json"),
                     TOKIO_EIO);
    assert_contains(tokio_errmsg(), "/nonexistent/x.json");
}

static void
test_config_missing_default_is_empty(void **state)
{
    (void)state;
    if (access(TOKIO_DEFAULT_CONFIG, F_OK) == 0) {
        print_message("skipped: %s is installed\n", TOKIO_DEFAULT_CONFIG);
        skip();
    }
    struct tokio_config *cfg = load_ok(NULL);
    assert_null(tokio_config_path(cfg));
    assert_int_equal(json_object_size(tokio_config_json(cfg)), 0);
    tokio_config_free(cfg);

    /* overrides still apply without a file, as in the reference */
    setenv("PYTOKIO_ISDCT_FILES", "/x/%Y.tgz", 1);
    cfg = load_ok(NULL);
    assert_string_equal(get_str(cfg, "isdct_files"), "/x/%Y.tgz");
    assert_int_equal(json_object_size(tokio_config_json(cfg)), 1);
    tokio_config_free(cfg);
}

/* ------------------------------------------------------------------ */
/* PYTOKIO_* overrides                                                  */

static void
test_config_each_override_takes_json_or_string(void **state)
{
    (void)state;
    const char *base = "{\"hdf5_files\": 1, \"isdct_files\": 1, "
                       "\"lfsstatus_fullness_files\": 1, "
                       "\"lfsstatus_map_files\": 1, \"darshan_log_dirs\": 1, "
                       "\"esnet_snmp_uri\": 1, \"lmt_timestep\": 5}";

    for (size_t i = 0; i < N_OVERRIDES; i++) {
        char var[64], key[64];
        size_t k;
        struct tokio_config *cfg;

        snprintf(var, sizeof(var), "PYTOKIO_%s", override_names[i]);
        for (k = 0; override_names[i][k]; k++)
            key[k] = (char)tolower((unsigned char)override_names[i][k]);
        key[k] = '\0';

        /* a JSON value is decoded, whatever its type */
        setenv(var, "{\"fs\": [\"/a/%Y\", 2, null]}", 1);
        cfg = load_mem_ok(base, "site.json");
        json_t *want = json_pack("{s:[s,i,n]}", "fs", "/a/%Y", 2);
        assert_true(json_equal((json_t *)tokio_config_get(cfg, key), want));
        json_decref(want);
        assert_int_equal(json_integer_value(tokio_config_get(cfg,
                                            "lmt_timestep")), 5);
        tokio_config_free(cfg);

        setenv(var, "\"/x/%Y\"", 1);
        cfg = load_mem_ok(base, "site.json");
        assert_string_equal(get_str(cfg, key), "/x/%Y");
        tokio_config_free(cfg);

        setenv(var, "7", 1);
        cfg = load_mem_ok(base, "site.json");
        assert_int_equal(json_integer_value(tokio_config_get(cfg, key)), 7);
        tokio_config_free(cfg);

        /* anything else is taken as the string it is */
        setenv(var, "abc/def/%Y-%m-%d", 1);
        cfg = load_mem_ok(base, "site.json");
        assert_string_equal(get_str(cfg, key), "abc/def/%Y-%m-%d");
        tokio_config_free(cfg);

        setenv(var, "[1, 2", 1);
        cfg = load_mem_ok(base, "site.json");
        assert_string_equal(get_str(cfg, key), "[1, 2");
        tokio_config_free(cfg);

        /* set but empty: the reference stores "" (json.loads fails) */
        setenv(var, "", 1);
        cfg = load_mem_ok(base, "site.json");
        assert_string_equal(get_str(cfg, key), "");
        tokio_config_free(cfg);

        unsetenv(var);
    }
}

static void
test_config_override_not_utf8_is_eformat(void **state)
{
    (void)state;
    struct tokio_config *cfg = NULL;

    setenv("PYTOKIO_HDF5_FILES", "caf\xe9", 1);
    assert_int_equal(tokio_config_open_mem(&cfg, "{}", 2, "x.json"),
                     TOKIO_EFORMAT);
    assert_null(cfg);
    assert_contains(tokio_errmsg(), "PYTOKIO_HDF5_FILES");
}

static void
test_config_other_pytokio_vars_are_ignored(void **state)
{
    (void)state;
    setenv("PYTOKIO_LMT_TIMESTEP", "10", 1);
    struct tokio_config *cfg = load_mem_ok("{\"lmt_timestep\": 5}", "x");
    assert_int_equal(json_integer_value(tokio_config_get(cfg,
                                                         "lmt_timestep")), 5);
    tokio_config_free(cfg);
    unsetenv("PYTOKIO_LMT_TIMESTEP");
}

/* ------------------------------------------------------------------ */
/* Keys                                                                 */

static void
test_config_underscore_keys_are_skipped(void **state)
{
    (void)state;
    struct tokio_config *cfg = load_mem_ok(
        "{\"_comment\": \"x\", \"__doc\": [1], \"a_b\": 1,"
        " \"nested\": {\"_kept\": 2}}", "x.json");

    assert_null(tokio_config_get(cfg, "_comment"));
    assert_null(tokio_config_get(cfg, "__doc"));
    assert_non_null(tokio_config_get(cfg, "a_b"));
    /* only the top level: nested keys are data (regexes, names) */
    assert_non_null(json_object_get(tokio_config_get(cfg, "nested"),
                                    "_kept"));
    assert_int_equal(json_object_size(tokio_config_json(cfg)), 2);
    tokio_config_free(cfg);
}

static void
test_config_keys_are_lower_cased_later_wins(void **state)
{
    (void)state;
    struct tokio_config *cfg = load_mem_ok(
        "{\"LMT_TIMESTEP\": 5, \"Mount_To_FSname\": {\"^/A\": \"Fs\"},"
        " \"isdct_FILES\": \"x\", \"ISDCT_files\": \"y\"}", "x.json");

    assert_int_equal(json_integer_value(tokio_config_get(cfg,
                                                         "lmt_timestep")), 5);
    assert_null(tokio_config_get(cfg, "LMT_TIMESTEP"));
    /* nested keys and all values keep their case */
    assert_string_equal(json_string_value(json_object_get(
        tokio_config_get(cfg, "mount_to_fsname"), "^/A")), "Fs");
    /* Differs from pytokio: it keeps whichever came first when the
     * earlier value is a number; we let the later key win always. */
    assert_string_equal(get_str(cfg, "isdct_files"), "y");
    assert_int_equal(json_object_size(tokio_config_json(cfg)), 3);
    tokio_config_free(cfg);
}

/* ------------------------------------------------------------------ */
/* YAML                                                                 */

static const json_t *
path_get(const json_t *v, const char *a, const char *b)
{
    v = json_object_get(v, a);
    return b ? json_object_get(v, b) : v;
}

static void
test_config_yaml_site_expands_and_types(void **state)
{
    (void)state;
    setenv("TOKIO_TEST_ROOT", "/data/root", 1);
    unsetenv("TOKIO_TEST_UNSET_VARIABLE");
    struct tokio_config *cfg =
        load_ok(tokio_test_source("tests/core/config/site.yaml"));
    const json_t *root = tokio_config_json(cfg);

    assert_null(tokio_config_get(cfg, "_comment"));
    assert_int_equal(json_integer_value(tokio_config_get(cfg,
                                                         "lmt_timestep")), 5);
    assert_string_equal(json_string_value(path_get(root, "mount_to_fsname",
                                                   "^/home")), "home");

    const json_t *files = path_get(root, "hdf5_files", "scratch");
    assert_int_equal(json_array_size(files), 5);
    assert_string_equal(json_string_value(json_array_get(files, 0)),
                        "/data/root/%Y-%m-%d/exscr01.hdf5");
    /* the reference expands only scalars holding "${...}" */
    assert_string_equal(json_string_value(json_array_get(files, 1)),
                        "$TOKIO_TEST_ROOT/plain-dollar-only/not-expanded");
    assert_string_equal(json_string_value(json_array_get(files, 2)),
                        "${TOKIO_TEST_ROOT}/quoted/not-expanded");
    assert_string_equal(json_string_value(json_array_get(files, 3)),
                        "${TOKIO_TEST_ROOT}/single-quoted");
    /* once it does, $NAME too; unknown names stay as written */
    assert_string_equal(json_string_value(json_array_get(files, 4)),
                        "/data/root/${TOKIO_TEST_UNSET_VARIABLE}//data/root");
    assert_string_equal(get_str(cfg, "isdct_files"),
                        "/data/root/isdct.tgz");

    const json_t *t = tokio_config_get(cfg, "types");
    assert_int_equal(json_integer_value(json_object_get(t, "int")), 42);
    assert_int_equal(json_integer_value(json_object_get(t, "negative_hex")),
                     -31);
    assert_int_equal(json_integer_value(json_object_get(t, "octal")), 15);
    assert_int_equal(json_integer_value(json_object_get(t, "base60")), 80);
    assert_int_equal(json_integer_value(json_object_get(t, "underscored")),
                     1000);
    assert_true(json_real_value(json_object_get(t, "float")) == 2.5);
    assert_true(json_real_value(json_object_get(t, "exponent")) == 1500.0);
    /* PyYAML's YAML 1.1 floats need a '.' and a signed exponent */
    assert_string_equal(json_string_value(json_object_get(t,
                        "no_sign_exponent")), "1e5");
    /* JSON has no infinity: kept as written */
    assert_string_equal(json_string_value(json_object_get(t, "infinity")),
                        ".inf");
    json_t *bools = json_pack("[b,b,b,b]", 1, 0, 1, 0);
    assert_true(json_equal(json_object_get(t, "bools"), bools));
    json_decref(bools);
    json_t *nulls = json_pack("[n,n,n]");
    assert_true(json_equal(json_object_get(t, "nulls"), nulls));
    json_decref(nulls);
    assert_true(json_is_null(json_object_get(t, "empty")));
    assert_string_equal(json_string_value(json_object_get(t, "quoted_int")),
                        "42");
    assert_string_equal(json_string_value(json_object_get(t, "tagged_str")),
                        "42");
    assert_int_equal(json_integer_value(json_object_get(t, "tagged_int")),
                     42);
    assert_true(json_real_value(json_object_get(t, "tagged_float")) == 1.0);
    assert_string_equal(json_string_value(json_object_get(t, "date")),
                        "2019-05-15");

    /* merge: the mapping's own keys beat merged ones */
    const json_t *nersc = path_get(root, "esnet_snmp_interfaces", "nersc");
    assert_int_equal(json_integer_value(json_object_get(nersc, "timeout")),
                     30);
    assert_int_equal(json_integer_value(json_object_get(nersc, "retries")),
                     5);
    const json_t *shared = tokio_config_get(cfg, "shared");
    assert_int_equal(json_array_size(shared), 2);
    assert_true(json_equal(json_array_get(shared, 1),
                           (json_t *)tokio_config_get(cfg, "defaults")));
    tokio_config_free(cfg);
    unsetenv("TOKIO_TEST_ROOT");
}

/* Scalars as os.path.expandvars() treats them, in table form. */
static void
test_config_yaml_expandvars_cases(void **state)
{
    static const struct {
        const char *yaml;
        const char *want;
    } cases[] = {
        { "v: ${TV_A}", "alpha" },
        { "v: x${TV_A}y", "xalphay" },
        { "v: ${TV_A}${TV_A}", "alphaalpha" },
        { "v: $TV_A-${TV_A}", "alpha-alpha" },
        { "v: $${TV_A}", "$alpha" },
        { "v: ${TV_A}}", "alpha}" },
        { "v: ${TV_A} ${TV_NOPE} $TV_NOPE", "alpha ${TV_NOPE} $TV_NOPE" },
        { "v: ${} ${TV_A}", "${} alpha" },
        { "v: ${TV_A} ${A B}", "alpha ${A B}" },
        { "v: ${TV_A} ${TV_A", "alpha ${TV_A" },
        { "v: ${TV_A} ${x $TV_A", "alpha ${x alpha" },
        { "v: ${TV_EMPTY}|", "|" },
        { "v: $TV_A", "$TV_A" },               /* no "${": untouched */
        { "v: ${TV^A} $TV_A", "${TV^A} $TV_A" },  /* '^' never matches */
        { "v: '${TV_A}'", "${TV_A}" },
        { "v: \"${TV_A}\"", "${TV_A}" },
        { "v: !path $TV_A", "alpha" },
        { "v: ! ${TV_A}", "alpha" },
        { "v: 12${TV_A}", "12alpha" },
        { "${TV_A}: 1", NULL },                /* keys expand too */
    };
    (void)state;
    setenv("TV_A", "alpha", 1);
    setenv("TV_EMPTY", "", 1);
    unsetenv("TV_NOPE");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_config *cfg = load_mem_ok(cases[i].yaml, "x.yaml");
        if (cases[i].want == NULL) {
            assert_non_null(tokio_config_get(cfg, "alpha"));
        } else {
            const char *got = get_str(cfg, "v");
            if (strcmp(got, cases[i].want) != 0)
                fail_msg("%s: got '%s', want '%s'", cases[i].yaml, got,
                         cases[i].want);
        }
        tokio_config_free(cfg);
    }
    unsetenv("TV_A");
    unsetenv("TV_EMPTY");
}

static void
test_config_yaml_scalar_types(void **state)
{
    static const struct {
        const char *yaml;
        const char *json;       /* the value as JSON */
    } cases[] = {
        { "v: 0b101", "5" }, { "v: -0b101", "-5" }, { "v: 0x_1F", "31" },
        { "v: 0", "0" }, { "v: -0", "0" }, { "v: 00", "0" }, { "v: 0_", "0" },
        { "v: 09", "\"09\"" }, { "v: 0o17", "\"0o17\"" },
        { "v: +12", "12" }, { "v: 190:20:30", "685230" },
        { "v: 1:60", "\"1:60\"" }, { "v: 0:30", "\"0:30\"" },
        { "v: 9223372036854775807", "9223372036854775807" },
        { "v: -9223372036854775808", "-9223372036854775808" },
        /* beyond 64 bits: kept as written rather than rounded */
        { "v: 9223372036854775808", "\"9223372036854775808\"" },
        { "v: 0x", "\"0x\"" }, { "v: 0x_", "\"0x_\"" },
        { "v: .5", "0.5" }, { "v: -.5", "\"-.5\"" }, { "v: 1.", "1.0" },
        { "v: 1.e+3", "1000.0" }, { "v: 1.0e5", "\"1.0e5\"" },
        { "v: 1_0.2_5", "10.25" }, { "v: 190:20:30.15", "685230.15" },
        { "v: -.INF", "\"-.INF\"" }, { "v: .NaN", "\".NaN\"" },
        { "v: 1.0e+999", "\"1.0e+999\"" },
        { "v: On", "true" }, { "v: oN", "\"oN\"" }, { "v: NO", "false" },
        { "v: Null", "null" }, { "v: nULL", "\"nULL\"" },
        { "v: !!bool yEs", "true" }, { "v: !!null x", "null" },
        { "v: !!float 1e5", "100000.0" }, { "v: !!float 017", "17.0" },
        { "v: !!float .inf", "\".inf\"" }, { "v: !!str ~", "\"~\"" },
        { "v: !!timestamp 2001-12-14", "\"2001-12-14\"" },
        { "v: ! 12", "12" }, { "v: ! '12'", "\"12\"" },
        { "v: !!seq [1]", "[1]" }, { "v: !!map {a: 1}", "{\"a\": 1}" },
        { "v: \"<<\"", "\"<<\"" }, { "v: 2019-05-15", "\"2019-05-15\"" },
        { "v: {1: a, 2.5: b, yes: c, ~: d}",
          "{\"1\": \"a\", \"2.5\": \"b\", \"null\": \"d\", \"true\": \"c\"}" },
        { "v: [a, *x]\nx: &x 1", NULL },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_config *cfg = NULL;
        int rc = tokio_config_open_mem(&cfg, cases[i].yaml,
                                       strlen(cases[i].yaml), "x.yaml");
        if (cases[i].json == NULL) {
            /* an alias before its anchor is undefined */
            assert_int_equal(rc, TOKIO_EFORMAT);
            continue;
        }
        if (rc != TOKIO_OK)
            fail_msg("%s: %s", cases[i].yaml, tokio_errmsg());
        char *got = json_dumps(tokio_config_get(cfg, "v"),
                               JSON_ENCODE_ANY | JSON_SORT_KEYS |
                               JSON_REAL_PRECISION(17));
        json_t *want = json_loads(cases[i].json, JSON_DECODE_ANY, NULL);
        assert_non_null(want);
        if (!json_equal((json_t *)tokio_config_get(cfg, "v"), want))
            fail_msg("%s: got %s, want %s", cases[i].yaml, got,
                     cases[i].json);
        /* 1.0 must stay a real, 1 an integer */
        assert_int_equal(json_typeof(tokio_config_get(cfg, "v")),
                         json_typeof(want));
        free(got);
        json_decref(want);
        tokio_config_free(cfg);
    }
}

static void
test_config_yaml_merge_order(void **state)
{
    (void)state;
    struct tokio_config *cfg = load_mem_ok(
        "a: &x {b: 1}\n"
        "e: &y {b: 2, f: 5}\n"
        "list: {<<: [*x, *y]}\n"
        "twice:\n  <<: *x\n  <<: *y\n"
        "own:\n  b: 9\n  <<: [*x, *y]\n", "x.yaml");

    /* as PyYAML: in a list the first wins, a later "<<" beats an earlier
     * one, and the mapping's own keys beat both */
    json_t *want = json_pack("{s:i,s:i}", "b", 1, "f", 5);
    assert_true(json_equal((json_t *)tokio_config_get(cfg, "list"), want));
    json_decref(want);
    want = json_pack("{s:i,s:i}", "b", 2, "f", 5);
    assert_true(json_equal((json_t *)tokio_config_get(cfg, "twice"), want));
    json_decref(want);
    want = json_pack("{s:i,s:i}", "b", 9, "f", 5);
    assert_true(json_equal((json_t *)tokio_config_get(cfg, "own"), want));
    json_decref(want);
    tokio_config_free(cfg);
}

static void
test_config_empty_documents_are_empty(void **state)
{
    static const char *const texts[] = { "", "\n\n", "# only a comment\n",
                                         "---\n", "~\n", "--- null\n...\n",
                                         "{}", "  {  }  " };
    (void)state;
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        struct tokio_config *cfg = load_mem_ok(texts[i], "x");
        assert_int_equal(json_object_size(tokio_config_json(cfg)), 0);
        assert_null(tokio_config_path(cfg));
        tokio_config_free(cfg);
    }
}

static void
test_config_format_chosen_by_name_then_text(void **state)
{
    (void)state;
    /* '{' first and not named .yaml: jansson, so YAML-only syntax fails */
    struct tokio_config *cfg = NULL;
    const char *flow = "{a: 1}";
    assert_int_equal(tokio_config_open_mem(&cfg, flow, strlen(flow),
                                           "x.json"), TOKIO_EFORMAT);
    cfg = load_mem_ok(flow, "x.yaml");
    assert_int_equal(json_integer_value(tokio_config_get(cfg, "a")), 1);
    tokio_config_free(cfg);
    cfg = load_mem_ok(flow, "x.yml");
    tokio_config_free(cfg);
    /* no name: still by the first character */
    cfg = load_mem_ok("a: 1\n", NULL);
    tokio_config_free(cfg);
    assert_int_equal(tokio_config_open_mem(&cfg, flow, strlen(flow), NULL),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'<memory>' line 1 column 2");
}

/* ------------------------------------------------------------------ */
/* Malformed inputs, as data                                            */

static int
status_code(const char *name)
{
    static const struct {
        const char *name;
        int code;
    } codes[] = {
        { "EFORMAT", TOKIO_EFORMAT }, { "EIO", TOKIO_EIO },
        { "ENOMEM", TOKIO_ENOMEM }, { "EINVAL", TOKIO_EINVAL },
        { "ENOTFOUND", TOKIO_ENOTFOUND }, { "ERR", TOKIO_ERR },
    };
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
        if (strcmp(codes[i].name, name) == 0)
            return codes[i].code;
    fail_msg("unknown status '%s' in an .expect file", name);
    return 0;
}

static void
test_config_bad_inputs_report_status_and_location(void **state)
{
    (void)state;
    const char *dir = tokio_test_source("tests/core/config/bad");
    char dirpath[4096];
    DIR *d;
    struct dirent *e;
    size_t n = 0;

    snprintf(dirpath, sizeof(dirpath), "%s", dir);
    assert_non_null(d = opendir(dirpath));
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        char expect[4096], input[4096], status[64], fragment[512];

        if (len < 8 || strcmp(e->d_name + len - 7, ".expect") != 0)
            continue;
        assert_true(snprintf(expect, sizeof(expect), "%s/%s", dirpath,
                             e->d_name) < (int)sizeof(expect));
        char *text = tokio_test_read_file(expect, NULL);
        assert_non_null(text);
        char *nl = strchr(text, '\n');
        assert_non_null(nl);
        *nl = '\0';
        snprintf(status, sizeof(status), "%s", text);
        char *end = strchr(nl + 1, '\n');
        if (end)
            *end = '\0';
        snprintf(fragment, sizeof(fragment), "%s", nl + 1);
        free(text);

        assert_true(snprintf(input, sizeof(input), "%s/%.*s.json", dirpath,
                             (int)(len - 7), e->d_name) < (int)sizeof(input));
        if (access(input, F_OK) != 0)
            assert_true(snprintf(input, sizeof(input), "%s/%.*s.yaml",
                                 dirpath, (int)(len - 7), e->d_name) <
                        (int)sizeof(input));
        assert_int_equal(access(input, F_OK), 0);

        struct tokio_config *cfg = (struct tokio_config *)&cfg;
        int rc = tokio_config_open(&cfg, input);
        if (rc != status_code(status))
            fail_msg("%s: status %d, want %s (%s)", e->d_name, rc, status,
                     tokio_errmsg());
        assert_null(cfg);
        assert_contains(tokio_errmsg(), input);     /* names the file */
        assert_contains(tokio_errmsg(), fragment);

        /* the same bytes from memory fail the same way */
        size_t blen;
        char *bytes = tokio_test_read_file(input, &blen);
        assert_int_equal(tokio_config_open_mem(&cfg, bytes, blen, input),
                         status_code(status));
        assert_contains(tokio_errmsg(), fragment);
        free(bytes);
        n++;
    }
    closedir(d);
    assert_true(n >= 20);
}

/* ------------------------------------------------------------------ */
/* I/O anomalies                                                        */

static void
test_config_directory_is_eio(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp();
    struct tokio_config *cfg = NULL;

    assert_int_equal(tokio_config_open(&cfg, dir), TOKIO_EIO);
    assert_null(cfg);
    assert_contains(tokio_errmsg(), dir);
    assert_contains(tokio_errmsg(), strerror(EISDIR));

    /* a directory named by the environment is no better */
    setenv("PYTOKIO_CONFIG", dir, 1);
    assert_int_equal(tokio_config_open(&cfg, NULL), TOKIO_EIO);
    unsetenv("PYTOKIO_CONFIG");
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_config_unreadable_file_is_eio(void **state)
{
    (void)state;
    struct tokio_config *cfg = NULL;

    /* open() succeeds but read() fails: Linux gives EIO at offset 0 */
    if (access("/proc/self/mem", R_OK) == 0) {
        assert_int_equal(tokio_config_open(&cfg, "/proc/self/mem"),
                         TOKIO_EIO);
        assert_contains(tokio_errmsg(), "cannot read '/proc/self/mem'");
    }

    char *dir = tokio_test_mkdtemp();
    char path[4096];
    snprintf(path, sizeof(path), "%s/site.json", dir);
    tokio_test_write_file(path, "{}", SIZE_MAX);

    /* a file where a folder should be */
    char below[4096];
    assert_true(snprintf(below, sizeof(below), "%s/x.json", path) <
                (int)sizeof(below));
    assert_int_equal(tokio_config_open(&cfg, below), TOKIO_EIO);
    assert_contains(tokio_errmsg(), strerror(ENOTDIR));

    /* mode 000 stops everyone but root */
    chmod(path, 0);
    if (geteuid() != 0) {
        assert_int_equal(tokio_config_open(&cfg, path), TOKIO_EIO);
        assert_contains(tokio_errmsg(), strerror(EACCES));
    }
    chmod(path, 0600);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_config_huge_file_is_refused(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    struct tokio_config *cfg = NULL;

    snprintf(path, sizeof(path), "%s/huge.json", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)100 << 20), 0);  /* sparse */
    close(fd);
    assert_int_equal(tokio_config_open(&cfg, path), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "larger than 64 MiB");
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_config_null_arguments(void **state)
{
    (void)state;
    struct tokio_config *cfg = NULL;

    assert_int_equal(tokio_config_open(NULL, "x"), TOKIO_EINVAL);
    assert_int_equal(tokio_config_open_mem(NULL, "{}", 2, "x"),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_config_open_mem(&cfg, NULL, 3, "x"),
                     TOKIO_EINVAL);
    cfg = load_mem_ok("", NULL);
    tokio_config_free(cfg);
    assert_null(tokio_config_get(NULL, "x"));
    assert_null(tokio_config_json(NULL));
    assert_null(tokio_config_path(NULL));
    tokio_config_free(NULL);
}

/* ------------------------------------------------------------------ */
/* Out of memory: every allocation, one at a time                       */

static void
oom_loop(const char *path, const char *text, const char *name)
{
    size_t n;

    for (n = 1;; n += tokio_test_oom_step()) {
        struct tokio_config *cfg = (struct tokio_config *)&n;
        tokio_test_fail_alloc_at(n);
        int rc = path ? tokio_config_open(&cfg, path)
                      : tokio_config_open_mem(&cfg, text, strlen(text),
                                              name);
        tokio_test_fail_alloc_at(0);
        if (rc >= 0) {
            tokio_config_free(cfg);
            break;
        }
        if (rc != TOKIO_ENOMEM)
            fail_msg("allocation %zu: %d %s", n, rc, tokio_errmsg());
        assert_null(cfg);
        assert_contains(tokio_errmsg(), "out of memory");
    }
    assert_true(n > 3);
}

static void
test_config_open_survives_every_oom(void **state)
{
    (void)state;
    /* overrides in play, both decoded and raw */
    setenv("PYTOKIO_HDF5_FILES", "{\"a\": [\"/x/%Y\"]}", 1);
    setenv("PYTOKIO_ISDCT_FILES", "/plain/string", 1);
    setenv("TOKIO_TEST_ROOT", "/data/root", 1);

    oom_loop(tokio_test_source("examples/site.json"), NULL, NULL);
    oom_loop(tokio_test_source("tests/core/config/site.yaml"), NULL, NULL);
    oom_loop(NULL, "{\"A\": {\"b\": [1, 2.5, \"c\"]}, \"_c\": 1}", "x.json");
    oom_loop(NULL, "a: &x\n  b:\n    - 1\n    - ${TOKIO_TEST_ROOT}\n"
                   "c: {<<: *x, e: !!float 2}\nd: [*x, *x]\n", "x.yaml");
    const char *site = tokio_test_data("pytokio-inputs/site.json");
    if (site != NULL)
        oom_loop(site, NULL, NULL);
    unsetenv("TOKIO_TEST_ROOT");
}

/* Persistent failure: no matter how many allocations fail, no crash. */
static void
test_config_open_survives_persistent_oom(void **state)
{
    (void)state;
    for (size_t n = 1; n < 200; n += 7) {
        struct tokio_config *cfg = NULL;
        tokio_test_fail_alloc_persistent(n);
        int rc = tokio_config_open(&cfg,
            tokio_test_source("tests/core/config/site.yaml"));
        tokio_test_fail_alloc_at(0);
        if (rc >= 0) {
            tokio_config_free(cfg);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(cfg);
    }
}

/* ------------------------------------------------------------------ */
/* Regressions                                                          */

/*
 * jansson 2.14 reports a string it could not allocate as a syntax error.
 * Taken at its word, an override that is valid JSON would then be kept as
 * the raw string: a silently wrong value.  It must be ENOMEM instead.
 */
static void
test_config_regress_override_oom_is_not_raw_string(void **state)
{
    (void)state;
    setenv("PYTOKIO_DARSHAN_LOG_DIRS", "{\"sys\": \"/logs\"}", 1);
    for (size_t n = 1;; n += tokio_test_oom_step()) {
        struct tokio_config *cfg = NULL;
        tokio_test_fail_alloc_at(n);
        int rc = tokio_config_open_mem(&cfg, "{}", 2, "x.json");
        tokio_test_fail_alloc_at(0);
        if (rc < 0) {
            assert_int_equal(rc, TOKIO_ENOMEM);
            continue;
        }
        assert_true(json_is_object(tokio_config_get(cfg,
                                                    "darshan_log_dirs")));
        tokio_config_free(cfg);
        break;
    }
}

/* jansson leaves part of json_error_t unwritten when it fails before
 * lexing; reading it uninitialised was a valgrind finding. */
static void
test_config_regress_first_jansson_allocation_fails_cleanly(void **state)
{
    (void)state;
    struct tokio_config *cfg = NULL;
    /* text is parsed before anything else is allocated: allocation 1 is
     * jansson's lexer buffer, the next few its first tokens and object */
    for (size_t n = 1; n <= 4; n++) {
        tokio_test_fail_alloc_at(n);
        int rc = tokio_config_open_mem(&cfg, "{\"a\": 1}", 8, "x.json");
        tokio_test_fail_alloc_at(0);
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(cfg);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
        T(test_config_site_json_matches_jansson),
        T(test_config_sample_config_keeps_big_integer),
        T(test_config_bundled_example_is_complete),
        T(test_config_env_precedence),
        T(test_config_env_names_missing_file_is_eio),
        T(test_config_missing_default_is_empty),
        T(test_config_each_override_takes_json_or_string),
        T(test_config_override_not_utf8_is_eformat),
        T(test_config_other_pytokio_vars_are_ignored),
        T(test_config_underscore_keys_are_skipped),
        T(test_config_keys_are_lower_cased_later_wins),
        T(test_config_yaml_site_expands_and_types),
        T(test_config_yaml_expandvars_cases),
        T(test_config_yaml_scalar_types),
        T(test_config_yaml_merge_order),
        T(test_config_empty_documents_are_empty),
        T(test_config_format_chosen_by_name_then_text),
        T(test_config_bad_inputs_report_status_and_location),
        T(test_config_directory_is_eio),
        T(test_config_unreadable_file_is_eio),
        T(test_config_huge_file_is_refused),
        T(test_config_null_arguments),
        T(test_config_open_survives_every_oom),
        T(test_config_open_survives_persistent_oom),
        T(test_config_regress_override_oom_is_not_raw_string),
        T(test_config_regress_first_jansson_allocation_fails_cleanly),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
