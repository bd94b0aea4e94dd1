/*
 * tests/connectors/test_lmtdb.c - the LMT database connector: names and
 * id maps, get_ts_ids (golden/pytokio/lmtdb/), get_timeseries_data in
 * time chunks (same rows whatever the chunk), the table list, timestamp
 * parsing, errors (unknown table, empty range, missing name table) and
 * out of memory, over the sample and over a small LMT file the test
 * writes itself.
 */
#include "testutil.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tokio/connectors/lmtdb.h"
#include "tokio/time.h"

#define SAMPLE "pytokio-inputs/snx11025_2018-01-28.sqlite3"

static char *dir;
static char fixture_path[4200];

/* Two OSTs on one OSS, one MDS, three timestamps 5 s apart, one op. */
static const char fixture[] =
    "CREATE TABLE OST_INFO (OST_ID, OSS_ID, OST_NAME, HOSTNAME, OFFLINE, "
    "DEVICE_NAME, PRIMARY KEY(OST_ID));"
    "INSERT INTO OST_INFO VALUES (7, 1, 'fs-OST0001', 'oss1', 0, 'd1');"
    "INSERT INTO OST_INFO VALUES (3, 1, 'fs-OST0000', 'oss1', 0, 'd0');"
    "CREATE TABLE OSS_INFO (OSS_ID, FILESYSTEM_ID, HOSTNAME, FAILOVERHOST, "
    "PRIMARY KEY(OSS_ID, HOSTNAME));"
    "INSERT INTO OSS_INFO VALUES (1, 1, 'oss1', 'oss2');"
    "CREATE TABLE MDS_INFO (MDS_ID, FILESYSTEM_ID, MDS_NAME, HOSTNAME, "
    "DEVICE_NAME, PRIMARY KEY(MDS_ID));"
    "INSERT INTO MDS_INFO VALUES (1, 1, 'fs-MDT0000', 'mds1', 'md0');"
    "CREATE TABLE OPERATION_INFO (OPERATION_ID, OPERATION_NAME, UNITS, "
    "PRIMARY KEY(OPERATION_ID));"
    "INSERT INTO OPERATION_INFO VALUES (1, 'open', 'reqs');"
    "CREATE TABLE TIMESTAMP_INFO (TS_ID, TIMESTAMP, PRIMARY KEY(TS_ID));"
    "INSERT INTO TIMESTAMP_INFO VALUES (100, '2020-06-01 12:00:00');"
    "INSERT INTO TIMESTAMP_INFO VALUES (101, '2020-06-01 12:00:05');"
    "INSERT INTO TIMESTAMP_INFO VALUES (102, '2020-06-01 12:00:10');"
    "CREATE TABLE OST_DATA (OST_ID, TS_ID, READ_BYTES, WRITE_BYTES, PCT_CPU, "
    "KBYTES_FREE, KBYTES_USED, INODES_FREE, INODES_USED, "
    "PRIMARY KEY(OST_ID, TS_ID));"
    "INSERT INTO OST_DATA VALUES (3, 100, 10, 20, 1.5, 5, 6, 7, 8);"
    "INSERT INTO OST_DATA VALUES (7, 100, 11, 21, 1.5, 5, 6, 7, 8);"
    "INSERT INTO OST_DATA VALUES (3, 101, 12, 22, 1.5, 5, 6, 7, 8);"
    "INSERT INTO OST_DATA VALUES (7, 101, 13, 23, 1.5, 5, 6, 7, 8);"
    "INSERT INTO OST_DATA VALUES (3, 102, 14, 24, 1.5, 5, 6, 7, 8);";

static int
setup(void **state)
{
    dir = tokio_test_sqlite_fixture(fixture, "lmt.sqlite3", fixture_path,
                                    sizeof(fixture_path));
    *state = dir;
    return dir != NULL ? 0 : -1;
}

static void
test_lmtdb_names(void **state)
{
    struct tokio_lmtdb *lmt = NULL;
    size_t n;
    (void)state;

    assert_int_equal(tokio_lmtdb_open(&lmt, fixture_path, NULL), 0);
    const char *const *osts = tokio_lmtdb_names(lmt, TOKIO_LMTDB_OST, &n);
    assert_int_equal(n, 2);
    assert_string_equal(osts[0], "fs-OST0001");     /* database order */
    assert_string_equal(osts[1], "fs-OST0000");
    assert_string_equal(tokio_lmtdb_name_of(lmt, TOKIO_LMTDB_OST, 3),
                        "fs-OST0000");
    assert_null(tokio_lmtdb_name_of(lmt, TOKIO_LMTDB_OST, 4));
    assert_string_equal(tokio_lmtdb_name_of(lmt, TOKIO_LMTDB_OSS, 1), "oss1");
    assert_string_equal(tokio_lmtdb_name_of(lmt, TOKIO_LMTDB_MDS, 1), "mds1");
    assert_string_equal(tokio_lmtdb_name_of(lmt, TOKIO_LMTDB_MDS_OP, 1),
                        "open");
    assert_null(tokio_lmtdb_names(lmt, (enum tokio_lmtdb_kind)9, &n));
    assert_int_equal(n, 0);
    tokio_lmtdb_free(lmt);
}

static void
test_lmtdb_get_ts_ids(void **state)
{
    struct tokio_lmtdb *lmt = NULL;
    int64_t lo, hi;
    (void)state;

    assert_int_equal(tokio_lmtdb_open(&lmt, fixture_path, NULL), 0);
    assert_int_equal(tokio_lmtdb_get_ts_ids(
                         lmt, tokio_test_local(2020, 6, 1, 12, 0, 5),
                         tokio_test_local(2020, 6, 1, 13, 0, 0), &lo, &hi), 0);
    assert_int_equal(lo, 101);
    assert_int_equal(hi, 102);
    assert_int_equal(tokio_lmtdb_get_ts_ids(
                         lmt, tokio_test_local(2021, 1, 1, 0, 0, 0),
                         tokio_test_local(2021, 1, 2, 0, 0, 0), &lo, &hi),
                     TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "no timestamps from 2021-01-01 00:00:00");
    tokio_lmtdb_free(lmt);
}

/* The reference's answer for the sample: [8921898, 8921958]. */
static void
test_lmtdb_get_ts_ids_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    struct tokio_lmtdb *lmt = NULL;
    int64_t lo, hi;
    (void)state;

    char *want = tokio_test_read_file(
        tokio_test_data("golden/pytokio/lmtdb/snx11025_2018-01-28."
                        "get_ts_ids.json"), NULL);
    assert_int_equal(tokio_lmtdb_open(&lmt, path, NULL), 0);
    assert_int_equal(tokio_lmtdb_get_ts_ids(
                         lmt, tokio_test_local(2018, 1, 28, 0, 0, 0),
                         tokio_test_local(2018, 1, 28, 0, 5, 0), &lo, &hi), 0);
    char got[128];
    snprintf(got, sizeof(got), "[\n    %lld,\n    %lld\n]\n", (long long)lo,
             (long long)hi);
    assert_string_equal(got, want);
    free(want);
    tokio_lmtdb_free(lmt);
}

struct rows {
    size_t n;
    int64_t sum_read;
    char first[64];
};

static int
take(void *payload, const struct tokio_db_value *row, size_t n)
{
    struct rows *r = payload;

    assert_int_equal(n, 10);    /* TIMESTAMP + OST_DATA's 9 columns */
    assert_int_equal(row[0].type, TOKIO_DB_TEXT);
    if (r->n++ == 0)
        snprintf(r->first, sizeof(r->first), "%s", row[0].s);
    r->sum_read += row[3].i;
    return 0;
}

/* Whatever the chunk, [start, end) gives the same rows. */
static void
test_lmtdb_timeseries_chunks(void **state)
{
    struct tokio_lmtdb *lmt = NULL;
    int64_t start = tokio_test_local(2020, 6, 1, 12, 0, 0);
    (void)state;

    assert_int_equal(tokio_lmtdb_open(&lmt, fixture_path, NULL), 0);
    for (int64_t chunk = 0; chunk <= 7; chunk++) {
        struct rows r = { 0, 0, "" };

        assert_int_equal(tokio_lmtdb_get_timeseries_data(
                             lmt, "ost_data", start, start + 10, chunk, 0,
                             take, &r), 0);
        assert_int_equal(r.n, 4);                   /* 12:00:10 excluded */
        assert_int_equal(r.sum_read, 10 + 11 + 12 + 13);
        assert_string_equal(r.first, "2020-06-01 12:00:00");
    }
    struct rows r = { 0, 0, "" };
    assert_int_equal(tokio_lmtdb_get_ost_data(lmt, start, start + 3600, take,
                                              &r), 0);
    assert_int_equal(r.n, 5);
    assert_int_equal(tokio_lmtdb_get_timeseries_data(lmt, "NO_SUCH", start,
                                                     start + 10, 0, 0, NULL,
                                                     NULL), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "Table 'NO_SUCH' is not valid");
    assert_int_equal(tokio_lmtdb_get_timeseries_data(lmt, "OST_DATA", start,
                                                     start + 10, -1, 0, NULL,
                                                     NULL), TOKIO_EINVAL);
    /* MDS_DATA is missing from the fixture: an error naming it */
    assert_true(tokio_lmtdb_get_mds_data(lmt, start, start + 10, NULL,
                                         NULL) < 0);
    assert_contains(tokio_errmsg(), "MDS_DATA");
    /* so are OSS_DATA and MDS_OPS_DATA: each wrapper asks its own table */
    assert_true(tokio_lmtdb_get_oss_data(lmt, start, start + 10, NULL,
                                         NULL) < 0);
    assert_contains(tokio_errmsg(), "OSS_DATA");
    assert_true(tokio_lmtdb_get_mds_ops_data(lmt, start, start + 10, NULL,
                                             NULL) < 0);
    assert_contains(tokio_errmsg(), "MDS_OPS_DATA");
    tokio_lmtdb_free(lmt);
}

struct streamed {
    size_t n;
    int64_t first_t, last_t, sum_read;
};

static int
take_stream(void *payload, int64_t t, const struct tokio_db_value *row,
            size_t n)
{
    struct streamed *r = payload;

    assert_int_equal(n, 9);     /* OST_DATA's columns, no TIMESTAMP */
    if (r->n++ == 0)
        r->first_t = t;
    r->last_t = t;
    r->sum_read += row[2].i;
    return 0;
}

/* The JOIN-free stream gives the rows get_timeseries_data() gives. */
static void
test_lmtdb_stream(void **state)
{
    struct tokio_lmtdb *lmt = NULL;
    int64_t start = tokio_test_local(2020, 6, 1, 12, 0, 0);
    struct streamed r = { 0, 0, 0, 0 };
    (void)state;

    assert_int_equal(tokio_lmtdb_open(&lmt, fixture_path, NULL), 0);
    assert_int_equal(tokio_lmtdb_stream(lmt, "OST_DATA", start, start + 10,
                                        take_stream, &r), 0);
    assert_int_equal(r.n, 4);
    assert_int_equal(r.sum_read, 10 + 11 + 12 + 13);
    assert_int_equal(r.first_t, start);
    assert_int_equal(r.last_t, start + 5);
    memset(&r, 0, sizeof(r));
    assert_int_equal(tokio_lmtdb_stream(lmt, "OST_DATA", start + 3600,
                                        start + 7200, take_stream, &r), 0);
    assert_int_equal(r.n, 0);
    assert_int_equal(tokio_lmtdb_stream(lmt, "OST_INFO", start, start + 10,
                                        take_stream, &r), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "not an LMT table of timed data");
    assert_int_equal(tokio_lmtdb_stream(lmt, "TIMESTAMP_INFO", start,
                                        start + 10, take_stream, &r),
                     TOKIO_EINVAL);
    tokio_lmtdb_free(lmt);
}

/* A TIMESTAMP that does not parse is an error naming its TS_ID. */
static void
test_lmtdb_stream_bad_timestamp(void **state)
{
    char path[4300];
    sqlite3 *db;
    struct tokio_lmtdb *lmt = NULL;
    struct streamed r = { 0, 0, 0, 0 };
    (void)state;

    snprintf(path, sizeof(path), "%s/badstamp.sqlite3", dir);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, fixture, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "INSERT INTO TIMESTAMP_INFO VALUES "
                                  "(103, '2020-06-01 12:00:07 oops')", NULL,
                                  NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(tokio_lmtdb_open(&lmt, path, NULL), 0);
    assert_int_equal(tokio_lmtdb_stream(lmt, "OST_DATA",
                                        tokio_test_local(2020, 6, 1, 12, 0, 0),
                                        tokio_test_local(2020, 6, 1, 13, 0, 0),
                                        take_stream, &r), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "TS_ID 103");
    assert_contains(tokio_errmsg(), "not an LMT timestamp");
    tokio_lmtdb_free(lmt);
}

static void
test_lmtdb_tables(void **state)
{
    size_t n;
    const struct tokio_db_table *t = tokio_lmtdb_tables(&n);
    (void)state;

    assert_int_equal(n, 12);
    assert_string_equal(t[0].name, "FILESYSTEM_INFO");
    /* the reference's missing comma, kept: its caches carry it */
    assert_string_equal(t[0].columns[2], "FILESYSTEM_MOUNT_NAME,"
                        "SCHEMA_VERSION");
    assert_string_equal(t[11].name, "TIMESTAMP_INFO");
    assert_ptr_equal(tokio_lmtdb_table("oss_info"), &t[7]);
    assert_null(tokio_lmtdb_table("bogus"));
    assert_null(tokio_lmtdb_table(NULL));
}

static void
test_lmtdb_parse_timestamp(void **state)
{
    int64_t t;
    static const char *const bad[] = {
        "2020-06-01", "2020-06-01 12:00", "2020/06/01 12:00:00",
        "2020-13-01 12:00:00", "2020-06-01 25:00:00", "2020-06-01 12:00:0x",
        "2020-06-01 12:00:00Z",
    };
    (void)state;

    assert_int_equal(tokio_lmtdb_parse_timestamp("2020-06-01 12:00:05", 19,
                                                 &t), 0);
    assert_int_equal(t, tokio_test_local(2020, 6, 1, 12, 0, 5));
    assert_int_equal(tokio_lmtdb_parse_timestamp("2020-06-01 12:00:05.25",
                                                 22, &t), 0);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(tokio_lmtdb_parse_timestamp(bad[i], strlen(bad[i]),
                                                     &t), TOKIO_EFORMAT);
        assert_contains(tokio_errmsg(), "not an LMT timestamp");
    }
    assert_int_equal(tokio_lmtdb_parse_timestamp(NULL, 0, &t), TOKIO_EFORMAT);
}

/* Without the name tables it is not an LMT database. */
static void
test_lmtdb_not_lmt(void **state)
{
    char path[4300];
    sqlite3 *db;
    struct tokio_lmtdb *lmt = NULL;
    (void)state;

    snprintf(path, sizeof(path), "%s/other.sqlite3", dir);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE x (a)", NULL, NULL, NULL);
    sqlite3_close(db);
    assert_true(tokio_lmtdb_open(&lmt, path, NULL) < 0);
    assert_null(lmt);
    assert_contains(tokio_errmsg(), "other.sqlite3");
    assert_contains(tokio_errmsg(), "OST_INFO");
}

static int
oom_trial(void *ctx)
{
    struct tokio_lmtdb *lmt = NULL;
    int rc;

    (void)ctx;
    if ((rc = tokio_lmtdb_open(&lmt, fixture_path, NULL)) < 0)
        return rc;
    rc = tokio_lmtdb_retrieve_tables(lmt,
                                     tokio_test_local(2020, 6, 1, 12, 0, 0),
                                     tokio_test_local(2020, 6, 1, 12, 0, 10),
                                     0);
    /* the fixture lacks some tables: that error is not an OOM */
    if (rc == TOKIO_EINVAL)
        rc = TOKIO_OK;
    tokio_lmtdb_free(lmt);
    return rc;
}

static void
test_lmtdb_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(oom_trial, NULL, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lmtdb_names),
        cmocka_unit_test(test_lmtdb_get_ts_ids),
        cmocka_unit_test(test_lmtdb_get_ts_ids_golden),
        cmocka_unit_test(test_lmtdb_timeseries_chunks),
        cmocka_unit_test(test_lmtdb_stream),
        cmocka_unit_test(test_lmtdb_stream_bad_timestamp),
        cmocka_unit_test(test_lmtdb_tables),
        cmocka_unit_test(test_lmtdb_parse_timestamp),
        cmocka_unit_test(test_lmtdb_not_lmt),
        cmocka_unit_test(test_lmtdb_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, setup, tokio_test_remove_dir);
}
