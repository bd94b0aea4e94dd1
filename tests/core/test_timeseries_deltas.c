/*
 * tests/core/test_timeseries_deltas.c - counters converted to deltas
 * block by block (tokio_timeseries_deltas_*): cut into overlapping
 * blocks of any size, a series converts bit for bit as convert_to_deltas()
 * converts it whole, through zeros (missing), -0.0, counter resets and
 * runs of gaps; out of memory.
 */
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/timeseries.h"

#define ROWS 200
#define COLS 5

/* Counters that mostly grow, with zeros, -0.0 and resets mixed in. */
static void
counters(double *d)
{
    uint32_t x = 12345;

    for (size_t c = 0; c < COLS; c++) {
        double v = 1000.0 * (double)c;

        for (size_t r = 0; r < ROWS; r++) {
            x = x * 1103515245u + 12345u;
            switch ((x >> 16) % 13) {
            case 0:
                d[r * COLS + c] = 0.0;          /* missing */
                continue;
            case 1:
                d[r * COLS + c] = -0.0;         /* never written */
                continue;
            case 2:
                v = (double)((x >> 8) % 50);    /* reset */
                break;
            default:
                v += (double)((x >> 4) % 97);
                break;
            }
            d[r * COLS + c] = v;
        }
    }
}

static void
test_blocks_equal_whole(void **state)
{
    double whole[ROWS * COLS], raw[ROWS * COLS], block[ROWS * COLS];
    struct tokio_timeseries *ts = NULL;
    (void)state;

    counters(raw);
    assert_int_equal(tokio_timeseries_new(&ts, "d", 0, 5 * ROWS, 5, COLS,
                                          NULL, 0), TOKIO_OK);
    memcpy(tokio_timeseries_data(ts), raw, sizeof(raw));
    assert_int_equal(tokio_timeseries_convert_to_deltas(ts, TOKIO_TS_LEFT),
                     TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts), ROWS - 1);
    memcpy(whole, tokio_timeseries_cdata(ts), (ROWS - 1) * COLS *
           sizeof(double));
    tokio_timeseries_free(ts);

    for (size_t n = 1; n < ROWS + 3; n += (n < 10 ? 1 : 17)) {
        struct tokio_ts_deltas *d = NULL;
        double out[ROWS * COLS];

        assert_int_equal(tokio_timeseries_deltas_new(&d, COLS), TOKIO_OK);
        /* blocks of n + 1 raw rows sharing their last/first row */
        for (size_t r0 = 0; r0 < ROWS - 1; r0 += n) {
            size_t k = r0 + n < ROWS - 1 ? n : ROWS - 1 - r0;

            memcpy(block, raw + r0 * COLS, (k + 1) * COLS * sizeof(double));
            tokio_timeseries_deltas_step(d, block, k + 1);
            memcpy(out + r0 * COLS, block, k * COLS * sizeof(double));
            /* the last row is left as it was */
            assert_memory_equal(block + k * COLS, raw + (r0 + k) * COLS,
                                COLS * sizeof(double));
        }
        assert_memory_equal(out, whole, (ROWS - 1) * COLS * sizeof(double));
        tokio_timeseries_deltas_step(d, block, 0);      /* nothing */
        tokio_timeseries_deltas_free(d);
    }
    tokio_timeseries_deltas_free(NULL);
}

/* Sanity of the rule itself on a column: 0 missing, reset searching. */
static void
test_step_values(void **state)
{
    double col[] = { 10, 15, 0, 20, 5, 7, 9 };
    struct tokio_ts_deltas *d = NULL;
    (void)state;

    assert_int_equal(tokio_timeseries_deltas_new(&d, 1), TOKIO_OK);
    tokio_timeseries_deltas_step(d, col, 3);    /* 10 15 0 */
    assert_true(col[0] == 5.0);
    assert_true(tokio_timeseries_is_missing(col[1]));   /* 0 < 15 */
    tokio_timeseries_deltas_step(d, col + 2, 5);        /* 0 20 5 7 9 */
    assert_true(col[2] == 5.0);                 /* 20 - last valid 15 */
    assert_true(tokio_timeseries_is_missing(col[3]));   /* reset */
    /* 7 is below the last valid 20: still searching; 9 - 7 */
    assert_true(tokio_timeseries_is_missing(col[4]));
    assert_true(col[5] == 2.0);
    assert_true(col[6] == 9.0);                 /* kept */
    tokio_timeseries_deltas_free(d);
}

static int
oom_trial(void *ctx)
{
    struct tokio_ts_deltas *d = NULL;
    int rc;

    (void)ctx;
    if ((rc = tokio_timeseries_deltas_new(&d, 3)) < 0)
        return rc;
    tokio_timeseries_deltas_free(d);
    return rc;
}

static void
test_deltas_oom(void **state)
{
    struct tokio_ts_deltas *d = NULL;
    (void)state;

    tokio_test_every_oom(oom_trial, NULL, 1);
    assert_int_equal(tokio_timeseries_deltas_new(&d, SIZE_MAX), TOKIO_EINVAL);
    assert_null(d);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_equal_whole),
        cmocka_unit_test(test_step_values),
        cmocka_unit_test(test_deltas_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
