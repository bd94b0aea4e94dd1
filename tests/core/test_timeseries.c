/*
 * tests/core/test_timeseries.c - the in-memory TimeSeries, reproducing the
 * cases of the reference's tests/test_timeseries.py with values, plus
 * bounds and out-of-memory.  The reference builds its rearrange/sort
 * fixture from sample_tokiots.hdf5; the same cases over that file are in
 * tests/connectors/test_hdf5.c, and here over a generated series so this
 * module needs neither HDF5 nor the data pack.
 */
#include "tokio/timeseries.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "testutil.h"

/* 2019-05-28 01:00:00 and 02:00:00 in the reference; any epoch will do */
#define START   INT64_C(1559030400)
#define END     (START + 3600)
#define DELTIM  10

static const char *const abcde[] = { "a", "b", "c", "d", "e" };

static struct tokio_timeseries *
make_abcde(size_t num_columns, int64_t end)
{
    struct tokio_timeseries *ts = NULL;

    assert_int_equal(tokio_timeseries_new(&ts, "test_dataset", START, end,
                                          DELTIM, num_columns, abcde, 5),
                     TOKIO_OK);
    return ts;
}

/* A small deterministic generator: tests must not depend on libc rand(). */
static uint64_t rng_state;

static uint64_t
rng_next(void)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return rng_state >> 33;
}

static double
rng_unit(void)
{
    return (double)rng_next() / (double)(UINT64_C(1) << 31);
}

/* Columns named like OSTs, out of natural order, with distinct data. */
static struct tokio_timeseries *
make_random(size_t rows, size_t cols)
{
    static const char *const names[] = {
        "OST10", "OST2", "OST1", "OST0a", "OST9", "OST000b", "OST3",
        "OST21", "OST20", "OST0", "OST100", "OST11"
    };
    struct tokio_timeseries *ts = NULL;
    double *d;

    assert_true(cols <= sizeof(names) / sizeof(names[0]));
    assert_int_equal(tokio_timeseries_new(&ts, "random", START,
                                          START + (int64_t)rows * DELTIM,
                                          DELTIM, cols, names, cols),
                     TOKIO_OK);
    d = tokio_timeseries_data(ts);
    for (size_t i = 0; i < rows * cols; i++)
        d[i] = rng_unit() * 1000.0;
    return ts;
}

/* compare_timeseries(): every column of `a` equals the same-named in `b` */
static void
compare_by_name(const struct tokio_timeseries *a,
                const struct tokio_timeseries *b)
{
    size_t rows = tokio_timeseries_rows(a);

    assert_int_equal(rows, tokio_timeseries_rows(b));
    for (size_t i = 0; i < tokio_timeseries_n_names(a); i++) {
        long j = tokio_timeseries_column_index(b, tokio_timeseries_column(a,
                                                                          i));
        assert_true(j >= 0);
        for (size_t r = 0; r < rows; r++)
            assert_memory_equal(
                &tokio_timeseries_cdata(a)[r * tokio_timeseries_cols(a) + i],
                &tokio_timeseries_cdata(b)[r * tokio_timeseries_cols(b)
                                           + (size_t)j],
                sizeof(double));
    }
}

static void
test_timeseries_init_fills_negative_zero(void **state)
{
    struct tokio_timeseries *ts = make_abcde(5, END);

    (void)state;
    assert_int_equal(tokio_timeseries_rows(ts), 360);
    assert_int_equal(tokio_timeseries_cols(ts), 5);
    assert_int_equal(tokio_timeseries_timestamps(ts)[0], START);
    assert_int_equal(tokio_timeseries_timestamps(ts)[359], END - DELTIM);
    for (size_t i = 0; i < 360 * 5; i++)
        assert_true(tokio_timeseries_is_missing(tokio_timeseries_data(ts)[i]));
    assert_int_equal(tokio_timeseries_column_index(ts, "c"), 2);
    assert_int_equal(tokio_timeseries_column_index(ts, "z"), -1);
    assert_string_equal(tokio_timeseries_dataset_name(ts), "test_dataset");
    assert_true(json_is_object(tokio_timeseries_dataset_metadata(ts)));
    tokio_timeseries_free(ts);

    /* [start, end) with a partial last step still gets that step */
    assert_int_equal(tokio_timeseries_new(&ts, "x", 0, 25, 10, 1, NULL, 0),
                     TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts), 3);
    tokio_timeseries_free(ts);
}

/* test_insert_element: first, last, before start, at end */
static void
test_timeseries_insert_element_bounds(void **state)
{
    struct tokio_timeseries *ts = make_abcde(5, END);

    (void)state;
    assert_int_equal(tokio_timeseries_insert_element(ts, START, "a", 1.0,
                     TOKIO_TS_REPLACE, TOKIO_TS_LEFT), 1);
    assert_int_equal(tokio_timeseries_insert_element(ts, END - DELTIM, "a",
                     1.0, TOKIO_TS_REPLACE, TOKIO_TS_LEFT), 1);
    assert_int_equal(tokio_timeseries_insert_element(ts, START - DELTIM, "a",
                     1.0, TOKIO_TS_REPLACE, TOKIO_TS_LEFT), 0);
    assert_int_equal(tokio_timeseries_insert_element(ts, END, "a", 1.0,
                     TOKIO_TS_REPLACE, TOKIO_TS_LEFT), 0);
    /* one second before start floors to row -1, as Python's // does */
    assert_int_equal(tokio_timeseries_insert_element(ts, START - 1, "a", 1.0,
                     TOKIO_TS_REPLACE, TOKIO_TS_LEFT), 0);
    assert_true(tokio_timeseries_data(ts)[0] == 1.0);
    assert_true(tokio_timeseries_data(ts)[359 * 5] == 1.0);
    tokio_timeseries_free(ts);
}

/* test_insert_element_columns: a new column that fits */
static void
test_timeseries_insert_element_new_column_fits(void **state)
{
    struct tokio_timeseries *ts = make_abcde(6, END);

    (void)state;
    assert_int_equal(tokio_timeseries_insert_element(ts, START + DELTIM, "f",
                     1.0, TOKIO_TS_REPLACE, TOKIO_TS_LEFT), 1);
    assert_int_equal(tokio_timeseries_column_index(ts, "f"), 5);
    assert_string_equal(tokio_timeseries_column(ts, 5), "f");
    assert_true(tokio_timeseries_data(ts)[1 * 6 + 5] == 1.0);
    tokio_timeseries_free(ts);
}

/* test_insert_element_column_overflow: the reference raises IndexError */
static void
test_timeseries_insert_element_column_overflow_is_einval(void **state)
{
    struct tokio_timeseries *ts = make_abcde(5, END);

    (void)state;
    assert_int_equal(tokio_timeseries_insert_element(ts, START + DELTIM, "f",
                     1.0, TOKIO_TS_REPLACE, TOKIO_TS_LEFT), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "exceeds number of columns 5");
    assert_contains(tokio_errmsg(), "test_dataset");
    tokio_timeseries_free(ts);
}

static void
test_timeseries_insert_element_reducers(void **state)
{
    struct tokio_timeseries *ts = make_abcde(5, END);
    double *d = tokio_timeseries_data(ts);

    (void)state;
    /* sum into a missing cell: -0.0 + 2 */
    tokio_timeseries_insert_element(ts, START, "b", 2.0, TOKIO_TS_SUM,
                                    TOKIO_TS_LEFT);
    tokio_timeseries_insert_element(ts, START + 3, "b", 3.0, TOKIO_TS_SUM,
                                    TOKIO_TS_LEFT);
    assert_true(d[1] == 5.0);
    tokio_timeseries_insert_element(ts, START, "b", 7.0, TOKIO_TS_REPLACE,
                                    TOKIO_TS_LEFT);
    assert_true(d[1] == 7.0);
    /* a measured +0.0 is overwritten, not summed, by the reference's rule */
    tokio_timeseries_insert_element(ts, START, "c", 0.0, TOKIO_TS_SUM,
                                    TOKIO_TS_LEFT);
    tokio_timeseries_insert_element(ts, START, "c", -0.0, TOKIO_TS_SUM,
                                    TOKIO_TS_LEFT);
    assert_true(tokio_timeseries_is_missing(d[2]));
    tokio_timeseries_free(ts);
}

/* test_align: left and right alignment give the same deltas */
static void
test_timeseries_align_left_right_deltas_agree(void **state)
{
    struct tokio_timeseries *ts0 = make_abcde(5, START + 3 * DELTIM);
    struct tokio_timeseries *ts1 = make_abcde(5, START + 3 * DELTIM);

    (void)state;
    assert_int_equal(tokio_timeseries_insert_element(ts0, START, "a", 1.0,
                     TOKIO_TS_REPLACE, TOKIO_TS_LEFT), 1);
    assert_int_equal(tokio_timeseries_insert_element(ts0, START + DELTIM, "a",
                     2.0, TOKIO_TS_REPLACE, TOKIO_TS_LEFT), 1);
    assert_int_equal(tokio_timeseries_convert_to_deltas(ts0, TOKIO_TS_LEFT),
                     TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts0), 2);
    assert_true(tokio_timeseries_data(ts0)[0] == 1.0);
    assert_true(tokio_timeseries_data(ts0)[5] == 0.0);

    assert_int_equal(tokio_timeseries_insert_element(ts1, START + DELTIM, "a",
                     1.0, TOKIO_TS_REPLACE, TOKIO_TS_RIGHT), 1);
    assert_int_equal(tokio_timeseries_insert_element(ts1, START + 2 * DELTIM,
                     "a", 2.0, TOKIO_TS_REPLACE, TOKIO_TS_RIGHT), 1);
    /* right-aligned past the end: row 3 does not exist */
    assert_int_equal(tokio_timeseries_insert_element(ts1, START + 4 * DELTIM,
                     "a", 2.0, TOKIO_TS_REPLACE, TOKIO_TS_RIGHT), 0);
    assert_int_equal(tokio_timeseries_convert_to_deltas(ts1, TOKIO_TS_LEFT),
                     TOKIO_OK);
    assert_true(tokio_timeseries_data(ts1)[0] == 1.0);
    assert_true(tokio_timeseries_data(ts1)[5] == 0.0);
    assert_memory_equal(tokio_timeseries_timestamps(ts0),
                        tokio_timeseries_timestamps(ts1),
                        2 * sizeof(int64_t));
    tokio_timeseries_free(ts0);
    tokio_timeseries_free(ts1);
}

static void
test_timeseries_deltas_right_drops_first_timestamp(void **state)
{
    struct tokio_timeseries *ts = make_abcde(5, START + 3 * DELTIM);

    (void)state;
    assert_int_equal(tokio_timeseries_convert_to_deltas(ts, TOKIO_TS_RIGHT),
                     TOKIO_OK);
    assert_int_equal(tokio_timeseries_timestamps(ts)[0], START + DELTIM);
    assert_int_equal(tokio_timeseries_timestamps(ts)[1], START + 2 * DELTIM);
    tokio_timeseries_free(ts);
}

/* Counter resets and gaps, worked out by hand from the reference's rules. */
static void
test_timeseries_deltas_counter_reset_and_gaps(void **state)
{
    static const int64_t stamps[] = { 0, 5, 10, 15, 20 };
    /* columns: reset; gap in the middle; leading zeros; all missing */
    static const double in[5][4] = {
        { 10, 10, 0,  -0.0 },
        { 20, 0,  0,  -0.0 },
        { 5,  30, 7,  -0.0 },
        { 15, 35, 9,  -0.0 },
        { 25, 40, 12, -0.0 },
    };
    static const double want[4][4] = {
        { 10,   -0.0, -0.0, -0.0 },
        { -0.0, 20,   -0.0, -0.0 },     /* gap: 30 - 10 lands after it */
        { -0.0, 5,    2,    -0.0 },     /* reset: 5 < 20 loses two steps */
        { 10,   5,    3,    -0.0 },
    };
    struct tokio_timeseries *ts = NULL;

    (void)state;
    assert_int_equal(tokio_timeseries_new_rows(&ts, "d", stamps, 5, 4),
                     TOKIO_OK);
    assert_int_equal(tokio_timeseries_timestep(ts), 5);
    memcpy(tokio_timeseries_data(ts), in, sizeof(in));
    assert_int_equal(tokio_timeseries_convert_to_deltas(ts, TOKIO_TS_LEFT),
                     TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts), 4);
    /* bitwise, so -0.0 versus 0.0 counts */
    assert_memory_equal(tokio_timeseries_data(ts), want, sizeof(want));
    tokio_timeseries_free(ts);
}

/*
 * test_timeseries_deltas: random monotonic counters with deleted values;
 * each column's delta sum equals max - min of its valid values, and every
 * cell not next to a deletion equals the true delta.
 */
static void
test_timeseries_deltas_random_with_data_loss(void **state)
{
    enum { ROWS = 20, COLS = 16, MAXD = 9 };
    double actual[ROWS][COLS], mono[ROWS + 1][COLS];
    int fix[ROWS + 1][COLS];
    static const int hand[][2] = {
        { 1, 0 }, { 2, 0 }, { 5, 0 }, { 0, 1 }, { 1, 1 }, { 1, 2 }, { 3, 2 },
        { -1, 2 }, { -2, 2 }, { 0, 3 }, { -1, 3 }
    };
    struct tokio_timeseries *ts = NULL;
    const double *d;

    (void)state;
    rng_state = 0;
    memset(fix, 0, sizeof(fix));
    for (int c = 0; c < COLS; c++)
        mono[0][c] = rng_unit() * MAXD;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            actual[r][c] = rng_unit() * MAXD;
            mono[r + 1][c] = mono[r][c] + actual[r][c];
        }
    /* negative rows count from the end of the ROWS + 1 counter rows */
    for (size_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++) {
        int r = hand[i][0] < 0 ? ROWS + 1 + hand[i][0] : hand[i][0];
        mono[r][hand[i][1]] = 0.0;
        fix[r][hand[i][1]] = 1;
    }
    for (int i = 0; i < COLS * ROWS / 4; i++) {       /* low density */
        int r = (int)(rng_next() % ROWS), c = 4 + (int)(rng_next() % 4);
        mono[r][c] = 0.0;
        fix[r][c] = 1;
    }
    for (int i = 0; i < 3 * COLS * ROWS / 4; i++) {   /* high density */
        int r = (int)(rng_next() % ROWS), c = 8 + (int)(rng_next() % 4);
        mono[r][c] = 0.0;
        fix[r][c] = 1;
    }
    assert_int_equal(tokio_timeseries_new(&ts, "mono", 0, (ROWS + 1) * 5, 5,
                                          COLS, NULL, 0), TOKIO_OK);
    memcpy(tokio_timeseries_data(ts), mono, sizeof(mono));
    assert_int_equal(tokio_timeseries_convert_to_deltas(ts, TOKIO_TS_LEFT),
                     TOKIO_OK);
    d = tokio_timeseries_cdata(ts);
    for (int c = 0; c < 12; c++) {
        double sum = 0, truth = 0, max = 0, min = INFINITY;
        for (int r = 0; r < ROWS; r++) {
            sum += d[r * COLS + c];
            truth += actual[r][c];
        }
        for (int r = 0; r <= ROWS; r++) {
            if (mono[r][c] > max)
                max = mono[r][c];
            if (mono[r][c] > 0.0 && mono[r][c] < min)
                min = mono[r][c];
        }
        assert_true(fabs(sum - (max - min)) < 1e-8 * (1 + fabs(max)));
        assert_true(truth - sum > -1e-8);
    }
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            if (!fix[r][c] && !fix[r + 1][c])
                assert_true(fabs(d[r * COLS + c] - actual[r][c]) < 1e-8);
    tokio_timeseries_free(ts);
}

/* test_add_rows */
static void
test_timeseries_add_rows_continues_timestep(void **state)
{
    struct tokio_timeseries *ts = make_abcde(5, END);
    const int64_t *t;

    (void)state;
    assert_int_equal(tokio_timeseries_add_rows(ts, 5), TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts), 365);
    t = tokio_timeseries_timestamps(ts);
    for (size_t i = 1; i < 365; i++)
        assert_int_equal(t[i] - t[i - 1], DELTIM);
    for (size_t i = 360 * 5; i < 365 * 5; i++)
        assert_true(tokio_timeseries_is_missing(tokio_timeseries_data(ts)[i]));
    assert_int_equal(tokio_timeseries_trim_rows(ts, 6), TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts), 359);
    assert_int_equal(tokio_timeseries_trim_rows(ts, 0), TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts), 359);
    assert_int_equal(tokio_timeseries_trim_rows(ts, 360), TOKIO_EINVAL);
    tokio_timeseries_free(ts);
}

/* test_rearrange: a shuffled copy is equal column by column */
static void
test_timeseries_rearrange_keeps_columns_with_names(void **state)
{
    struct tokio_timeseries *a, *b;
    const char *order[12];

    (void)state;
    rng_state = 42;
    a = make_random(30, 12);
    rng_state = 42;
    b = make_random(30, 12);
    for (size_t i = 0; i < 12; i++)
        order[i] = tokio_timeseries_column(a, i);
    for (size_t i = 11; i > 0; i--) {
        size_t j = (size_t)(rng_next() % (i + 1));
        const char *tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    assert_int_equal(tokio_timeseries_rearrange_columns(b, order, 12),
                     TOKIO_OK);
    for (size_t i = 0; i < 12; i++) {
        assert_string_equal(tokio_timeseries_column(b, i), order[i]);
        assert_int_equal(tokio_timeseries_column_index(b, order[i]), i);
    }
    compare_by_name(b, a);

    order[0] = "nope";
    assert_int_equal(tokio_timeseries_rearrange_columns(b, order, 1),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "nope");
    tokio_timeseries_free(a);
    tokio_timeseries_free(b);
}

/* test_sort, decimal and hex */
static void
test_timeseries_sort_columns_natural_and_hex(void **state)
{
    static const char *const dec[] = {
        "OST0", "OST0a", "OST000b", "OST1", "OST2", "OST3", "OST9", "OST10",
        "OST11", "OST20", "OST21", "OST100"
    };
    struct tokio_timeseries *a, *b;

    (void)state;
    rng_state = 7;
    a = make_random(10, 12);
    rng_state = 7;
    b = make_random(10, 12);
    assert_int_equal(tokio_timeseries_sort_columns(b, 0), TOKIO_OK);
    for (size_t i = 0; i < 12; i++)
        assert_string_equal(tokio_timeseries_column(b, i), dec[i]);
    compare_by_name(b, a);
    assert_int_equal(tokio_timeseries_sort_columns(b, 1), TOKIO_OK);
    /* hex: OST0a is 0xa, OST000b 0xb, OST10 0x10, OST100 0x100 */
    assert_string_equal(tokio_timeseries_column(b, 5), "OST0a");
    assert_string_equal(tokio_timeseries_column(b, 10), "OST21");
    assert_string_equal(tokio_timeseries_column(b, 11), "OST100");
    compare_by_name(b, a);
    tokio_timeseries_free(a);
    tokio_timeseries_free(b);
}

static void
test_timeseries_swap_columns_moves_data_and_map(void **state)
{
    struct tokio_timeseries *ts = make_abcde(5, START + 2 * DELTIM);
    double *d = tokio_timeseries_data(ts);

    (void)state;
    d[0] = 1;
    d[4] = 5;
    d[5] = 6;
    assert_int_equal(tokio_timeseries_swap_columns(ts, 0, 4), TOKIO_OK);
    assert_true(d[0] == 5 && d[4] == 1 && d[9] == 6);
    assert_string_equal(tokio_timeseries_column(ts, 0), "e");
    assert_int_equal(tokio_timeseries_column_index(ts, "a"), 4);
    assert_int_equal(tokio_timeseries_swap_columns(ts, 0, 5), TOKIO_EINVAL);
    tokio_timeseries_free(ts);
}

/*
 * Regression (issue 17): swap_columns updated its name table after
 * swapping the names, so each lookup missed the name's entry and added
 * a second one; a few swaps filled the table and the lookup of a name it
 * lacks never ended.  Many swaps in a child that an alarm ends: every
 * name still maps to its place and an absent name is not found.
 */
static void
test_timeseries_swap_columns_keeps_the_map_exact(void **state)
{
    pid_t pid;
    int status;

    (void)state;
    if ((pid = fork()) == 0) {
        /* 12 columns, 32 entries: full after about 20 swaps before */
        struct tokio_timeseries *ts = make_random(2, 12);

        alarm(10);
        rng_state = 17;
        for (int k = 0; k < 1000; k++)
            if (tokio_timeseries_swap_columns(ts, rng_next() % 12,
                                              rng_next() % 12) != TOKIO_OK)
                _exit(1);
        for (size_t c = 0; c < 12; c++)
            if (tokio_timeseries_column_index(
                    ts, tokio_timeseries_column(ts, c)) != (long)c)
                _exit(2);
        if (tokio_timeseries_column_index(ts, "OST99") != -1)
            _exit(3);
        tokio_timeseries_free(ts);
        _exit(0);
    }
    assert_true(pid > 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("swaps broke the name map: %s %d", WIFEXITED(status)
                 ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status)
                                                         : WTERMSIG(status));
}

static void
test_timeseries_duplicate_column_maps_to_last(void **state)
{
    struct tokio_timeseries *ts = make_abcde(6, START + DELTIM);
    size_t idx;

    (void)state;
    assert_int_equal(tokio_timeseries_add_column(ts, "b", &idx), TOKIO_OK);
    assert_int_equal(idx, 5);
    assert_int_equal(tokio_timeseries_column_index(ts, "b"), 5);
    tokio_timeseries_free(ts);
}

static void
test_timeseries_bad_arguments_are_einval(void **state)
{
    struct tokio_timeseries *ts = NULL;

    (void)state;
    assert_int_equal(tokio_timeseries_new(&ts, "x", 0, 10, 0, 1, NULL, 0),
                     TOKIO_EINVAL);
    assert_null(ts);
    assert_int_equal(tokio_timeseries_new(&ts, "x", 0, 10, 1, 2, abcde, 5),
                     TOKIO_EINVAL);
    /* a column count whose matrix size overflows size_t * 8 */
    assert_int_equal(tokio_timeseries_new(&ts, "x", 0, 10, 1,
                                          SIZE_MAX / 4, NULL, 0),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_timeseries_new(&ts, "x", 0, 10, 1,
                                          SIZE_MAX / 8 + 1, NULL, 0),
                     TOKIO_EINVAL);
    /* a row count that does */
    assert_int_equal(tokio_timeseries_new(&ts, "x", INT64_MIN, INT64_MAX, 1,
                                          4, NULL, 0), TOKIO_EINVAL);
    assert_int_equal(tokio_timeseries_new_rows(&ts, "x", NULL,
                                               SIZE_MAX / 8 + 1, 0),
                     TOKIO_EINVAL);
    assert_null(ts);
    /* an empty series: no rows to convert or continue */
    assert_int_equal(tokio_timeseries_new(&ts, "x", 10, 10, 1, 1, NULL, 0),
                     TOKIO_OK);
    assert_int_equal(tokio_timeseries_rows(ts), 0);
    assert_int_equal(tokio_timeseries_convert_to_deltas(ts, TOKIO_TS_LEFT),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_timeseries_add_rows(ts, 1), TOKIO_EINVAL);
    assert_int_equal(tokio_timeseries_insert_element(ts, 10, "a", 1,
                     TOKIO_TS_REPLACE, TOKIO_TS_LEFT), 0);
    tokio_timeseries_free(ts);
    ts = make_abcde(5, END);
    assert_int_equal(tokio_timeseries_add_rows(ts, SIZE_MAX), TOKIO_EINVAL);
    tokio_timeseries_free(ts);
}

static int
exercise(void)
{
    struct tokio_timeseries *ts = NULL;
    int rc;

    if ((rc = tokio_timeseries_new(&ts, "oom", START, START + 100, DELTIM, 8,
                                   abcde, 5)) < 0)
        return rc;
    if ((rc = tokio_timeseries_insert_element(ts, START, "z", 1,
                                              TOKIO_TS_SUM,
                                              TOKIO_TS_LEFT)) < 0
        || (rc = tokio_timeseries_add_rows(ts, 3)) < 0
        || (rc = tokio_timeseries_sort_columns(ts, 1)) < 0
        || (rc = tokio_timeseries_set_version(ts, "1")) < 0
        || (rc = tokio_timeseries_set_columns(ts, abcde, 5)) < 0
        || (rc = tokio_timeseries_convert_to_deltas(ts, TOKIO_TS_LEFT)) < 0) {
        tokio_timeseries_free(ts);
        return rc;
    }
    tokio_timeseries_free(ts);
    return TOKIO_OK;
}

static void
test_timeseries_survives_every_oom(void **state)
{
    (void)state;
    for (size_t n = 1;; n += tokio_test_oom_step()) {
        tokio_test_fail_alloc_at(n);
        int rc = exercise();
        tokio_test_fail_alloc_at(0);
        if (rc >= 0)
            break;
        assert_int_equal(rc, TOKIO_ENOMEM);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeseries_init_fills_negative_zero),
        cmocka_unit_test(test_timeseries_insert_element_bounds),
        cmocka_unit_test(test_timeseries_insert_element_new_column_fits),
        cmocka_unit_test(
            test_timeseries_insert_element_column_overflow_is_einval),
        cmocka_unit_test(test_timeseries_insert_element_reducers),
        cmocka_unit_test(test_timeseries_align_left_right_deltas_agree),
        cmocka_unit_test(test_timeseries_deltas_right_drops_first_timestamp),
        cmocka_unit_test(test_timeseries_deltas_counter_reset_and_gaps),
        cmocka_unit_test(test_timeseries_deltas_random_with_data_loss),
        cmocka_unit_test(test_timeseries_add_rows_continues_timestep),
        cmocka_unit_test(test_timeseries_rearrange_keeps_columns_with_names),
        cmocka_unit_test(test_timeseries_sort_columns_natural_and_hex),
        cmocka_unit_test(test_timeseries_swap_columns_moves_data_and_map),
        cmocka_unit_test(test_timeseries_swap_columns_keeps_the_map_exact),
        cmocka_unit_test(test_timeseries_duplicate_column_maps_to_last),
        cmocka_unit_test(test_timeseries_bad_arguments_are_einval),
        cmocka_unit_test(test_timeseries_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
