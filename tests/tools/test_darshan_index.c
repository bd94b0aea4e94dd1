/*
 * tests/tools/test_darshan_index.c - the Darshan index scoreboard
 * (src/tools/darshan_index.c, the reference's darshan_scoreboard).
 *
 * First the reference's outputs: every darshan_scoreboard golden made
 * from pytokio-inputs/darshanlogs.db, through the library (the command is
 * tested in tests/cli/test_darshan_scoreboard.c).  JSON is compared with
 * json_equal(), i.e. exactly: the sums are SQLite integer sums, the same
 * numbers the reference's SQLite computed, so there is nothing to round.
 *
 * Then our own cases on small index databases written here with the
 * reference's schema, so the behaviour is covered without the data pack:
 * null names and sums, long and non-ASCII names, filters that are SQL
 * text, several databases, the text table's quirks, every kind of bad
 * database, and every allocation failing.
 */
#include "testutil.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "tokio/tools/darshan_index.h"

#define INDEX_DB "pytokio-inputs/darshanlogs.db"
#define GOLDEN "golden/pytokio/darshan_scoreboard/"
#define GIB 1073741824LL

static const char *const categories[] = {
    "per_user", "per_fs", "per_exe", "per_user_exe_fs"
};

/* ------------------------------------------------------------------ */

static json_t *
load_golden(const char *name)
{
    char rel[256];
    json_error_t err;
    json_t *v;

    snprintf(rel, sizeof(rel), GOLDEN "%s", name);
    const char *path = tokio_test_data(rel);
    assert_non_null(path);
    v = json_load_file(path, 0, &err);
    if (v == NULL)
        fail_msg("%s: %s", path, err.text);
    return v;
}

/* Fail showing both when `got` differs from the golden `name`. */
static void
assert_golden_json(const json_t *got, const char *name)
{
    json_t *want = load_golden(name);

    if (!json_equal(got, want)) {
        char *g = json_dumps(got, JSON_SORT_KEYS | JSON_COMPACT);
        char *w = json_dumps(want, JSON_SORT_KEYS | JSON_COMPACT);
        print_message("got:  %s\nwant: %s\n", g, w);
        free(g);
        free(w);
        fail_msg("scoreboard differs from %s", name);
    }
    json_decref(want);
}

/* The text table of `board` as a string (free()). */
static char *
text_of(const json_t *board, long long max_show)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_darshan_scoreboard_write_text(fp, board, max_show),
                     TOKIO_OK);
    fclose(fp);
    return buf;
}

static json_t *
score_one(const char *path, const struct tokio_scoreboard_filters *f)
{
    json_t *board = NULL;

    assert_int_equal(tokio_darshan_scoreboard(&board, &path, 1, f), TOKIO_OK);
    assert_non_null(board);
    return board;
}

/* ------------------------------------------------------------------
 * The reference's goldens
 */

static void
test_golden_default_json(void **state)
{
    TOKIO_TEST_NEED_DATA(db, INDEX_DB);
    json_t *board = score_one(db, NULL);

    (void)state;
    assert_golden_json(board, "darshanlogs.db.json");
    /* the reference's category order, which the text table follows */
    size_t i = 0;
    const char *key;
    json_t *rows;
    json_object_foreach(board, key, rows)
        assert_string_equal(key, categories[i++]);
    json_decref(board);
}

static void
check_text_golden(long long max_show, const char *name)
{
    TOKIO_TEST_NEED_DATA(db, INDEX_DB);
    char rel[256];
    json_t *board = score_one(db, NULL);
    char *got = text_of(board, max_show);

    snprintf(rel, sizeof(rel), GOLDEN "%s", name);
    char *want = tokio_test_read_file(tokio_test_data(rel), NULL);
    assert_non_null(want);
    assert_string_equal(got, want);
    free(got);
    free(want);
    json_decref(board);
}

static void
test_golden_default_text(void **state)
{
    (void)state;
    check_text_golden(10, "darshanlogs.db.default.txt");
}

static void
test_golden_max_show_3_text(void **state)
{
    (void)state;
    check_text_golden(3, "darshanlogs.db.max-show3.txt");
}

static void
test_golden_filters(void **state)
{
    TOKIO_TEST_NEED_DATA(db, INDEX_DB);
    static const char *const user[] = { "aa4hm0jcwfg" };
    static const char *const scratch[] = { "/global/cscratch1" };
    static const char *const homes[] = { "homes-u2" };
    static const char *const cscratch[] = { "cscratch" };
    static const char *const all_fs[] = { "/global/cscratch1", "/global/u2" };
    static const char *const exes[] = { "1221559022", "2054166464",
                                        "1700134137" };
    static const char *const one_exe[] = { "1221559022" };
    struct {
        struct tokio_scoreboard_filters f;
        const char *golden;
    } cases[] = {
        { { .limit_user = user, .n_limit_user = 1 },
          "darshanlogs.db.limit-user.json" },
        { { .exclude_user = user, .n_exclude_user = 1 },
          "darshanlogs.db.exclude-user.json" },
        { { .limit_fs = scratch, .n_limit_fs = 1 },
          "darshanlogs.db.limit-fs-mountpt.json" },
        { { .limit_fs = homes, .n_limit_fs = 1 },
          "darshanlogs.db.limit-fs-logical.json" },
        { { .exclude_fs = cscratch, .n_exclude_fs = 1 },
          "darshanlogs.db.exclude-fs-logical.json" },
        { { .exclude_fs = all_fs, .n_exclude_fs = 2 },
          "darshanlogs.db.exclude-fs-all.json" },
        { { .limit_exe = exes, .n_limit_exe = 3 },
          "darshanlogs.db.limit-exe.json" },
        { { .exclude_exe = one_exe, .n_exclude_exe = 1 },
          "darshanlogs.db.exclude-exe.json" },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *board = score_one(db, &cases[i].f);
        assert_golden_json(board, cases[i].golden);
        json_decref(board);
    }
}

static void
test_golden_index_of_pytokio_inputs(void **state)
{
    (void)state;
    /* index-pytokio-inputs.{txt,json} score an index that
     * index_darshanlogs built from the .darshan files of pytokio-inputs;
     * they can be checked once tokio index-darshanlogs exists */
    print_message("skipped: index-pytokio-inputs goldens need "
                  "'tokio index-darshanlogs', not implemented yet\n");
    skip();
}

/* Filter values are LIKE patterns, bound as parameters. */
static void
test_filters_are_like_patterns(void **state)
{
    TOKIO_TEST_NEED_DATA(db, INDEX_DB);
    static const char *const prefix[] = { "aa4hm0%" };
    static const char *const upper[] = { "HOMES-U2" };
    struct tokio_scoreboard_filters f = { .limit_user = prefix,
                                          .n_limit_user = 1 };
    json_t *board;

    (void)state;
    board = score_one(db, &f);
    assert_golden_json(board, "darshanlogs.db.limit-user.json");
    json_decref(board);

    /* LIKE ignores ASCII case, in the reference too */
    memset(&f, 0, sizeof(f));
    f.limit_fs = upper;
    f.n_limit_fs = 1;
    board = score_one(db, &f);
    assert_golden_json(board, "darshanlogs.db.limit-fs-logical.json");
    json_decref(board);
}

/* A value that is SQL text is just a value that matches nothing. */
static void
test_filter_values_are_not_sql(void **state)
{
    TOKIO_TEST_NEED_DATA(db, INDEX_DB);
    static const char *const evil[] = {
        "x' OR '1'='1", "'); DROP TABLE headers; --", "\"", ""
    };
    struct tokio_scoreboard_filters f = { .limit_user = evil,
                                          .n_limit_user = 4,
                                          .limit_fs = evil,
                                          .n_limit_fs = 4 };
    json_t *board;

    (void)state;
    board = score_one(db, &f);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(json_array_size(json_object_get(board,
                                                         categories[i])), 0);
    json_decref(board);
    /* an exclusion of SQL text excludes nothing */
    memset(&f, 0, sizeof(f));
    f.exclude_exe = evil;
    f.n_exclude_exe = 3;
    board = score_one(db, &f);
    assert_golden_json(board, "darshanlogs.db.json");
    json_decref(board);
}

/* Several databases: each one's rows, concatenated in order. */
static void
test_two_databases_concatenate(void **state)
{
    TOKIO_TEST_NEED_DATA(db, INDEX_DB);
    const char *paths[2] = { db, db };
    json_t *board = NULL, *one = load_golden("darshanlogs.db.json");

    (void)state;
    assert_int_equal(tokio_darshan_scoreboard(&board, paths, 2, NULL),
                     TOKIO_OK);
    for (size_t i = 0; i < 4; i++) {
        json_t *got = json_object_get(board, categories[i]);
        json_t *want = json_object_get(one, categories[i]);
        size_t n = json_array_size(want);

        assert_int_equal(json_array_size(got), 2 * n);
        for (size_t k = 0; k < 2 * n; k++)
            assert_true(json_equal(json_array_get(got, k),
                                   json_array_get(want, k % n)));
    }
    json_decref(board);
    json_decref(one);
}

static void
test_max_results_limits_each_category(void **state)
{
    TOKIO_TEST_NEED_DATA(db, INDEX_DB);
    struct tokio_scoreboard_filters f = { .max_results = 3 };
    json_t *board = score_one(db, &f);
    json_t *all = load_golden("darshanlogs.db.json");

    (void)state;
    for (size_t i = 0; i < 4; i++) {
        json_t *got = json_object_get(board, categories[i]);
        json_t *want = json_object_get(all, categories[i]);
        size_t n = json_array_size(want) < 3 ? json_array_size(want) : 3;

        assert_int_equal(json_array_size(got), n);
        for (size_t k = 0; k < n; k++)
            assert_true(json_equal(json_array_get(got, k),
                                   json_array_get(want, k)));
    }
    json_decref(board);
    json_decref(all);
}

/* ------------------------------------------------------------------
 * Our own index databases
 */

struct fixture {
    char *dir;
    char db[4096];      /* the small index below */
};

/* The reference's schema (index_darshanlogs.py), columns we read first. */
static const char schema[] =
    "CREATE TABLE mounts (fs_id INTEGER PRIMARY KEY, mountpt CHAR UNIQUE,"
    "  fsname CHAR);"
    "CREATE TABLE headers (log_id INTEGER PRIMARY KEY, filename CHAR UNIQUE,"
    "  end_time INTEGER, exe CHAR, exename CHAR, jobid CHAR,"
    "  nprocs INTEGER, start_time INTEGER, uid INTEGER, username CHAR,"
    "  version CHAR, walltime INTEGER);"
    "CREATE TABLE summaries (log_id INTEGER, fs_id INTEGER,"
    "  bytes_read INTEGER, bytes_written INTEGER, reads INTEGER,"
    "  writes INTEGER, opens INTEGER, stats INTEGER,"
    "  f_open_start_timestamp REAL,"
    "  FOREIGN KEY (fs_id) REFERENCES mounts (fs_id),"
    "  FOREIGN KEY (log_id) REFERENCES headers (log_id),"
    "  UNIQUE(log_id, fs_id));";

/*
 * alice: 3 GiB + 100 B read, 1 GiB written (two file systems); bob:
 * 1 GiB read, 2 GiB written; an anonymous log (no user, no exe): 5 + 5;
 * carol: nothing, with a 44-character non-ASCII executable name.
 */
static const char rows[] =
    "INSERT INTO mounts VALUES (1, '/scratch1', 'scratch1');"
    "INSERT INTO mounts VALUES (2, '/global/u1', 'homes-u1');"
    "INSERT INTO mounts VALUES (3, 'UNKNOWN', 'UNKNOWN');"
    "INSERT INTO headers (log_id, filename, exe, exename, username) VALUES"
    "  (1, 'alice_app_id1_1-1-1-1_1.darshan', '/bin/app', 'app', 'alice'),"
    "  (2, 'bob_ior_id2_1-1-1-1_1.darshan', '/bin/ior', 'ior', 'bob'),"
    "  (3, 'anonymous.darshan', NULL, NULL, NULL),"
    "  (4, 'carol_x_id4_1-1-1-1_1.darshan', '/x',"
    "   '\xc3\xbcn\xc3\xaf" "c\xc3\xb6" "d\xc3\xa9_0123456789"
    "abcdefghijklmnopqrstuvwxyz', 'carol');"
    "INSERT INTO summaries (log_id, fs_id, bytes_read, bytes_written) VALUES"
    "  (1, 1, 3221225472, 1073741824), (1, 3, 100, 0),"
    "  (2, 2, 1073741824, 2147483648), (3, 1, 5, 5), (4, 1, 0, 0);";

static int
setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));

    fx->dir = tokio_test_mkdtemp();
    snprintf(fx->db, sizeof(fx->db), "%s/index.db", fx->dir);
    char *sql = malloc(sizeof(schema) + sizeof(rows));
    strcpy(sql, schema);
    strcat(sql, rows);
    tokio_test_make_db(fx->db, sql);
    free(sql);
    *state = fx;
    return 0;
}

static int
teardown(void **state)
{
    struct fixture *fx = *state;

    tokio_test_rmtree(fx->dir);
    free(fx->dir);
    free(fx);
    return 0;
}

static void
test_own_index_rows(void **state)
{
    struct fixture *fx = *state;
    json_t *board = score_one(fx->db, NULL);
    json_error_t err;
    json_t *want = json_loads(
        "{\"per_user\": ["
        "  [3221225572, 1073741824, 1, \"alice\"],"
        "  [1073741824, 2147483648, 1, \"bob\"],"
        "  [5, 5, 1, null],"
        "  [0, 0, 1, \"carol\"]],"
        " \"per_fs\": ["
        "  [3221225477, 1073741829, 3, \"scratch1\", \"/scratch1\"],"
        "  [1073741824, 2147483648, 1, \"homes-u1\", \"/global/u1\"],"
        "  [100, 0, 1, \"UNKNOWN\", \"UNKNOWN\"]],"
        " \"per_exe\": ["
        "  [3221225572, 1073741824, 1, \"app\"],"
        "  [1073741824, 2147483648, 1, \"ior\"],"
        "  [5, 5, 1, null],"
        "  [0, 0, 1, \"\\u00fcn\\u00efc\\u00f6d\\u00e9_0123456789"
        "abcdefghijklmnopqrstuvwxyz\"]],"
        " \"per_user_exe_fs\": ["
        "  [3221225472, 1073741824, 1, \"alice|app|scratch1\"],"
        "  [1073741824, 2147483648, 1, \"bob|ior|homes-u1\"],"
        "  [100, 0, 1, \"alice|app|UNKNOWN\"],"
        "  [5, 5, 1, null],"
        "  [0, 0, 1, \"carol|\\u00fcn\\u00efc\\u00f6d\\u00e9_0123456789"
        "abcdefghijklmnopqrstuvwxyz|scratch1\"]]}", 0, &err);

    (void)state;
    assert_non_null(want);
    if (!json_equal(board, want)) {
        char *g = json_dumps(board, JSON_SORT_KEYS | JSON_COMPACT);
        print_message("got: %s\n", g);
        free(g);
        fail();
    }
    json_decref(want);
    json_decref(board);
}

static void
test_own_index_text(void **state)
{
    struct fixture *fx = *state;
    json_t *board = score_one(fx->db, NULL);
    char *text = text_of(board, 10);

    (void)state;
    /* a null name reads UNKNOWN (all three parts, as in the reference) */
    assert_contains(text, " 3.                UNKNOWN, UNKNOWN, UNKNOWN"
                          "        0.0        0.0        1\n");
    /* 44 characters: the first 19 and the last 18, counted as
     * characters, not bytes, and no padding */
    assert_contains(text, " 4. \xc3\xbcn\xc3\xaf" "c\xc3\xb6" "d\xc3\xa9_"
                          "0123456789a...ijklmnopqrstuvwxyz"
                          "        0.0        0.0        1\n");
    assert_contains(text, " 1.                     alice, app, scratch1"
                          "        3.0        1.0        1\n");
    assert_contains(text, " 1.                                    alice"
                          "        3.0        1.0        1\n");
    free(text);
    json_decref(board);
}

/* The database is only read: same bytes afterwards. */
static void
test_database_is_not_modified(void **state)
{
    struct fixture *fx = *state;
    size_t len_before, len_after;
    char *before = tokio_test_read_file(fx->db, &len_before);

    json_decref(score_one(fx->db, NULL));
    char *after = tokio_test_read_file(fx->db, &len_after);
    assert_int_equal(len_before, len_after);
    assert_memory_equal(before, after, len_before);
    free(before);
    free(after);
}

/* ------------------------------------------------------------------
 * The text table
 */

static json_t *
board_of(const char *text)
{
    json_error_t err;
    json_t *v = json_loads(text, 0, &err);

    if (v == NULL)
        fail_msg("%s: %s", text, err.text);
    return v;
}

static void
test_text_empty_categories_print_nothing(void **state)
{
    json_t *b = board_of("{\"per_user\": [], \"per_fs\": [],"
                         " \"per_exe\": [], \"per_user_exe_fs\": []}");
    char *text = text_of(b, 10);

    (void)state;
    assert_string_equal(text, "");
    free(text);
    json_decref(b);
}

/* The blank line goes before every category but the first present one,
 * printed or not: a board whose first category is empty starts blank. */
static void
test_text_separator_counts_empty_categories(void **state)
{
    json_t *b = board_of("{\"per_user\": [],"
                         " \"per_fs\": [[1073741824, 0, 2, \"x\", \"/x\"]]}");
    char *text = text_of(b, 10);

    (void)state;
    assert_string_equal(text,
        "\n"
        " #                              File Systems  Read(GiB) Write(GiB)"
        "   # Jobs\n"
        "=================================================================="
        "=========\n"
        " 1.                                        x        1.0        0.0"
        "        2\n");
    free(text);
    json_decref(b);
}

static void
test_text_max_show_zero_prints_titles_only(void **state)
{
    json_t *b = board_of("{\"per_exe\": [[1, 2, 1, \"a\"]]}");
    char *text = text_of(b, 0);

    (void)state;
    assert_string_equal(text,
        " #                              Applications  Read(GiB) Write(GiB)"
        "   # Jobs\n"
        "=================================================================="
        "=========\n");
    free(text);
    text = text_of(b, -5);
    assert_non_null(strstr(text, "====\n"));
    assert_null(strstr(text, " 1. "));
    free(text);
    json_decref(b);
}

/* Equal totals keep their order; null sums count as 0. */
static void
test_text_ties_are_stable(void **state)
{
    json_t *b = board_of("{\"other\": [[1, 1, 1, \"b\"], [2, 0, 1, \"a\"],"
                         " [null, 2, 1, \"c\"], [0, 3, 7, \"top\"],"
                         " [2.5, 0, 1, \"r\"]]}");
    char *text = text_of(b, 10);
    const char *pos[5];

    (void)state;
    /* an unknown category is titled by its key, as names.get(k, k) */
    assert_contains(text, "  other  Read(GiB)");
    pos[0] = strstr(text, "  top ");
    pos[1] = strstr(text, "    r ");
    pos[2] = strstr(text, "    b ");
    pos[3] = strstr(text, "    a ");
    pos[4] = strstr(text, "    c ");
    for (size_t i = 0; i < 5; i++)
        assert_non_null(pos[i]);
    for (size_t i = 1; i < 5; i++)
        assert_true(pos[i - 1] < pos[i]);
    assert_contains(text, "    c        0.0        0.0        1\n");
    free(text);
    json_decref(b);
}

static void
test_text_rejects_bad_boards(void **state)
{
    const char *bad[] = {
        "[]", "{\"per_user\": 5}", "{\"per_user\": [[1, 2]]}",
        "{\"per_user\": [[\"1\", 2, 3, \"x\"]]}", "{\"per_user\": [7]}",
    };
    FILE *fp = fopen("/dev/null", "w");

    (void)state;
    assert_non_null(fp);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        json_t *b = board_of(bad[i]);
        assert_int_equal(tokio_darshan_scoreboard_write_text(fp, b, 10),
                         TOKIO_EINVAL);
        json_decref(b);
    }
    assert_int_equal(tokio_darshan_scoreboard_write_text(fp, NULL, 10),
                     TOKIO_EINVAL);
    fclose(fp);
}

/* ------------------------------------------------------------------
 * Bad databases and arguments
 */

static void
assert_fails(const char *path, int status, const char *needle)
{
    json_t *board = (json_t *)&board;   /* must be reset to NULL */

    assert_int_equal(tokio_darshan_scoreboard(&board, &path, 1, NULL),
                     status);
    assert_null(board);
    assert_contains(tokio_errmsg(), path);
    assert_contains(tokio_errmsg(), needle);
}

static void
test_missing_database(void **state)
{
    struct fixture *fx = *state;
    char path[4200];
    struct stat st;

    snprintf(path, sizeof(path), "%s/no-such.db", fx->dir);
    assert_fails(path, TOKIO_EIO, "unable to open database file");
    /* read-only: the reference's connect() would have created it */
    assert_int_not_equal(stat(path, &st), 0);
}

static void
test_not_sqlite(void **state)
{
    struct fixture *fx = *state;
    char path[4200];

    snprintf(path, sizeof(path), "%s/text.db", fx->dir);
    tokio_test_write_file(path, "this is not a database, just some text "
                          "long enough to hold a header\n"
                          "and another line of words to be safe.....\n"
                          "and another line of words to be safe.....\n",
                          SIZE_MAX);
    assert_fails(path, TOKIO_EFORMAT, "file is not a database");
}

static void
test_sqlite_without_index_tables(void **state)
{
    struct fixture *fx = *state;
    char path[4200];

    snprintf(path, sizeof(path), "%s/other.db", fx->dir);
    tokio_test_make_db(path, "CREATE TABLE t (x INTEGER); "
                       "INSERT INTO t VALUES (1);");
    assert_fails(path, TOKIO_EFORMAT, "not a Darshan index database");
    assert_contains(tokio_errmsg(), "no such table");

    /* an empty file is an empty SQLite database */
    snprintf(path, sizeof(path), "%s/empty.db", fx->dir);
    tokio_test_write_file(path, "", 0);
    assert_fails(path, TOKIO_EFORMAT, "not a Darshan index database");

    /* the tables, but not the columns */
    snprintf(path, sizeof(path), "%s/columns.db", fx->dir);
    tokio_test_make_db(path,
                       "CREATE TABLE mounts (fs_id INTEGER, mountpt CHAR);"
                       "CREATE TABLE headers (log_id INTEGER, filename CHAR);"
                       "CREATE TABLE summaries (log_id INTEGER, fs_id "
                       "INTEGER);");
    assert_fails(path, TOKIO_EFORMAT, "no such column");
}

static void
test_corrupt_database(void **state)
{
    struct fixture *fx = *state;
    char path[4200];
    size_t len;
    char *bytes = tokio_test_read_file(fx->db, &len);

    /* keep the 100-byte header, overwrite the pages after it */
    assert_true(len > 1024);
    memset(bytes + 100, 0xa5, len - 100);
    snprintf(path, sizeof(path), "%s/corrupt.db", fx->dir);
    tokio_test_write_file(path, bytes, len);
    free(bytes);

    json_t *board = NULL;
    const char *p = path;
    int rc = tokio_darshan_scoreboard(&board, &p, 1, NULL);
    assert_true(rc == TOKIO_EFORMAT || rc == TOKIO_EIO);
    assert_null(board);
    assert_contains(tokio_errmsg(), path);
}

/* The second database failing discards the first's rows. */
static void
test_one_bad_database_fails_all(void **state)
{
    struct fixture *fx = *state;
    char missing[4200];
    const char *paths[2] = { fx->db, missing };
    json_t *board = NULL;

    snprintf(missing, sizeof(missing), "%s/missing.db", fx->dir);
    assert_int_equal(tokio_darshan_scoreboard(&board, paths, 2, NULL),
                     TOKIO_EIO);
    assert_null(board);
    assert_contains(tokio_errmsg(), missing);
}

static void
test_bad_arguments(void **state)
{
    struct fixture *fx = *state;
    const char *path = fx->db;
    json_t *board = NULL;
    const char *many[300];
    struct tokio_scoreboard_filters f = { .limit_user = many,
                                          .n_limit_user = 300 };

    for (size_t i = 0; i < 300; i++)
        many[i] = "u";
    assert_int_equal(tokio_darshan_scoreboard(&board, &path, 0, NULL),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_scoreboard(&board, NULL, 1, NULL),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_scoreboard(NULL, &path, 1, NULL),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_scoreboard(&board, &path, 1, &f),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "too many limit_user values");
    assert_null(board);

    /* the most values allowed work (and SQLite takes the long query) */
    f.n_limit_user = 256;
    board = score_one(path, &f);
    assert_int_equal(json_array_size(json_object_get(board, "per_user")), 0);
    json_decref(board);

    f.n_limit_user = 1;
    f.limit_user = NULL;
    assert_int_equal(tokio_darshan_scoreboard(&board, &path, 1, &f),
                     TOKIO_EINVAL);
}

/* SQLite's habit: fail the n-th allocation, for every n, once and for
 * good; each time a clean ENOMEM and nothing leaked (ASan/valgrind). */
static void
test_every_allocation_failing(void **state)
{
    struct fixture *fx = *state;
    const char *path = fx->db;
    static const char *const user[] = { "a%", "b%" };
    struct tokio_scoreboard_filters f = { .limit_user = user,
                                          .n_limit_user = 2 };

    for (int persistent = 0; persistent < 2; persistent++) {
        for (size_t n = 1;; n++) {
            json_t *board = NULL;
            int rc;

            if (persistent)
                tokio_test_fail_alloc_persistent(n);
            else
                tokio_test_fail_alloc_at(n);
            rc = tokio_darshan_scoreboard(&board, &path, 1, &f);
            tokio_test_fail_alloc_at(0);
            if (rc == TOKIO_OK) {
                char *text = text_of(board, 10);
                assert_contains(text, "alice");
                free(text);
                json_decref(board);
                break;
            }
            assert_int_equal(rc, TOKIO_ENOMEM);
            assert_null(board);
            assert_true(n < 100000);
        }
    }

    /* and the text table */
    json_t *board = score_one(path, NULL);
    FILE *fp = fopen("/dev/null", "w");
    for (size_t n = 1;; n++) {
        tokio_test_fail_alloc_at(n);
        int rc = tokio_darshan_scoreboard_write_text(fp, board, 10);
        tokio_test_fail_alloc_at(0);
        if (rc == TOKIO_OK)
            break;
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_true(n < 100000);
    }
    fclose(fp);
    json_decref(board);
}

int
main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_default_json),
        cmocka_unit_test(test_golden_default_text),
        cmocka_unit_test(test_golden_max_show_3_text),
        cmocka_unit_test(test_golden_filters),
        cmocka_unit_test(test_golden_index_of_pytokio_inputs),
        cmocka_unit_test(test_filters_are_like_patterns),
        cmocka_unit_test(test_filter_values_are_not_sql),
        cmocka_unit_test(test_two_databases_concatenate),
        cmocka_unit_test(test_max_results_limits_each_category),
        T(test_own_index_rows),
        T(test_own_index_text),
        T(test_database_is_not_modified),
        cmocka_unit_test(test_text_empty_categories_print_nothing),
        cmocka_unit_test(test_text_separator_counts_empty_categories),
        cmocka_unit_test(test_text_max_show_zero_prints_titles_only),
        cmocka_unit_test(test_text_ties_are_stable),
        cmocka_unit_test(test_text_rejects_bad_boards),
        T(test_missing_database),
        T(test_not_sqlite),
        T(test_sqlite_without_index_tables),
        T(test_corrupt_database),
        T(test_one_bad_database_fails_all),
        T(test_bad_arguments),
        T(test_every_allocation_failing),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
