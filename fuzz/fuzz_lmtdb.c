/*
 * fuzz/fuzz_lmtdb.c - the LMT reader (src/connectors/lmtdb.c over
 * src/connectors/cachingdb.c) on arbitrary SQLite database images
 * (sqlite3_deserialize, read only): load the name tables, find the
 * TS_IDs of a range, read every *_DATA table in time chunks parsing
 * each row's timestamp and through the JOIN-free stream archive-lmtdb
 * uses, and keep every table as cache-lmtdb does.
 * Seeds: fuzz/corpus/lmtdb/ (small LMT databases made for the purpose).
 */
#include <stddef.h>
#include <stdint.h>

#include "tokio/connectors/lmtdb.h"
#include "tokio/time.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
parse_row(void *payload, const struct tokio_db_value *row, size_t n)
{
    int64_t t;

    (void)payload;
    if (n > 1 && row[0].type == TOKIO_DB_TEXT)
        (void)tokio_lmtdb_parse_timestamp(row[0].s, row[0].len, &t);
    if (n > 1 && row[1].type == TOKIO_DB_INT)
        (void)tokio_lmtdb_name_of(payload, TOKIO_LMTDB_OST, row[1].i);
    return 0;
}

static int
stream_row(void *payload, int64_t t, const struct tokio_db_value *row,
           size_t n)
{
    (void)t;
    if (n > 0 && row[0].type == TOKIO_DB_INT)
        (void)tokio_lmtdb_name_of(payload, TOKIO_LMTDB_OSS, row[0].i);
    return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const tables[] = { "OST_DATA", "OSS_DATA", "MDS_DATA",
                                          "MDS_OPS_DATA" };
    struct tokio_cachingdb *db = NULL;
    struct tokio_lmtdb *lmt = NULL;
    int64_t start, lo, hi;

    if (size > (1u << 20))
        return 0;
    if (tokio_cachingdb_open_mem(&db, data, size, "fuzz") < 0)
        return 0;
    if (tokio_lmtdb_open_db(&lmt, db) < 0)
        return 0;
    if (tokio_time_from_local(2020, 6, 1, 12, 0, 0, &start) == 0) {
        (void)tokio_lmtdb_get_ts_ids(lmt, start, start + 600, &lo, &hi);
        for (size_t i = 0; i < 4; i++) {
            (void)tokio_lmtdb_get_timeseries_data(lmt, tables[i], start,
                                                  start + 600, 300, 0,
                                                  parse_row, lmt);
            (void)tokio_lmtdb_stream(lmt, tables[i], start, start + 600,
                                     stream_row, lmt);
        }
        (void)tokio_lmtdb_retrieve_tables(lmt, start, start + 600, 10);
    }
    tokio_lmtdb_free(lmt);
    return 0;
}
