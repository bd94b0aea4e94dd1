/*
 * tests/cli/test_darshan_shards.c - `--shard K/N` of index-darshanlogs and
 * summarize-darshanlogs, and `tokio merge-index` / `tokio merge-summaries`
 * (issue 20): N shards merged equal one run over all the logs, row for
 * row with the same ids; a shard killed and re-run still does; bad shard
 * specs are usage errors; parts that do not fit together are refused,
 * naming them.  The logs are a few hundred small ones made here with the
 * library's writer, so no test data pack is needed.
 */
#include "testutil.h"

#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N_LOGS 200

static const char *const env[] = { "PYTOKIO_CONFIG=", "TOKIO_CONFIG=",
                                   NULL };

/* The N_LOGS generated logs and a broken one, made once for all tests
 * (the writer syncs each log: a few seconds). */
static char *shared_logs;

static int
make_shared_logs(void **state)
{
    (void)state;
    shared_logs = tokio_test_mkdtemp();
    tokio_test_make_darshan_logs(shared_logs, N_LOGS);
    return 0;
}

static int
remove_shared_logs(void **state)
{
    (void)state;
    tokio_test_rmtree(shared_logs);
    free(shared_logs);
    return 0;
}

/* `dir`/logs: the shared logs. */
static void
make_logs(const char *dir)
{
    char path[4300];

    snprintf(path, sizeof(path), "%s/logs", dir);
    assert_int_equal(symlink(shared_logs, path), 0);
}

/* Every row of every table, in rowid order, as text: a dump that needs
 * no sqlite3 program, and shows the ids too. */
static char *
dump(const char *db)
{
    static const char *const tables[] = { "mounts", "headers", "summaries" };
    sqlite3 *h;
    size_t len = 0, cap = 1 << 16;
    char *out = malloc(cap);

    assert_non_null(out);
    out[0] = '\0';
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    for (size_t t = 0; t < 3; t++) {
        char sql[128];
        sqlite3_stmt *st;
        snprintf(sql, sizeof(sql), "SELECT * FROM %s ORDER BY rowid",
                 tables[t]);
        assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL),
                         SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                const char *v = (const char *)sqlite3_column_text(st, c);
                int type = sqlite3_column_type(st, c);
                size_t need = len + (v ? strlen(v) : 4) + 8;
                if (need > cap) {
                    cap = need * 2;
                    out = realloc(out, cap);
                    assert_non_null(out);
                }
                len += (size_t)snprintf(out + len, cap - len, "%d:%s%c",
                                        type, v ? v : "NULL",
                                        c + 1 < sqlite3_column_count(st)
                                        ? '|' : '\n');
            }
        }
        sqlite3_finalize(st);
    }
    /* the schema too */
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(h, "SELECT sql FROM sqlite_master "
                                        "ORDER BY name", -1, &st, NULL),
                     SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        size_t need = len + (v ? strlen(v) : 4) + 2;
        if (need > cap) {
            cap = need * 2;
            out = realloc(out, cap);
            assert_non_null(out);
        }
        len += (size_t)snprintf(out + len, cap - len, "%s\n",
                                v ? v : "NULL");
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
}

static long
count_headers(const char *db)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    long n = -1;

    /* read-write: a killed writer's hot journal is rolled back */
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE, NULL),
                     SQLITE_OK);
    if (sqlite3_prepare_v2(h, "SELECT COUNT(*) FROM headers", -1, &st,
                           NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            n = (long)sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    } else {
        n = 0;
    }
    sqlite3_close(h);
    return n;
}

static void
run_ok(const char *dir, const char *const *argv)
{
    struct tokio_run r = tokio_test_run(dir, env, argv);

    if (r.status != 0)
        print_message("%s: %s", argv[0], r.err);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
}

static char *
in(const char *dir, const char *name)
{
    return tokio_test_join(dir, name);
}

/* Four shards, merged: the one-process index, ids and all.  Then shard 2
 * killed part-way and re-run: still. */
static void
test_index_shards_merge_to_one_run(void **state)
{
    const char *dir = *state;
    char *one = in(dir, "one.db"), *merged = in(dir, "merged.db");
    long total = 0;

    make_logs(dir);
    const char *whole[] = { "index-darshanlogs", "-q", "-o", "one.db",
                            "logs", NULL };
    run_ok(dir, whole);
    for (int k = 1; k <= 4; k++) {
        char spec[8], part[16];
        snprintf(spec, sizeof(spec), "%d/4", k);
        snprintf(part, sizeof(part), "part%d.db", k);
        const char *argv[] = { "index-darshanlogs", "-q", "--shard", spec,
                               "-o", part, "logs", NULL };
        run_ok(dir, argv);
        char *p = in(dir, part);
        long n = count_headers(p);
        /* a fair share: crc32 spreads the names */
        assert_true(n > N_LOGS / 8);
        total += n;
        free(p);
    }
    assert_int_equal(total, N_LOGS);
    const char *merge[] = { "merge-index", "merged.db", "part3.db",
                            "part1.db", "part4.db", "part2.db", NULL };
    run_ok(dir, merge);
    char *a = dump(one), *b = dump(merged);
    assert_string_equal(a, b);
    free(b);

    /* kill shard 2 part-way (a commit per log), re-run it, merge again */
    char *p2 = in(dir, "part2.db");
    const char *bin = getenv("TOKIO_BIN");
    long share = count_headers(p2), partial = -1;
    for (int attempt = 0; attempt < 20 && (partial <= 0 ||
                                           partial >= share); attempt++) {
        unlink(p2);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            if (chdir(dir) != 0)
                _exit(127);
            setenv("PYTOKIO_CONFIG", "", 1);
            execl(bin, bin, "index-darshanlogs", "-q", "--no-bulk-insert",
                  "--shard", "2/4", "-o", "part2.db", "logs", (char *)NULL);
            _exit(127);
        }
        const char *slow = getenv("TOKIO_TEST_SLOW");
        long ms = (5 + 5 * attempt) * (slow ? atol(slow) : 1);
        struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        partial = access(p2, F_OK) == 0 ? count_headers(p2) : 0;
    }
    print_message("shard 2 killed after %ld of its %ld logs\n", partial,
                  share);
    const char *rerun[] = { "index-darshanlogs", "-q", "--shard", "2/4",
                            "-o", "part2.db", "logs", NULL };
    run_ok(dir, rerun);
    run_ok(dir, merge);
    b = dump(merged);
    assert_string_equal(a, b);
    free(a);
    free(b);
    free(p2);
    free(one);
    free(merged);
}

/* Parts that do not make one run are refused, naming them; nothing is
 * written at the output. */
static void
test_merge_index_refuses(void **state)
{
    const char *dir = *state;
    char *out = in(dir, "out.db");

    make_logs(dir);
    const char *s1[] = { "index-darshanlogs", "-q", "--shard", "1/4", "-o",
                         "p1.db", "logs", NULL };
    const char *s2[] = { "index-darshanlogs", "-q", "--shard", "1/2", "-o",
                         "q1.db", "logs", NULL };
    const char *whole[] = { "index-darshanlogs", "-q", "-o", "one.db",
                            "logs", NULL };
    run_ok(dir, s1);
    run_ok(dir, s2);
    run_ok(dir, whole);
    tokio_test_write_file(out, "", 0);
    unlink(out);
    char *text = in(dir, "text.db");
    tokio_test_write_file(text, "hello, world\n", 13);
    char *other = in(dir, "other.db");
    tokio_test_make_db(other, "CREATE TABLE headers (x); "
                       "CREATE TABLE mounts (y); "
                       "CREATE TABLE summaries (z);");

    struct {
        const char *a, *b, *says;
    } cases[] = {
        { "p1.db", "p1.db", "are both shard 1/4" },
        { "p1.db", "q1.db", "are of different runs" },
        { "one.db", "p1.db", "both hold log" },
        { "p1.db", "text.db", "not a Darshan index" },
        { "p1.db", "other.db", "not the schema of a Darshan index" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        const char *argv[] = { "merge-index", "out.db", cases[i].a,
                               cases[i].b, NULL };
        struct tokio_run r = tokio_test_run(dir, env, argv);
        assert_int_equal(r.status, 1);
        assert_contains(r.err, cases[i].says);
        assert_contains(r.err, cases[i].b);
        if (strcmp(cases[i].b, "text.db") != 0 &&
            strcmp(cases[i].b, "other.db") != 0)
            assert_contains(r.err, cases[i].a);
        assert_int_equal(access(out, F_OK), -1);
        tokio_run_free(&r);
    }
    assert_int_equal(tokio_test_count_temporaries(dir), 0);

    /* a part is one shard's: another shard into it is refused */
    const char *wrong[] = { "index-darshanlogs", "-q", "--shard", "2/4",
                            "-o", "p1.db", "logs", NULL };
    struct tokio_run r = tokio_test_run(dir, env, wrong);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "'p1.db' is the part of shard 1/4, not of 2/4");
    tokio_run_free(&r);
    free(text);
    free(other);
    free(out);
}

/* summarize-darshanlogs: four shards merged are the one run's -o file,
 * byte for byte; a log in two parts is refused. */
static void
test_summaries_shards_merge_to_one_run(void **state)
{
    const char *dir = *state;

    make_logs(dir);
    const char *whole[] = { "summarize-darshanlogs", "-o", "one.json",
                            "logs", NULL };
    struct tokio_run r = tokio_test_run(dir, env, whole);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    for (int k = 1; k <= 4; k++) {
        char spec[8], part[16];
        snprintf(spec, sizeof(spec), "%d/4", k);
        snprintf(part, sizeof(part), "p%d.json", k);
        const char *argv[] = { "summarize-darshanlogs", "--shard", spec,
                               "-o", part, "logs", NULL };
        r = tokio_test_run(dir, env, argv);
        assert_int_equal(r.status, 0);
        tokio_run_free(&r);
    }
    const char *merge[] = { "merge-summaries", "merged.json", "p2.json",
                            "p4.json", "p1.json", "p3.json", NULL };
    run_ok(dir, merge);
    char *one = in(dir, "one.json"), *merged = in(dir, "merged.json");
    char *a = tokio_test_read_file(one, NULL);
    char *b = tokio_test_read_file(merged, NULL);
    assert_true(strlen(a) > 1000);
    assert_string_equal(a, b);
    free(a);
    free(b);

    const char *overlap[] = { "merge-summaries", "x.json", "p1.json",
                              "one.json", NULL };
    r = tokio_test_run(dir, env, overlap);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "parts 'p1.json' and 'one.json' both hold log");
    tokio_run_free(&r);
    free(one);
    free(merged);
}

/* A log of 20 files on Lustre, 3 ranks each, figures from `seed`. */
static void
make_lustre_log(const char *path, unsigned seed)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" },
    };
    struct tokio_darshan_job_info job = {
        .uid = 1, .jobid = seed, .start_time = 1600000000,
        .end_time = 1600000100, .nprocs = 3, .exe = "/bin/x",
        .n_mounts = 1, .mounts = mounts,
    };
    const int P = TOKIO_DARSHAN_POSIX;
    size_t n = tokio_darshan_counter_count(P);
    size_t nf = tokio_darshan_fcounter_count(P);
    int64_t *c = calloc(n, sizeof(*c));
    double *f = calloc(nf, sizeof(*f));
    struct tokio_darshan_writer *w = NULL;

    assert_non_null(c);
    assert_non_null(f);
    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    for (unsigned k = 0; k < 20; k++) {
        char name[64];
        snprintf(name, sizeof(name), "/scratch/d/f%u", k);
        assert_int_equal(tokio_darshan_writer_add_name(w, k + 1, name),
                         TOKIO_OK);
        for (int r = 0; r < 3; r++) {
            for (size_t i = 0; i < n; i++)
                c[i] = (int64_t)((i + 1) * (k + 1) * (seed % 17 + 1) +
                                 (unsigned)r);
            for (size_t i = 0; i < nf; i++)
                f[i] = (double)((k * 7 + seed * 3 + i) % 23) / 10.0 + 0.1;
            assert_int_equal(tokio_darshan_writer_add_record(
                                 w, P, k + 1, r, c, n, f, nf), TOKIO_OK);
        }
        struct tokio_darshan_lustre_comp comp = { .counters = {
            1 << 20, 2, 0, 0, 0, -1, 0 } };
        int64_t osts[2] = { (k + seed) % 8, (k * 3 + seed) % 8 + 8 };
        assert_int_equal(tokio_darshan_writer_add_lustre(w, k + 1, -1, &comp,
                                                         1, osts, 2),
                         TOKIO_OK);
    }
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    tokio_darshan_writer_free(w);
    free(c);
    free(f);
}

/* darshan-bad-ost: three shards' parts, reported with --parts, are the
 * one run's report byte for byte (text and JSON); parts that do not fit
 * together are refused. */
static void
test_bad_ost_shards_report_as_one_run(void **state)
{
    const char *dir = *state;
    enum { N = 24 };
    static char names[N][24];
    const char *one[N + 6] = { "darshan-bad-ost", "-p", "1" };
    const char *sh[N + 8] = { "darshan-bad-ost", "--shard", NULL, "-o",
                              NULL };

    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof(names[i]), "l%02d.darshan", i);
        char *p = in(dir, names[i]);
        make_lustre_log(p, (unsigned)i);
        free(p);
        one[3 + i] = names[i];
        sh[5 + i] = names[i];
    }
    struct tokio_run whole = tokio_test_run(dir, env, one);
    assert_int_equal(whole.status, 0);
    assert_true(strlen(whole.out) > 100);
    static const char *const specs[] = { "1/3", "2/3", "3/3" };
    static const char *const parts[] = { "b1.json", "b2.json", "b3.json" };
    for (int k = 0; k < 3; k++) {
        sh[2] = specs[k];
        sh[4] = parts[k];
        run_ok(dir, sh);
        /* each shard has some of the 24 logs */
        char *pp = in(dir, parts[k]);
        char *text = tokio_test_read_file(pp, NULL);
        assert_contains(text, "\"index\"");
        free(text);
        free(pp);
    }
    const char *merged[] = { "darshan-bad-ost", "-p", "1", "--parts",
                             "b3.json", "b1.json", "b2.json", NULL };
    struct tokio_run r = tokio_test_run(dir, env, merged);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, whole.out);
    assert_string_equal(r.err, whole.err);
    tokio_run_free(&r);
    tokio_run_free(&whole);
    const char *jone[N + 6] = { "darshan-bad-ost", "-j", "-p", "1" };
    for (int i = 0; i < N; i++)
        jone[4 + i] = names[i];
    const char *jmerged[] = { "darshan-bad-ost", "-j", "-p", "1", "--parts",
                              "b2.json", "b3.json", "b1.json", NULL };
    whole = tokio_test_run(dir, env, jone);
    r = tokio_test_run(dir, env, jmerged);
    assert_int_equal(whole.status, 0);
    assert_true(strlen(whole.out) > 100);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, whole.out);
    tokio_run_free(&r);
    tokio_run_free(&whole);

    const char *twice[] = { "darshan-bad-ost", "--parts", "b1.json",
                            "b1.json", NULL };
    r = tokio_test_run(dir, env, twice);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "part 'b1.json' is shard 1/3, as another part "
                    "is");
    tokio_run_free(&r);
    const char *both[] = { "darshan-bad-ost", "--parts", "--shard", "1/2",
                           "b1.json", NULL };
    r = tokio_test_run(dir, env, both);
    assert_int_equal(r.status, 2);
    tokio_run_free(&r);
}

/* K/N with 1 <= K <= N: anything else is a bad command line (exit 2). */
static void
test_bad_shard_specs(void **state)
{
    const char *dir = *state;
    static const char *const bad[] = { "5/4", "0/0", "0/4", "1/0", "x",
                                       "1/", "/4", "1/4x", "-1/4", "" };
    static const char *const cmds[] = { "index-darshanlogs",
                                        "summarize-darshanlogs",
                                        "darshan-bad-ost" };

    for (size_t c = 0; c < 3; c++)
        for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
            const char *argv[] = { cmds[c], "--shard", bad[i], "-o",
                                   "x.out", "a.darshan", NULL };
            struct tokio_run r = tokio_test_run(dir, env, argv);
            assert_int_equal(r.status, 2);
            assert_string_equal(r.out, "");
            tokio_run_free(&r);
        }
    char *x = in(dir, "x.out");
    assert_int_equal(access(x, F_OK), -1);
    free(x);
}

/* Progress goes to a terminal only: a pipe (as here) sees none. */
static void
test_progress_silent_off_a_terminal(void **state)
{
    const char *dir = *state;

    make_logs(dir);
    const char *idx[] = { "index-darshanlogs", "-o", "p.db", "logs", NULL };
    const char *sum[] = { "summarize-darshanlogs", "-o", "p.json", "logs",
                          NULL };
    const char *const *argvs[] = { idx, sum };
    for (size_t i = 0; i < 2; i++) {
        struct tokio_run r = tokio_test_run(dir, env, argvs[i]);
        assert_int_equal(r.status, 0);
        /* the broken log's warning, and nothing else: no bar, no \r */
        assert_contains(r.err, "zz-broken.darshan");
        assert_null(strchr(r.err, '\r'));
        assert_null(strstr(r.err, "logs,"));
        assert_int_equal(strchr(r.err, '\n') - r.err + 1,
                         (long)strlen(r.err));
        tokio_run_free(&r);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_index_shards_merge_to_one_run,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_merge_index_refuses,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(
            test_summaries_shards_merge_to_one_run,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(
            test_bad_ost_shards_report_as_one_run,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_bad_shard_specs,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(
            test_progress_silent_off_a_terminal,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
    };
    return cmocka_run_group_tests(tests, make_shared_logs,
                                  remove_shared_logs);
}
