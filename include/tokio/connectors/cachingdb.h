/*
 * tokio/connectors/cachingdb.h - one connection over a relational
 * database of immutable records: a remote MySQL/MariaDB server and/or a
 * local SQLite cache file, with an in-memory layer in front.  Mirrors
 * tokio.connectors.cachingdb.CachingDb.
 *
 * A query is answered by the in-memory results (when asked to remember
 * it), else by the cache file when one is open, else by the server.  Its
 * rows can also be kept under a named table with a schema; save_cache
 * writes every kept table into an SQLite file the reference (and this
 * library) can use later in place of the server.
 *
 * Queries are always parameterized: write "?" (or the reference's
 * "%(ps)s") where a value goes; each backend gets its own placeholder.
 * Rows are streamed to a callback as they arrive (sqlite3_step, or an
 * unbuffered server-side prepared statement), never gathered first.
 */
#ifndef TOKIO_CONNECTORS_CACHINGDB_H
#define TOKIO_CONNECTORS_CACHINGDB_H

#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"

struct tokio_cachingdb;

/* The type of one value in a row or parameter list. */
enum tokio_db_type {
    TOKIO_DB_NULL = 0,
    TOKIO_DB_INT,       /* `i` */
    TOKIO_DB_REAL,      /* `d` */
    TOKIO_DB_TEXT       /* `s`, `len` bytes (also NUL-ended in rows) */
};

/* One value.  In rows handed to a callback, `s` is borrowed for the call. */
struct tokio_db_value {
    enum tokio_db_type type;
    int64_t i;
    double d;
    const char *s;
    size_t len;
};

/* Where the remote server is.  Every string may be NULL. */
struct tokio_db_remote {
    const char *host;           /* NULL: no server */
    const char *user;
    const char *password;       /* from the environment, never argv */
    const char *database;
    unsigned port;              /* 0: the client's default (3306) */
    unsigned connect_timeout;   /* seconds; 0: 10 */
    unsigned read_timeout;      /* seconds, per read and write; 0: 300 */
};

/*
 * A table to keep a query's rows in (the reference's table and
 * table_schema).  `columns` and `primary_key` are pasted into
 * "CREATE TABLE IF NOT EXISTS name (columns, PRIMARY KEY(primary_key))"
 * exactly as given, as the reference does.
 */
struct tokio_db_table {
    const char *name;
    const char *const *columns;
    size_t n_columns;
    const char *const *primary_key;
    size_t n_primary_key;
};

/* Which layer answered the last query (the reference's last_hit). */
#define TOKIO_DB_HIT_MEMORY 0
#define TOKIO_DB_HIT_CACHE  1
#define TOKIO_DB_HIT_REMOTE 2

/* Flags of tokio_cachingdb_query() */
#define TOKIO_DB_REMEMBER 0x1u  /* keep the rows in memory and answer the
                                   same query and parameters from there */

/**
 * Called with each row; `row` (n values) is borrowed for the call.  A
 * negative return stops the query, which returns that status.
 */
typedef int (*tokio_db_row_fn)(void *payload, const struct tokio_db_value *row,
                               size_t n);

/**
 * Fill `out` from the environment variables PREFIX "HOST", "USER",
 * "PASSWORD", "DB" (the reference's names, e.g. prefix "NERSC_JOBSDB_" or
 * "PYTOKIO_LMT_") and, an addition, "PORT".  The strings are borrowed from
 * the environment.
 * @return TOKIO_OK; TOKIO_EINVAL (PORT is not a port number).
 */
TOKIO_API int tokio_cachingdb_remote_from_env(struct tokio_db_remote *out,
                                              const char *prefix);

/**
 * Replace the host, user, database and port of `r` by those `given` sets
 * (non-NULL, non-zero): a command line's options over the environment.
 * The password and timeouts are left as they are.
 */
TOKIO_API void tokio_cachingdb_remote_override(struct tokio_db_remote *r,
                                              const struct tokio_db_remote
                                                  *given);

/**
 * Open the SQLite cache `cache_file` (read only) when not NULL, else
 * connect to `remote` (when it has a host, user and database).
 * @param[out] out  free with tokio_cachingdb_free(); NULL on failure.
 * @return TOKIO_OK; TOKIO_EINVAL (neither a cache file nor a server);
 *         TOKIO_EIO (cannot open the file; the server refused, timed out
 *         or rejected the credentials: the message says which and names
 *         the file or server); TOKIO_EFORMAT (not an SQLite database);
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_cachingdb_open(struct tokio_cachingdb **out,
                                   const char *cache_file,
                                   const struct tokio_db_remote *remote);

/**
 * As tokio_cachingdb_open() with an SQLite database image of `len` bytes
 * at `buf` (copied) as the cache, named `name` in messages.
 */
TOKIO_API int tokio_cachingdb_open_mem(struct tokio_cachingdb **out,
                                       const void *buf, size_t len,
                                       const char *name);

/**
 * Run `sql` with `n_params` values bound to its placeholders, calling
 * `fn` (may be NULL) with each row.  With `table` not NULL, the rows are
 * also kept (INSERT OR REPLACE, so a later row wins over an earlier one
 * with the same primary key) for tokio_cachingdb_save_cache().  With
 * TOKIO_DB_REMEMBER in `flags`, a query already answered with the same
 * text and parameters is replayed from memory (and not kept again).
 * @return TOKIO_OK; TOKIO_EINVAL (bad SQL; a row whose width differs from
 *         the table's first); TOKIO_EIO (the server dropped the connection
 *         or timed out: the message says which); TOKIO_EFORMAT (a
 *         corrupt cache file); TOKIO_ENOMEM; or what `fn` returned.
 */
TOKIO_API int tokio_cachingdb_query(struct tokio_cachingdb *db,
                                    const char *sql,
                                    const struct tokio_db_value *params,
                                    size_t n_params,
                                    const struct tokio_db_table *table,
                                    unsigned flags, tokio_db_row_fn fn,
                                    void *payload);

/** TOKIO_DB_HIT_* for the last query, -1 before any. */
TOKIO_API int tokio_cachingdb_last_hit(const struct tokio_cachingdb *db);

/** The name of what answers queries: the cache file or "user@host:port/db". */
TOKIO_API const char *tokio_cachingdb_source(const struct tokio_cachingdb *db);

/**
 * Write every kept table that has rows into the SQLite file `path`, in the
 * order the tables were first used, and forget them.  An existing file is
 * added to (CREATE TABLE IF NOT EXISTS, INSERT OR REPLACE) as by the
 * reference.  All or nothing: the work is done on a copy beside `path`
 * that replaces it with one rename().  Through symbolic links the file
 * they name is written, as by tokio_output_open(); the file's lock
 * (tokio_output_lock()) is held from before it is copied until after
 * the rename, so two saves into one file take turns and both land.
 * @return TOKIO_OK; TOKIO_EIO (`path` unchanged: not writable, a folder
 *         or device, locked by another writer for 10 minutes, a write
 *         failed); TOKIO_EFORMAT (`path` exists but is not a database,
 *         or a table there does not fit); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_cachingdb_save_cache(struct tokio_cachingdb *db,
                                         const char *path);

/** Forget the kept tables and remembered queries. */
TOKIO_API void tokio_cachingdb_drop_cache(struct tokio_cachingdb *db);

/** Close everything; NULL is fine. */
TOKIO_API void tokio_cachingdb_free(struct tokio_cachingdb *db);

#endif
