/*
 * src/connectors/cachingdb.c - a relational database of immutable records
 * behind an SQLite cache and an in-memory layer.  Mirrors
 * tokio.connectors.cachingdb.CachingDb (pytokio 0.13) over SQLite 3 and
 * MariaDB Connector/C 3 (MySQL and MariaDB servers).
 *
 * Kept tables live in a private temporary SQLite database (on disk, so a
 * day of LMT rows costs page cache, not heap) in the order of first use;
 * save_cache copies them with INSERT OR REPLACE ... SELECT into a copy of
 * the target file and renames it over the target.
 *
 * Differs from pytokio:
 *  - the cache file is opened read only and must exist (the reference's
 *    sqlite3.connect() created an empty one and then failed every query);
 *  - given both a cache file and a server, the cache file answers (the
 *    reference dropped the cache then, so PYTOKIO_LMT_* in the
 *    environment silently overrode an explicit -i);
 *  - rows are streamed to a callback, not returned as a list;
 *  - a row whose width differs from the table's first row is an error
 *    (the reference warned and then failed on the insert);
 *  - server values: DECIMAL columns become reals (the reference could not
 *    save Python Decimals at all), date/time columns become text as
 *    Python's sqlite3 adapter wrote them ("YYYY-MM-DD HH:MM:SS[.ffffff]").
 */
#include "tokio/connectors/cachingdb.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mysql.h>
#include <errmsg.h>
#include <sqlite3.h>

#include "core/alloc.h"
#include "core/beside.h"
#include "core/error.h"
#include "core/sbuf.h"

/* Connector/C defaults when the caller gives none (seconds). */
#define DEFAULT_CONNECT_TIMEOUT 10
#define DEFAULT_READ_TIMEOUT    300
/* A text value from the server longer than this is refused. */
#define MAX_TEXT_LEN            (64u << 20)
/* Widest row accepted from either backend. */
#define MAX_COLUMNS             4096

struct kept_table {
    char *name;
    char *create_sql;           /* "CREATE TABLE IF NOT EXISTS ..." */
    sqlite3_stmt *insert;       /* into the temporary store */
    int width;                  /* values per row, 0 before the first */
};

struct memo {
    char *key;                  /* collapsed SQL, 0x1f, parameters */
    struct tokio_db_value *values;
    size_t n_rows, n_cols;
    struct memo *next;
};

struct tokio_cachingdb {
    sqlite3 *cache;             /* the cache file, or NULL */
    MYSQL *remote;              /* the server, or NULL */
    char *source;               /* for messages */
    int last_hit;

    sqlite3 *store;             /* kept tables, created on first use */
    int store_in_txn;
    struct kept_table *tables;
    size_t n_tables;

    struct memo *memos;
};

/* ---- small helpers --------------------------------------------------- */

/*
 * The reference's ' '.join(sql.split()), with "%(ps)s" turned into "?",
 * the placeholder both SQLite and server-side prepared statements use.
 */
static char *
collapse_sql(const char *sql)
{
    size_t n = strlen(sql), j = 0;
    char *out = tokio__malloc(n + 1);
    int space = 0;

    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)sql[i];

        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
            c == '\v') {
            space = j > 0;
            continue;
        }
        if (space)
            out[j++] = ' ';
        space = 0;
        if (strncmp(sql + i, "%(ps)s", 6) == 0) {
            out[j++] = '?';
            i += 5;
        } else {
            out[j++] = (char)c;
        }
    }
    out[j] = '\0';
    return out;
}

/* A double-quoted SQL identifier (for names we paste into statements). */
static int
quote_ident(char *buf, size_t size, const char *name)
{
    size_t j = 0;

    if (j + 1 >= size)
        return -1;
    buf[j++] = '"';
    for (const char *p = name; *p; p++) {
        if (j + 3 >= size)
            return -1;
        if (*p == '"')
            buf[j++] = '"';
        buf[j++] = *p;
    }
    buf[j++] = '"';
    buf[j] = '\0';
    return 0;
}

/* ---- the server ------------------------------------------------------ */

/* What went wrong, in words, from a Connector/C error number. */
static const char *
remote_problem(unsigned err, const char *msg)
{
    if (msg != NULL && (strstr(msg, "timeout") || strstr(msg, "timed out") ||
                        strstr(msg, "(110)") || strstr(msg, "error: 110")))
        return "timed out";
    switch (err) {
    case CR_CONNECTION_ERROR:
    case CR_CONN_HOST_ERROR:
    case CR_UNKNOWN_HOST:
        return "connection refused or unreachable";
    case CR_SERVER_GONE_ERROR:
    case CR_SERVER_LOST:
    case CR_SERVER_LOST_EXTENDED:
        return "connection dropped";
    case 1045:  /* ER_ACCESS_DENIED_ERROR */
    case 1044:  /* ER_DBACCESS_DENIED_ERROR */
    case 1049:  /* ER_BAD_DB_ERROR */
        return "access refused";
    default:
        return "query failed";
    }
}

static int
remote_error(struct tokio_cachingdb *db, unsigned err, const char *msg)
{
    int status = (err >= 2000 && err < 3000) ? TOKIO_EIO
               : (err == 1045 || err == 1044 || err == 1049) ? TOKIO_EIO
               : TOKIO_EINVAL;

    return tokio__error(status, "MySQL server '%s': %s: %s", db->source,
                        remote_problem(err, msg), msg ? msg : "");
}

static int
remote_connect(struct tokio_cachingdb *db, const struct tokio_db_remote *r)
{
    unsigned ct = r->connect_timeout ? r->connect_timeout
                                     : DEFAULT_CONNECT_TIMEOUT;
    unsigned rt = r->read_timeout ? r->read_timeout : DEFAULT_READ_TIMEOUT;
    char src[512];

    snprintf(src, sizeof(src), "%s@%s:%u/%s", r->user, r->host,
             r->port ? r->port : 3306u, r->database);
    if ((db->source = tokio__strdup(src)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory connecting to '%s'",
                            src);
    if ((db->remote = mysql_init(NULL)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory connecting to '%s'",
                            src);
    mysql_options(db->remote, MYSQL_OPT_CONNECT_TIMEOUT, &ct);
    mysql_options(db->remote, MYSQL_OPT_READ_TIMEOUT, &rt);
    mysql_options(db->remote, MYSQL_OPT_WRITE_TIMEOUT, &rt);
    mysql_options(db->remote, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    /* no option files: what connects us is what the caller gave */
    if (mysql_real_connect(db->remote, r->host, r->user,
                           r->password ? r->password : "", r->database,
                           r->port, NULL, 0) == NULL)
        return remote_error(db, mysql_errno(db->remote),
                            mysql_error(db->remote));
    return TOKIO_OK;
}

/* Bind one parameter to a server-side statement. */
static void
bind_param(MYSQL_BIND *b, const struct tokio_db_value *v)
{
    memset(b, 0, sizeof(*b));
    switch (v->type) {
    case TOKIO_DB_INT:
        b->buffer_type = MYSQL_TYPE_LONGLONG;
        b->buffer = (void *)&v->i;
        break;
    case TOKIO_DB_REAL:
        b->buffer_type = MYSQL_TYPE_DOUBLE;
        b->buffer = (void *)&v->d;
        break;
    case TOKIO_DB_TEXT:
        b->buffer_type = MYSQL_TYPE_STRING;
        b->buffer = (void *)v->s;
        b->buffer_length = (unsigned long)v->len;
        break;
    default:
        b->buffer_type = MYSQL_TYPE_NULL;
        break;
    }
}

/* One result column of a server-side statement and where it lands. */
struct rcol {
    enum tokio_db_type type;
    int is_time;
    int64_t i;
    double d;
    MYSQL_TIME t;
    char *text;
    unsigned long cap, length;
    my_bool is_null, error;
    char tbuf[96];
};

static void
rcol_setup(struct rcol *c, MYSQL_BIND *b, const MYSQL_FIELD *f)
{
    memset(b, 0, sizeof(*b));
    b->is_null = &c->is_null;
    b->length = &c->length;
    b->error = &c->error;
    switch (f->type) {
    case MYSQL_TYPE_TINY: case MYSQL_TYPE_SHORT: case MYSQL_TYPE_LONG:
    case MYSQL_TYPE_INT24: case MYSQL_TYPE_LONGLONG: case MYSQL_TYPE_YEAR:
        c->type = TOKIO_DB_INT;
        b->buffer_type = MYSQL_TYPE_LONGLONG;
        b->buffer = &c->i;
        b->is_unsigned = (f->flags & UNSIGNED_FLAG) != 0;
        break;
    case MYSQL_TYPE_FLOAT: case MYSQL_TYPE_DOUBLE: case MYSQL_TYPE_DECIMAL:
    case MYSQL_TYPE_NEWDECIMAL:
        c->type = TOKIO_DB_REAL;
        b->buffer_type = MYSQL_TYPE_DOUBLE;
        b->buffer = &c->d;
        break;
    case MYSQL_TYPE_DATETIME: case MYSQL_TYPE_TIMESTAMP: case MYSQL_TYPE_DATE:
        c->type = TOKIO_DB_TEXT;
        c->is_time = (int)f->type;
        b->buffer_type = f->type;
        b->buffer = &c->t;
        break;
    default:
        c->type = TOKIO_DB_TEXT;
        b->buffer_type = MYSQL_TYPE_STRING;
        b->buffer = c->text;
        b->buffer_length = c->cap;
        break;
    }
}

/* Python's str(datetime) / str(date), as its sqlite3 adapter stored it. */
static void
format_time(struct rcol *c)
{
    const MYSQL_TIME *t = &c->t;

    if (c->is_time == MYSQL_TYPE_DATE)
        snprintf(c->tbuf, sizeof(c->tbuf), "%04u-%02u-%02u", t->year,
                 t->month, t->day);
    else if (t->second_part)
        snprintf(c->tbuf, sizeof(c->tbuf), "%04u-%02u-%02u %02u:%02u:%02u."
                 "%06lu", t->year, t->month, t->day, t->hour, t->minute,
                 t->second, t->second_part);
    else
        snprintf(c->tbuf, sizeof(c->tbuf), "%04u-%02u-%02u %02u:%02u:%02u",
                 t->year, t->month, t->day, t->hour, t->minute, t->second);
}

static int keep_row(struct tokio_cachingdb *db, struct kept_table *t,
                    const struct tokio_db_value *row, size_t n);
static int memo_add_row(struct memo *m, const struct tokio_db_value *row,
                        size_t n);

/* Everything one query needs besides the statement. */
struct sink {
    struct kept_table *table;
    struct memo *memo;
    tokio_db_row_fn fn;
    void *payload;
};

static int
deliver(struct tokio_cachingdb *db, struct sink *s,
        const struct tokio_db_value *row, size_t n)
{
    int rc;

    if (s->table && (rc = keep_row(db, s->table, row, n)) < 0)
        return rc;
    if (s->memo && (rc = memo_add_row(s->memo, row, n)) < 0)
        return rc;
    if (s->fn && (rc = s->fn(s->payload, row, n)) < 0)
        return rc;
    return TOKIO_OK;
}

static int
remote_query(struct tokio_cachingdb *db, const char *sql,
             const struct tokio_db_value *params, size_t n_params,
             struct sink *s)
{
    MYSQL_STMT *st = NULL;
    MYSQL_RES *meta = NULL;
    MYSQL_BIND *pb = NULL, *rb = NULL;
    struct rcol *cols = NULL;
    struct tokio_db_value *row = NULL;
    unsigned ncols = 0;
    int rc = TOKIO_OK;

    if ((st = mysql_stmt_init(db->remote)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                            db->source);
    if (mysql_stmt_prepare(st, sql, (unsigned long)strlen(sql)) != 0) {
        rc = remote_error(db, mysql_stmt_errno(st), mysql_stmt_error(st));
        goto done;
    }
    if (mysql_stmt_param_count(st) != n_params) {
        rc = tokio__error(TOKIO_EINVAL, "query for '%s' has %lu placeholders "
                          "but %zu values: %s", db->source,
                          mysql_stmt_param_count(st), n_params, sql);
        goto done;
    }
    if (n_params) {
        if ((pb = tokio__calloc(n_params, sizeof(*pb))) == NULL) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                              db->source);
            goto done;
        }
        for (size_t i = 0; i < n_params; i++)
            bind_param(&pb[i], &params[i]);
        if (mysql_stmt_bind_param(st, pb) != 0) {
            rc = remote_error(db, mysql_stmt_errno(st), mysql_stmt_error(st));
            goto done;
        }
    }
    if (mysql_stmt_execute(st) != 0) {
        rc = remote_error(db, mysql_stmt_errno(st), mysql_stmt_error(st));
        goto done;
    }
    if ((meta = mysql_stmt_result_metadata(st)) == NULL)
        goto done;          /* not a SELECT: no rows */
    ncols = mysql_num_fields(meta);
    if (ncols == 0 || ncols > MAX_COLUMNS) {
        rc = tokio__error(TOKIO_EINVAL, "query for '%s' returns %u columns",
                          db->source, ncols);
        goto done;
    }
    cols = tokio__calloc(ncols, sizeof(*cols));
    rb = tokio__calloc(ncols, sizeof(*rb));
    row = tokio__calloc(ncols, sizeof(*row));
    if (cols == NULL || rb == NULL || row == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                          db->source);
        goto done;
    }
    MYSQL_FIELD *fields = mysql_fetch_fields(meta);
    for (unsigned c = 0; c < ncols; c++) {
        cols[c].cap = 256;
        if ((cols[c].text = tokio__malloc(cols[c].cap)) == NULL) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                              db->source);
            goto done;
        }
        rcol_setup(&cols[c], &rb[c], &fields[c]);
    }
    if (mysql_stmt_bind_result(st, rb) != 0) {
        rc = remote_error(db, mysql_stmt_errno(st), mysql_stmt_error(st));
        goto done;
    }
    for (;;) {
        int f = mysql_stmt_fetch(st);

        if (f == MYSQL_NO_DATA)
            break;
        if (f == 1) {
            rc = remote_error(db, mysql_stmt_errno(st), mysql_stmt_error(st));
            goto done;
        }
        for (unsigned c = 0; c < ncols; c++) {
            struct rcol *k = &cols[c];

            memset(&row[c], 0, sizeof(row[c]));
            if (k->is_null) {
                row[c].type = TOKIO_DB_NULL;
                continue;
            }
            row[c].type = k->type;
            if (k->type == TOKIO_DB_INT) {
                row[c].i = k->i;
                if (rb[c].is_unsigned && k->i < 0) {
                    row[c].type = TOKIO_DB_REAL;
                    row[c].d = (double)(uint64_t)k->i;
                }
            } else if (k->type == TOKIO_DB_REAL) {
                row[c].d = k->d;
            } else if (k->is_time) {
                format_time(k);
                row[c].s = k->tbuf;
                row[c].len = strlen(k->tbuf);
            } else {
                if (k->length + 1 > k->cap) {
                    /* truncated: fetch the whole value */
                    char *p;

                    if (k->length > MAX_TEXT_LEN) {
                        rc = tokio__error(TOKIO_EFORMAT, "'%s': a value of "
                                          "%lu bytes in column %u is too "
                                          "long", db->source, k->length, c);
                        goto done;
                    }
                    if ((p = tokio__realloc(k->text, k->length + 1)) == NULL) {
                        rc = tokio__error(TOKIO_ENOMEM, "out of memory "
                                          "querying '%s'", db->source);
                        goto done;
                    }
                    k->text = p;
                    k->cap = k->length + 1;
                    rb[c].buffer = k->text;
                    rb[c].buffer_length = k->cap;
                    if (mysql_stmt_fetch_column(st, &rb[c], c, 0) != 0) {
                        rc = remote_error(db, mysql_stmt_errno(st),
                                          mysql_stmt_error(st));
                        goto done;
                    }
                }
                k->text[k->length] = '\0';
                row[c].s = k->text;
                row[c].len = k->length;
            }
        }
        if ((rc = deliver(db, s, row, ncols)) < 0)
            goto done;
    }
done:
    if (meta)
        mysql_free_result(meta);
    mysql_stmt_close(st);
    for (unsigned c = 0; cols && c < ncols; c++)
        free(cols[c].text);
    free(cols);
    free(rb);
    free(pb);
    free(row);
    return rc;
}

/* ---- SQLite ---------------------------------------------------------- */

static int
sqlite_status(int code)
{
    switch (code & 0xff) {
    case SQLITE_NOMEM:
        return TOKIO_ENOMEM;
    case SQLITE_CORRUPT: case SQLITE_NOTADB:
        return TOKIO_EFORMAT;
    case SQLITE_IOERR: case SQLITE_CANTOPEN: case SQLITE_FULL:
    case SQLITE_READONLY: case SQLITE_PERM: case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return TOKIO_EIO;
    default:
        return TOKIO_EINVAL;
    }
}

static int
bind_sqlite(sqlite3_stmt *st, int i, const struct tokio_db_value *v)
{
    switch (v->type) {
    case TOKIO_DB_INT:
        return sqlite3_bind_int64(st, i, v->i);
    case TOKIO_DB_REAL:
        return sqlite3_bind_double(st, i, v->d);
    case TOKIO_DB_TEXT:
        return sqlite3_bind_text64(st, i, v->s ? v->s : "", v->len,
                                   SQLITE_TRANSIENT, SQLITE_UTF8);
    default:
        return sqlite3_bind_null(st, i);
    }
}

/*
 * One column of the current row.  Through sqlite3_column_value(): one
 * call into the statement per value instead of two (type, then value);
 * the value is only read here, by the thread that owns the connection.
 */
static void
column_value(sqlite3_stmt *st, int c, struct tokio_db_value *v)
{
    sqlite3_value *sv = sqlite3_column_value(st, c);

    memset(v, 0, sizeof(*v));
    switch (sqlite3_value_type(sv)) {
    case SQLITE_INTEGER:
        v->type = TOKIO_DB_INT;
        v->i = sqlite3_value_int64(sv);
        break;
    case SQLITE_FLOAT:
        v->type = TOKIO_DB_REAL;
        v->d = sqlite3_value_double(sv);
        break;
    case SQLITE_NULL:
        v->type = TOKIO_DB_NULL;
        break;
    default:    /* text, and blobs read as text */
        v->type = TOKIO_DB_TEXT;
        v->s = (const char *)sqlite3_value_text(sv);
        v->len = (size_t)sqlite3_value_bytes(sv);
        if (v->s == NULL) {
            v->s = "";
            v->len = 0;
        }
        break;
    }
}

static int
cache_query(struct tokio_cachingdb *db, const char *sql,
            const struct tokio_db_value *params, size_t n_params,
            struct sink *s)
{
    sqlite3_stmt *st = NULL;
    struct tokio_db_value *row = NULL;
    int rc, n;

    if ((rc = sqlite3_prepare_v2(db->cache, sql, -1, &st, NULL)) != SQLITE_OK)
        return tokio__error(sqlite_status(rc), "'%s': %s: %s", db->source,
                            sqlite3_errmsg(db->cache), sql);
    if ((size_t)sqlite3_bind_parameter_count(st) != n_params) {
        rc = tokio__error(TOKIO_EINVAL, "query for '%s' has %d placeholders "
                          "but %zu values: %s", db->source,
                          sqlite3_bind_parameter_count(st), n_params, sql);
        goto done;
    }
    for (size_t i = 0; i < n_params; i++)
        if ((rc = bind_sqlite(st, (int)i + 1, &params[i])) != SQLITE_OK) {
            rc = tokio__error(sqlite_status(rc), "'%s': %s", db->source,
                              sqlite3_errmsg(db->cache));
            goto done;
        }
    n = sqlite3_column_count(st);
    if (n > MAX_COLUMNS) {
        rc = tokio__error(TOKIO_EINVAL, "query for '%s' returns %d columns",
                          db->source, n);
        goto done;
    }
    if (n > 0 && (row = tokio__calloc((size_t)n, sizeof(*row))) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                          db->source);
        goto done;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int c = 0; c < n; c++)
            column_value(st, c, &row[c]);
        if ((rc = deliver(db, s, row, (size_t)n)) < 0)
            goto done;
    }
    if (rc != SQLITE_DONE)
        rc = tokio__error(sqlite_status(rc), "'%s': %s", db->source,
                          sqlite3_errmsg(db->cache));
    else
        rc = TOKIO_OK;
done:
    free(row);
    sqlite3_finalize(st);
    return rc;
}

/* ---- kept tables ----------------------------------------------------- */

static int
store_exec(struct tokio_cachingdb *db, const char *sql)
{
    int rc = sqlite3_exec(db->store, sql, NULL, NULL, NULL);

    if (rc != SQLITE_OK)
        return tokio__error(sqlite_status(rc), "temporary cache store: %s: "
                            "%s", sqlite3_errmsg(db->store), sql);
    return TOKIO_OK;
}

static int
store_open(struct tokio_cachingdb *db)
{
    int rc;

    if (db->store)
        return TOKIO_OK;
    /* "": a private temporary database on disk, deleted on close */
    if ((rc = sqlite3_open("", &db->store)) != SQLITE_OK) {
        sqlite3_close(db->store);
        db->store = NULL;
        return tokio__error(sqlite_status(rc), "cannot open a temporary "
                            "cache store");
    }
    return store_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF");
}

static char *
create_sql(const struct tokio_db_table *t)
{
    struct tokio__sbuf b = { 0 };
    char q[512];

    if (quote_ident(q, sizeof(q), t->name) < 0)
        return NULL;
    /* the reference's "CREATE TABLE IF NOT EXISTS %s (%s, PRIMARY KEY(%s))",
     * with the name as given so the stored schema reads as the reference's */
    tokio__sbuf_str(&b, "CREATE TABLE IF NOT EXISTS ");
    tokio__sbuf_str(&b, t->name);
    tokio__sbuf_str(&b, " (");
    for (size_t i = 0; i < t->n_columns; i++) {
        if (i)
            tokio__sbuf_str(&b, ", ");
        tokio__sbuf_str(&b, t->columns[i]);
    }
    if (t->n_primary_key) {
        tokio__sbuf_str(&b, ", PRIMARY KEY(");
        for (size_t i = 0; i < t->n_primary_key; i++) {
            if (i)
                tokio__sbuf_str(&b, ", ");
            tokio__sbuf_str(&b, t->primary_key[i]);
        }
        tokio__sbuf_str(&b, ")");
    }
    tokio__sbuf_str(&b, ")");
    return tokio__sbuf_take(&b);
}

/* Table names are pasted into SQL: allow identifiers only. */
static int
valid_name(const char *name)
{
    if (name == NULL || *name == '\0' || strlen(name) > 128)
        return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9' && p != name) || *p == '_'))
            return 0;
    return 1;
}

static int
find_table(struct tokio_cachingdb *db, const struct tokio_db_table *t,
           struct kept_table **out)
{
    struct kept_table *k;
    int rc;

    for (size_t i = 0; i < db->n_tables; i++)
        if (strcmp(db->tables[i].name, t->name) == 0) {
            *out = &db->tables[i];
            return TOKIO_OK;
        }
    if (!valid_name(t->name))
        return tokio__error(TOKIO_EINVAL, "'%s' is not a valid table name",
                            t->name ? t->name : "(null)");
    if ((rc = store_open(db)) < 0)
        return rc;
    k = tokio__reallocarray(db->tables, db->n_tables + 1, sizeof(*k));
    if (k == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory keeping table '%s'",
                            t->name);
    db->tables = k;
    k = &db->tables[db->n_tables];
    memset(k, 0, sizeof(*k));
    k->name = tokio__strdup(t->name);
    k->create_sql = create_sql(t);
    if (k->name == NULL || k->create_sql == NULL) {
        free(k->name);
        free(k->create_sql);
        return tokio__error(TOKIO_ENOMEM, "out of memory keeping table '%s'",
                            t->name);
    }
    db->n_tables++;
    if ((rc = store_exec(db, k->create_sql)) < 0)
        return rc;
    *out = k;
    return TOKIO_OK;
}

static int
keep_row(struct tokio_cachingdb *db, struct kept_table *t,
         const struct tokio_db_value *row, size_t n)
{
    int rc;

    if (t->width == 0) {
        struct tokio__sbuf b = { 0 };
        char q[512];

        quote_ident(q, sizeof(q), t->name);
        tokio__sbuf_str(&b, "INSERT OR REPLACE INTO ");
        tokio__sbuf_str(&b, q);
        tokio__sbuf_str(&b, " VALUES (");
        for (size_t i = 0; i < n; i++)
            tokio__sbuf_str(&b, i ? ",?" : "?");
        tokio__sbuf_str(&b, ")");
        if (b.failed) {
            free(b.s);
            return tokio__error(TOKIO_ENOMEM, "out of memory keeping table "
                                "'%s'", t->name);
        }
        rc = sqlite3_prepare_v2(db->store, b.s, -1, &t->insert, NULL);
        free(b.s);
        if (rc != SQLITE_OK)
            return tokio__error(sqlite_status(rc), "cannot keep rows for "
                                "table '%s': %s", t->name,
                                sqlite3_errmsg(db->store));
        t->width = (int)n;
    }
    if ((size_t)t->width != n)
        return tokio__error(TOKIO_EINVAL, "rows for table '%s' have %d "
                            "values, this one %zu", t->name, t->width, n);
    if (!db->store_in_txn) {
        if ((rc = store_exec(db, "BEGIN")) < 0)
            return rc;
        db->store_in_txn = 1;
    }
    for (size_t i = 0; i < n; i++)
        bind_sqlite(t->insert, (int)i + 1, &row[i]);
    rc = sqlite3_step(t->insert);
    sqlite3_reset(t->insert);
    if (rc != SQLITE_DONE)
        return tokio__error(sqlite_status(rc), "cannot keep a row for table "
                            "'%s': %s", t->name, sqlite3_errmsg(db->store));
    return TOKIO_OK;
}

/* ---- remembered queries ---------------------------------------------- */

static char *
memo_key(const char *sql, const struct tokio_db_value *params, size_t n)
{
    struct tokio__sbuf b = { 0 };
    char num[64];

    tokio__sbuf_str(&b, sql);
    for (size_t i = 0; i < n; i++) {
        tokio__sbuf_add(&b, "\x1f", 1);
        switch (params[i].type) {
        case TOKIO_DB_INT:
            snprintf(num, sizeof(num), "i%" PRId64, params[i].i);
            tokio__sbuf_str(&b, num);
            break;
        case TOKIO_DB_REAL:
            snprintf(num, sizeof(num), "r%.17g", params[i].d);
            tokio__sbuf_str(&b, num);
            break;
        case TOKIO_DB_TEXT:
            tokio__sbuf_add(&b, "t", 1);
            tokio__sbuf_add(&b, params[i].s ? params[i].s : "", params[i].len);
            break;
        default:
            tokio__sbuf_add(&b, "n", 1);
            break;
        }
    }
    return tokio__sbuf_take(&b);
}

static int
memo_add_row(struct memo *m, const struct tokio_db_value *row, size_t n)
{
    struct tokio_db_value *v;

    if (m->n_rows && m->n_cols != n)
        return tokio__error(TOKIO_EINVAL, "a query returned rows of %zu and "
                            "%zu values", m->n_cols, n);
    m->n_cols = n;
    v = tokio__reallocarray(m->values, (m->n_rows + 1) * (n ? n : 1),
                            sizeof(*v));
    if (v == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory remembering rows");
    m->values = v;
    v += m->n_rows * n;
    for (size_t i = 0; i < n; i++) {
        v[i] = row[i];
        v[i].s = NULL;
        if (row[i].type == TOKIO_DB_TEXT) {
            char *s = tokio__malloc(row[i].len + 1);

            if (s == NULL) {
                for (size_t j = 0; j < i; j++)
                    free((char *)v[j].s);
                return tokio__error(TOKIO_ENOMEM, "out of memory "
                                    "remembering rows");
            }
            memcpy(s, row[i].s, row[i].len);
            s[row[i].len] = '\0';
            v[i].s = s;
        }
    }
    m->n_rows++;
    return TOKIO_OK;
}

static void
memo_free(struct memo *m)
{
    while (m) {
        struct memo *next = m->next;

        for (size_t i = 0; i < m->n_rows * m->n_cols; i++)
            free((char *)m->values[i].s);
        free(m->values);
        free(m->key);
        free(m);
        m = next;
    }
}

/* ---- public ---------------------------------------------------------- */

void
tokio_cachingdb_remote_override(struct tokio_db_remote *r,
                                const struct tokio_db_remote *given)
{
    if (given->host)
        r->host = given->host;
    if (given->user)
        r->user = given->user;
    if (given->database)
        r->database = given->database;
    if (given->port)
        r->port = given->port;
}

int
tokio_cachingdb_remote_from_env(struct tokio_db_remote *out,
                                const char *prefix)
{
    static const char *const keys[] = { "HOST", "USER", "PASSWORD", "DB",
                                        "PORT" };
    const char *v[5];
    char name[128];

    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < 5; i++) {
        snprintf(name, sizeof(name), "%s%s", prefix, keys[i]);
        v[i] = getenv(name);
    }
    out->host = v[0];
    out->user = v[1];
    out->password = v[2];
    out->database = v[3];
    if (v[4] && *v[4]) {
        char *end;
        unsigned long port;

        errno = 0;
        port = strtoul(v[4], &end, 10);
        if (errno || *end || port == 0 || port > 65535)
            return tokio__error(TOKIO_EINVAL, "%sPORT: '%s' is not a port "
                                "number", prefix, v[4]);
        out->port = (unsigned)port;
    }
    return TOKIO_OK;
}

static int
cachingdb_new(struct tokio_cachingdb **out)
{
    if ((*out = tokio__calloc(1, sizeof(**out))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory opening a database");
    (*out)->last_hit = -1;
    return TOKIO_OK;
}

/* Refuse to run what a hostile cache file might smuggle in. */
static void
harden(sqlite3 *s)
{
    sqlite3_db_config(s, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    sqlite3_db_config(s, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
#endif
    sqlite3_limit(s, SQLITE_LIMIT_LENGTH, (int)MAX_TEXT_LEN);
}

/* Read the schema now, so a file that is not a database fails at open. */
static int
check_cache(struct tokio_cachingdb *db)
{
    int rc = sqlite3_exec(db->cache, "SELECT count(*) FROM sqlite_master",
                          NULL, NULL, NULL);

    if (rc != SQLITE_OK)
        return tokio__error(sqlite_status(rc), "'%s': %s", db->source,
                            sqlite3_errmsg(db->cache));
    return TOKIO_OK;
}

int
tokio_cachingdb_open(struct tokio_cachingdb **out, const char *cache_file,
                     const struct tokio_db_remote *remote)
{
    struct tokio_cachingdb *db;
    struct stat st;
    int rc;

    *out = NULL;
    if (cache_file == NULL &&
        (remote == NULL || remote->host == NULL || remote->user == NULL ||
         remote->database == NULL))
        return tokio__error(TOKIO_EINVAL, "no database to ask: give a cache "
                            "file, or a server's host, user and database");
    if ((rc = cachingdb_new(&db)) < 0)
        return rc;
    if (cache_file != NULL) {
        if ((db->source = tokio__strdup(cache_file)) == NULL) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                              cache_file);
        } else if (stat(cache_file, &st) != 0) {
            rc = tokio__error(TOKIO_EIO, "cannot open cache database '%s': "
                              "%s", cache_file, strerror(errno));
        } else if ((rc = sqlite3_open_v2(cache_file, &db->cache,
                                         SQLITE_OPEN_READONLY |
                                         SQLITE_OPEN_NOMUTEX, NULL))
                   != SQLITE_OK) {
            rc = tokio__error(sqlite_status(rc), "cannot open cache database "
                              "'%s': %s", cache_file,
                              db->cache ? sqlite3_errmsg(db->cache)
                                        : "out of memory");
        } else {
            harden(db->cache);
            rc = check_cache(db);
        }
    } else {
        rc = remote_connect(db, remote);
    }
    if (rc < 0) {
        tokio_cachingdb_free(db);
        return rc;
    }
    *out = db;
    return TOKIO_OK;
}

int
tokio_cachingdb_open_mem(struct tokio_cachingdb **out, const void *buf,
                         size_t len, const char *name)
{
    struct tokio_cachingdb *db;
    unsigned char *copy;
    int rc;

    *out = NULL;
    if ((rc = cachingdb_new(&db)) < 0)
        return rc;
    if ((db->source = tokio__strdup(name ? name : "(memory)")) == NULL) {
        tokio_cachingdb_free(db);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening a database");
    }
    if ((rc = sqlite3_open(":memory:", &db->cache)) != SQLITE_OK ||
        (copy = sqlite3_malloc64(len ? len : 1)) == NULL) {
        tokio_cachingdb_free(db);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                            name ? name : "(memory)");
    }
    if (len)
        memcpy(copy, buf, len);
    harden(db->cache);
    rc = sqlite3_deserialize(db->cache, "main", copy, (sqlite3_int64)len,
                             (sqlite3_int64)len,
                             SQLITE_DESERIALIZE_FREEONCLOSE |
                             SQLITE_DESERIALIZE_READONLY);
    if (rc != SQLITE_OK)
        rc = tokio__error(sqlite_status(rc), "cannot open '%s': %s",
                          db->source, sqlite3_errmsg(db->cache));
    else
        rc = check_cache(db);
    if (rc < 0) {
        tokio_cachingdb_free(db);
        return rc;
    }
    *out = db;
    return TOKIO_OK;
}

int
tokio_cachingdb_query(struct tokio_cachingdb *db, const char *sql,
                      const struct tokio_db_value *params, size_t n_params,
                      const struct tokio_db_table *table, unsigned flags,
                      tokio_db_row_fn fn, void *payload)
{
    struct sink s = { NULL, NULL, fn, payload };
    char *q, *key = NULL;
    int rc;

    if ((q = collapse_sql(sql)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                            db->source);
    if (flags & TOKIO_DB_REMEMBER) {
        if ((key = memo_key(q, params, n_params)) == NULL) {
            free(q);
            return tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                                db->source);
        }
        for (struct memo *m = db->memos; m; m = m->next) {
            if (strcmp(m->key, key) != 0)
                continue;
            free(q);
            free(key);
            db->last_hit = TOKIO_DB_HIT_MEMORY;
            for (size_t r = 0; fn && r < m->n_rows; r++)
                if ((rc = fn(payload, m->values + r * m->n_cols,
                             m->n_cols)) < 0)
                    return rc;
            return TOKIO_OK;
        }
        if ((s.memo = tokio__calloc(1, sizeof(*s.memo))) == NULL) {
            free(q);
            free(key);
            return tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                                db->source);
        }
        s.memo->key = key;
    }
    if (table != NULL && (rc = find_table(db, table, &s.table)) < 0)
        goto done;
    if (db->cache) {
        db->last_hit = TOKIO_DB_HIT_CACHE;
        rc = cache_query(db, q, params, n_params, &s);
    } else {
        db->last_hit = TOKIO_DB_HIT_REMOTE;
        rc = remote_query(db, q, params, n_params, &s);
    }
done:
    if (s.memo && rc >= 0) {
        s.memo->next = db->memos;
        db->memos = s.memo;
    } else {
        memo_free(s.memo);
    }
    free(q);
    return rc;
}

int
tokio_cachingdb_last_hit(const struct tokio_cachingdb *db)
{
    return db->last_hit;
}

const char *
tokio_cachingdb_source(const struct tokio_cachingdb *db)
{
    return db->source;
}

/* Copy `from` to a new file `to` (0600 until renamed). */
static int
copy_file(const char *from, const char *to)
{
    char buf[65536];
    int in, outfd, rc = TOKIO_OK;
    ssize_t n;

    if ((in = open(from, O_RDONLY)) < 0)
        return tokio__error(TOKIO_EIO, "cannot read '%s': %s", from,
                            strerror(errno));
    if ((outfd = open(to, O_WRONLY | O_TRUNC)) < 0) {
        close(in);
        return tokio__error(TOKIO_EIO, "cannot write '%s': %s", to,
                            strerror(errno));
    }
    while ((n = read(in, buf, sizeof(buf))) > 0)
        if (write(outfd, buf, (size_t)n) != n) {
            rc = tokio__error(TOKIO_EIO, "cannot write '%s': %s", to,
                              strerror(errno));
            break;
        }
    if (n < 0)
        rc = tokio__error(TOKIO_EIO, "cannot read '%s': %s", from,
                          strerror(errno));
    close(in);
    if (close(outfd) != 0 && rc == TOKIO_OK)
        rc = tokio__error(TOKIO_EIO, "cannot write '%s': %s", to,
                          strerror(errno));
    return rc;
}

/* Copy every kept table with rows into the database file `tmp`. */
static int
save_tables(struct tokio_cachingdb *db, const char *tmp, const char *path)
{
    struct tokio__sbuf b = { 0 };
    int rc;

    if (db->store_in_txn) {
        if ((rc = store_exec(db, "COMMIT")) < 0)
            return rc;
        db->store_in_txn = 0;
    }
    tokio__sbuf_str(&b, "ATTACH DATABASE ? AS tokio_out");
    if (b.failed)
        return tokio__error(TOKIO_ENOMEM, "out of memory saving '%s'", path);
    sqlite3_stmt *st = NULL;
    rc = sqlite3_prepare_v2(db->store, b.s, -1, &st, NULL);
    free(b.s);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, tmp, -1, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK
                                             : sqlite3_errcode(db->store);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_OK)
        return tokio__error(sqlite_status(rc), "cannot write '%s': %s", path,
                            sqlite3_errmsg(db->store));
    /* the copy is private and thrown away on failure: no journal beside
     * it for a killed run to leave, and one fsync at the end */
    rc = store_exec(db, "PRAGMA tokio_out.journal_mode = OFF");
    if (rc >= 0)
        rc = store_exec(db, "PRAGMA tokio_out.synchronous = OFF");
    if (rc >= 0)
        rc = store_exec(db, "BEGIN");
    for (size_t i = 0; rc >= 0 && i < db->n_tables; i++) {
        struct kept_table *t = &db->tables[i];
        struct tokio__sbuf c = { 0 };
        char q[512];

        if (t->width == 0)
            continue;       /* the reference: "table %s has no rows" */
        quote_ident(q, sizeof(q), t->name);
        /* the same text as the reference's, in the attached file: SQLite
         * stores "CREATE TABLE name (...)" whatever the schema prefix */
        tokio__sbuf_str(&c, "CREATE TABLE IF NOT EXISTS tokio_out.");
        tokio__sbuf_str(&c, t->create_sql +
                            strlen("CREATE TABLE IF NOT EXISTS "));
        tokio__sbuf_str(&c, "; INSERT OR REPLACE INTO tokio_out.");
        tokio__sbuf_str(&c, q);
        tokio__sbuf_str(&c, " SELECT * FROM main.");
        tokio__sbuf_str(&c, q);
        tokio__sbuf_str(&c, " ORDER BY rowid");
        if (c.failed)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory saving '%s'",
                              path);
        else if ((rc = sqlite3_exec(db->store, c.s, NULL, NULL, NULL))
                 != SQLITE_OK)
            rc = tokio__error(sqlite_status(rc) == TOKIO_EINVAL
                              ? TOKIO_EFORMAT : sqlite_status(rc),
                              "cannot save table '%s' into '%s': %s",
                              t->name, path, sqlite3_errmsg(db->store));
        free(c.s);
    }
    if (rc >= 0)
        rc = store_exec(db, "COMMIT");
    else
        sqlite3_exec(db->store, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_exec(db->store, "DETACH DATABASE tokio_out", NULL, NULL, NULL);
    return rc;
}

int
tokio_cachingdb_save_cache(struct tokio_cachingdb *db, const char *path)
{
    char *real = NULL, *tmp = NULL;
    struct stat st;
    int fd = -1, lock = -1, rc, exists;

    /* as every writer: through links the file they name, a regular file
     * the user may write, locked from before it is read until after the
     * rename, so that two saves into one file take turns and the second
     * copies what the first wrote (core/beside.h) */
    if ((rc = tokio__replace_target(path, &real)) < 0)
        return rc;
    if ((rc = tokio__lock(real, TOKIO__LOCK_WAIT, &lock)) < 0 ||
        (rc = tokio__temporary(real, &tmp, &fd)) < 0)
        goto done;
    close(fd);
    exists = stat(real, &st) == 0;
    rc = exists ? copy_file(real, tmp) : TOKIO_OK;
    if (rc >= 0 && db->n_tables > 0 && (rc = store_open(db)) >= 0)
        rc = save_tables(db, tmp, path);
    if (rc >= 0) {
        /* make sure the bytes are down before the name points at them */
        if ((fd = open(tmp, O_RDONLY)) < 0 || fsync(fd) != 0)
            rc = tokio__error(TOKIO_EIO, "cannot write '%s': %s", path,
                              strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    if (rc >= 0 && chmod(tmp, exists ? (st.st_mode & 07777) : 0644) != 0)
        rc = tokio__error(TOKIO_EIO, "cannot write '%s': %s", path,
                          strerror(errno));
    if (rc >= 0 && rename(tmp, real) != 0)
        rc = tokio__error(TOKIO_EIO, "cannot write '%s': %s", path,
                          strerror(errno));
    tokio__temporary_done(tmp, rc < 0);
    if (rc >= 0)
        tokio_cachingdb_drop_cache(db);
done:
    tokio__unlock(lock);
    free(tmp);
    free(real);
    return rc;
}

void
tokio_cachingdb_drop_cache(struct tokio_cachingdb *db)
{
    for (size_t i = 0; i < db->n_tables; i++) {
        sqlite3_finalize(db->tables[i].insert);
        free(db->tables[i].name);
        free(db->tables[i].create_sql);
    }
    free(db->tables);
    db->tables = NULL;
    db->n_tables = 0;
    if (db->store)
        sqlite3_close(db->store);
    db->store = NULL;
    db->store_in_txn = 0;
    memo_free(db->memos);
    db->memos = NULL;
}

void
tokio_cachingdb_free(struct tokio_cachingdb *db)
{
    if (db == NULL)
        return;
    tokio_cachingdb_drop_cache(db);
    if (db->cache)
        sqlite3_close(db->cache);
    if (db->remote)
        mysql_close(db->remote);
    free(db->source);
    free(db);
}
