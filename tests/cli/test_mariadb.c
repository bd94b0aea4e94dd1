/*
 * tests/cli/test_mariadb.c - the database commands against a real
 * MariaDB server (tests/mariadb_harness.h starts Debian's mariadbd on a
 * loopback port and stops it afterwards, also when a test fails), loaded
 * from the SQLite samples:
 *  - cache-lmtdb from the server writes the same rows as from the SQLite
 *    sample (the reference's golden dump, lines sorted: a server returns
 *    rows in its own order), and that cache archives like the server;
 *  - archive-lmtdb from the server equals the reference's HDF5 goldens
 *    (the sample day and the OSS-reboot day);
 *  - the jobs database: cache-nersc-jobsdb and every job's start/end and
 *    concurrent jobs of the reference's per-job golden, through the
 *    server; jobinfo answers from it;
 *  - credentials come from the environment; a wrong password is refused;
 *  - fault: the server is killed in the middle of archive-lmtdb's query;
 *    the command fails cleanly and the existing file is untouched; then
 *    the dead server is reported as refusing.
 * Skipped with a message when mariadbd or the test data are absent.
 */
#include "testutil.h"
#include "mariadb_harness.h"
#include "lmt_check.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/config.h"
#include "tokio/connectors/nersc_jobsdb.h"
#include "tokio/output.h"
#include "tokio/tools/jobinfo.h"

#define INPUTS "pytokio-inputs/"
#define GOLDEN "golden/pytokio/"

static struct mariadb_server server;
static char self_path[4096];    /* this program, for the fault helper */
static int have_server;
static char env_port[64], env_jobs_port[64];

static int
group_setup(void **state)
{
    (void)state;
    if (tokio_test_data(INPUTS "snx11025_2018-01-28.sqlite3") == NULL) {
        print_message("skipped: ../shared/testdata is absent\n");
        return 0;
    }
    int rc = mariadb_start(&server);
    if (rc == MARIADB_ABSENT)
        return 0;
    if (rc != 0)
        return -1;
    char path[3][4200];
    snprintf(path[0], sizeof(path[0]), "%s",
             tokio_test_data(INPUTS "snx11025_2018-01-28.sqlite3"));
    snprintf(path[1], sizeof(path[1]), "%s",
             tokio_test_data(INPUTS "lmtdb-reset.sqlite3"));
    snprintf(path[2], sizeof(path[2]), "%s",
             tokio_test_data(INPUTS "sample_nersc_jobsdb.sqlite3"));
    if (mariadb_load_sqlite(&server, "lmt", path[0]) != 0 ||
        mariadb_load_sqlite(&server, "lmtreset", path[1]) != 0 ||
        mariadb_load_sqlite(&server, "jobs", path[2]) != 0)
        return -1;
    snprintf(env_port, sizeof(env_port), "PYTOKIO_LMT_PORT=%u", server.port);
    snprintf(env_jobs_port, sizeof(env_jobs_port), "NERSC_JOBSDB_PORT=%u",
             server.port);
    have_server = 1;
    return 0;
}

static int
group_teardown(void **state)
{
    (void)state;
    mariadb_stop(&server);
    return 0;
}

#define NEED_SERVER()                                                       \
    do {                                                                    \
        if (!have_server) {                                                 \
            print_message("skipped: no MariaDB server or test data\n");     \
            skip();                                                         \
        }                                                                   \
    } while (0)

/* The environment that names the LMT database `db` on the server. */
static void
lmt_env(const char *env[8], const char *db, const char *password)
{
    static char dbvar[64], pwvar[128];

    snprintf(dbvar, sizeof(dbvar), "PYTOKIO_LMT_DB=%s", db);
    snprintf(pwvar, sizeof(pwvar), "PYTOKIO_LMT_PASSWORD=%s", password);
    env[0] = "TZ=America/Los_Angeles";
    env[1] = "PYTOKIO_LMT_HOST=127.0.0.1";
    env[2] = "PYTOKIO_LMT_USER=" MARIADB_USER;
    env[3] = pwvar;
    env[4] = dbvar;
    env[5] = env_port;
    env[6] = NULL;
}

static struct tokio_run
run_lmt(const char *db, const char *const *argv)
{
    const char *env[8];

    lmt_env(env, db, MARIADB_PASSWORD);
    return tokio_test_run(NULL, env, argv);
}

static void
test_mariadb_cache_lmtdb_same_rows(void **state)
{
    NEED_SERVER();
    char *dir = tokio_test_mkdtemp(), out[4200], hdf[4200];
    (void)state;

    snprintf(out, sizeof(out), "%s/server.sqlite3", dir);
    const char *argv[] = { "cache-lmtdb", "-o", out, "2018-01-28T00:00:00",
                           "2018-01-28T00:05:05", NULL };
    struct tokio_run r = run_lmt("lmt", argv);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    tokio_run_free(&r);

    /* the same rows as the reference's cache of the SQLite sample for
     * 00:00..00:05 plus the one timestep more asked for here */
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char local[4300];
    snprintf(local, sizeof(local), "%s/local.sqlite3", dir);
    const char *argv2[] = { "cache-lmtdb", "-i", in, "-o", local,
                            "2018-01-28T00:00:00", "2018-01-28T00:05:05",
                            NULL };
    r = run_lmt("lmt", argv2);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    char *a = tokio_test_sqlite_dump(out), *b = tokio_test_sqlite_dump(local);
    TOKIO_TEST_NEED_SQLITE3(a);
    assert_string_equal(lmt_sort_lines(a), lmt_sort_lines(b));
    free(a);
    free(b);

    /* the server's cache stands in for the server */
    snprintf(hdf, sizeof(hdf), "%s/a.hdf5", dir);
    const char *argv3[] = { "archive-lmtdb", "-i", out, "-o", hdf,
                            "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                            NULL };
    r = run_lmt("lmt", argv3);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    lmt_assert_same_tts(hdf, tokio_test_data(GOLDEN "archive_lmtdb/"
                                             "snx11025_2018-01-28.hdf5"));

    /* --limit is a bound LIMIT ? on the server too: 2 rows per table */
    char lim[4300];
    snprintf(lim, sizeof(lim), "%s/limit.sqlite3", dir);
    const char *argv4[] = { "cache-lmtdb", "--limit", "2", "-o", lim,
                            "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                            NULL };
    r = run_lmt("lmt", argv4);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    a = tokio_test_sqlite_dump(lim);
    size_t inserts = 0;
    for (const char *p = a; (p = strstr(p, "INSERT INTO OST_DATA ")); p++)
        inserts++;
    assert_int_equal(inserts, 2);
    free(a);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
archive_from_server(const char *db, const char *qs, const char *qe,
                    const char *golden)
{
    char *dir = tokio_test_mkdtemp(), out[4200];
    const char *argv[] = { "archive-lmtdb", "--init-start", qs, "--init-end",
                           qe, "--timestep", "5", "-o", out, qs, qe, NULL };

    snprintf(out, sizeof(out), "%s/a.hdf5", dir);
    struct tokio_run r = run_lmt(db, argv);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    tokio_run_free(&r);
    lmt_assert_same_tts(out, tokio_test_data(golden));
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_mariadb_archive_lmtdb(void **state)
{
    NEED_SERVER();
    (void)state;
    archive_from_server("lmt", "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                        GOLDEN "archive_lmtdb/snx11025_2018-01-28.hdf5");
}

static void
test_mariadb_archive_lmtdb_reset(void **state)
{
    NEED_SERVER();
    (void)state;
    archive_from_server("lmtreset", "2018-04-18T00:00:00",
                        "2018-04-19T00:00:00",
                        GOLDEN "archive_lmtdb/lmtdb-reset.hdf5");
}

static void
set_jobs_env(void)
{
    char port[16];

    snprintf(port, sizeof(port), "%u", server.port);
    setenv("NERSC_JOBSDB_HOST", "127.0.0.1", 1);
    setenv("NERSC_JOBSDB_USER", MARIADB_USER, 1);
    setenv("NERSC_JOBSDB_PASSWORD", MARIADB_PASSWORD, 1);
    setenv("NERSC_JOBSDB_DB", "jobs", 1);
    setenv("NERSC_JOBSDB_PORT", port, 1);
}

static void
test_mariadb_cache_nersc_jobsdb(void **state)
{
    NEED_SERVER();
    char *dir = tokio_test_mkdtemp(), out[4200];
    static const char *env[] = {
        "TZ=America/Los_Angeles", "NERSC_JOBSDB_HOST=127.0.0.1",
        "NERSC_JOBSDB_USER=" MARIADB_USER,
        "NERSC_JOBSDB_PASSWORD=" MARIADB_PASSWORD, "NERSC_JOBSDB_DB=jobs",
        env_jobs_port, NULL };
    (void)state;

    snprintf(out, sizeof(out), "%s/jobs.sqlite3", dir);
    const char *argv[] = { "cache-nersc-jobsdb", "-o", out,
                           "2017-03-18T14:24:59", "2017-03-21T23:20:56",
                           "edison", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    tokio_run_free(&r);
    char *got = tokio_test_sqlite_dump(out);
    TOKIO_TEST_NEED_SQLITE3(got);
    char *want = tokio_test_read_file(tokio_test_data(GOLDEN
        "cache_nersc_jobsdb/sample_nersc_jobsdb.edison.sql"), NULL);
    assert_string_equal(lmt_sort_lines(got), lmt_sort_lines(want));
    free(got);
    free(want);
    tokio_test_rmtree(dir);
    free(dir);
}

/* The reference's per-job golden, every job asked of the server. */
static void
test_mariadb_jobsdb_per_job(void **state)
{
    NEED_SERVER();
    struct tokio_nersc_jobsdb *j = NULL;
    char *want = tokio_test_read_file(tokio_test_data(GOLDEN
        "nersc_jobsdb/sample_nersc_jobsdb.per-job.csv"), NULL);
    char *line, *save = NULL;
    size_t n = 0;
    (void)state;

    set_jobs_env();
    assert_int_equal(tokio_nersc_jobsdb_open(&j, NULL, NULL), 0);
    for (line = strtok_r(want, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char jobid[64], got[256], num[64];
        int64_t s, e;
        struct tokio_nersc_concurrent c;

        if (n++ == 0)
            continue;
        assert_int_equal(sscanf(line, "%63[^,]", jobid), 1);
        assert_int_equal(tokio_nersc_jobsdb_get_job_startend(j, jobid,
                                                             "edison", &s,
                                                             &e), 0);
        assert_int_equal(tokio_cachingdb_last_hit(tokio_nersc_jobsdb_db(j)),
                         TOKIO_DB_HIT_REMOTE);
        assert_int_equal(tokio_nersc_jobsdb_get_concurrent_jobs(j, s, e,
                                                                "edison",
                                                                &c), 0);
        tokio_format_double(num, sizeof(num), c.nodehrs);
        snprintf(got, sizeof(got), "%s,%lld,%lld,%s,%lld,%lld", jobid,
                 (long long)s, (long long)e, num, (long long)c.numnodes,
                 (long long)c.numjobs);
        assert_string_equal(got, line);
    }
    free(want);
    tokio_nersc_jobsdb_free(j);

    /* jobinfo's second provider, through the server */
    struct tokio_config *cfg = NULL;
    static const char cfgtext[] = "{\"jobinfo_jobid_providers\": "
                                  "[\"nersc_jobsdb\"], \"nersc_host\": "
                                  "\"edison\"}";
    int64_t s, e;
    assert_int_equal(tokio_config_open_mem(&cfg, cfgtext, strlen(cfgtext),
                                           "test"), 0);
    assert_int_equal(tokio_jobinfo_get_job_startend(cfg, "4478544", NULL, &s,
                                                    &e), 0);
    /* the per-job golden's line for 4478544 */
    assert_int_equal(s, 1490000342);
    assert_int_equal(e, 1490001098);
    tokio_config_free(cfg);
    unsetenv("NERSC_JOBSDB_HOST");
}

static void
test_mariadb_wrong_password(void **state)
{
    NEED_SERVER();
    const char *env[8];
    char *dir = tokio_test_mkdtemp(), out[4200];
    (void)state;

    snprintf(out, sizeof(out), "%s/x.sqlite3", dir);
    const char *argv[] = { "cache-lmtdb", "-o", out, "2018-01-28T00:00:00",
                           "2018-01-28T00:05:00", NULL };
    lmt_env(env, "lmt", "not-the-password");
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "access refused");
    assert_contains(r.err, MARIADB_USER "@127.0.0.1");
    assert_null(strstr(r.err, "not-the-password"));
    tokio_run_free(&r);
    assert_int_not_equal(access(out, F_OK), 0);
    tokio_test_rmtree(dir);
    free(dir);
}

/*
 * A helper process holds a write lock on OST_DATA, waits until
 * archive-lmtdb's query is blocked on it, then kills the server: the
 * query dies mid-flight.  The command must fail with exit 1 and a clear
 * message, leaving the existing archive byte for byte as it was.
 */
static void
test_mariadb_killed_mid_query(void **state)
{
    NEED_SERVER();
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), out[4200];
    int ready[2];
    size_t len0, len1;
    (void)state;

    /* an existing archive, made from the SQLite sample */
    snprintf(out, sizeof(out), "%s/a.hdf5", dir);
    const char *make[] = { "archive-lmtdb", "-i", in, "-o", out,
                           "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                           NULL };
    struct tokio_run r = run_lmt("lmt", make);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    char *before = tokio_test_read_file(out, &len0);

    assert_int_equal(pipe(ready), 0);
    /* the helper is this program run afresh (not a bare fork), so a
     * valgrind run checks it as a process of its own */
    char fd_arg[16], pid_arg[32], *kargv[6];
    snprintf(fd_arg, sizeof(fd_arg), "%d", ready[1]);
    snprintf(pid_arg, sizeof(pid_arg), "%ld", (long)server.pid);
    kargv[0] = "test_mariadb";
    kargv[1] = "--kill-mid-query";
    kargv[2] = server.sock;
    kargv[3] = pid_arg;
    kargv[4] = fd_arg;
    kargv[5] = NULL;
    pid_t killer = fork();
    assert_true(killer >= 0);
    if (killer == 0) {
        execv(self_path, kargv);
        _exit(127);
    }
    close(ready[1]);
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);

    const char *argv[] = { "archive-lmtdb", "-o", out, "2018-01-28T00:00:00",
                           "2018-01-28T00:05:00", NULL };
    r = run_lmt("lmt", argv);
    int st;
    assert_int_equal(waitpid(killer, &st, 0), killer);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || r.status != 1)
        fail_msg("killer status %d, tokio exit %d\nstderr: %s", st, r.status,
                 r.err);
    assert_contains(r.err, "tokio archive-lmtdb: error: MySQL server '"
                    MARIADB_USER "@127.0.0.1:");
    assert_contains(r.err, "connection dropped");
    tokio_run_free(&r);
    char *after = tokio_test_read_file(out, &len1);
    assert_int_equal(len0, len1);
    assert_memory_equal(before, after, len0);
    free(after);

    /* the server is gone now: refused, file still untouched */
    for (int i = 0; i < 100 && !mariadb_dead(&server); i++)
        usleep(100000);
    r = run_lmt("lmt", argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "connection refused");
    tokio_run_free(&r);
    after = tokio_test_read_file(out, &len1);
    assert_memory_equal(before, after, len0);
    free(after);
    free(before);
    have_server = 0;
    tokio_test_rmtree(dir);
    free(dir);
}

/*
 * The helper of test_mariadb_killed_mid_query: lock OST_DATA, say ready
 * on fd `argv[4]`, wait until the tokio user's query waits for the lock,
 * then SIGKILL the server `argv[3]`.  Exit 0 when it saw the query.
 */
static int
kill_mid_query(char **argv)
{
    struct mariadb_server s;
    const char *slow = getenv("TOKIO_TEST_SLOW");
    int tries = 1200 * (slow && atoi(slow) > 0 ? atoi(slow) : 1);
    int fd = atoi(argv[4]), done = 0;
    MYSQL *m;

    memset(&s, 0, sizeof(s));
    snprintf(s.sock, sizeof(s.sock), "%s", argv[2]);
    if ((m = mariadb_root(&s, "lmt")) == NULL ||
        mysql_query(m, "LOCK TABLES OST_DATA WRITE") != 0)
        return 2;
    if (write(fd, "r", 1) != 1)
        return 3;
    close(fd);
    for (int i = 0; i < tries && !done; i++) {      /* 2 min, or longer */
        MYSQL_RES *res;
        MYSQL_ROW row;

        if (mysql_query(m, "SHOW FULL PROCESSLIST") != 0)
            break;
        res = mysql_store_result(m);
        while (res && (row = mysql_fetch_row(res)) != NULL)
            if (row[1] && strcmp(row[1], MARIADB_USER) == 0 && row[6] &&
                strstr(row[6], "lock") && row[7] &&
                strstr(row[7], "OST_DATA"))
                done = 1;
        mysql_free_result(res);
        if (!done)
            usleep(100000);
    }
    kill((pid_t)atol(argv[3]), SIGKILL);
    mysql_close(m);
    mysql_library_end();
    return done ? 0 : 5;
}

int
main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--kill-mid-query") == 0)
        return kill_mid_query(argv);
    if (realpath(argv[0], self_path) == NULL)
        snprintf(self_path, sizeof(self_path), "%s", argv[0]);

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mariadb_cache_lmtdb_same_rows),
        cmocka_unit_test(test_mariadb_archive_lmtdb),
        cmocka_unit_test(test_mariadb_archive_lmtdb_reset),
        cmocka_unit_test(test_mariadb_cache_nersc_jobsdb),
        cmocka_unit_test(test_mariadb_jobsdb_per_job),
        cmocka_unit_test(test_mariadb_wrong_password),
        /* last: it kills the server */
        cmocka_unit_test(test_mariadb_killed_mid_query),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
