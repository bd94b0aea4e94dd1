/*
 * src/tools/darshan_index.c - the scoreboard of a Darshan index database,
 * as the reference's tokio.cli.darshan_scoreboard (query_index_db and
 * print_top).
 *
 * The index is the SQLite file index-darshanlogs writes (reference:
 * tokio/cli/index_darshanlogs.py): `headers` (one row per log: filename,
 * username, exename, ...), `mounts` (fs_id, mountpt, fsname) and
 * `summaries` (per log and file system: bytes_read, bytes_written, ...).
 * For each category the reference runs one GROUP BY query per database
 * and concatenates the databases' rows; the text table re-sorts them.
 *
 * The queries are the reference's, clause for clause, so that SQLite
 * plans them alike and rows with equal totals come out in the same order
 * (ORDER BY leaves ties to the plan).  Two deliberate differences:
 *
 *   - Filter values are bound parameters.  The reference pastes them into
 *     the SQL between quotes, so a value with a quote in it fails (or
 *     injects SQL); the LIKE semantics are otherwise the same.
 *   - Databases are opened read-only.  The reference's sqlite3.connect()
 *     creates a missing file and then fails on "no such table"; here a
 *     missing file is an error and nothing is created.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/darshanlogs.db with the
 * goldens in golden/pytokio/darshan_scoreboard/.
 */
#include "tokio/tools/darshan_index.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/sbuf.h"
#include "core/text.h"
#include "tokio/output.h"

/*
 * A value list becomes a chain "a OR b OR ..." that SQLite parses into a
 * tree as deep as the list is long, and SQLite refuses trees deeper than
 * 1000 (SQLITE_MAX_EXPR_DEPTH).  Capping each list well below that gives
 * the caller a clear TOKIO_EINVAL instead of an SQL error that would read
 * like a fault of the database.
 */
#define MAX_FILTER_VALUES 256

/*
 * An indexer may be adding logs while we read (SQLite locks the file
 * while it commits); wait for it that long rather than fail at once.
 */
#define BUSY_TIMEOUT_MS 5000

/* print_top: names wider than this are shortened in the middle */
#define NAME_WIDTH 40
#define NAME_HEAD 19
#define NAME_TAIL 18

/* a row: bytes read, bytes written, jobs, name (and, per_fs, mountpt) */
#define ROW_MIN_COLUMNS 4

/*
 * The reference's categories, in its order (QUERY_PARAMS): the key in the
 * result, the title print_top gives it, the selected name column(s) and
 * what is grouped by.
 */
struct category {
    const char *key;
    const char *title;
    const char *columns;
    const char *group;
};

static const struct category categories[] = {
    { "per_user", "Users", "h.username", "h.username" },
    { "per_fs", "File Systems", "m.fsname, m.mountpt", "m.fsname" },
    { "per_exe", "Applications", "h.exename", "h.exename" },
    /* the reference writes "|" (an identifier SQLite takes for a string
     * when no column has that name); '|' is the same value, said right */
    { "per_user_exe_fs", "User/App/FS",
      "h.username || '|' || h.exename || '|' || m.fsname AS tuple",
      "tuple" },
};

#define N_CATEGORIES (sizeof(categories) / sizeof(categories[0]))

/* ---------------------------------------------------------------------
 * Building a query
 */

/*
 * One WHERE term for a value list: `clause` repeated once per value,
 * joined by `joiner`, in parentheses.  Nothing when the list is empty.
 */
static void
sql_add_term(struct tokio__sbuf *b, int *n_terms, size_t n_values,
             const char *clause, const char *joiner)
{
    if (n_values == 0)
        return;
    tokio__sbuf_str(b, *n_terms == 0 ? "WHERE\n    (" : "\n    AND (");
    for (size_t i = 0; i < n_values; i++) {
        if (i > 0)
            tokio__sbuf_str(b, joiner);
        tokio__sbuf_str(b, clause);
    }
    tokio__sbuf_str(b, ")");
    (*n_terms)++;
}

/*
 * The reference's BASE_QUERY with the category's column and grouping and
 * its WHERE terms (in its order: fs, user, exe; limit before exclude),
 * each value a `?`.  bind_filters() binds them in the same order.
 */
static int
build_query(char **out, const struct category *c,
            const struct tokio_scoreboard_filters *f)
{
    struct tokio__sbuf b = { 0 };
    int n_terms = 0;

    *out = NULL;
    tokio__sbuf_str(&b, "SELECT\n"
                        "    SUM(s.bytes_read) AS readbytes,\n"
                        "    SUM(s.bytes_written) AS writebytes,\n"
                        "    COUNT(DISTINCT h.filename) AS jobcount,\n    ");
    tokio__sbuf_str(&b, c->columns);
    tokio__sbuf_str(&b, "\nFROM\n"
                        "    summaries AS s\n"
                        "INNER JOIN\n"
                        "    headers AS h ON h.log_id = s.log_id,\n"
                        "    mounts AS m ON m.fs_id = s.fs_id\n");
    sql_add_term(&b, &n_terms, f->n_limit_fs,
                 "(m.mountpt LIKE ? OR m.fsname LIKE ?)", " OR ");
    sql_add_term(&b, &n_terms, f->n_exclude_fs,
                 "(m.mountpt NOT LIKE ? AND m.fsname NOT LIKE ?)", " AND ");
    sql_add_term(&b, &n_terms, f->n_limit_user, "h.username LIKE ?", " OR ");
    sql_add_term(&b, &n_terms, f->n_exclude_user, "h.username NOT LIKE ?",
                 " AND ");
    sql_add_term(&b, &n_terms, f->n_limit_exe, "h.exename LIKE ?", " OR ");
    sql_add_term(&b, &n_terms, f->n_exclude_exe, "h.exename NOT LIKE ?",
                 " AND ");
    if (n_terms > 0)
        tokio__sbuf_str(&b, "\n");
    tokio__sbuf_str(&b, "GROUP BY ");
    tokio__sbuf_str(&b, c->group);
    tokio__sbuf_str(&b, "\nORDER BY (readbytes+writebytes) DESC");
    if (f->max_results > 0)
        tokio__sbuf_str(&b, "\nLIMIT ?");
    if ((*out = tokio__sbuf_take(&b)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory building a query");
    return TOKIO_OK;
}

static int
check_filters(const struct tokio_scoreboard_filters *f)
{
    const struct {
        const char *name;
        const char *const *v;
        size_t n;
    } lists[] = {
        { "limit_user", f->limit_user, f->n_limit_user },
        { "exclude_user", f->exclude_user, f->n_exclude_user },
        { "limit_fs", f->limit_fs, f->n_limit_fs },
        { "exclude_fs", f->exclude_fs, f->n_exclude_fs },
        { "limit_exe", f->limit_exe, f->n_limit_exe },
        { "exclude_exe", f->exclude_exe, f->n_exclude_exe },
    };

    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        if (lists[i].n > MAX_FILTER_VALUES)
            return tokio__error(TOKIO_EINVAL,
                                "too many %s values (%zu; at most %d)",
                                lists[i].name, lists[i].n,
                                MAX_FILTER_VALUES);
        if (lists[i].n > 0 && lists[i].v == NULL)
            return tokio__error(TOKIO_EINVAL, "%s: %zu values but no array",
                                lists[i].name, lists[i].n);
        for (size_t k = 0; k < lists[i].n; k++)
            if (lists[i].v[k] == NULL)
                return tokio__error(TOKIO_EINVAL, "%s value %zu is NULL",
                                    lists[i].name, k);
    }
    return TOKIO_OK;
}

/* ---------------------------------------------------------------------
 * Talking to SQLite
 */

/*
 * Turn SQLite's last error on `db` into ours, naming the database.
 * `preparing`: the failure came from compiling the query, where a plain
 * SQLITE_ERROR means a table or column the index should have is missing.
 */
static int
db_error(sqlite3 *db, const char *path, int preparing)
{
    const char *msg;
    int code;

    if (db == NULL)
        return tokio__error(TOKIO_ENOMEM,
                            "cannot open Darshan index '%s': out of memory",
                            path);
    code = sqlite3_errcode(db) & 0xff;
    msg = sqlite3_errmsg(db);
    switch (code) {
    case SQLITE_NOMEM:
        return tokio__error(TOKIO_ENOMEM,
                            "cannot read Darshan index '%s': %s", path, msg);
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_PERM:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_AUTH:
    case SQLITE_PROTOCOL:
        return tokio__error(TOKIO_EIO, "cannot read Darshan index '%s': %s",
                            path, msg);
    case SQLITE_ERROR:
        if (preparing)
            return tokio__error(TOKIO_EFORMAT,
                                "'%s' is not a Darshan index database: %s",
                                path, msg);
        /* fall through */
    default:    /* NOTADB, CORRUPT, MISMATCH, ... */
        return tokio__error(TOKIO_EFORMAT,
                            "cannot read Darshan index '%s': %s", path, msg);
    }
}

static int
open_db(sqlite3 **out, const char *path)
{
    sqlite3 *db = NULL;
    int rc;

    *out = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        rc = db_error(db, path, 0);
        sqlite3_close(db);
        return rc;
    }
    /*
     * The file is input like any other and may come from anywhere: do not
     * let views or triggers in it call functions with side effects, and
     * refuse writes to the schema however they are attempted.
     */
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    *out = db;
    return TOKIO_OK;
}

static int
bind_list(sqlite3_stmt *st, int *idx, const char *const *v, size_t n,
          int times)
{
    for (size_t i = 0; i < n; i++)
        for (int t = 0; t < times; t++)
            if (sqlite3_bind_text(st, (*idx)++, v[i], -1, SQLITE_STATIC)
                != SQLITE_OK)
                return -1;
    return 0;
}

/* Bind the filter values in the order build_query() wrote the `?`s. */
static int
bind_filters(sqlite3_stmt *st, const struct tokio_scoreboard_filters *f)
{
    int idx = 1;

    if (bind_list(st, &idx, f->limit_fs, f->n_limit_fs, 2) < 0 ||
        bind_list(st, &idx, f->exclude_fs, f->n_exclude_fs, 2) < 0 ||
        bind_list(st, &idx, f->limit_user, f->n_limit_user, 1) < 0 ||
        bind_list(st, &idx, f->exclude_user, f->n_exclude_user, 1) < 0 ||
        bind_list(st, &idx, f->limit_exe, f->n_limit_exe, 1) < 0 ||
        bind_list(st, &idx, f->exclude_exe, f->n_exclude_exe, 1) < 0)
        return -1;
    if (f->max_results > 0) {
        sqlite3_int64 limit = f->max_results > (size_t)INT64_MAX
                                  ? INT64_MAX : (sqlite3_int64)f->max_results;
        if (sqlite3_bind_int64(st, idx, limit) != SQLITE_OK)
            return -1;
    }
    return 0;
}

/*
 * Column `i` of the current row as the reference's sqlite3 module hands
 * it to json.dumps: integer, real, string or null.  Sets *rc_out and
 * returns NULL on failure.
 */
static json_t *
column_json(sqlite3_stmt *st, int i, const char *path, const char *key,
            int *rc_out)
{
    json_t *v = NULL;

    *rc_out = TOKIO_OK;
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER:
        v = json_integer(sqlite3_column_int64(st, i));
        break;
    case SQLITE_FLOAT: {
        double d = sqlite3_column_double(st, i);
        /* JSON has no infinities (Python would print "Infinity") */
        v = isfinite(d) ? json_real(d) : json_null();
        break;
    }
    case SQLITE_NULL:
        v = json_null();
        break;
    default: {  /* TEXT, and BLOB read as its bytes */
        const unsigned char *s = sqlite3_column_text(st, i);
        size_t n = (size_t)sqlite3_column_bytes(st, i);

        if (s == NULL) {
            *rc_out = tokio__error(TOKIO_ENOMEM,
                                   "out of memory reading '%s'", path);
            return NULL;
        }
        if (!tokio__utf8_valid(s, n)) {
            *rc_out = tokio__error(TOKIO_EFORMAT,
                                   "cannot read Darshan index '%s': %s "
                                   "name is not valid UTF-8", path, key);
            return NULL;
        }
        v = json_stringn((const char *)s, n);
        break;
    }
    }
    if (v == NULL)
        *rc_out = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                               path);
    return v;
}

/* Run one category's query on `db`, appending its rows to `rows`. */
static int
score_category(json_t *rows, sqlite3 *db, const char *path,
               const struct category *c,
               const struct tokio_scoreboard_filters *f)
{
    sqlite3_stmt *st = NULL;
    char *sql = NULL;
    int rc, step;

    if ((rc = build_query(&sql, c, f)) < 0)
        return rc;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        rc = db_error(db, path, 1);
        goto done;
    }
    if (bind_filters(st, f) < 0) {
        rc = db_error(db, path, 0);
        goto done;
    }
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int ncol = sqlite3_column_count(st);
        json_t *row = json_array();

        if (row == NULL || json_array_append_new(rows, row) < 0) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                              path);
            goto done;
        }
        for (int i = 0; i < ncol; i++) {
            json_t *v = column_json(st, i, path, c->key, &rc);

            if (v == NULL)
                goto done;
            if (json_array_append_new(row, v) < 0) {
                rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                  path);
                goto done;
            }
        }
    }
    rc = step == SQLITE_DONE ? TOKIO_OK : db_error(db, path, 0);
done:
    sqlite3_finalize(st);
    free(sql);
    return rc;
}

/* How many `?` build_query() writes: fs values appear twice. */
static size_t
count_params(const struct tokio_scoreboard_filters *f)
{
    return 2 * (f->n_limit_fs + f->n_exclude_fs) + f->n_limit_user +
           f->n_exclude_user + f->n_limit_exe + f->n_exclude_exe +
           (f->max_results > 0);
}

static int
score_db(json_t *board, const char *path,
         const struct tokio_scoreboard_filters *f)
{
    sqlite3 *db;
    int rc, max_params;

    if ((rc = open_db(&db, path)) < 0)
        return rc;
    /* an older SQLite allows as few as 999 parameters */
    max_params = sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1);
    if (count_params(f) > (size_t)max_params) {
        sqlite3_close(db);
        return tokio__error(TOKIO_EINVAL, "too many filter values for this "
                            "SQLite (%zu parameters, at most %d)",
                            count_params(f), max_params);
    }
    for (size_t i = 0; i < N_CATEGORIES && rc >= 0; i++)
        rc = score_category(json_object_get(board, categories[i].key), db,
                            path, &categories[i], f);
    sqlite3_close(db);
    return rc;
}

int
tokio_darshan_scoreboard(json_t **out, const char *const *db_paths, size_t n,
                         const struct tokio_scoreboard_filters *f)
{
    static const struct tokio_scoreboard_filters no_filters;
    json_t *board;
    int rc;

    if (out == NULL)
        return tokio__error(TOKIO_EINVAL, "scoreboard: no place for result");
    *out = NULL;
    if (n == 0 || db_paths == NULL)
        return tokio__error(TOKIO_EINVAL, "scoreboard: no index database");
    for (size_t i = 0; i < n; i++)
        if (db_paths[i] == NULL)
            return tokio__error(TOKIO_EINVAL,
                                "scoreboard: database path %zu is NULL", i);
    if (f == NULL)
        f = &no_filters;
    if ((rc = check_filters(f)) < 0)
        return rc;

    if ((board = json_object()) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < N_CATEGORIES; i++)
        if (json_object_set_new(board, categories[i].key, json_array()) < 0) {
            json_decref(board);
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        }
    for (size_t i = 0; i < n; i++)
        if ((rc = score_db(board, db_paths[i], f)) < 0) {
            json_decref(board);
            return rc;
        }
    *out = board;
    return TOKIO_OK;
}

/* ---------------------------------------------------------------------
 * The text table (print_top)
 */

struct ranked {
    const json_t *row;
    long double total;   /* the sort key, read + written */
    size_t index;        /* position before sorting, to keep ties stable */
};

/*
 * read + written as Python adds them: exactly for two integers (a long
 * double holds any sum of two int64 exactly on the platforms we build
 * on), in double as soon as one is a float.  Null counts as 0.
 */
static long double
row_total(const json_t *row)
{
    const json_t *r = json_array_get(row, 0), *w = json_array_get(row, 1);

    if ((json_is_integer(r) || json_is_null(r)) &&
        (json_is_integer(w) || json_is_null(w)))
        return (long double)json_integer_value(r) +
               (long double)json_integer_value(w);
    return (long double)(json_number_value(r) + json_number_value(w));
}

/* Largest first; equal totals keep their order (Python's sort is stable
 * and sorted(reverse=True) keeps it so). */
static int
compare_ranked(const void *pa, const void *pb)
{
    const struct ranked *a = pa, *b = pb;

    if (a->total > b->total)
        return -1;
    if (a->total < b->total)
        return 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Byte length of the first `n` code points of UTF-8 `s` (all if fewer). */
static size_t
utf8_prefix(const char *s, size_t len, size_t n)
{
    size_t i = 0;

    while (i < len && n > 0) {
        i++;
        while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
            i++;
        n--;
    }
    return i;
}

static size_t
utf8_count(const char *s, size_t len)
{
    size_t n = 0;

    for (size_t i = 0; i < len; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            n++;
    return n;
}

/*
 * The row's name as print_top shows it: a missing (null, empty, zero)
 * name is "UNKNOWN|UNKNOWN|UNKNOWN", '|' becomes ", ", and a name longer
 * than 40 characters keeps its first 19 and last 18 around "...".
 * Right-aligned in 40 characters (Python's "%40.40s", which counts
 * characters, not bytes).
 */
static int
write_name(FILE *fp, const json_t *name)
{
    char num[32];
    const char *s;
    size_t len;
    char *text, *p;
    size_t n_chars, head, tail_start;

    if (json_is_string(name) && json_string_length(name) > 0) {
        s = json_string_value(name);
        len = json_string_length(name);
    } else if (json_is_integer(name) && json_integer_value(name) != 0) {
        snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
                 json_integer_value(name));
        s = num;
        len = strlen(num);
    } else if (json_is_real(name) && json_real_value(name) != 0.0) {
        tokio_format_double(num, sizeof(num), json_real_value(name));
        s = num;
        len = strlen(num);
    } else if (json_is_true(name)) {
        s = "True";
        len = 4;
    } else {
        /* Darshan logs without POSIX/STDIO counters and without
         * filename-encoded metadata leave the names null */
        s = "UNKNOWN|UNKNOWN|UNKNOWN";
        len = strlen(s);
    }

    /* each '|' (one byte) may become ", " (two) */
    if ((text = tokio__malloc(2 * len + 1)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    p = text;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '|') {
            *p++ = ',';
            *p++ = ' ';
        } else {
            *p++ = s[i];
        }
    }
    len = (size_t)(p - text);

    n_chars = utf8_count(text, len);
    for (size_t i = n_chars; i < NAME_WIDTH; i++)
        fputc(' ', fp);
    if (n_chars > NAME_WIDTH) {
        head = utf8_prefix(text, len, NAME_HEAD);
        tail_start = utf8_prefix(text, len, n_chars - NAME_TAIL);
        fwrite(text, 1, head, fp);
        fputs("...", fp);
        fwrite(text + tail_start, 1, len - tail_start, fp);
    } else {
        fwrite(text, 1, len, fp);
    }
    free(text);
    return TOKIO_OK;
}

static long long
job_count(const json_t *v)
{
    if (json_is_real(v)) {
        double d = json_real_value(v);  /* Python's "%d" truncates */
        return d >= (double)LLONG_MAX ? LLONG_MAX
               : d <= (double)LLONG_MIN ? LLONG_MIN : (long long)d;
    }
    return (long long)json_integer_value(v);
}

static int
write_category(FILE *fp, const char *title, const json_t *rows,
               long long max_show)
{
    size_t n = json_array_size(rows);
    struct ranked *ranked;
    int rc = TOKIO_OK;

    if ((ranked = tokio__calloc(n, sizeof(*ranked))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        ranked[i].row = json_array_get(rows, i);
        ranked[i].index = i;
        ranked[i].total = row_total(ranked[i].row);
    }
    qsort(ranked, n, sizeof(*ranked), compare_ranked);

    fprintf(fp, "%2s  %40s %10s %10s %8s\n", "#", title, "Read(GiB)",
            "Write(GiB)", "# Jobs");
    fprintf(fp, "%s\n", "==========================================="
                        "================================");
    for (size_t i = 0; i < n && (long long)i < max_show; i++) {
        const json_t *row = ranked[i].row;

        fprintf(fp, "%2zu. ", i + 1);
        if ((rc = write_name(fp, json_array_get(row, 3))) < 0)
            break;
        fprintf(fp, " %10.1f %10.1f %8lld\n",
                json_number_value(json_array_get(row, 0)) / 1073741824.0,
                json_number_value(json_array_get(row, 1)) / 1073741824.0,
                job_count(json_array_get(row, 2)));
    }
    free(ranked);
    return rc;
}

static int
check_board(const json_t *board)
{
    const char *key;
    const json_t *rows, *row;
    size_t i;

    if (!json_is_object(board))
        return tokio__error(TOKIO_EINVAL, "scoreboard is not an object");
    json_object_foreach((json_t *)board, key, rows) {
        if (!json_is_array(rows))
            return tokio__error(TOKIO_EINVAL, "scoreboard '%s' is not a list",
                                key);
        json_array_foreach(rows, i, row) {
            if (!json_is_array(row) || json_array_size(row) < ROW_MIN_COLUMNS)
                return tokio__error(TOKIO_EINVAL,
                                    "scoreboard '%s' row %zu is not a list "
                                    "of at least %d values", key, i,
                                    ROW_MIN_COLUMNS);
            for (size_t k = 0; k < 3; k++) {
                const json_t *v = json_array_get(row, k);
                if (!json_is_number(v) && !json_is_null(v))
                    return tokio__error(TOKIO_EINVAL,
                                        "scoreboard '%s' row %zu value %zu "
                                        "is not a number", key, i, k);
            }
        }
    }
    return TOKIO_OK;
}

int
tokio_darshan_scoreboard_write_text(FILE *fp, const json_t *board,
                                    long long max_show)
{
    const char *key;
    const json_t *rows;
    size_t n_seen = 0;
    int rc;

    if (fp == NULL)
        return tokio__error(TOKIO_EINVAL, "scoreboard: no stream");
    if ((rc = check_board(board)) < 0)
        return rc;
    /* the board's own order, as print_top walks its OrderedDict */
    json_object_foreach((json_t *)board, key, rows) {
        const char *title = key;

        for (size_t i = 0; i < N_CATEGORIES; i++)
            if (strcmp(key, categories[i].key) == 0)
                title = categories[i].title;
        /* print_top counts a category even when it prints nothing, so
         * the blank separator depends on position, not on output */
        if (json_array_size(rows) > 0) {
            if (n_seen > 0)
                fputc('\n', fp);
            if ((rc = write_category(fp, title, rows, max_show)) < 0)
                return rc;
        }
        n_seen++;
    }
    return tokio__write_check(fp, "cannot write the scoreboard");
}
