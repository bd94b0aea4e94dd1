/*
 * tests/connectors/test_hdf5_writer_rows.c - commits written block by
 * block (tokio_hdf5_update_commit_begin / tokio_hdf5_rows_*): a series
 * written in blocks of any size, aligned with the chunks or not, reads
 * back bit for bit as the same series committed whole, with the same
 * dataset layout; into an existing dataset at an offset; rows out of
 * range refused; init_dataset's direct chunk writes equal an all -0.0
 * commit, edge chunks included; every allocation failure is clean.
 */
#include "tokio/connectors/hdf5.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "testutil.h"

#define T0 1517126400       /* 2018-01-28 00:00:00 -08:00 */

/* `rows` x `cols` of "g/d", cells telling -0.0, 0.0 and values apart. */
static struct tokio_timeseries *
series(int64_t start, size_t rows, size_t cols)
{
    struct tokio_timeseries *ts = NULL;
    char **names = calloc(cols, sizeof(*names));
    double *d;

    assert_non_null(names);
    for (size_t c = 0; c < cols; c++) {
        names[c] = malloc(16);
        snprintf(names[c], 16, "OST%zu", cols - c);  /* unsorted */
    }
    assert_int_equal(tokio_timeseries_new(&ts, "g/d", start,
                                          start + 5 * (int64_t)rows, 5, cols,
                                          (const char *const *)names, cols),
                     TOKIO_OK);
    d = tokio_timeseries_data(ts);
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            d[r * cols + c] = (r + c) % 7 == 0 ? -0.0
                              : (r + c) % 5 == 0 ? 0.0
                              : (double)(r * 1000 + c) / 3;
    json_object_set_new(tokio_timeseries_dataset_metadata(ts), "units",
                        json_string("bytes"));
    json_object_set_new(tokio_timeseries_group_metadata(ts), "source",
                        json_string("lmt"));
    for (size_t c = 0; c < cols; c++)
        free(names[c]);
    free(names);
    return ts;
}

/* Same shape, timestamps, names and bit-identical cells. */
static void
assert_same(const struct tokio_timeseries *a, const struct tokio_timeseries *b)
{
    size_t rows = tokio_timeseries_rows(a), cols = tokio_timeseries_cols(a);

    assert_int_equal(rows, tokio_timeseries_rows(b));
    assert_int_equal(cols, tokio_timeseries_cols(b));
    assert_memory_equal(tokio_timeseries_timestamps(a),
                        tokio_timeseries_timestamps(b),
                        rows * sizeof(int64_t));
    assert_int_equal(tokio_timeseries_n_names(a), tokio_timeseries_n_names(b));
    for (size_t c = 0; c < tokio_timeseries_n_names(a); c++)
        assert_string_equal(tokio_timeseries_column(a, c),
                            tokio_timeseries_column(b, c));
    assert_memory_equal(tokio_timeseries_cdata(a), tokio_timeseries_cdata(b),
                        rows * cols * sizeof(double));
}

/* The dataset's chunk shape and stored (compressed) size. */
static void
layout(const char *path, const char *name, hsize_t chunk[2], hsize_t *size)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT), p = H5Dget_create_plist(d);

    assert_true(f >= 0 && d >= 0 && p >= 0);
    assert_int_equal(H5Pget_chunk(p, 2, chunk), 2);
    *size = H5Dget_storage_size(d);
    H5Pclose(p);
    H5Dclose(d);
    H5Fclose(f);
}

/* Write `ts` into `path` in blocks of `block` rows (0: chunk-aligned). */
static void
write_blocks(const char *path, struct tokio_timeseries *ts, size_t block)
{
    struct tokio_hdf5_update *u = NULL;
    struct tokio_hdf5_rows *w = NULL;
    size_t rows = tokio_timeseries_rows(ts), cols = tokio_timeseries_cols(ts);
    size_t first, chunk;

    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_set_version(u, "1"), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_commit_begin(
                         u, ts, tokio_timeseries_timestamps(ts)[0], rows, &w),
                     TOKIO_OK);
    chunk = tokio_hdf5_rows_chunk(w, &first);
    assert_true(chunk > 0);
    assert_true(first < chunk);
    if (block == 0)
        block = chunk;
    /* the columns may have been reordered: cdata follows them */
    for (size_t r = 0; r < rows;) {
        size_t n = r < first ? first - r : block;

        if (n > rows - r)
            n = rows - r;
        assert_int_equal(tokio_hdf5_rows_write(
                             w, r, tokio_timeseries_cdata(ts) + r * cols, n),
                         TOKIO_OK);
        r += n;
    }
    assert_int_equal(tokio_hdf5_rows_end(w), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
}

static void
test_rows_in_blocks_equal_a_whole_commit(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char *whole = tokio_test_join(dir, "whole.hdf5");
    char *parts = tokio_test_join(dir, "parts.hdf5");
    static const size_t blocks[] = { 0, 1, 7, 64, 1000 };
    (void)state;

    for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
        struct tokio_timeseries *a = series(T0, 777, 37);
        struct tokio_timeseries *b = series(T0, 777, 37);
        hsize_t ca[2], cb[2], sa, sb;

        unlink(whole);
        unlink(parts);
        tokio_test_tts_write(whole, a);
        write_blocks(parts, b, blocks[i]);
        struct tokio_timeseries *x = tokio_test_tts_read(whole, "g/d");
        struct tokio_timeseries *y = tokio_test_tts_read(parts, "g/d");
        assert_same(x, y);
        assert_same(x, a);      /* columns sorted by commit */
        layout(whole, "/g/d", ca, &sa);
        layout(parts, "/g/d", cb, &sb);
        assert_memory_equal(ca, cb, sizeof(ca));
        assert_int_equal(sa, sb);   /* the same compressed chunks */
        tokio_timeseries_free(x);
        tokio_timeseries_free(y);
        tokio_timeseries_free(a);
        tokio_timeseries_free(b);
    }
    free(whole);
    free(parts);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Into an existing dataset, rows 13.. of it, in blocks: as a commit. */
static void
test_rows_update_part_of_a_dataset(void **state)
{
    char *dir = tokio_test_mkdtemp(), *a = tokio_test_join(dir, "a.hdf5");
    char *b = tokio_test_join(dir, "b.hdf5");
    struct tokio_timeseries *full = series(T0, 300, 9);
    struct tokio_timeseries *part = series(T0 + 13 * 5, 100, 9);
    struct tokio_timeseries *part2 = series(T0 + 13 * 5, 100, 9);
    (void)state;

    tokio_test_tts_write(a, full);
    tokio_test_tts_write(b, full);
    tokio_test_tts_write(a, part);
    write_blocks(b, part2, 11);
    struct tokio_timeseries *x = tokio_test_tts_read(a, "g/d");
    struct tokio_timeseries *y = tokio_test_tts_read(b, "g/d");
    assert_same(x, y);
    /* row 13 is the part's row 0 */
    assert_memory_equal(tokio_timeseries_cdata(x) + 13 * 9,
                        tokio_timeseries_cdata(part), 9 * sizeof(double));
    tokio_timeseries_free(x);
    tokio_timeseries_free(y);
    tokio_timeseries_free(full);
    tokio_timeseries_free(part);
    tokio_timeseries_free(part2);
    free(a);
    free(b);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Rows past the series, a bad template, and a range outside the file. */
static void
test_rows_refused(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "a.hdf5");
    struct tokio_timeseries *ts = series(T0, 10, 2);
    struct tokio_hdf5_update *u = NULL;
    struct tokio_hdf5_rows *w = NULL;
    double cells[40] = { 0 };
    (void)state;

    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_set_version(u, "1"), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_commit_begin(u, ts, T0, 0, &w),
                     TOKIO_EINVAL);
    assert_null(w);
    assert_int_equal(tokio_hdf5_update_commit_begin(u, ts, T0, 10, &w),
                     TOKIO_OK);
    assert_int_equal(tokio_hdf5_rows_write(w, 8, cells, 3), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "a.hdf5");
    assert_int_equal(tokio_hdf5_rows_write(w, 11, cells, 0), TOKIO_EINVAL);
    assert_int_equal(tokio_hdf5_rows_write(w, 10, cells, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_rows_end(w), TOKIO_OK);
    assert_int_equal(tokio_hdf5_rows_end(NULL), TOKIO_OK);
    /* 20 rows do not fit the 10 the dataset now has */
    assert_int_equal(tokio_hdf5_update_commit_begin(u, ts, T0, 20, &w),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "not a subset");
    assert_null(w);
    tokio_hdf5_update_abort(u);
    tokio_timeseries_free(ts);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

/*
 * init_dataset() writes its chunks directly: the result must be what
 * committing an all -0.0 series gives, edge chunks (whose cells beyond
 * the extent hold 0.0) byte for byte the same size.
 */
static void
test_init_dataset_equals_a_missing_commit(void **state)
{
    static const size_t shapes[][2] = { { 1543, 24 }, { 17280, 5 },
                                        { 7, 3 }, { 1, 1 }, { 4000, 1000 } };
    char *dir = tokio_test_mkdtemp(), *a = tokio_test_join(dir, "a.hdf5");
    char *b = tokio_test_join(dir, "b.hdf5");
    (void)state;

    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        size_t rows = shapes[i][0], cols = shapes[i][1];
        struct tokio_timeseries *ts = NULL;
        struct tokio_hdf5_update *u = NULL;
        hsize_t ca[2], cb[2], sa, sb;

        unlink(a);
        unlink(b);
        assert_int_equal(tokio_timeseries_new(&ts, "g/d", T0,
                                              T0 + 5 * (int64_t)rows, 5, cols,
                                              NULL, 0), TOKIO_OK);
        tokio_test_tts_write(a, ts);
        assert_int_equal(tokio_hdf5_update_begin(&u, b), TOKIO_OK);
        assert_int_equal(tokio_hdf5_update_set_version(u, "1"), TOKIO_OK);
        assert_int_equal(tokio_hdf5_update_init_dataset(
                             u, "g/d", T0, T0 + 5 * (int64_t)rows, 5, cols),
                         TOKIO_OK);
        assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
        struct tokio_timeseries *x = tokio_test_tts_read(a, "g/d");
        struct tokio_timeseries *y = tokio_test_tts_read(b, "g/d");
        assert_same(x, y);
        for (size_t k = 0; k < rows * cols; k++)
            assert_true(tokio_timeseries_is_missing(
                tokio_timeseries_cdata(y)[k]));
        layout(a, "/g/d", ca, &sa);
        layout(b, "/g/d", cb, &sb);
        assert_memory_equal(ca, cb, sizeof(ca));
        assert_int_equal(sa, sb);
        tokio_timeseries_free(x);
        tokio_timeseries_free(y);
        tokio_timeseries_free(ts);
    }
    free(a);
    free(b);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- out of memory ---------------------------------------------------- */

static int
oom_trial(void *p)
{
    const char *path = p;
    struct tokio_hdf5_update *u = NULL;
    struct tokio_hdf5_rows *w = NULL;
    struct tokio_timeseries *ts = NULL;
    const char *names[] = { "b", "a" };
    double cells[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    int rc;

    if ((rc = tokio_timeseries_new(&ts, "x/y", T0, T0 + 20, 5, 2, names,
                                   2)) < 0)
        return rc;
    unlink(path);
    if ((rc = tokio_hdf5_update_begin(&u, path)) >= 0) {
        rc = tokio_hdf5_update_init_dataset(u, "x/y", T0, T0 + 20, 5, 2);
        if (rc >= 0)
            rc = tokio_hdf5_update_commit_begin(u, ts, T0, 4, &w);
        if (rc >= 0)
            rc = tokio_hdf5_rows_write(w, 0, cells, 1);
        if (rc >= 0)
            rc = tokio_hdf5_rows_write(w, 1, cells + 2, 3);
        if (tokio_hdf5_rows_end(w) < 0 && rc >= 0)
            rc = TOKIO_EIO;
        if (rc >= 0)
            rc = tokio_hdf5_update_finish(u);
        else
            tokio_hdf5_update_abort(u);
    }
    tokio_timeseries_free(ts);
    return rc;
}

static void
test_rows_survive_every_oom(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "oom.hdf5");
    (void)state;

    tokio_test_every_oom(oom_trial, path, 1);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_in_blocks_equal_a_whole_commit),
        cmocka_unit_test(test_rows_update_part_of_a_dataset),
        cmocka_unit_test(test_rows_refused),
        cmocka_unit_test(test_init_dataset_equals_a_missing_commit),
        cmocka_unit_test(test_rows_survive_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
