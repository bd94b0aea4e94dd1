/*
 * tests/connectors/test_hdf5.c - the HDF5 connector against the
 * reference's to_dataframe().to_csv() goldens (compared byte for byte:
 * floats go through tokio_format_double(), which is Python's repr) and
 * get_version() golden, then the reference's test_connectors_hdf5.py
 * cases, then malformed input.
 */
#include "tokio/connectors/hdf5.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "testutil.h"

#define INPUTS  "pytokio-inputs/"
#define GOLDEN  "golden/pytokio/hdf5/"

/* Every golden: input file, dataset. */
static const char *const goldens[][2] = {
    { "snx11025_2018-01-28.hdf5", "datatargets/readbytes" },
    { "snx11025_2018-01-28.hdf5", "datatargets/writebytes" },
    { "snx11025_2018-01-28.hdf5", "datatargets/readrates" },
    { "snx11025_2018-01-28.hdf5", "datatargets/writerates" },
    { "snx11025_2018-01-28.hdf5", "dataservers/cpuload" },
    { "snx11025_2018-01-28.hdf5", "dataservers/memused" },
    { "snx11025_2018-01-28.hdf5", "mdservers/cpuload" },
    { "snx11025_2018-01-28.hdf5", "mdtargets/opens" },
    { "snx11025_2018-01-28.hdf5", "mdtargets/openrates" },
    { "snx11025_2018-01-28.hdf5", "mdtargets/closes" },
    { "snx11025_2018-01-28.hdf5", "fullness/bytes" },
    { "snx11025_2018-01-28.hdf5", "fullness/bytestotal" },
    { "snx11025_2018-01-28.h5lmt", "datatargets/readbytes" },
    { "snx11025_2018-01-28.h5lmt", "datatargets/writebytes" },
    { "snx11025_2018-01-28.h5lmt", "datatargets/readrates" },
    { "snx11025_2018-01-28.h5lmt", "datatargets/writerates" },
    { "snx11025_2018-01-28.h5lmt", "dataservers/cpuload" },
    { "snx11025_2018-01-28.h5lmt", "mdservers/cpuload" },
    { "snx11025_2018-01-28.h5lmt", "mdtargets/opens" },
    { "snx11025_2018-01-28.h5lmt", "mdtargets/openrates" },
    { "snx11025_2018-01-28.h5lmt", "mdtargets/closes" },
    { "sample_tokiots.hdf5", "datatargets/readrates" },
    { "sample_tokiots.hdf5", "datatargets/writerates" },
    { "sample_tokiots.hdf5", "datatargets/readbytes" },
    { "sample_tokiots.hdf5", "datatargets/writebytes" },
};

static struct tokio_hdf5 *
open_input(const char *file, unsigned flags)
{
    char rel[256];
    struct tokio_hdf5 *h = NULL;

    snprintf(rel, sizeof(rel), INPUTS "%s", file);
    assert_int_equal(tokio_hdf5_open(&h, tokio_test_data(rel), flags),
                     TOKIO_OK);
    return h;
}

static char *
csv_of(struct tokio_hdf5 *h, const char *dataset, int *rc_out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    *rc_out = tokio_hdf5_write_csv(h, dataset, fp);
    fclose(fp);
    return buf;
}

static void
test_hdf5_to_csv_matches_every_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(dir, GOLDEN);
    (void)state;
    (void)dir;
    for (size_t i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
        char rel[256], *want, *got;
        struct tokio_hdf5 *h = open_input(goldens[i][0], 0);
        int rc;

        snprintf(rel, sizeof(rel), GOLDEN "%s.%s.csv", goldens[i][0],
                 goldens[i][1]);
        /* dataset "a/b" is "a.b" in the golden's name */
        for (char *p = rel + strlen(GOLDEN); *p; p++)
            if (*p == '/')
                *p = '.';
        want = tokio_test_read_file(tokio_test_data(rel), NULL);
        assert_non_null(want);
        got = csv_of(h, goldens[i][1], &rc);
        if (rc != TOKIO_OK)
            fail_msg("%s: %s", rel, tokio_errmsg());
        if (strcmp(got, want) != 0)
            fail_msg("%s differs from the golden", rel);
        free(want);
        free(got);
        tokio_hdf5_free(h);
    }
}

/* test_get_versions (ignore_version=True) */
static void
test_hdf5_get_version_matches_golden(void **state)
{
    static const char *const names[] = { "/", "/a/", "/a/b", "/a/c", "/a/d" };
    TOKIO_TEST_NEED_DATA(golden, GOLDEN "versions_test.hdf5.get_version.json");
    json_t *want = json_load_file(golden, 0, NULL);
    struct tokio_hdf5 *h = NULL;

    (void)state;
    assert_non_null(want);
    /* without ignore_version the unknown schema "global" is refused */
    assert_int_equal(tokio_hdf5_open(&h, tokio_test_data(INPUTS
                                     "versions_test.hdf5"), 0),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "unknown schema version 'global'");
    h = open_input("versions_test.hdf5", TOKIO_HDF5_IGNORE_VERSION);
    for (size_t i = 0; i < 5; i++) {
        char *v = NULL;
        assert_int_equal(tokio_hdf5_get_version(h, names[i], &v), TOKIO_OK);
        assert_non_null(v);
        assert_string_equal(v, json_string_value(json_object_get(want,
                                                                 names[i])));
        free(v);
    }
    json_decref(want);
    tokio_hdf5_free(h);
}

/* _test_mapped_dataset: rates * timestep == counts, both schemas */
static void
test_hdf5_rates_times_timestep_are_counts(void **state)
{
    static const char *const files[] = {
        "snx11025_2018-01-28.hdf5", "snx11025_2018-01-28.h5lmt"
    };
    static const char *const pairs[][2] = {
        { "datatargets/readrates", "datatargets/readbytes" },
        { "mdtargets/openrates", "mdtargets/opens" },
    };
    TOKIO_TEST_NEED_DATA(dir, INPUTS);
    (void)state;
    (void)dir;
    for (size_t f = 0; f < 2; f++) {
        struct tokio_hdf5 *h = open_input(files[f], 0);
        for (size_t p = 0; p < 2; p++) {
            struct tokio_timeseries *rates, *tot;
            int64_t step;
            assert_int_equal(tokio_hdf5_to_timeseries(h, pairs[p][0], &rates),
                             TOKIO_OK);
            assert_int_equal(tokio_hdf5_to_timeseries(h, pairs[p][1], &tot),
                             TOKIO_OK);
            assert_int_equal(tokio_hdf5_get_timestep(h, pairs[p][0], &step),
                             TOKIO_OK);
            assert_int_equal(step, 5);
            assert_int_equal(tokio_timeseries_rows(rates),
                             tokio_timeseries_rows(tot));
            for (size_t i = 0; i < tokio_timeseries_rows(tot)
                                   * tokio_timeseries_cols(tot); i++) {
                double a = tokio_timeseries_data(rates)[i] * (double)step;
                double b = tokio_timeseries_data(tot)[i];
                assert_true(fabs(a - b) <= 1e-8 * fabs(b) + 1e-8);
            }
            tokio_timeseries_free(rates);
            tokio_timeseries_free(tot);
        }
        tokio_hdf5_free(h);
    }
}

/* _test_transpose_mapping, get_columns, get_index, light metadata */
static void
test_hdf5_h5lmt_transposes_and_names(void **state)
{
    TOKIO_TEST_NEED_DATA(dir, INPUTS);
    struct tokio_hdf5 *h;
    struct tokio_timeseries *a, *b;
    char **cols;
    size_t n, r, c;
    int64_t idx, *t;
    int8_t *mask;

    (void)state;
    (void)dir;
    h = open_input("snx11025_2018-01-28.h5lmt", 0);
    assert_null(tokio_hdf5_schema_version(h));
    assert_int_equal(tokio_hdf5_to_timeseries(h, "datatargets/readrates", &a),
                     TOKIO_OK);
    assert_int_equal(tokio_hdf5_to_timeseries(h,
                     "OSTReadGroup/OSTBulkReadDataSet", &b), TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(a), 61);
    assert_int_equal(tokio_timeseries_cols(a), 24);
    assert_memory_equal(tokio_timeseries_data(a), tokio_timeseries_data(b),
                        61 * 24 * sizeof(double));
    assert_string_equal(tokio_timeseries_column(a, 0), "snx11025-OST0000");
    tokio_timeseries_free(a);
    tokio_timeseries_free(b);

    assert_int_equal(tokio_hdf5_get_columns(h, "mdtargets/closes", &cols, &n),
                     TOKIO_OK);
    assert_int_equal(n, 1);
    assert_string_equal(cols[0], "close");
    free(cols);
    assert_int_equal(tokio_hdf5_get_columns(h, "mdservers/cpuload/missing",
                                            &cols, &n), TOKIO_OK);
    assert_int_equal(n, 1);
    assert_string_equal(cols[0], "_unknown");
    free(cols);

    assert_int_equal(tokio_hdf5_get_timestamps(h, "datatargets/readbytes", &t,
                                               &n), TOKIO_OK);
    assert_int_equal(n, 61);
    for (int64_t fuzz = 0; fuzz < 5; fuzz++) {
        assert_int_equal(tokio_hdf5_get_index(h, "datatargets/readbytes",
                                              t[30] + fuzz, &idx), TOKIO_OK);
        assert_int_equal(idx, 30);
    }
    free(t);
    assert_int_equal(tokio_hdf5_get_missing(h, "datatargets/readbytes", 0,
                                            &mask, &r, &c), TOKIO_OK);
    assert_int_equal(r, 61);
    assert_int_equal(c, 24);
    for (size_t i = 0; i < r * c; i++)
        assert_true(mask[i] == 0 || mask[i] == 1);
    free(mask);
    tokio_hdf5_free(h);
}

static void
test_hdf5_tts_timeseries_carries_metadata(void **state)
{
    TOKIO_TEST_NEED_DATA(dir, INPUTS);
    struct tokio_hdf5 *h;
    struct tokio_timeseries *ts;
    int8_t *mask;
    size_t r, c, missing = 0, neg = 0;

    (void)state;
    (void)dir;
    h = open_input("sample_tokiots.hdf5", 0);
    assert_string_equal(tokio_hdf5_schema_version(h), "1");
    assert_int_equal(tokio_hdf5_to_timeseries(h, "datatargets/readrates", &ts),
                     TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts), 360);
    assert_int_equal(tokio_timeseries_cols(ts), 64);
    assert_int_equal(tokio_timeseries_timestep(ts), 10);
    /* fixed-length NUL-padded names come back without the padding */
    assert_string_equal(tokio_timeseries_column(ts, 0), "bb1:nvme0n1");
    assert_string_equal(tokio_timeseries_global_version(ts), "1");
    assert_string_equal(tokio_timeseries_timestamp_key(ts),
                        "/datatargets/timestamps");
    assert_string_equal(json_string_value(json_object_get(
        tokio_timeseries_dataset_metadata(ts), "units")), "bytes/sec");
    assert_string_equal(json_string_value(json_object_get(
        tokio_timeseries_group_metadata(ts), "source")), "collectd_disk");
    for (size_t i = 0; i < 360 * 64; i++)
        neg += tokio_timeseries_is_missing(tokio_timeseries_data(ts)[i]);
    assert_int_equal(tokio_hdf5_get_missing(h, "datatargets/readrates", 0,
                                            &mask, &r, &c), TOKIO_OK);
    for (size_t i = 0; i < r * c; i++)
        missing += (size_t)mask[i];
    assert_true(neg > 0);
    assert_int_equal(neg, missing);
    free(mask);

    /* the reference's test_sort/test_rearrange on this fixture */
    {
        struct tokio_timeseries *orig;
        assert_int_equal(tokio_hdf5_to_timeseries(h, "datatargets/readrates",
                                                  &orig), TOKIO_OK);
        assert_int_equal(tokio_timeseries_sort_columns(ts, 0), TOKIO_OK);
        for (size_t i = 0; i < 64; i++) {
            long j = tokio_timeseries_column_index(orig,
                                                   tokio_timeseries_column(ts,
                                                                           i));
            assert_true(j >= 0);
            for (size_t row = 0; row < 360; row++)
                assert_memory_equal(&tokio_timeseries_data(ts)[row * 64 + i],
                    &tokio_timeseries_data(orig)[row * 64 + (size_t)j], 8);
        }
        tokio_timeseries_free(orig);
    }
    tokio_timeseries_free(ts);
    tokio_hdf5_free(h);
}

/* test_invalid_dataset, test_h5lmt_invalid_dataset */
static void
test_hdf5_missing_dataset_is_enotfound(void **state)
{
    static const char *const files[] = {
        "sample_tokiots.hdf5", "snx11025_2018-01-28.h5lmt"
    };
    TOKIO_TEST_NEED_DATA(dir, INPUTS);
    (void)state;
    (void)dir;
    for (size_t i = 0; i < 2; i++) {
        struct tokio_hdf5 *h = open_input(files[i], 0);
        struct tokio_timeseries *ts = (void *)1;
        int rc;
        char *csv = csv_of(h, "/abc/def", &rc);
        assert_int_equal(rc, TOKIO_ENOTFOUND);
        assert_contains(tokio_errmsg(), "/abc/def");
        assert_contains(tokio_errmsg(), files[i]);
        free(csv);
        assert_int_equal(tokio_hdf5_to_timeseries(h, "/abc/def", &ts),
                         TOKIO_ENOTFOUND);
        assert_null(ts);
        tokio_hdf5_free(h);
    }
}

static void
test_hdf5_not_hdf5_is_eformat(void **state)
{
    char *dir = tokio_test_mkdtemp(), path[512];
    struct tokio_hdf5 *h = (void *)1;

    (void)state;
    snprintf(path, sizeof(path), "%s/junk.hdf5", dir);
    tokio_test_write_file(path, "not an HDF5 file at all\n", SIZE_MAX);
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_EFORMAT);
    assert_null(h);
    assert_contains(tokio_errmsg(), "junk.hdf5");
    tokio_test_write_file(path, "", 0);
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_EFORMAT);
    snprintf(path, sizeof(path), "%s/absent.hdf5", dir);
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_EIO);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_hdf5_open_survives_every_oom(void **state)
{
    TOKIO_TEST_NEED_DATA(path, INPUTS "snx11025_2018-01-28.h5lmt");
    (void)state;
    for (size_t n = 1;; n++) {
        struct tokio_hdf5 *h = NULL;
        struct tokio_timeseries *ts = NULL;
        int rc;
        tokio_test_fail_alloc_at(n);
        rc = tokio_hdf5_open(&h, path, 0);
        if (rc >= 0) {
            rc = tokio_hdf5_to_timeseries(h, "mdtargets/opens", &ts);
            tokio_hdf5_free(h);
        }
        tokio_test_fail_alloc_at(0);
        if (rc >= 0) {
            tokio_timeseries_free(ts);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(ts);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hdf5_to_csv_matches_every_golden),
        cmocka_unit_test(test_hdf5_get_version_matches_golden),
        cmocka_unit_test(test_hdf5_rates_times_timestep_are_counts),
        cmocka_unit_test(test_hdf5_h5lmt_transposes_and_names),
        cmocka_unit_test(test_hdf5_tts_timeseries_carries_metadata),
        cmocka_unit_test(test_hdf5_missing_dataset_is_enotfound),
        cmocka_unit_test(test_hdf5_not_hdf5_is_eformat),
        cmocka_unit_test(test_hdf5_open_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
