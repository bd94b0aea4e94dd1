/*
 * tests/cli/test_darshan_scoreboard.c - `tokio darshan-scoreboard`, run
 * as the goldens were made (golden/pytokio/COMMANDS.md): from a folder
 * where `inputs` is pytokio-inputs, with PYTOKIO_CONFIG=inputs/site.json.
 *
 * Text output must match byte for byte.  JSON is compared by value
 * (json_equal: key order free, numbers exact): every number is an SQLite
 * integer sum, so the reference and we print the very same integers and
 * there is no float to allow a tolerance for.  Then, as our JSON writer
 * follows json.dumps, byte for byte too.
 */
#include "testutil.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GOLDEN "golden/pytokio/darshan_scoreboard/"

static const char *const env[] = { "PYTOKIO_CONFIG=inputs/site.json",
                                   "TZ=America/Los_Angeles", NULL };

static char *
read_golden(const char *name)
{
    char rel[256];

    snprintf(rel, sizeof(rel), GOLDEN "%s", name);
    const char *path = tokio_test_data(rel);
    assert_non_null(path);
    char *text = tokio_test_read_file(path, NULL);
    assert_non_null(text);
    return text;
}

/* Run `tokio darshan-scoreboard ARGS... inputs/darshanlogs.db`. */
static struct tokio_run
run(struct tokio_workdir *fx, const char *const *args)
{
    const char *argv[32] = { "darshan-scoreboard" };
    size_t n = 1;

    for (; *args; args++)
        argv[n++] = *args;
    argv[n++] = "inputs/darshanlogs.db";
    argv[n] = NULL;
    return tokio_test_run(fx->dir, env, argv);
}

static void
check_text(void **state, const char *const *args, const char *golden)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(db, "pytokio-inputs/darshanlogs.db");
    struct tokio_run r = run(fx, args);
    char *want = read_golden(golden);

    (void)db;
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want);
    free(want);
    tokio_run_free(&r);
}

static void
check_json(void **state, const char *const *args, const char *golden)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(db, "pytokio-inputs/darshanlogs.db");
    struct tokio_run r = run(fx, args);
    char *want_text = read_golden(golden);
    json_error_t err;
    json_t *got, *want;

    (void)db;
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    got = json_loads(r.out, 0, &err);
    if (got == NULL)
        fail_msg("output is not JSON: %s\n%s", err.text, r.out);
    want = json_loads(want_text, 0, &err);
    assert_non_null(want);
    if (!json_equal(got, want)) {
        print_message("got:\n%s\nwant:\n%s\n", r.out, want_text);
        fail_msg("differs from %s", golden);
    }
    /* the same values, and json.dumps(indent=4, sort_keys=True)'s bytes */
    assert_string_equal(r.out, want_text);
    json_decref(got);
    json_decref(want);
    free(want_text);
    tokio_run_free(&r);
}

/* One test per golden, named after it. */
#define GOLDEN_TEXT(fn, golden, ...)                                        \
    static void fn(void **state)                                            \
    {                                                                       \
        const char *const args[] = { __VA_ARGS__, NULL };                   \
        check_text(state, args + 1, golden);                                \
    }
#define GOLDEN_JSON(fn, golden, ...)                                        \
    static void fn(void **state)                                            \
    {                                                                       \
        const char *const args[] = { __VA_ARGS__, NULL };                   \
        check_json(state, args + 1, golden);                                \
    }

/* (the leading "" only gives the variadic list a first element) */
GOLDEN_TEXT(test_default_txt, "darshanlogs.db.default.txt", "")
GOLDEN_TEXT(test_max_show3_txt, "darshanlogs.db.max-show3.txt",
            "", "--max-show", "3")
GOLDEN_JSON(test_json, "darshanlogs.db.json", "", "--json")
GOLDEN_JSON(test_limit_user_json, "darshanlogs.db.limit-user.json",
            "", "--json", "--limit-user", "aa4hm0jcwfg")
GOLDEN_JSON(test_exclude_user_json, "darshanlogs.db.exclude-user.json",
            "", "--json", "--exclude-user", "aa4hm0jcwfg")
GOLDEN_JSON(test_limit_fs_mountpt_json,
            "darshanlogs.db.limit-fs-mountpt.json",
            "", "--json", "--limit-fs", "/global/cscratch1")
GOLDEN_JSON(test_limit_fs_logical_json,
            "darshanlogs.db.limit-fs-logical.json",
            "", "--json", "--limit-fs", "homes-u2")
GOLDEN_JSON(test_exclude_fs_logical_json,
            "darshanlogs.db.exclude-fs-logical.json",
            "", "--json", "--exclude-fs", "cscratch")
GOLDEN_JSON(test_exclude_fs_all_json, "darshanlogs.db.exclude-fs-all.json",
            "", "--json", "--exclude-fs", "/global/cscratch1,/global/u2")
GOLDEN_JSON(test_limit_exe_json, "darshanlogs.db.limit-exe.json",
            "", "--json", "--limit-exe", "1221559022,2054166464,1700134137")
GOLDEN_JSON(test_exclude_exe_json, "darshanlogs.db.exclude-exe.json",
            "", "--json", "--exclude-exe", "1221559022")

static void
test_index_pytokio_inputs(void **state)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(db, "pytokio-inputs/sample.darshan");
    /* the golden's index: index_darshanlogs over inputs's logs, in
     * the shell's order; our index-darshanlogs builds the same one
     * (tests/cli/test_index_darshanlogs.c compares the dumps) */
    char *top, *copy = tokio_test_copy_data("pytokio-inputs", &top);
    const char *names[] = {
        "glock_vpicio_uni_id4478544_3-20-7667-18385393005962577517_1",
        "noposix", "noposixopens", "sample-2", "sample-badost",
        "sample-goodost", "sample",
    };
    const char *argv[16] = { "index-darshanlogs", "-o", "index.db" };
    char paths[7][4300];

    (void)db;
    for (size_t i = 0; i < 7; i++) {
        snprintf(paths[i], sizeof(paths[i]), "%s/%s.darshan", copy,
                 names[i]);
        argv[3 + i] = paths[i];
    }
    struct tokio_run r = tokio_test_run(fx->dir, env, argv);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);

    const char *text_argv[] = { "darshan-scoreboard", "index.db", NULL };
    const char *json_argv[] = { "darshan-scoreboard", "--json", "index.db",
                                NULL };
    char *want = read_golden("index-pytokio-inputs.txt");
    r = tokio_test_run(fx->dir, env, text_argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want);
    free(want);
    tokio_run_free(&r);
    want = read_golden("index-pytokio-inputs.json");
    r = tokio_test_run(fx->dir, env, json_argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want);
    free(want);
    tokio_run_free(&r);
    free(copy);
    tokio_test_rmtree(top);
    free(top);
}

/* --json ignores --max-show, as the reference does; -v does nothing */
static void
test_json_ignores_max_show_and_verbose(void **state)
{
    const char *const args[] = { "--json", "--max-show", "1", "-v", NULL };

    check_json(state, args, "darshanlogs.db.json");
}

/* An empty filter value filters nothing, as in the reference. */
static void
test_empty_filter_is_no_filter(void **state)
{
    const char *const args[] = { "--limit-user=", NULL };

    check_text(state, args, "darshanlogs.db.default.txt");
}

/* Several databases: rows concatenated, the table re-sorted. */
static void
test_two_databases(void **state)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(db, "pytokio-inputs/darshanlogs.db");
    const char *argv[] = { "darshan-scoreboard", "--max-show", "2",
                           "inputs/darshanlogs.db", "inputs/darshanlogs.db",
                           NULL };
    struct tokio_run r = tokio_test_run(fx->dir, env, argv);

    (void)db;
    assert_int_equal(r.status, 0);
    /* the top row twice, once per database */
    assert_contains(r.out,
        " 1.                               ztbmj73pgr        4.6        5.0"
        "        1\n"
        " 2.                               ztbmj73pgr        4.6        5.0"
        "        1\n");
    tokio_run_free(&r);
}

/* ------------------------------------------------------------------
 * Failures
 */

static void
assert_failure(struct tokio_run *r, int status, const char *needle)
{
    if (r->status != status)
        print_message("stderr: %s\n", r->err);
    assert_int_equal(r->status, status);
    assert_string_equal(r->out, "");
    assert_contains(r->err, needle);
}

static void
test_missing_database(void **state)
{
    struct tokio_workdir *fx = *state;
    const char *argv[] = { "darshan-scoreboard", "no-such.db", NULL };
    struct tokio_run r = tokio_test_run(fx->dir, env, argv);
    char path[4200];

    assert_failure(&r, 1, "tokio darshan-scoreboard: error: ");
    assert_contains(r.err, "'no-such.db'");
    assert_contains(r.err, "unable to open database file");
    snprintf(path, sizeof(path), "%s/no-such.db", fx->dir);
    assert_int_not_equal(access(path, F_OK), 0);   /* not created */
    tokio_run_free(&r);
}

static void
test_not_sqlite(void **state)
{
    struct tokio_workdir *fx = *state;
    char path[4200];
    const char *argv[] = { "darshan-scoreboard", "--json", "notes.db", NULL };

    snprintf(path, sizeof(path), "%s/notes.db", fx->dir);
    tokio_test_write_file(path, "Lorem ipsum dolor sit amet, consectetur "
                          "adipiscing elit, sed do eiusmod tempor incididunt "
                          "ut labore et dolore magna aliqua.\n", SIZE_MAX);
    struct tokio_run r = tokio_test_run(fx->dir, env, argv);
    assert_failure(&r, 1, "'notes.db'");
    assert_contains(r.err, "file is not a database");
    tokio_run_free(&r);
}

static void
test_sqlite_without_tables(void **state)
{
    struct tokio_workdir *fx = *state;
    char path[4200];
    sqlite3 *db;
    const char *argv[] = { "darshan-scoreboard", "jobs.db", NULL };

    snprintf(path, sizeof(path), "%s/jobs.db", fx->dir);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE jobs (id INTEGER)",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    struct tokio_run r = tokio_test_run(fx->dir, env, argv);
    assert_failure(&r, 1, "'jobs.db' is not a Darshan index database");
    assert_contains(r.err, "no such table");
    tokio_run_free(&r);
}

static void
test_usage_errors(void **state)
{
    struct tokio_workdir *fx = *state;
    const char *const cases[][7] = {
        { "darshan-scoreboard", "--frobnicate", "x.db", NULL },
        { "darshan-scoreboard", NULL },
        { "darshan-scoreboard", "--json", NULL },
        { "darshan-scoreboard", "--max-show", "ten", "x.db", NULL },
        { "darshan-scoreboard", "--limit-fs", "a", "--exclude-fs", "b",
          "x.db", NULL },
        { "darshan-scoreboard", "--exclude-user", "a", "--limit-user=b",
          "x.db" },
    };
    const char *const needles[] = {
        "unknown option '--frobnicate'", "expected at least one <indexfile>",
        "expected at least one <indexfile>", "--max-show expects a whole",
        "--limit-fs and --exclude-fs cannot be used together",
        "--limit-user and --exclude-user cannot be used together",
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_run r = tokio_test_run(fx->dir, env, cases[i]);
        assert_failure(&r, 2, needles[i]);
        assert_contains(r.err, "see 'tokio darshan-scoreboard --help'");
        tokio_run_free(&r);
    }
}

static void
test_help(void **state)
{
    struct tokio_workdir *fx = *state;
    const char *argv[] = { "darshan-scoreboard", "--help", NULL };
    struct tokio_run r = tokio_test_run(fx->dir, env, argv);

    assert_int_equal(r.status, 0);
    assert_contains(r.out, "usage: tokio darshan-scoreboard");
    assert_contains(r.out, "--limit-exe");
    assert_contains(r.out, "--max-show");
    tokio_run_free(&r);
}

int
main(void)
{
#define T(name) TOKIO_TEST_IN_WORKDIR(name)
    const struct CMUnitTest tests[] = {
        T(test_default_txt),
        T(test_max_show3_txt),
        T(test_json),
        T(test_limit_user_json),
        T(test_exclude_user_json),
        T(test_limit_fs_mountpt_json),
        T(test_limit_fs_logical_json),
        T(test_exclude_fs_logical_json),
        T(test_exclude_fs_all_json),
        T(test_limit_exe_json),
        T(test_exclude_exe_json),
        T(test_index_pytokio_inputs),
        T(test_json_ignores_max_show_and_verbose),
        T(test_empty_filter_is_no_filter),
        T(test_two_databases),
        T(test_missing_database),
        T(test_not_sqlite),
        T(test_sqlite_without_tables),
        T(test_usage_errors),
        T(test_help),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
