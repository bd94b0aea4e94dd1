/*
 * tests/tools/test_archive_lmtdb.c - tokio_archive_lmtdb() in process: the
 * sample archives as the reference's golden (values bit for bit); over a
 * database the test writes itself, with blocks small enough that a range
 * takes several, every row is right across block boundaries and one call
 * equals two calls over parts of the range; bad ranges; out of
 * memory at every allocation leaves no file behind.  The command's own
 * tests are tests/cli/test_archive_lmtdb.c.
 */
#include "testutil.h"
#include "lmt_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "tokio/connectors/lmtdb.h"
#include "tokio/tools/archive_lmtdb.h"
#include "tools/archive_lmtdb_private.h"

#define SAMPLE "pytokio-inputs/snx11025_2018-01-28.sqlite3"
#define GOLDEN "golden/pytokio/archive_lmtdb/snx11025_2018-01-28.hdf5"

#define STEP 5

/*
 * An LMT database of `osts` OSTs (two OSSes, one MDS doing opens and
 * closes) with `stamps` timestamps every STEP seconds from 2020-06-01
 * 00:00:00 local time.  OST i's READ_BYTES at stamp k is (k + 1) * i,
 * so its deltas are all i.  Returns the folder; the file is in `path`.
 */
static char *
fixture(size_t osts, size_t stamps, char *path, size_t size)
{
    char sql[4096];

    snprintf(sql, sizeof(sql),
        "CREATE TABLE OST_INFO (OST_ID, OSS_ID, OST_NAME, HOSTNAME, OFFLINE,"
        " DEVICE_NAME);"
        "CREATE TABLE OSS_INFO (OSS_ID, FILESYSTEM_ID, HOSTNAME,"
        " FAILOVERHOST);"
        "CREATE TABLE MDS_INFO (MDS_ID, FILESYSTEM_ID, MDS_NAME, HOSTNAME,"
        " DEVICE_NAME);"
        "CREATE TABLE OPERATION_INFO (OPERATION_ID, OPERATION_NAME, UNITS);"
        "CREATE TABLE TIMESTAMP_INFO (TS_ID, TIMESTAMP);"
        "CREATE TABLE OST_DATA (OST_ID, TS_ID, READ_BYTES, WRITE_BYTES,"
        " PCT_CPU, KBYTES_FREE, KBYTES_USED, INODES_FREE, INODES_USED);"
        "CREATE TABLE OSS_DATA (OSS_ID, TS_ID, PCT_CPU, PCT_MEMORY);"
        "CREATE TABLE MDS_DATA (MDS_ID, TS_ID, PCT_CPU, KBYTES_FREE,"
        " KBYTES_USED, INODES_FREE, INODES_USED);"
        "CREATE TABLE MDS_OPS_DATA (MDS_ID, TS_ID, OPERATION_ID, SAMPLES,"
        " SUM, SUMSQUARES);"
        "INSERT INTO OSS_INFO VALUES (1, 1, 'oss1', ''), (2, 1, 'oss2', '');"
        "INSERT INTO MDS_INFO VALUES (1, 1, 'fs-MDT0000', 'mds', '');"
        "INSERT INTO OPERATION_INFO VALUES (1, 'open', 'reqs'),"
        " (2, 'close', 'reqs');"
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
        " WHERE i < %zu) INSERT INTO OST_INFO SELECT i, 1 + i %% 2,"
        " printf('fs-OST%%04x', i - 1), 'oss', 0, '' FROM n;"
        "WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k"
        " WHERE k < %zu) INSERT INTO TIMESTAMP_INFO SELECT k + 1,"
        " datetime('2020-06-01 00:00:00', '+' || (k * %d) || ' seconds')"
        " FROM k;"
        "INSERT INTO OST_DATA SELECT OST_ID, TS_ID, TS_ID * OST_ID,"
        " TS_ID * OST_ID * 2, 1.5, 1000000 - TS_ID, 1000 + TS_ID, 500, 7"
        " FROM OST_INFO, TIMESTAMP_INFO;"
        "INSERT INTO OSS_DATA SELECT OSS_ID, TS_ID, OSS_ID + 0.25,"
        " TS_ID %% 100 FROM OSS_INFO, TIMESTAMP_INFO;"
        "INSERT INTO MDS_DATA SELECT 1, TS_ID, 12.5, 1, 2, 3, 4"
        " FROM TIMESTAMP_INFO;"
        "INSERT INTO MDS_OPS_DATA SELECT 1, TS_ID, OPERATION_ID,"
        " TS_ID * OPERATION_ID * 3, 0, 0 FROM OPERATION_INFO, TIMESTAMP_INFO;"
        "CREATE INDEX ost_ts ON OST_DATA(TS_ID);",
        osts, stamps - 1, STEP);
    return tokio_test_sqlite_fixture(sql, "lmt.sqlite3", path, size);
}

/* A fixture of 3 OSTs and 12 timestamps, open in *lmt_out; `out` gets
 * the path of an HDF5 file in its folder, which is returned. */
static char *
small_db(struct tokio_lmtdb **lmt_out, char *out, size_t size)
{
    char db[4200];
    char *dir = fixture(3, 12, db, sizeof(db));

    assert_non_null(dir);
    snprintf(out, size, "%s/a.hdf5", dir);
    assert_int_equal(tokio_lmtdb_open(lmt_out, db, NULL), TOKIO_OK);
    return dir;
}

static int
archive(const char *db, const char *out, int64_t start, int64_t end,
        int64_t init_start, int64_t init_end)
{
    struct tokio_lmtdb *lmt = NULL;
    int rc;

    assert_int_equal(tokio_lmtdb_open(&lmt, db, NULL), TOKIO_OK);
    rc = tokio_archive_lmtdb(lmt, out, &(struct tokio_archive_range){
        .start = start, .end = end, .init_start = init_start,
        .init_end = init_end, .timestep = STEP });
    tokio_lmtdb_free(lmt);
    return rc;
}

/* ---- golden comparisons with the shared data ---- */

static void
test_archive_lmtdb_sample_matches_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(db, SAMPLE);
    char *dir = tokio_test_mkdtemp(), out[4200], golden[4200];
    int64_t start = tokio_test_local(2018, 1, 28, 0, 0, 0);

    (void)state;
    snprintf(golden, sizeof(golden), "%s", tokio_test_data(GOLDEN));
    snprintf(out, sizeof(out), "%s/a.hdf5", dir);
    assert_int_equal(archive(db, out, start, start + 300, start,
                             start + 300), TOKIO_OK);
    lmt_assert_same_tts(out, golden);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- blocks ---- */

/*
 * Fail unless every cell of `dataset` in `file` is
 * per_col * i + per_row * r + base, for row r and the column named
 * printf(fmt, i - 1), i = 1 .. cols.
 */
static void
assert_cells(const char *file, const char *dataset, const char *fmt,
             size_t cols, size_t rows, double per_col, double per_row,
             double base)
{
    struct tokio_hdf5 *h = NULL;
    struct tokio_timeseries *ts = NULL;

    assert_int_equal(tokio_hdf5_open(&h, file, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_to_timeseries(h, dataset, &ts), TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts), rows);
    assert_int_equal(tokio_timeseries_cols(ts), cols);
    for (size_t i = 1; i <= cols; i++) {
        const double *cell = tokio_timeseries_cdata(ts);
        char name[32];
        long c;

        snprintf(name, sizeof(name), fmt, i - 1);
        c = tokio_timeseries_column_index(ts, name);
        assert_true(c >= 0);
        for (size_t r = 0; r < rows; r++) {
            double want = per_col * (double)i + per_row * (double)r + base;

            if (cell[r * cols + (size_t)c] != want)
                fail_msg("%s %s row %zu: %g, want %g", dataset, name, r,
                         cell[r * cols + (size_t)c], want);
        }
    }
    tokio_timeseries_free(ts);
    tokio_hdf5_free(h);
}

/* The fixture's values in every row of `file` (`osts` OSTs, `rows`
 * rows): the counters' deltas (OST i reads i and writes 2 i bytes a
 * timestep, the MDS opens 3 and closes 6) and a gauge (fullness/bytes,
 * 1000 + TS_ID, TS_ID = row + 1). */
static void
assert_fixture_rows(const char *file, size_t osts, size_t rows)
{
    assert_cells(file, "/datatargets/readbytes", "fs-OST%04zx", osts, rows,
                 1, 0, 0);
    assert_cells(file, "/datatargets/writebytes", "fs-OST%04zx", osts, rows,
                 2, 0, 0);
    assert_cells(file, "/fullness/bytes", "fs-OST%04zx", osts, rows,
                 0, 1, 1001);
    assert_cells(file, "/mdtargets/opens", "mds", 1, rows, 0, 0, 3);
    assert_cells(file, "/mdtargets/closes", "mds", 1, rows, 0, 0, 6);
}

/*
 * Rows that take several blocks (src/tools/archive_lmtdb.c): the deltas
 * of the row before each block boundary need the row after it, and each
 * row's values must land in its own row of the file.  The blocks are made
 * small (tokio__archive_lmtdb_block_bytes) rather than the data large:
 * 128 OSTs make rows of 6272 bytes over all datasets, and 48 rows give the
 * OST datasets HDF5 chunks of 12 rows, so
 *   - 96 KiB blocks are one chunk, 12 rows: 4 blocks, and a range split
 *     at row 17 starts its second call with a short block up to row 24,
 *     where the chunks begin;
 *   - 32 KiB blocks cannot hold a chunk: blocks of 5 rows, 10 of them,
 *     whatever the chunks.
 * Each file's values are checked against the fixture's, and all three
 * must be the same bit for bit.
 */
static void
test_archive_lmtdb_blocks_carry_counters(void **state)
{
    const size_t osts = 128, rows = 48;
    char db[4200], one[4200], two[4200], small[4200];
    char *dir = fixture(osts, rows + 1, db, sizeof(db));
    int64_t t0 = tokio_test_local(2020, 6, 1, 0, 0, 0);
    int64_t t1 = t0 + (int64_t)rows * STEP, mid = t0 + 17 * STEP;

    (void)state;
    assert_non_null(dir);
    snprintf(one, sizeof(one), "%s/one.hdf5", dir);
    snprintf(two, sizeof(two), "%s/two.hdf5", dir);
    snprintf(small, sizeof(small), "%s/small.hdf5", dir);

    tokio__archive_lmtdb_block_bytes(96 << 10);
    assert_int_equal(archive(db, one, t0, t1, t0, t1), TOKIO_OK);
    assert_fixture_rows(one, osts, rows);
    /* the same range in two calls, split where no block ends */
    assert_int_equal(archive(db, two, t0, mid, t0, t1), TOKIO_OK);
    assert_int_equal(archive(db, two, mid, t1, t0, t1), TOKIO_OK);
    lmt_assert_same_tts(two, one);

    tokio__archive_lmtdb_block_bytes(32 << 10);
    assert_int_equal(archive(db, small, t0, t1, t0, t1), TOKIO_OK);
    assert_fixture_rows(small, osts, rows);
    lmt_assert_same_tts(small, one);
    tokio_test_rmtree(dir);
    free(dir);
}

/* every test starts with the 8 MiB blocks */
static int
default_blocks(void **state)
{
    (void)state;
    tokio__archive_lmtdb_block_bytes(0);
    return 0;
}

/* ---- malformed input ---- */

static void
test_archive_lmtdb_bad_range_is_einval(void **state)
{
    char out[4200];
    struct tokio_lmtdb *lmt = NULL;
    char *dir = small_db(&lmt, out, sizeof(out));
    int64_t t0 = tokio_test_local(2020, 6, 1, 0, 0, 0);
    struct tokio_archive_range r = {
        .start = t0, .end = t0, .init_start = t0, .init_end = t0 + 10,
        .timestep = STEP
    };

    (void)state;
    assert_int_equal(tokio_archive_lmtdb(lmt, out, &r), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "must end after it starts");
    r.end = t0 + 10;
    r.timestep = 0;
    assert_int_equal(tokio_archive_lmtdb(lmt, out, &r), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "timestep 0");
    assert_int_equal(tokio_archive_lmtdb(lmt, NULL, &r), TOKIO_EINVAL);
    assert_int_equal(tokio_archive_lmtdb(NULL, out, &r), TOKIO_EINVAL);
    assert_int_equal(access(out, F_OK), -1);
    tokio_lmtdb_free(lmt);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- anomalies ---- */

static void
test_archive_lmtdb_survives_every_oom(void **state)
{
    char out[4200];
    struct tokio_lmtdb *lmt = NULL;
    char *dir = small_db(&lmt, out, sizeof(out));
    int64_t t0 = tokio_test_local(2020, 6, 1, 0, 0, 0);
    const struct tokio_archive_range r = {
        .start = t0, .end = t0 + 50, .init_start = t0, .init_end = t0 + 50,
        .timestep = STEP
    };

    (void)state;
    for (size_t n = 1;; n += tokio_test_oom_step()) {
        int rc;

        tokio_test_fail_alloc_at(n);
        rc = tokio_archive_lmtdb(lmt, out, &r);
        tokio_test_fail_alloc_at(0);
        if (rc == TOKIO_OK)
            break;
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_contains(tokio_errmsg(), "out of memory");
        assert_int_equal(access(out, F_OK), -1);    /* all or nothing */
        assert_true(n < 5000);
    }
    assert_int_equal(access(out, F_OK), 0);
    tokio_lmtdb_free(lmt);
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_archive_lmtdb_sample_matches_golden),
        cmocka_unit_test_teardown(test_archive_lmtdb_blocks_carry_counters,
                                  default_blocks),
        cmocka_unit_test(test_archive_lmtdb_bad_range_is_einval),
        cmocka_unit_test(test_archive_lmtdb_survives_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
