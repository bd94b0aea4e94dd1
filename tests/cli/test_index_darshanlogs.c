/*
 * tests/cli/test_index_darshanlogs.c - `tokio index-darshanlogs`, run as
 * the goldens were made (golden/pytokio/COMMANDS.md): from a folder where
 * `inputs` is pytokio-inputs, PYTOKIO_CONFIG=inputs/site.json, and the
 * index compared as `sqlite3 DB .dump` text.  The dump is deterministic
 * (rows in input order whatever --threads), so it must equal the golden
 * byte for byte.
 *
 * Where the pack is absent, the project's own sample logs (made by
 * examples/make_sample_data into the build folder) serve the tests that
 * need no golden, run without a site configuration.
 */
#include "testutil.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const pack_env[] = { "PYTOKIO_CONFIG=inputs/site.json",
                                        "TZ=America/Los_Angeles", NULL };
static const char *const own_env[] = { "PYTOKIO_CONFIG=",
                                       "TZ=America/Los_Angeles", NULL };

/* The goldens' environment where the pack is (`inputs` is its copy),
 * else none of its configuration. */
static const char *const *
env_of(const struct tokio_workdir *fx)
{
    return fx->inputs != NULL ? pack_env : own_env;
}

/* Row counts and an integrity check, for when there is no sqlite3. */
static long
count_rows(const char *db, const char *table)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    char sql[128];
    long n = -1;

    /* read-write: a killed writer's hot journal is rolled back on open,
     * which a read-only connection cannot do */
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1,
                                        &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM %s", table);
    /* killed before the tables were made: an empty index */
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_close(h);
        return 0;
    }
    if (sqlite3_step(st) == SQLITE_ROW)
        n = (long)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

static char *
path_in(const struct tokio_workdir *fx, const char *name)
{
    char *p = malloc(4200);

    snprintf(p, 4200, "%s/%s", fx->dir, name);
    return p;
}

/* The golden's input list: inputs's .darshan files in glob order. */
static const char *const pytokio_logs[] = {
    "inputs/glock_vpicio_uni_id4478544_3-20-7667-18385393005962577517_1"
    ".darshan",
    "inputs/noposix.darshan", "inputs/noposixopens.darshan",
    "inputs/sample-2.darshan", "inputs/sample-badost.darshan",
    "inputs/sample-goodost.darshan", "inputs/sample.darshan", NULL
};

static struct tokio_run
run_index(const struct tokio_workdir *fx, const char *db, const char *const *pre,
          const char *const *logs)
{
    const char *argv[64] = { "index-darshanlogs", "--output", db };
    size_t n = 3;

    for (; pre && *pre; pre++)
        argv[n++] = *pre;
    for (; *logs; logs++)
        argv[n++] = *logs;
    argv[n] = NULL;
    return tokio_test_run(fx->dir, env_of(fx), argv);
}

static void
check_golden(void **state, const char *const *pre, const char *golden)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(want_path, golden);
    char *want = tokio_test_read_file(want_path, NULL);
    struct tokio_run r = run_index(fx, "index.db", pre, pytokio_logs);
    char *db = path_in(fx, "index.db");
    char *got;

    assert_string_equal(r.err, "");
    assert_string_equal(r.out, "");
    assert_int_equal(r.status, 0);
    got = tokio_test_sqlite_dump(db);
    TOKIO_TEST_NEED_SQLITE3(got);
    assert_string_equal(got, want);
    free(got);
    free(want);
    free(db);
    tokio_run_free(&r);
}

static void
test_golden_pytokio_inputs(void **state)
{
    check_golden(state, NULL,
                 "golden/pytokio/index_darshanlogs/pytokio-inputs.sql");
}

/* threads and commit-per-log change nothing in the content */
static void
test_golden_four_threads_no_bulk(void **state)
{
    const char *const pre[] = { "--threads", "4", "--no-bulk-insert", NULL };

    check_golden(state, pre,
                 "golden/pytokio/index_darshanlogs/pytokio-inputs.sql");
}

/* The darshan-logs golden, with dxt.darshan (no mount table) skipped. */
static void
test_golden_darshan_logs(void **state)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(want_path,
                         "golden/pytokio/index_darshanlogs/darshan-logs.sql");
    char *top, *logs = tokio_test_copy_data("darshan-logs", &top);
    const char *names[] = {
        "dxt", "example", "ior_hdf5_example", "noposix", "noposixopens",
        "sample-badost", "sample-dxt-simple", "sample-goodost", "sample",
        "shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158",
    };
    const char *argv[16] = { "index-darshanlogs", "-o", "index2.db" };
    char paths[10][4300];
    char *db = path_in(fx, "index2.db");

    for (size_t i = 0; i < 10; i++) {
        snprintf(paths[i], sizeof(paths[i]), "%s/%s.darshan", logs,
                 names[i]);
        argv[3 + i] = paths[i];
    }
    struct tokio_run r = tokio_test_run(fx->dir, env_of(fx), argv);
    assert_int_equal(r.status, 0);
    assert_contains(r.err, "warning: skipping '");
    assert_contains(r.err, "dxt.darshan': no mount table found");
    char *got = tokio_test_sqlite_dump(db);
    char *want = tokio_test_read_file(want_path, NULL);
    TOKIO_TEST_NEED_SQLITE3(got);
    assert_string_equal(got, want);
    free(got);
    free(want);
    free(db);
    free(logs);
    tokio_test_rmtree(top);
    free(top);
    tokio_run_free(&r);
}

/* One folder argument stands for its files; a rerun adds nothing. */
static void
test_folder_and_rerun(void **state)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs");
    const char *const folder[] = { "inputs", NULL };
    const char *const pre[] = { "-q", "-v", NULL };
    char *db = path_in(fx, "dir.db");

    (void)in;
    struct tokio_run r = run_index(fx, "dir.db", pre, folder);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");       /* -q: no warnings */
    assert_contains(r.out, "0 log files already found in database\n");
    assert_contains(r.out, "Updated dir.db\n");
    long headers = count_rows(db, "headers");
    long summaries = count_rows(db, "summaries");
    assert_int_equal(headers, 7);
    tokio_run_free(&r);

    r = run_index(fx, "dir.db", pre, folder);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "7 log files already found in database\n");
    /* the folder's other files are no logs: tried again, as in the
     * reference, which remembers only what it indexed */
    assert_contains(r.out, "Excluding 7 existing logs\n");
    assert_contains(r.out, "Ingested 0 logs");
    assert_int_equal(count_rows(db, "headers"), headers);
    assert_int_equal(count_rows(db, "summaries"), summaries);
    free(db);
    tokio_run_free(&r);
}

/* Indexing in two runs gives the dump of one run. */
static void
test_resume_in_two_runs(void **state)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(want_path,
                         "golden/pytokio/index_darshanlogs/pytokio-inputs.sql");
    const char *const first[] = { pytokio_logs[0], pytokio_logs[3],
                                  pytokio_logs[4], NULL };
    char *db = path_in(fx, "resume.db");

    struct tokio_run r = run_index(fx, "resume.db", NULL, first);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    r = run_index(fx, "resume.db", NULL, pytokio_logs);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    /* ids follow indexing order, so compare the content by name */
    assert_int_equal(count_rows(db, "headers"), 7);
    assert_int_equal(count_rows(db, "summaries"), 15);
    assert_int_equal(count_rows(db, "mounts"), 5);
    free(db);
}

/* 0-byte and corrupt logs are named on stderr and skipped; exit 0. */
static void
test_bad_logs_are_skipped(void **state)
{
    struct tokio_workdir *fx = *state;
    char *empty = path_in(fx, "empty.darshan");
    char *corrupt = path_in(fx, "corrupt.darshan");
    char *db = path_in(fx, "bad.db");
    const char *sample = tokio_test_data("pytokio-inputs/sample.darshan");
    size_t len = 0;
    char *bytes = NULL;

    tokio_test_write_file(empty, "", 0);
    if (sample != NULL)
        bytes = tokio_test_read_file(sample, &len);
    if (bytes == NULL) {
        bytes = strdup("darshan-log-version-3.10, then nonsense");
        len = strlen(bytes);
    }
    tokio_test_write_file(corrupt, bytes, len / 3);   /* truncated */
    char *good = path_in(fx, "good.darshan");
    tokio_test_make_darshan_log(good, 1);
    /* among a good log, bad ones are warnings (issue 17 item 6) */
    const char *const logs[] = { "empty.darshan", "corrupt.darshan",
                                 "missing.darshan", "good.darshan", NULL };
    struct tokio_run r = run_index(fx, "bad.db", NULL, logs);
    assert_int_equal(r.status, 0);
    assert_contains(r.err, "warning: skipping 'empty.darshan'");
    assert_contains(r.err, "warning: skipping 'corrupt.darshan'");
    assert_contains(r.err, "warning: skipping 'missing.darshan'");
    assert_int_equal(count_rows(db, "headers"), 1);
    tokio_run_free(&r);

    const char *const quiet[] = { "--quiet", NULL };
    r = run_index(fx, "bad.db", quiet, logs);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    tokio_run_free(&r);
    free(good);
    free(bytes);
    free(empty);
    free(corrupt);
    free(db);
}

/* Issue 17 item 6: when no log given can be read (missing, random bytes,
 * another kind of file), the run did nothing: exit 1, each log named on
 * its own line, with --quiet too. */
static void
test_no_log_readable_fails(void **state)
{
    struct tokio_workdir *fx = *state;
    char *noise = path_in(fx, "noise.darshan");
    char *other = path_in(fx, "other.json");
    unsigned char bytes[4096];

    for (size_t i = 0; i < sizeof(bytes); i++)
        bytes[i] = (unsigned char)(i * 7919u >> 3);
    tokio_test_write_file(noise, bytes, sizeof(bytes));
    tokio_test_write_file(other, "{\"a\": 1}\n", 9);
    const char *const logs[] = { "noise.darshan", "other.json",
                                 "missing.darshan", NULL };
    const char *const quiet[] = { "-q", NULL };
    for (int q = 0; q < 2; q++) {
        struct tokio_run r = run_index(fx, "none.db", q ? quiet : NULL,
                                       logs);
        assert_int_equal(r.status, 1);
        assert_string_equal(r.out, "");
        for (size_t i = 0; logs[i] != NULL; i++) {
            char want[64];
            snprintf(want, sizeof(want), "'%s'", logs[i]);
            assert_contains(r.err, want);
        }
        assert_contains(r.err, "tokio index-darshanlogs: error: "
                        "'noise.darshan': ");
        /* one line per log */
        size_t lines = 0;
        for (const char *p = r.err; *p; p++)
            lines += *p == '\n';
        assert_int_equal(lines, 3);
        tokio_run_free(&r);
    }
    free(noise);
    free(other);
}

/* Issue 17 item 1: index-darshanlogs already lost nothing to a second
 * writer (SQLite's lock, waited on); keep it so: two runs at once into a
 * new index, different logs each, both land. */
static void
test_concurrent_runs_both_land(void **state)
{
    struct tokio_workdir *fx = *state;
    enum { PER_RUN = 40 };
    const char *a[PER_RUN + 6] = { "index-darshanlogs", "-q",
                                   "--no-bulk-insert", "-o", "both.db" };
    const char *b[PER_RUN + 6] = { "index-darshanlogs", "-q",
                                   "--no-bulk-insert", "-o", "both.db" };
    static char names[2 * PER_RUN][32];

    for (int i = 0; i < 2 * PER_RUN; i++) {
        snprintf(names[i], sizeof(names[i]), "c%03d.darshan", i);
        char *p = path_in(fx, names[i]);
        tokio_test_make_darshan_log(p, (unsigned)i + 1);
        free(p);
        (i < PER_RUN ? a : b)[5 + i % PER_RUN] = names[i];
    }
    const char *const *argvs[] = { a, b };
    struct tokio_run out[2];
    tokio_test_run_concurrently(fx->dir, own_env, argvs, 2, out);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(out[k].status, 0);
        tokio_run_free(&out[k]);
    }
    char *db = path_in(fx, "both.db");
    assert_int_equal(count_rows(db, "headers"), 2 * PER_RUN);
    free(db);
}

static void
test_bad_regex_names_the_key(void **state)
{
    struct tokio_workdir *fx = *state;
    char *cfg = path_in(fx, "bad-site.json");
    const char *const bad_env[] = { "PYTOKIO_CONFIG=bad-site.json", NULL };
    const char *argv[] = { "index-darshanlogs", "-o", "never.db",
                           "whatever.darshan", NULL };
    char *db = path_in(fx, "never.db");

    tokio_test_write_file(cfg, "{\"mount_to_fsname\": {\"^/scratch(\": "
                          "\"scratch\"}}\n", SIZE_MAX);
    struct tokio_run r = tokio_test_run(fx->dir, bad_env, argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "tokio index-darshanlogs: error: ");
    assert_contains(r.err, "mount_to_fsname");
    assert_contains(r.err, "'^/scratch('");
    assert_int_not_equal(access(db, F_OK), 0);   /* nothing created */
    tokio_run_free(&r);
    free(cfg);
    free(db);
}

static void
test_usage_errors(void **state)
{
    struct tokio_workdir *fx = *state;
    const char *a1[] = { "index-darshanlogs", NULL };
    const char *a2[] = { "index-darshanlogs", "-t", "0", "x", NULL };
    struct tokio_run r = tokio_test_run(fx->dir, env_of(fx), a1);

    assert_int_equal(r.status, 2);
    assert_contains(r.err, "see 'tokio index-darshanlogs --help'");
    tokio_run_free(&r);
    r = tokio_test_run(fx->dir, env_of(fx), a2);
    assert_int_equal(r.status, 2);
    tokio_run_free(&r);
}

/* ------------------------------------------------------------------
 * Many logs: threads, and a run killed halfway.  Links to small logs
 * under distinct names (the pack's, else the project's samples).
 */

#define N_MANY 1500

static char *
make_many(const struct tokio_workdir *fx)
{
    const char *src = tokio_test_data("pytokio-inputs/sample-goodost.darshan");
    char sample[4200], *dir = path_in(fx, "many");
    const char *bin = getenv("TOKIO_BIN");

    if (src == NULL) {
        /* the build folder's own sample tree */
        snprintf(sample, sizeof(sample), "%.*s/examples/data/darshanlogs/"
                 "2019/2/14/glock_ior_id4478601_2-14-36000-"
                 "4991620618526952987_1.darshan",
                 (int)(strrchr(bin, '/') - bin), bin);
        src = sample;
    }
    assert_int_equal(mkdir(dir, 0755), 0);
    for (int i = 0; i < N_MANY; i++) {
        char link[4300];
        snprintf(link, sizeof(link), "%s/u_app_id%d_1-1-%d-1_1.darshan",
                 dir, 1000 + i, i);
        assert_int_equal(symlink(src, link), 0);
    }
    return dir;
}

static void
test_threads_give_the_same_index(void **state)
{
    struct tokio_workdir *fx = *state;
    char *dir = make_many(fx);
    const char *a1[] = { "index-darshanlogs", "-t", "1", "-o", "t1.db",
                         "many", NULL };
    const char *a4[] = { "index-darshanlogs", "-t", "4", "-o", "t4.db",
                         "many", NULL };
    char *d1 = path_in(fx, "t1.db"), *d4 = path_in(fx, "t4.db");

    struct tokio_run r = tokio_test_run(fx->dir, env_of(fx), a1);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    r = tokio_test_run(fx->dir, env_of(fx), a4);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    assert_int_equal(count_rows(d1, "headers"), N_MANY);
    char *x = tokio_test_sqlite_dump(d1), *y = tokio_test_sqlite_dump(d4);
    TOKIO_TEST_NEED_SQLITE3(x);
    assert_string_equal(x, y);
    free(x);
    free(y);
    free(d1);
    free(d4);
    free(dir);
}

/* SIGKILL mid-run leaves a valid index; a rerun completes it exactly. */
static void
test_killed_run_resumes(void **state)
{
    struct tokio_workdir *fx = *state;
    char *dir = make_many(fx);
    char *db = path_in(fx, "killed.db"), *ref = path_in(fx, "whole.db");
    const char *whole[] = { "index-darshanlogs", "-q", "-o", "whole.db",
                            "many", NULL };
    const char *bin = getenv("TOKIO_BIN");
    long partial = -1;

    struct tokio_run r = tokio_test_run(fx->dir, env_of(fx), whole);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);

    /* commit per log, so something is committed when the kill lands */
    for (int attempt = 0; attempt < 20 && (partial <= 0 ||
                                           partial >= N_MANY); attempt++) {
        unlink(db);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            if (chdir(fx->dir) != 0)
                _exit(127);
            setenv("PYTOKIO_CONFIG", fx->inputs ? "inputs/site.json" : "",
                   1);
            execl(bin, bin, "index-darshanlogs", "-q", "--no-bulk-insert",
                  "-o", "killed.db", "many", (char *)NULL);
            _exit(127);
        }
        /* TOKIO_TEST_SLOW scales the wait (valgrind starts slowly) */
        const char *slow = getenv("TOKIO_TEST_SLOW");
        long ms = (30 + 30 * attempt) * (slow ? atol(slow) : 1);
        struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (access(db, F_OK) == 0)
            partial = count_rows(db, "headers");  /* integrity checked */
    }
    print_message("killed after %ld of %d logs\n", partial, N_MANY);
    assert_true(partial >= 0);

    const char *rerun[] = { "index-darshanlogs", "-q", "-o", "killed.db",
                            "many", NULL };
    r = tokio_test_run(fx->dir, env_of(fx), rerun);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    assert_int_equal(count_rows(db, "headers"), N_MANY);
    char *x = tokio_test_sqlite_dump(db), *y = tokio_test_sqlite_dump(ref);
    TOKIO_TEST_NEED_SQLITE3(x);
    assert_string_equal(x, y);
    free(x);
    free(y);
    free(db);
    free(ref);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        TOKIO_TEST_IN_WORKDIR(test_golden_pytokio_inputs),
        TOKIO_TEST_IN_WORKDIR(test_golden_four_threads_no_bulk),
        TOKIO_TEST_IN_WORKDIR(test_golden_darshan_logs),
        TOKIO_TEST_IN_WORKDIR(test_folder_and_rerun),
        TOKIO_TEST_IN_WORKDIR(test_resume_in_two_runs),
        TOKIO_TEST_IN_WORKDIR(test_bad_logs_are_skipped),
        TOKIO_TEST_IN_WORKDIR(test_no_log_readable_fails),
        TOKIO_TEST_IN_WORKDIR(test_bad_regex_names_the_key),
        TOKIO_TEST_IN_WORKDIR(test_usage_errors),
        TOKIO_TEST_IN_WORKDIR(test_threads_give_the_same_index),
        TOKIO_TEST_IN_WORKDIR(test_killed_run_resumes),
        TOKIO_TEST_IN_WORKDIR(test_concurrent_runs_both_land),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
