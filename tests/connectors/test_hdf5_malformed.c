/*
 * tests/connectors/test_hdf5_malformed.c - the HDF5 reader on broken
 * files this test makes: not HDF5, a good file cut short, and version-1
 * files whose datasets have the wrong shape or type, no timestamps, or
 * column names that are numbers.  Each is an error naming the file,
 * never a crash; the in-memory image reader (the fuzz target's way in)
 * agrees.
 */
#include "tokio/connectors/hdf5.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "connectors/hdf5_private.h"
#include "testutil.h"

enum bad {
    THREE_D, NO_TIMESTAMPS, INT_COLUMNS, STRING_DATA, SHORT_STAMPS,
    HUGE_EMPTY      /* claims 8 GiB, stores nothing */
};

/* A version-1 file whose datatargets/readrates is broken as `how` says. */
static void
make_bad(const char *path, enum bad how)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g, s, d, a, str = H5Tcopy(H5T_C_S1);
    hsize_t dims3[3] = { 2, 2, 2 }, dims2[2] = { 2, 2 };
    hsize_t n_stamps = how == SHORT_STAMPS ? 1 : 2, two = 2;
    int64_t t[2] = { 0, 5 }, cols[2] = { 1, 2 };
    double v[8] = { 0 };

    assert_true(f >= 0);
    H5Tset_size(str, 1);
    s = H5Screate(H5S_SCALAR);
    a = H5Acreate2(f, "version", str, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, str, "1");
    H5Aclose(a);
    H5Sclose(s);
    g = H5Gcreate2(f, "datatargets", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (how != NO_TIMESTAMPS) {
        s = H5Screate_simple(1, &n_stamps, NULL);
        d = H5Dcreate2(g, "timestamps", H5T_STD_I64LE, s, H5P_DEFAULT,
                       H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, t);
        H5Dclose(d);
        H5Sclose(s);
    }
    if (how == HUGE_EMPTY) {
        hsize_t huge[2] = { (hsize_t)1 << 20, 1024 }, chunk[2] = { 1024, 64 };
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(dcpl, 2, chunk);
        s = H5Screate_simple(2, huge, NULL);
        d = H5Dcreate2(g, "readrates", H5T_IEEE_F64LE, s, H5P_DEFAULT, dcpl,
                       H5P_DEFAULT);
        H5Pclose(dcpl);
        H5Sclose(s);
        H5Dclose(d);
        H5Gclose(g);
        H5Tclose(str);
        H5Fclose(f);
        return;
    }
    s = how == THREE_D ? H5Screate_simple(3, dims3, NULL)
                       : H5Screate_simple(2, dims2, NULL);
    d = H5Dcreate2(g, "readrates", how == STRING_DATA ? str : H5T_IEEE_F64LE,
                   s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (how != STRING_DATA)
        H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Sclose(s);
    if (how == INT_COLUMNS) {
        s = H5Screate_simple(1, &two, NULL);
        a = H5Acreate2(d, "columns", H5T_STD_I64LE, s, H5P_DEFAULT,
                       H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_INT64, cols);
        H5Aclose(a);
        H5Sclose(s);
    }
    H5Dclose(d);
    H5Gclose(g);
    H5Tclose(str);
    H5Fclose(f);
}

/* to_timeseries and write_csv of datatargets/readrates fail naming `path`. */
static void
expect_bad(const char *path, int status, const char *needle)
{
    struct tokio_hdf5 *h = NULL;
    struct tokio_timeseries *ts = NULL;
    FILE *sink = fopen("/dev/null", "w");
    char *data;
    size_t len;

    assert_non_null(sink);
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_to_timeseries(h, "datatargets/readrates",
                                              &ts), status);
    assert_null(ts);
    assert_contains(tokio_errmsg(), path);
    if (needle)
        assert_contains(tokio_errmsg(), needle);
    assert_int_equal(tokio_hdf5_write_csv(h, "datatargets/readrates", sink),
                     status);
    tokio_hdf5_free(h);
    fclose(sink);
    /* the same bytes as an image */
    data = tokio_test_read_file(path, &len);
    assert_int_equal(tokio__hdf5_open_image(&h, data, len, "image.hdf5"),
                     TOKIO_OK);
    assert_int_equal(tokio_hdf5_to_timeseries(h, "datatargets/readrates",
                                              &ts), status);
    assert_contains(tokio_errmsg(), "image.hdf5");
    tokio_hdf5_free(h);
    free(data);
}

static void
test_hdf5_malformed_datasets_are_eformat(void **state)
{
    static const struct {
        const char *name; enum bad how; int status; const char *says;
    } cases[] = {
        { "three-d", THREE_D, TOKIO_EFORMAT, "3 dimensions" },
        { "no-timestamps", NO_TIMESTAMPS, TOKIO_ENOTFOUND, "timestamp" },
        { "int-columns", INT_COLUMNS, TOKIO_EFORMAT, "columns" },
        { "string-data", STRING_DATA, TOKIO_EFORMAT, "not numeric" },
        { "huge-empty", HUGE_EMPTY, TOKIO_EFORMAT, "holds almost no data" },
        { "short-stamps", SHORT_STAMPS, TOKIO_EFORMAT, "timestamps" },
    };
    char *dir = tokio_test_mkdtemp(), path[600];
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s.hdf5", dir, cases[i].name);
        make_bad(path, cases[i].how);
        expect_bad(path, cases[i].status, cases[i].says);
    }
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_hdf5_malformed_files_do_not_open(void **state)
{
    char *dir = tokio_test_mkdtemp(), path[600], cut[600], *data;
    struct tokio_hdf5 *h = NULL;
    size_t len;
    (void)state;

    snprintf(path, sizeof(path), "%s/text.hdf5", dir);
    tokio_test_write_file(path, "not hdf5\n", 9);
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), path);
    assert_int_equal(tokio__hdf5_open_image(&h, "not hdf5\n", 9, "img"),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "img");
    assert_null(h);

    /* a good file, cut: at the superblock, and halfway */
    snprintf(path, sizeof(path), "%s/good.hdf5", dir);
    make_bad(path, INT_COLUMNS);
    data = tokio_test_read_file(path, &len);
    snprintf(cut, sizeof(cut), "%s/cut.hdf5", dir);
    tokio_test_write_file(cut, data, 64);
    assert_int_equal(tokio_hdf5_open(&h, cut, 0), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), cut);
    tokio_test_write_file(cut, data, len / 2);
    if (tokio_hdf5_open(&h, cut, 0) == TOKIO_OK) {
        struct tokio_timeseries *ts = NULL;
        /* the superblock survived; the data did not */
        assert_true(tokio_hdf5_to_timeseries(h, "datatargets/readrates", &ts)
                    < 0);
        assert_contains(tokio_errmsg(), cut);
        tokio_hdf5_free(h);
    } else {
        assert_contains(tokio_errmsg(), cut);
    }
    free(data);
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hdf5_malformed_datasets_are_eformat),
        cmocka_unit_test(test_hdf5_malformed_files_do_not_open),
    };
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
