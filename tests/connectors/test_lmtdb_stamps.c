/*
 * tests/connectors/test_lmtdb_stamps.c - streaming LMT rows block by
 * block over timestamps read once (tokio_lmtdb_stamps_read,
 * tokio_lmtdb_stream_stamps): the blocks of a range, whatever their size,
 * give exactly the rows (same values, same timestamps, same order within
 * a block) that one stream of the whole range gives, over a fixture the
 * test writes itself (TS_IDs out of time order, a duplicated TS_ID, rows
 * without a timestamp) and over the sample when present; errors and out
 * of memory.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "tokio/connectors/lmtdb.h"
#include "tokio/time.h"

#define SAMPLE "pytokio-inputs/snx11025_2018-01-28.sqlite3"

static char fixture_path[4200];

/* TS_ID 205 is earlier than 204; TS_ID 202 appears twice (the second
 * wins); TS_ID 299 has no timestamp. */
static const char fixture[] =
    "CREATE TABLE OST_INFO (OST_ID, OSS_ID, OST_NAME, HOSTNAME, OFFLINE, "
    "DEVICE_NAME);"
    "INSERT INTO OST_INFO VALUES (1, 1, 'fs-OST0000', 'oss1', 0, 'd0');"
    "INSERT INTO OST_INFO VALUES (2, 1, 'fs-OST0001', 'oss1', 0, 'd1');"
    "CREATE TABLE OSS_INFO (OSS_ID, FILESYSTEM_ID, HOSTNAME, FAILOVERHOST);"
    "INSERT INTO OSS_INFO VALUES (1, 1, 'oss1', 'oss2');"
    "CREATE TABLE MDS_INFO (MDS_ID, FILESYSTEM_ID, MDS_NAME, HOSTNAME, "
    "DEVICE_NAME);"
    "CREATE TABLE OPERATION_INFO (OPERATION_ID, OPERATION_NAME, UNITS);"
    "CREATE TABLE TIMESTAMP_INFO (TS_ID, TIMESTAMP);"
    "INSERT INTO TIMESTAMP_INFO VALUES (200, '2020-06-01 12:00:00');"
    "INSERT INTO TIMESTAMP_INFO VALUES (201, '2020-06-01 12:00:05');"
    "INSERT INTO TIMESTAMP_INFO VALUES (202, '2020-06-01 12:00:40');"
    "INSERT INTO TIMESTAMP_INFO VALUES (202, '2020-06-01 12:00:10');"
    "INSERT INTO TIMESTAMP_INFO VALUES (203, '2020-06-01 12:00:15');"
    "INSERT INTO TIMESTAMP_INFO VALUES (204, '2020-06-01 12:00:25');"
    "INSERT INTO TIMESTAMP_INFO VALUES (205, '2020-06-01 12:00:20');"
    "INSERT INTO TIMESTAMP_INFO VALUES (206, '2020-06-01 12:00:30');"
    "CREATE TABLE OST_DATA (OST_ID, TS_ID, READ_BYTES, WRITE_BYTES, PCT_CPU, "
    "KBYTES_FREE, KBYTES_USED, INODES_FREE, INODES_USED);"
    "CREATE INDEX ost_ts ON OST_DATA(TS_ID);";

/* Every row seen: its timestamp, TS_ID and READ_BYTES, in order. */
struct seen {
    int64_t t[65536], ts_id[65536], value[65536];
    size_t n;
};

static int
take(void *payload, int64_t t, const struct tokio_db_value *row, size_t n)
{
    struct seen *s = payload;

    assert_true(n >= 3);
    assert_true(s->n < 65536);
    s->t[s->n] = t;
    s->ts_id[s->n] = row[1].i;
    s->value[s->n] = row[2].type == TOKIO_DB_INT ? row[2].i : -1;
    s->n++;
    return 0;
}

static int
setup(void **state)
{
    char sql[4096];
    size_t len;

    len = (size_t)snprintf(sql, sizeof(sql), "%s", fixture);
    for (int ts = 200; ts <= 206; ts++)
        for (int ost = 1; ost <= 2; ost++)
            len += (size_t)snprintf(sql + len, sizeof(sql) - len,
                                    "INSERT INTO OST_DATA VALUES (%d, %d, %d, "
                                    "0, 0, 0, 0, 0, 0);", ost, ts,
                                    ts * 10 + ost);
    snprintf(sql + len, sizeof(sql) - len,
             "INSERT INTO OST_DATA VALUES (1, 299, 1, 0, 0, 0, 0, 0, 0);");
    *state = tokio_test_sqlite_fixture(sql, "lmt.sqlite3", fixture_path,
                                       sizeof(fixture_path));
    return *state != NULL ? 0 : -1;
}

/*
 * Stream [start, end) of `table` whole, then in blocks of `step`
 * seconds: the same rows, each block's in the whole stream's order.
 */
static void
assert_blocks_equal_whole(const char *path, const char *table, int64_t start,
                          int64_t end, int64_t step)
{
    struct tokio_lmtdb *lmt = NULL;
    struct tokio_lmtdb_stamps *st = NULL;
    struct seen *whole = calloc(1, sizeof(*whole));
    struct seen *parts = calloc(1, sizeof(*parts));

    assert_non_null(whole);
    assert_non_null(parts);
    assert_int_equal(tokio_lmtdb_open(&lmt, path, NULL), 0);
    assert_int_equal(tokio_lmtdb_stream(lmt, table, start, end, take, whole),
                     0);
    assert_int_equal(tokio_lmtdb_stamps_read(lmt, start, end, &st), 0);
    for (int64_t t = start; t < end; t += step) {
        int64_t to = t + step < end ? t + step : end;
        size_t j = parts->n;

        assert_int_equal(tokio_lmtdb_stream_stamps(lmt, st, table, t, to,
                                                   take, parts), 0);
        /* the whole stream's rows of [t, to), in its order */
        for (size_t i = 0; i < whole->n; i++) {
            if (whole->t[i] < t || whole->t[i] >= to)
                continue;
            assert_true(j < parts->n);
            assert_int_equal(parts->t[j], whole->t[i]);
            assert_int_equal(parts->ts_id[j], whole->ts_id[i]);
            assert_int_equal(parts->value[j], whole->value[i]);
            j++;
        }
        assert_int_equal(j, parts->n);
    }
    assert_int_equal(parts->n, whole->n);
    tokio_lmtdb_stamps_free(st);
    tokio_lmtdb_free(lmt);
    free(whole);
    free(parts);
}

static void
test_stamps_blocks_equal_whole_fixture(void **state)
{
    int64_t start = tokio_test_local(2020, 6, 1, 12, 0, 0);
    (void)state;

    for (int64_t step = 5; step <= 45; step += 5)
        assert_blocks_equal_whole(fixture_path, "OST_DATA", start, start + 45,
                                  step);
}

/* The fixture's traps: TS_ID 202 resolves to 12:00:10 (the later row of
 * TIMESTAMP_INFO), 205 lands before 204, 299 never shows up. */
static void
test_stamps_resolve_like_stream(void **state)
{
    struct tokio_lmtdb *lmt = NULL;
    struct tokio_lmtdb_stamps *st = NULL;
    struct seen *s = calloc(1, sizeof(*s));
    int64_t start = tokio_test_local(2020, 6, 1, 12, 0, 0);
    (void)state;

    assert_non_null(s);
    assert_int_equal(tokio_lmtdb_open(&lmt, fixture_path, NULL), 0);
    assert_int_equal(tokio_lmtdb_stamps_read(lmt, start, start + 3600, &st),
                     0);
    /* [12:00:10, 12:00:25): TS_IDs 202, 203 and 205, not 204 */
    assert_int_equal(tokio_lmtdb_stream_stamps(lmt, st, "OST_DATA",
                                               start + 10, start + 25, take,
                                               s), 0);
    assert_int_equal(s->n, 6);
    for (size_t i = 0; i < s->n; i++) {
        assert_true(s->ts_id[i] == 202 || s->ts_id[i] == 203 ||
                    s->ts_id[i] == 205);
        assert_int_equal(s->t[i], start + (s->ts_id[i] == 202 ? 10
                                           : s->ts_id[i] == 203 ? 15 : 20));
        assert_int_equal(s->value[i] / 10, s->ts_id[i]);
    }
    /* nothing at 12:00:40 (202's first timestamp lost) */
    s->n = 0;
    assert_int_equal(tokio_lmtdb_stream_stamps(lmt, st, "OST_DATA",
                                               start + 35, start + 60, take,
                                               s), 0);
    assert_int_equal(s->n, 0);
    /* outside the timestamps read: nothing */
    assert_int_equal(tokio_lmtdb_stream_stamps(lmt, st, "OST_DATA",
                                               start - 60, start, take, s),
                     0);
    assert_int_equal(s->n, 0);
    assert_int_equal(tokio_lmtdb_stream_stamps(lmt, st, "OST_INFO", start,
                                               start + 10, take, s),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "not an LMT table of timed data");
    assert_int_equal(tokio_lmtdb_stream_stamps(lmt, st, NULL, start,
                                               start + 10, take, s),
                     TOKIO_EINVAL);
    tokio_lmtdb_stamps_free(st);
    tokio_lmtdb_stamps_free(NULL);
    /* an empty range: no stamps, no rows */
    assert_int_equal(tokio_lmtdb_stamps_read(lmt, start + 7200,
                                             start + 7300, &st), 0);
    assert_int_equal(tokio_lmtdb_stream_stamps(lmt, st, "OST_DATA",
                                               start + 7200, start + 7300,
                                               take, s), 0);
    assert_int_equal(s->n, 0);
    tokio_lmtdb_stamps_free(st);
    tokio_lmtdb_free(lmt);
    free(s);
}

static void
test_stamps_blocks_equal_whole_sample(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    int64_t start = tokio_test_local(2018, 1, 28, 0, 0, 0);
    (void)state;

    assert_blocks_equal_whole(path, "MDS_OPS_DATA", start, start + 300, 35);
    assert_blocks_equal_whole(path, "OSS_DATA", start, start + 300, 60);
}

static int
oom_trial(void *ctx)
{
    struct tokio_lmtdb *lmt = NULL;
    struct tokio_lmtdb_stamps *st = NULL;
    struct seen *s = ctx;
    int64_t start = tokio_test_local(2020, 6, 1, 12, 0, 0);
    int rc;

    s->n = 0;
    if ((rc = tokio_lmtdb_open(&lmt, fixture_path, NULL)) < 0)
        return rc;
    if ((rc = tokio_lmtdb_stamps_read(lmt, start, start + 60, &st)) >= 0)
        rc = tokio_lmtdb_stream_stamps(lmt, st, "OST_DATA", start,
                                       start + 60, take, s);
    tokio_lmtdb_stamps_free(st);
    tokio_lmtdb_free(lmt);
    return rc;
}

static void
test_stamps_survive_every_oom(void **state)
{
    struct seen *s = calloc(1, sizeof(*s));
    (void)state;

    assert_non_null(s);
    tokio_test_every_oom(oom_trial, s, 1);
    assert_int_equal(s->n, 14);
    free(s);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stamps_blocks_equal_whole_fixture),
        cmocka_unit_test(test_stamps_resolve_like_stream),
        cmocka_unit_test(test_stamps_blocks_equal_whole_sample),
        cmocka_unit_test(test_stamps_survive_every_oom),
    };
    return cmocka_run_group_tests(tests, setup, tokio_test_remove_dir);
}
