/*
 * tokio/connectors/lmtdb.h - a Lustre Monitoring Tool (LMT) database:
 * per-timestep OST, OSS, MDS and metadata-operation counters, on a MySQL
 * or MariaDB server or in an SQLite cache of one.  Mirrors
 * tokio.connectors.lmtdb.LmtDb.
 *
 * LMT stores naive local wall-clock times ("YYYY-MM-DD HH:MM:SS" in
 * TIMESTAMP_INFO); this interface takes and gives epoch seconds converted
 * in the local time zone, as the reference's naive datetimes were.
 */
#ifndef TOKIO_CONNECTORS_LMTDB_H
#define TOKIO_CONNECTORS_LMTDB_H

#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"
#include "tokio/connectors/cachingdb.h"

struct tokio_lmtdb;

/* The four name tables the reference loads when it connects. */
enum tokio_lmtdb_kind {
    TOKIO_LMTDB_OST = 0,    /* OST_INFO: OST_ID -> OST_NAME */
    TOKIO_LMTDB_OSS,        /* OSS_INFO: OSS_ID -> HOSTNAME */
    TOKIO_LMTDB_MDS,        /* MDS_INFO: MDS_ID -> HOSTNAME */
    TOKIO_LMTDB_MDS_OP      /* OPERATION_INFO: OPERATION_ID -> NAME */
};

/* Environment variables naming the server (the reference's). */
#define TOKIO_LMTDB_ENV_PREFIX "PYTOKIO_LMT_"

/**
 * Open an LMT database: the SQLite cache `cache_file` when not NULL, else
 * the server `remote`; then load the OST, OSS, MDS and operation names.
 * @param[out] out  free with tokio_lmtdb_free().
 * @return as tokio_cachingdb_open(); TOKIO_EFORMAT when a name table is
 *         missing or holds a non-integer id.
 */
TOKIO_API int tokio_lmtdb_open(struct tokio_lmtdb **out,
                               const char *cache_file,
                               const struct tokio_db_remote *remote);

/** As tokio_lmtdb_open() over an open database, which `out` then owns
 *  (freed even on failure). */
TOKIO_API int tokio_lmtdb_open_db(struct tokio_lmtdb **out,
                                  struct tokio_cachingdb *db);

/** The underlying database (borrowed): for tokio_cachingdb_save_cache(). */
TOKIO_API struct tokio_cachingdb *tokio_lmtdb_db(struct tokio_lmtdb *lmt);

/**
 * The names of one kind in database order (the reference's ost_names,
 * oss_names, mds_names, mds_op_names); borrowed.
 */
TOKIO_API const char *const *tokio_lmtdb_names(const struct tokio_lmtdb *lmt,
                                               enum tokio_lmtdb_kind kind,
                                               size_t *n_out);

/** The name of id `id` of a kind (the *_id_map), NULL when unknown. */
TOKIO_API const char *tokio_lmtdb_name_of(const struct tokio_lmtdb *lmt,
                                          enum tokio_lmtdb_kind kind,
                                          int64_t id);

/**
 * The lowest and highest TS_ID whose TIMESTAMP lies in [start, end]
 * (both inclusive).
 * @return TOKIO_OK; TOKIO_ENOTFOUND (no timestamps in the range; the
 *         reference failed on min() of nothing); database errors.
 */
TOKIO_API int tokio_lmtdb_get_ts_ids(struct tokio_lmtdb *lmt, int64_t start,
                                     int64_t end, int64_t *min_out,
                                     int64_t *max_out);

/**
 * The columns of table `table` (OST_DATA, ..., as the reference's
 * LMTDB_TABLES) and its primary key, or NULL when LMT has no such table.
 */
TOKIO_API const struct tokio_db_table *tokio_lmtdb_table(const char *table);

/** Every table of LMTDB_TABLES in the reference's order; borrowed. */
TOKIO_API const struct tokio_db_table *tokio_lmtdb_tables(size_t *n_out);

/**
 * The reference's get_timeseries_data(): rows of `table` joined with
 * TIMESTAMP_INFO whose TIMESTAMP lies in [start, end), queried in chunks
 * of `timechunk` seconds (0: one query), each row being TIMESTAMP (text)
 * followed by the table's columns.  With `keep`, rows are also kept under
 * the table's name for tokio_cachingdb_save_cache() as the reference
 * does.
 * @return TOKIO_OK; TOKIO_EINVAL (unknown table, end before start);
 *         database errors; or what `fn` returned.
 */
TOKIO_API int tokio_lmtdb_get_timeseries_data(struct tokio_lmtdb *lmt,
                                              const char *table,
                                              int64_t start, int64_t end,
                                              int64_t timechunk, int keep,
                                              tokio_db_row_fn fn,
                                              void *payload);

/* The reference's wrappers over get_timeseries_data(), one hour chunks. */
TOKIO_API int tokio_lmtdb_get_ost_data(struct tokio_lmtdb *lmt, int64_t start,
                                       int64_t end, tokio_db_row_fn fn,
                                       void *payload);
TOKIO_API int tokio_lmtdb_get_oss_data(struct tokio_lmtdb *lmt, int64_t start,
                                       int64_t end, tokio_db_row_fn fn,
                                       void *payload);
TOKIO_API int tokio_lmtdb_get_mds_data(struct tokio_lmtdb *lmt, int64_t start,
                                       int64_t end, tokio_db_row_fn fn,
                                       void *payload);
TOKIO_API int tokio_lmtdb_get_mds_ops_data(struct tokio_lmtdb *lmt,
                                           int64_t start, int64_t end,
                                           tokio_db_row_fn fn, void *payload);

/**
 * Called with each row of a *_DATA table and its timestamp (epoch
 * seconds); `row` (the table's columns in LMTDB_TABLES order) is borrowed
 * for the call.  A negative return stops the stream with that status.
 */
typedef int (*tokio_lmtdb_row_fn)(void *payload, int64_t timestamp,
                                  const struct tokio_db_value *row, size_t n);

/**
 * The rows of `table` whose TIMESTAMP lies in [start, end), as
 * get_timeseries_data() selects them, but without its JOIN: the
 * timestamps of the range are read once from TIMESTAMP_INFO and the
 * table is scanned once over their TS_IDs, each row handed over with its
 * timestamp already converted (what archive-lmtdb needs, at the speed of
 * a plain scan).  Rows come in the database's order.
 * @return TOKIO_OK; TOKIO_EINVAL (unknown table, or one without TS_ID);
 *         TOKIO_EFORMAT (a TIMESTAMP that does not parse, naming it);
 *         database errors; or what `fn` returned.
 */
TOKIO_API int tokio_lmtdb_stream(struct tokio_lmtdb *lmt, const char *table,
                                 int64_t start, int64_t end,
                                 tokio_lmtdb_row_fn fn, void *payload);

/*
 * The timestamps of a range read once, for streaming a long range block by
 * block (tokio_lmtdb_stream_stamps()) without reading them per block.
 */
struct tokio_lmtdb_stamps;

/**
 * Read the TS_IDs and timestamps of TIMESTAMP_INFO in [start, end).
 * @param[out] out  free with tokio_lmtdb_stamps_free().
 * @return TOKIO_OK; TOKIO_EFORMAT (as tokio_lmtdb_stream()); database
 *         errors; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_lmtdb_stamps_read(struct tokio_lmtdb *lmt, int64_t start,
                                      int64_t end,
                                      struct tokio_lmtdb_stamps **out);

/**
 * As tokio_lmtdb_stream() for the rows whose timestamp, among `stamps`,
 * lies in [start, end): one query over just the TS_IDs of that part, so
 * a caller going block by block holds one block of rows at a time.
 * @return as tokio_lmtdb_stream().
 */
TOKIO_API int tokio_lmtdb_stream_stamps(struct tokio_lmtdb *lmt,
                                        struct tokio_lmtdb_stamps *stamps,
                                        const char *table, int64_t start,
                                        int64_t end, tokio_lmtdb_row_fn fn,
                                        void *payload);

/** Release timestamps; NULL is fine. */
TOKIO_API void tokio_lmtdb_stamps_free(struct tokio_lmtdb_stamps *stamps);

/**
 * The reference's cache_lmtdb retrieve_tables(): every LMT table, the
 * time-indexed ones restricted to the TS_IDs of [start, end], at most
 * `limit` rows each (0: all), kept for tokio_cachingdb_save_cache().
 * @return as tokio_lmtdb_get_ts_ids().
 */
TOKIO_API int tokio_lmtdb_retrieve_tables(struct tokio_lmtdb *lmt,
                                          int64_t start, int64_t end,
                                          int64_t limit);

/**
 * Epoch seconds of an LMT "YYYY-MM-DD HH:MM:SS" timestamp (local time).
 * @return TOKIO_OK; TOKIO_EFORMAT.
 */
TOKIO_API int tokio_lmtdb_parse_timestamp(const char *text, size_t len,
                                          int64_t *epoch_out);

/** Close; NULL is fine. */
TOKIO_API void tokio_lmtdb_free(struct tokio_lmtdb *lmt);

#endif
