/*
 * tests/connectors/test_cachingdb.c - the caching database layer over
 * SQLite files the test writes itself: parameterized queries (both "?"
 * and the reference's "%(ps)s"), typed values, kept tables and
 * save_cache (schema text as the reference's, INSERT OR REPLACE order,
 * adding to an existing file, all or nothing), remembered queries,
 * open_mem, and every error: missing file, not a database, bad SQL,
 * placeholder count, no database, a refused and a silent server, bad
 * PORT, a callback that stops, out of memory.
 */
#include "testutil.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tokio/connectors/cachingdb.h"

static char *dir;

static int
setup(void **state)
{
    (void)state;
    dir = tokio_test_mkdtemp();
    return 0;
}

static int
teardown(void **state)
{
    (void)state;
    tokio_test_rmtree(dir);
    free(dir);
    return 0;
}

static const char *
path_of(const char *name)
{
    static char buf[4][4200];
    static int slot;

    slot = (slot + 1) % 4;
    snprintf(buf[slot], sizeof(buf[0]), "%s/%s", dir, name);
    return buf[slot];
}

static const char fixture[] =
    "CREATE TABLE t (id, name, x, PRIMARY KEY(id));"
    "INSERT INTO t VALUES (1, 'one', 1.5);"
    "INSERT INTO t VALUES (2, 'two', NULL);"
    "INSERT INTO t VALUES (3, 'three', -0.25);";

/* Collect rows as "v|v|v\n" text. */
struct text {
    char buf[4096];
};

static int
collect(void *payload, const struct tokio_db_value *row, size_t n)
{
    struct text *t = payload;
    size_t len = strlen(t->buf);

    for (size_t i = 0; i < n; i++) {
        char *p = t->buf + strlen(t->buf);
        size_t left = sizeof(t->buf) - strlen(t->buf);

        switch (row[i].type) {
        case TOKIO_DB_INT: snprintf(p, left, "i%lld", (long long)row[i].i);
            break;
        case TOKIO_DB_REAL: snprintf(p, left, "r%g", row[i].d); break;
        case TOKIO_DB_TEXT: snprintf(p, left, "t%s", row[i].s); break;
        default: snprintf(p, left, "null"); break;
        }
        strcat(t->buf, i + 1 < n ? "|" : "\n");
    }
    (void)len;
    return 0;
}

static void
test_cachingdb_query_both_placeholders(void **state)
{
    struct tokio_cachingdb *db = NULL;
    struct text t = { "" };
    struct tokio_db_value p[2];
    (void)state;

    tokio_test_make_db(path_of("a.sqlite3"), fixture);
    assert_int_equal(tokio_cachingdb_open(&db, path_of("a.sqlite3"), NULL),
                     TOKIO_OK);
    assert_int_equal(tokio_cachingdb_last_hit(db), -1);
    memset(p, 0, sizeof(p));
    p[0].type = TOKIO_DB_INT;
    p[0].i = 1;
    p[1].type = TOKIO_DB_TEXT;
    p[1].s = "three";
    p[1].len = 5;
    assert_int_equal(tokio_cachingdb_query(db, "SELECT id, name, x\n  FROM t "
                                           "WHERE id > %(ps)s  OR name = ? "
                                           "ORDER BY id", p, 2, NULL, 0,
                                           collect, &t), TOKIO_OK);
    assert_string_equal(t.buf, "i2|ttwo|null\ni3|tthree|r-0.25\n");
    assert_int_equal(tokio_cachingdb_last_hit(db), TOKIO_DB_HIT_CACHE);
    assert_string_equal(tokio_cachingdb_source(db), path_of("a.sqlite3"));
    tokio_cachingdb_free(db);
}

static int
count_rows(void *payload, const struct tokio_db_value *row, size_t n)
{
    (void)row;
    (void)n;
    ++*(int *)payload;
    return 0;
}

/* Kept rows saved with the reference's schema text; a later row with
 * the same key replaces an earlier one and moves to the end. */
static void
test_cachingdb_save_cache(void **state)
{
    static const char *const cols[] = { "id", "name", "x" };
    static const char *const pk[] = { "id" };
    const struct tokio_db_table table = { "kept", cols, 3, pk, 1 };
    const struct tokio_db_table empty = { "empty", cols, 3, pk, 1 };
    struct tokio_cachingdb *db = NULL, *back = NULL;
    struct text t = { "" };
    int n = 0;
    (void)state;

    tokio_test_make_db(path_of("a.sqlite3"), fixture);
    assert_int_equal(tokio_cachingdb_open(&db, path_of("a.sqlite3"), NULL),
                     TOKIO_OK);
    assert_int_equal(tokio_cachingdb_query(db, "SELECT * FROM t", NULL, 0,
                                           &table, 0, count_rows, &n), 0);
    assert_int_equal(tokio_cachingdb_query(db, "SELECT * FROM t WHERE id = 1",
                                           NULL, 0, &table, 0, NULL, NULL), 0);
    assert_int_equal(tokio_cachingdb_query(db, "SELECT * FROM t WHERE id > 5",
                                           NULL, 0, &empty, 0, NULL, NULL), 0);
    assert_int_equal(n, 3);
    assert_int_equal(tokio_cachingdb_save_cache(db, path_of("out.sqlite3")),
                     TOKIO_OK);
    tokio_cachingdb_free(db);

    assert_int_equal(tokio_cachingdb_open(&back, path_of("out.sqlite3"),
                                          NULL), TOKIO_OK);
    assert_int_equal(tokio_cachingdb_query(back, "SELECT sql FROM "
                                           "sqlite_master WHERE type = "
                                           "'table'", NULL, 0, NULL, 0,
                                           collect, &t), 0);
    /* the empty table is not created, as the reference skips it */
    assert_string_equal(t.buf, "tCREATE TABLE kept (id, name, x, "
                        "PRIMARY KEY(id))\n");
    t.buf[0] = '\0';
    assert_int_equal(tokio_cachingdb_query(back, "SELECT * FROM kept ORDER BY "
                                           "rowid", NULL, 0, NULL, 0, collect,
                                           &t), 0);
    assert_string_equal(t.buf, "i2|ttwo|null\ni3|tthree|r-0.25\n"
                        "i1|tone|r1.5\n");
    tokio_cachingdb_free(back);
}

/* Saving into an existing cache adds to it (the reference's behaviour);
 * into a file that is not a database fails and leaves it alone. */
static void
test_cachingdb_save_into_existing(void **state)
{
    static const char *const cols[] = { "id", "name", "x" };
    static const char *const pk[] = { "id" };
    const struct tokio_db_table table = { "t", cols, 3, pk, 1 };
    struct tokio_cachingdb *db = NULL, *back = NULL;
    struct text t = { "" };
    static const char junk[] = "0123456789 this is no database at all, it "
                               "is only a text file of a hundred bytes. ok";
    (void)state;

    tokio_test_make_db(path_of("a.sqlite3"), fixture);
    tokio_test_make_db(path_of("b.sqlite3"), "CREATE TABLE t (id, name, x, "
                       "PRIMARY KEY(id)); "
                       "INSERT INTO t VALUES (9, 'nine', 9);");
    tokio_test_write_file(path_of("junk"), junk, SIZE_MAX);
    assert_int_equal(tokio_cachingdb_open(&db, path_of("a.sqlite3"), NULL),
                     TOKIO_OK);
    assert_int_equal(tokio_cachingdb_query(db, "SELECT * FROM t WHERE id = 2",
                                           NULL, 0, &table, 0, NULL, NULL), 0);
    assert_int_equal(tokio_cachingdb_save_cache(db, path_of("junk")),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "junk");
    char *text = tokio_test_read_file(path_of("junk"), NULL);
    assert_string_equal(text, junk);
    free(text);
    /* a FIFO (or /dev/null) is refused, not replaced by the saved copy */
    struct stat st;
    assert_int_equal(mkfifo(path_of("fifo"), 0600), 0);
    assert_int_equal(tokio_cachingdb_save_cache(db, path_of("fifo")),
                     TOKIO_EIO);
    assert_contains(tokio_errmsg(), "fifo': not a regular file");
    assert_int_equal(lstat(path_of("fifo"), &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    /* the failed save kept the rows: they still go to the next file */
    assert_int_equal(tokio_cachingdb_save_cache(db, path_of("b.sqlite3")),
                     TOKIO_OK);
    tokio_cachingdb_free(db);
    assert_int_equal(tokio_cachingdb_open(&back, path_of("b.sqlite3"), NULL),
                     0);
    assert_int_equal(tokio_cachingdb_query(back, "SELECT * FROM t ORDER BY "
                                           "rowid", NULL, 0, NULL, 0, collect,
                                           &t), 0);
    assert_string_equal(t.buf, "i9|tnine|i9\ni2|ttwo|null\n");
    tokio_cachingdb_free(back);
}

/* Remembered queries are answered from memory, and kept only once. */
static void
test_cachingdb_remember(void **state)
{
    static const char *const cols[] = { "id", "name", "x" };
    static const char *const pk[] = { "id" };
    const struct tokio_db_table table = { "t", cols, 3, pk, 1 };
    struct tokio_cachingdb *db = NULL;
    struct text a = { "" }, b = { "" };
    struct tokio_db_value p;
    (void)state;

    tokio_test_make_db(path_of("a.sqlite3"), fixture);
    assert_int_equal(tokio_cachingdb_open(&db, path_of("a.sqlite3"), NULL),
                     0);
    memset(&p, 0, sizeof(p));
    p.type = TOKIO_DB_REAL;
    p.d = 1.0;
    assert_int_equal(tokio_cachingdb_query(db, "SELECT * FROM t WHERE x > ?",
                                           &p, 1, &table, TOKIO_DB_REMEMBER,
                                           collect, &a), 0);
    assert_int_equal(tokio_cachingdb_last_hit(db), TOKIO_DB_HIT_CACHE);
    assert_int_equal(tokio_cachingdb_query(db, "SELECT *  FROM t WHERE x > ?",
                                           &p, 1, &table, TOKIO_DB_REMEMBER,
                                           collect, &b), 0);
    assert_int_equal(tokio_cachingdb_last_hit(db), TOKIO_DB_HIT_MEMORY);
    assert_string_equal(a.buf, "i1|tone|r1.5\n");
    assert_string_equal(a.buf, b.buf);
    /* another value is another query */
    p.d = -1.0;
    b.buf[0] = '\0';
    assert_int_equal(tokio_cachingdb_query(db, "SELECT * FROM t WHERE x > ?",
                                           &p, 1, NULL, TOKIO_DB_REMEMBER,
                                           collect, &b), 0);
    assert_int_equal(tokio_cachingdb_last_hit(db), TOKIO_DB_HIT_CACHE);
    assert_string_equal(b.buf, "i1|tone|r1.5\ni3|tthree|r-0.25\n");
    tokio_cachingdb_drop_cache(db);
    assert_int_equal(tokio_cachingdb_query(db, "SELECT * FROM t WHERE x > ?",
                                           &p, 1, NULL, TOKIO_DB_REMEMBER,
                                           NULL, NULL), 0);
    assert_int_equal(tokio_cachingdb_last_hit(db), TOKIO_DB_HIT_CACHE);
    tokio_cachingdb_free(db);
}

static void
test_cachingdb_open_mem(void **state)
{
    struct tokio_cachingdb *db = NULL;
    struct text t = { "" };
    size_t len;
    (void)state;

    tokio_test_make_db(path_of("a.sqlite3"), fixture);
    char *image = tokio_test_read_file(path_of("a.sqlite3"), &len);
    assert_int_equal(tokio_cachingdb_open_mem(&db, image, len, "img"), 0);
    free(image);
    assert_int_equal(tokio_cachingdb_query(db, "SELECT name FROM t WHERE "
                                           "id = 2", NULL, 0, NULL, 0,
                                           collect, &t), 0);
    assert_string_equal(t.buf, "ttwo\n");
    tokio_cachingdb_free(db);
    assert_int_equal(tokio_cachingdb_open_mem(&db, "garbage!", 8, "img"),
                     TOKIO_EFORMAT);
    assert_null(db);
    assert_contains(tokio_errmsg(), "img");
}

static int
stop_at_two(void *payload, const struct tokio_db_value *row, size_t n)
{
    (void)row;
    (void)n;
    return ++*(int *)payload == 2 ? TOKIO_ENOTFOUND : 0;
}

static void
test_cachingdb_errors(void **state)
{
    struct tokio_cachingdb *db = NULL;
    struct tokio_db_value p;
    struct tokio_db_remote r;
    int n = 0;
    (void)state;

    assert_int_equal(tokio_cachingdb_open(&db, path_of("missing"), NULL),
                     TOKIO_EIO);
    assert_null(db);
    assert_contains(tokio_errmsg(), "missing");
    tokio_test_write_file(path_of("junk"), "no database here, only some "
                          "words that are not SQLite's header at all, ok?",
                          SIZE_MAX);
    assert_int_equal(tokio_cachingdb_open(&db, path_of("junk"), NULL),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "junk");
    assert_int_equal(tokio_cachingdb_open(&db, NULL, NULL), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "no database to ask");

    tokio_test_make_db(path_of("a.sqlite3"), fixture);
    assert_int_equal(tokio_cachingdb_open(&db, path_of("a.sqlite3"), NULL),
                     0);
    assert_int_equal(tokio_cachingdb_query(db, "SELEKT 1", NULL, 0, NULL, 0,
                                           NULL, NULL), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "SELEKT");
    memset(&p, 0, sizeof(p));
    assert_int_equal(tokio_cachingdb_query(db, "SELECT ?, ?", &p, 1, NULL, 0,
                                           NULL, NULL), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "2 placeholders but 1 values");
    assert_int_equal(tokio_cachingdb_query(db, "SELECT * FROM t", NULL, 0,
                                           NULL, 0, stop_at_two, &n),
                     TOKIO_ENOTFOUND);
    assert_int_equal(n, 2);
    static const char *const cols[] = { "a" };
    const struct tokio_db_table bad = { "t; DROP TABLE t", cols, 1, cols, 1 };
    assert_int_equal(tokio_cachingdb_query(db, "SELECT 1", NULL, 0, &bad, 0,
                                           NULL, NULL), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "not a valid table name");
    tokio_cachingdb_free(db);

    setenv("TOKIOTEST_PORT", "70000", 1);
    assert_int_equal(tokio_cachingdb_remote_from_env(&r, "TOKIOTEST_"),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "TOKIOTEST_PORT");
    setenv("TOKIOTEST_PORT", "3307", 1);
    setenv("TOKIOTEST_HOST", "h", 1);
    setenv("TOKIOTEST_DB", "d", 1);
    assert_int_equal(tokio_cachingdb_remote_from_env(&r, "TOKIOTEST_"), 0);
    assert_int_equal(r.port, 3307);
    assert_string_equal(r.host, "h");
    assert_string_equal(r.database, "d");
    assert_null(r.user);
    /* options given on a command line win; the password stays */
    setenv("TOKIOTEST_PASSWORD", "secret", 1);
    assert_int_equal(tokio_cachingdb_remote_from_env(&r, "TOKIOTEST_"), 0);
    tokio_cachingdb_remote_override(&r, &(struct tokio_db_remote){
        .user = "u2", .port = 3310 });
    assert_string_equal(r.host, "h");
    assert_string_equal(r.user, "u2");
    assert_string_equal(r.password, "secret");
    assert_string_equal(r.database, "d");
    assert_int_equal(r.port, 3310);
    tokio_cachingdb_remote_override(&r, &(struct tokio_db_remote){
        .host = "h3", .database = "d3" });
    assert_string_equal(r.host, "h3");
    assert_string_equal(r.user, "u2");
    assert_string_equal(r.database, "d3");
    assert_int_equal(r.port, 3310);
    unsetenv("TOKIOTEST_PASSWORD");
}

/* Port 1 on loopback: nobody listens; the message says refused. */
static void
test_cachingdb_refused(void **state)
{
    struct tokio_cachingdb *db = NULL;
    struct tokio_db_remote r = { "127.0.0.1", "u", "p", "d", 1, 2, 2 };
    (void)state;

    assert_int_equal(tokio_cachingdb_open(&db, NULL, &r), TOKIO_EIO);
    assert_null(db);
    assert_contains(tokio_errmsg(), "u@127.0.0.1:1/d");
    assert_contains(tokio_errmsg(), "connection refused");
}

/* A server that accepts but never speaks: a timeout, in about the
 * seconds asked for, not a hang. */
static void
test_cachingdb_timeout(void **state)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct tokio_cachingdb *db = NULL;
    (void)state;

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(listen(fd, 4), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    struct tokio_db_remote r = { "127.0.0.1", "u", "p", "d",
                                 ntohs(a.sin_port), 1, 1 };
    time_t t0 = time(NULL);
    assert_int_equal(tokio_cachingdb_open(&db, NULL, &r), TOKIO_EIO);
    assert_true(time(NULL) - t0 < 20);
    assert_contains(tokio_errmsg(), "timed out");
    close(fd);
}

static int
oom_trial(void *ctx)
{
    static const char *const cols[] = { "id", "name", "x" };
    static const char *const pk[] = { "id" };
    const struct tokio_db_table table = { "t", cols, 3, pk, 1 };
    struct tokio_cachingdb *db = NULL;
    int rc;

    (void)ctx;
    if ((rc = tokio_cachingdb_open(&db, path_of("a.sqlite3"), NULL)) < 0)
        return rc;
    rc = tokio_cachingdb_query(db, "SELECT * FROM t", NULL, 0, &table,
                               TOKIO_DB_REMEMBER, NULL, NULL);
    if (rc >= 0)
        rc = tokio_cachingdb_query(db, "SELECT * FROM t", NULL, 0, &table,
                                   TOKIO_DB_REMEMBER, NULL, NULL);
    if (rc >= 0)
        rc = tokio_cachingdb_save_cache(db, path_of("oom.sqlite3"));
    tokio_cachingdb_free(db);
    return rc;
}

static void
test_cachingdb_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_make_db(path_of("a.sqlite3"), fixture);
    tokio_test_every_oom(oom_trial, NULL, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cachingdb_query_both_placeholders),
        cmocka_unit_test(test_cachingdb_save_cache),
        cmocka_unit_test(test_cachingdb_save_into_existing),
        cmocka_unit_test(test_cachingdb_remember),
        cmocka_unit_test(test_cachingdb_open_mem),
        cmocka_unit_test(test_cachingdb_errors),
        cmocka_unit_test(test_cachingdb_refused),
        cmocka_unit_test(test_cachingdb_timeout),
        cmocka_unit_test(test_cachingdb_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
