/*
 * tests/tools/test_hdf5_summary.c - src/tools/hdf5_summary.c: the numbers
 * of the reference's summarize_tts and summarize_h5lmt, to the last bit
 * (numpy's summation order), on the pack's TTS and H5LMT files; then bad
 * arguments.  The commands' goldens are in tests/cli/test_summarize_*.c.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/connectors/hdf5.h"
#include "tokio/common.h"
#include "tokio/tools/hdf5_summary.h"

#define INPUTS "pytokio-inputs/"

static double
real_at(const json_t *obj, const char *a, const char *b)
{
    const json_t *v = json_object_get(json_object_get(obj, a), b);

    assert_true(json_is_real(v));
    return json_real_value(v);
}

static void
test_hdf5_summary_tts_totals(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, INPUTS "snx11025_2018-01-28.hdf5");
    struct tokio_hdf5 *h = NULL;
    json_t *s = NULL;

    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_summary_tts(h, TOKIO_HDF5_SUMMARY_COLUMNS,
                                            &s), TOKIO_OK);
    assert_true(real_at(s, "total", "read_bytes") == 6347173888.0);
    assert_true(real_at(s, "total", "write_bytes") == 119037925429.0);
    assert_int_equal(json_integer_value(json_object_get(
        json_object_get(s, "total"), "total_pts")), 1440);
    assert_null(json_object_get(s, "timesteps"));
    assert_true(real_at(json_object_get(s, "columns"), "snx11025-OST0001",
                        "read_bytes") == 8192.0);
    json_decref(s);
    tokio_hdf5_free(h);
}

/* non-integer rates * 10 s: only numpy's pairwise order gives these */
static void
test_hdf5_summary_tts_sums_in_numpy_order(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, INPUTS "sample_tokiots.hdf5");
    TOKIO_TEST_NEED_DATA(golden, "golden/pytokio/summarize_tts/"
                         "sample_tokiots.hdf5.default.json");
    struct tokio_hdf5 *h = NULL;
    json_t *s = NULL, *want = json_load_file(golden, 0, NULL);

    assert_non_null(want);
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_summary_tts(h, 0, &s), TOKIO_OK);
    assert_true(json_equal(s, want));
    json_decref(want);
    json_decref(s);
    tokio_hdf5_free(h);
}

/* H5LMT is column x time: numpy summed the transposed slices column by
 * column, which the last digits show */
static void
test_hdf5_summary_h5lmt_bins_in_numpy_order(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, INPUTS "snx11025_2018-01-28.h5lmt");
    struct tokio_hdf5 *h = NULL;
    json_t *bins = NULL, *warnings = NULL, *totals = NULL;

    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_summary_bins(h, 24, &bins, &warnings),
                     TOKIO_OK);
    assert_int_equal(json_object_size(bins), 24);
    assert_int_equal(json_array_size(warnings), 1);
    assert_string_equal(json_string_value(json_array_get(warnings, 0)),
                        "Bin count 24 does not evenly divide into "
                        "FSStepsDataSet size 60");
    assert_true(real_at(bins, "1517126400", "sum_oss_cpu")
                == 85.04973799999999);
    assert_true(real_at(bins, "1517126400", "ave_oss_cpu")
                == 1.7718695416666665);
    assert_int_equal(tokio_hdf5_summary_reduce(bins, &totals), TOKIO_OK);
    assert_true(json_real_value(json_object_get(totals, "sum_bytes_read"))
                == 5024509952.0);
    assert_int_equal(json_integer_value(json_object_get(totals, "n")), 48);
    json_decref(totals);
    json_decref(warnings);
    json_decref(bins);
    tokio_hdf5_free(h);
}

static void
test_hdf5_summary_bad_bin_counts_einval(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, INPUTS "snx11025_2018-01-28.hdf5");
    struct tokio_hdf5 *h = NULL;
    json_t *bins = NULL;

    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_summary_bins(h, 0, &bins, NULL),
                     TOKIO_EINVAL);
    assert_null(bins);
    assert_int_equal(tokio_hdf5_summary_bins(h, 61, &bins, NULL),
                     TOKIO_EINVAL);
    assert_null(bins);
    assert_non_null(strstr(tokio_errmsg(), "61 bins"));
    tokio_hdf5_free(h);
}

static void
test_hdf5_summary_reduce_without_bins_einval(void **state)
{
    (void)state;
    json_t *empty = json_object(), *bad = json_pack("{s:{s:i}}", "1",
                                                    "index0", 0);
    json_t *out = NULL;

    assert_int_equal(tokio_hdf5_summary_reduce(empty, &out), TOKIO_EINVAL);
    assert_int_equal(tokio_hdf5_summary_reduce(bad, &out), TOKIO_EINVAL);
    assert_null(out);
    assert_int_equal(tokio_hdf5_summary_tts_print(stdout, empty),
                     TOKIO_EINVAL);
    json_decref(empty);
    json_decref(bad);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hdf5_summary_tts_totals),
        cmocka_unit_test(test_hdf5_summary_tts_sums_in_numpy_order),
        cmocka_unit_test(test_hdf5_summary_h5lmt_bins_in_numpy_order),
        cmocka_unit_test(test_hdf5_summary_bad_bin_counts_einval),
        cmocka_unit_test(test_hdf5_summary_reduce_without_bins_einval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
