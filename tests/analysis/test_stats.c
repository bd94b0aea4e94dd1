/*
 * tests/analysis/test_stats.c - the incomplete beta function, Student's t
 * p-values and Pearson's correlation (src/analysis/stats.c).
 *
 * Expected values were computed once, independently of this code, with
 * python3's mpmath 1.3.0 at 50 significant digits (scipy is not installed
 * here):
 *   I_x(a, b)  = mpmath.betainc(a, b, 0, x, regularized=True), which sums
 *                the hypergeometric series x^a 2F1(a, 1-b; a+1; x)/a B;
 *                for a = b = 1e4, where that series does not converge,
 *                1/2 + mpmath.quad of the Beta density from 1/2 to x
 *                (checked against betainc for a = b = 100: 48 digits);
 *   t p-value  = I_{df/(df+t^2)}(df/2, 1/2) by the same betainc;
 *   pearson    = sum((x-mx)(y-my)) / sqrt(sum((x-mx)^2) sum((y-my)^2)) in
 *                50 digits, p by betainc((n-2)/2, 1/2, 0, 1-r^2).
 * Closed forms cross-check some of them by a second route: I_x(1, b) =
 * 1-(1-x)^b, I_x(a, 1) = x^a, I_x(1/2, 1/2) = (2/pi) asin(sqrt(x)), and
 * the t p-values for df = 1 (1 - (2/pi) atan|t|) and df = 2
 * (1 - |t|/sqrt(2+t^2)).
 */
#include "testutil.h"

#include <math.h>

#include "tokio/analysis/stats.h"
#include "tokio/common.h"

/* |got - want| <= tol * |want| (or <= tol when want is 0). */
#define assert_close(got, want, tol)                                        \
    assert_close_at((got), (want), (tol), __FILE__, __LINE__)

static void
assert_close_at(double got, double want, double tol, const char *file,
                int line)
{
    double err = fabs(got - want);
    double bound = want == 0.0 ? tol : tol * fabs(want);

    if (!(err <= bound)) {
        print_error("%s:%d: got %.17g, want %.17g (rel err %.3g > %.3g)\n",
                    file, line, got, want, want ? err / fabs(want) : err,
                    tol);
        fail();
    }
}

static double
betainc(double a, double b, double x)
{
    double v = -1.0;

    assert_int_equal(tokio_stats_betainc(a, b, x, &v), TOKIO_OK);
    return v;
}

static double
t_pvalue(double t, double df)
{
    double v = -1.0;

    assert_int_equal(tokio_stats_t_pvalue(t, df, &v), TOKIO_OK);
    return v;
}

/* ---- incomplete beta ------------------------------------------------ */

static void
test_betainc_matches_mpmath(void **state)
{
    (void)state;
    assert_close(betainc(2, 3, 0.5), 0.6875, 1e-14);
    assert_close(betainc(1, 3.7, 0.2), 0.56204150784360942421, 1e-14);
    assert_close(betainc(2.5, 1, 0.3), 0.04929503017546494565, 1e-14);
    assert_close(betainc(0.5, 0.5, 0.1), 0.20483276469913345754, 1e-14);
    assert_close(betainc(10, 0.5, 0.9), 0.15164090963470996856, 5e-14);
    assert_close(betainc(5, 100, 0.06), 0.75430494448328738604, 1e-13);
    assert_close(betainc(100, 5, 0.95), 0.40094101404909144191, 1e-13);
    assert_close(betainc(0.01, 0.01, 0.3), 0.49582361360238203442, 1e-13);
    assert_close(betainc(3, 7, 1e-10), 8.3999999962200009188e-29, 1e-14);
    /* the parameters of a correlation over 2048 files (sample-badost) */
    assert_close(betainc(1023, 0.5, 0.5056), 2.4763163955324391805e-305,
                 1e-11);
    assert_close(betainc(1e4, 1e4, 0.5), 0.5, 1e-12);
    assert_close(betainc(1e4, 1e4, 0.505), 0.92135299111833586461, 1e-12);
}

static void
test_betainc_matches_closed_forms(void **state)
{
    (void)state;
    for (double x = 0.05; x < 1.0; x += 0.1) {
        assert_close(betainc(1, 3.7, x), 1.0 - pow(1.0 - x, 3.7), 1e-13);
        assert_close(betainc(2.5, 1, x), pow(x, 2.5), 1e-13);
        assert_close(betainc(0.5, 0.5, x), 2.0 / M_PI * asin(sqrt(x)),
                     1e-13);
        assert_close(betainc(1, 1, x), x, 1e-14);
    }
}

static void
test_betainc_ends_and_symmetry(void **state)
{
    (void)state;
    assert_true(betainc(2, 3, 0.0) == 0.0);
    assert_true(betainc(2, 3, 1.0) == 1.0);
    /* I_x(a, b) = 1 - I_{1-x}(b, a): both sides of the switch */
    for (double x = 0.01; x < 1.0; x += 0.07)
        assert_close(betainc(7, 3, x) + betainc(3, 7, 1.0 - x), 1.0, 1e-14);
}

static void
test_betainc_underflow_is_zero_not_nan(void **state)
{
    (void)state;
    /* 2.6e-537 is below the smallest double */
    assert_true(betainc(1023, 0.5, 0.3) == 0.0);
}

static void
test_betainc_rejects_bad_arguments(void **state)
{
    double v = 0.0;

    (void)state;
    assert_int_equal(tokio_stats_betainc(0, 1, 0.5, &v), TOKIO_EINVAL);
    assert_true(isnan(v));
    assert_contains(tokio_errmsg(), "positive");
    assert_int_equal(tokio_stats_betainc(1, -2, 0.5, &v), TOKIO_EINVAL);
    assert_int_equal(tokio_stats_betainc(INFINITY, 1, 0.5, &v),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_stats_betainc(NAN, 1, 0.5, &v), TOKIO_EINVAL);
    assert_int_equal(tokio_stats_betainc(1, 1, 1.5, &v), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "outside [0, 1]");
    assert_int_equal(tokio_stats_betainc(1, 1, -0.1, &v), TOKIO_EINVAL);
    assert_int_equal(tokio_stats_betainc(1, 1, NAN, &v), TOKIO_EINVAL);
    assert_true(isnan(v));
}

/* ---- Student's t ------------------------------------------------------ */

static void
test_t_pvalue_matches_mpmath(void **state)
{
    (void)state;
    assert_close(t_pvalue(2.228138851986, 10), 0.050000000000023296838,
                 1e-13);
    assert_close(t_pvalue(-3.5, 7), 0.0099930408818855472629, 1e-13);
    assert_close(t_pvalue(40, 2046), 5.5337944997972511929e-259, 1e-11);
    assert_close(t_pvalue(0.5, 3000), 0.61711174903201983276, 1e-13);
    /* 1 - 8e-10: computing 1 - x twice would lose the 8e-10 */
    assert_close(t_pvalue(1e-9, 1000), 0.99999999920231488537, 1e-15);
}

static void
test_t_pvalue_matches_closed_forms(void **state)
{
    (void)state;
    assert_close(t_pvalue(1, 1), 0.5, 1e-14);
    assert_close(t_pvalue(2, 2), 0.18350341907227396727, 1e-14);
    for (double t = -6.0; t <= 6.0; t += 0.75) {
        assert_close(t_pvalue(t, 1), 1.0 - 2.0 / M_PI * atan(fabs(t)),
                     1e-13);
        assert_close(t_pvalue(t, 2), 1.0 - fabs(t) / sqrt(2.0 + t * t),
                     1e-13);
    }
}

static void
test_t_pvalue_limits(void **state)
{
    double v = 0.0;

    (void)state;
    assert_true(t_pvalue(0, 5) == 1.0);
    assert_true(t_pvalue(INFINITY, 5) == 0.0);
    assert_true(t_pvalue(-INFINITY, 5) == 0.0);
    assert_true(t_pvalue(1e200, 5) == 0.0);     /* t^2 overflows */
    assert_int_equal(tokio_stats_t_pvalue(NAN, 5, &v), TOKIO_EINVAL);
    assert_true(isnan(v));
    assert_int_equal(tokio_stats_t_pvalue(1, 0, &v), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "degrees of freedom");
    assert_int_equal(tokio_stats_t_pvalue(1, INFINITY, &v), TOKIO_EINVAL);
}

/* ---- Pearson ---------------------------------------------------------- */

static void
test_pearson_matches_mpmath(void **state)
{
    static const double x1[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    static const double y1[] = { 2.1, 3.9, 6.2, 7.8, 10.1, 12.2, 13.8,
                                 16.1, 18.3, 19.7 };
    static const double x2[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    static const double y2[] = { 5, 3, 8, 1, 9, 2, 7, 4 };
    /* an OST share column against file performance, as darshan-bad-ost
     * correlates them */
    static const double x4[] = { 0.25, 0, 0, 0.25, 0.5, 0 };
    static const double y4[] = { 310.5, 420.25, 415.0, 290.75, 180.125,
                                 400.5 };
    double r, p;

    (void)state;
    assert_int_equal(tokio_stats_pearson(x1, y1, 10, &r, &p), TOKIO_OK);
    assert_close(r, 0.99943327911107847672, 1e-14);
    assert_close(p, 4.5098236631229691316e-13, 1e-10);
    assert_int_equal(tokio_stats_pearson(x2, y2, 8, &r, &p), TOKIO_OK);
    assert_close(r, 0.030164848870338082131, 1e-13);
    assert_close(p, 0.94347520843022674218, 1e-13);
    assert_int_equal(tokio_stats_pearson(x4, y4, 6, &r, &p), TOKIO_OK);
    assert_close(r, -0.99515884825591226476, 1e-14);
    assert_close(p, 0.000035098394881849869827, 1e-11);
    /* symmetric in its arguments; p may be left out */
    double r2;
    assert_int_equal(tokio_stats_pearson(y4, x4, 6, &r2, NULL), TOKIO_OK);
    assert_close(r2, r, 1e-15);
}

static void
test_pearson_three_points(void **state)
{
    static const double x[] = { 1, 2, 3 }, y[] = { 3, 1, 2 };
    double r, p;

    (void)state;
    assert_int_equal(tokio_stats_pearson(x, y, 3, &r, &p), TOKIO_OK);
    assert_close(r, -0.5, 1e-15);
    assert_close(p, 2.0 / 3.0, 1e-14);
}

static void
test_pearson_perfect_line_has_p_zero(void **state)
{
    static const double x[] = { 1, 2, 3, 4, 5 };
    static const double up[] = { 3, 5, 7, 9, 11 };
    static const double down[] = { -1, -3, -5, -7, -9 };
    double r, p;

    (void)state;
    assert_int_equal(tokio_stats_pearson(x, up, 5, &r, &p), TOKIO_OK);
    assert_close(r, 1.0, 1e-15);
    assert_close(p, 0.0, 1e-7);     /* r rounds to within ulps of 1 */
    assert_int_equal(tokio_stats_pearson(x, down, 5, &r, &p), TOKIO_OK);
    assert_close(r, -1.0, 1e-15);
    assert_true(r >= -1.0);         /* clipped, never beyond */
    assert_close(p, 0.0, 1e-7);
}

static void
test_pearson_two_points_is_line_with_p_one(void **state)
{
    static const double x[] = { 1, 2 }, y[] = { 5, 3 }, z[] = { 3, 5 };
    double r, p;

    (void)state;
    assert_int_equal(tokio_stats_pearson(x, y, 2, &r, &p), TOKIO_OK);
    assert_true(r == -1.0);
    assert_true(p == 1.0);
    assert_int_equal(tokio_stats_pearson(x, z, 2, &r, &p), TOKIO_OK);
    assert_true(r == 1.0);
    assert_true(p == 1.0);
}

static void
test_pearson_constant_vector_has_no_correlation(void **state)
{
    static const double x[] = { 1, 2, 3, 4 }, c[] = { 7, 7, 7, 7 };
    double r = 0.0, p = 0.0;

    (void)state;
    assert_int_equal(tokio_stats_pearson(x, c, 4, &r, &p), TOKIO_EINVAL);
    assert_true(isnan(r) && isnan(p));
    assert_contains(tokio_errmsg(), "y is constant");
    assert_int_equal(tokio_stats_pearson(c, x, 4, &r, &p), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "x is constant");
}

static void
test_pearson_needs_two_finite_pairs(void **state)
{
    static const double x[] = { 1, 2, NAN }, y[] = { 3, INFINITY, 2 };
    double r = 0.0, p = 0.0;

    (void)state;
    assert_int_equal(tokio_stats_pearson(x, y, 0, &r, &p), TOKIO_EINVAL);
    assert_int_equal(tokio_stats_pearson(x, y, 1, &r, &p), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "at least 2 pairs, not 1");
    assert_true(isnan(r) && isnan(p));
    assert_int_equal(tokio_stats_pearson(x, y, 2, &r, &p), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "pair 1 is not finite");
    assert_int_equal(tokio_stats_pearson(y, x, 3, &r, &p), TOKIO_EINVAL);
}

static void
test_pearson_is_scale_free_at_extremes(void **state)
{
    static const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    static const double y[] = { 5, 3, 8, 1, 9, 2, 7, 4 };
    double big[8], tiny[8], off[8], r, p, rb, pb, rt, pt;

    (void)state;
    /* sums of squares of 1e300 overflow and of 1e-300 underflow unless
     * scaled; a large offset must not swallow the spread (two passes) */
    for (size_t i = 0; i < 8; i++) {
        big[i] = y[i] * 1e300;
        tiny[i] = y[i] * 1e-300;
        off[i] = y[i] + 1e9;
    }
    assert_int_equal(tokio_stats_pearson(x, y, 8, &r, &p), TOKIO_OK);
    assert_int_equal(tokio_stats_pearson(x, big, 8, &rb, &pb), TOKIO_OK);
    assert_int_equal(tokio_stats_pearson(x, tiny, 8, &rt, &pt), TOKIO_OK);
    assert_close(rb, r, 1e-13);
    assert_close(rt, r, 1e-13);
    assert_close(pb, p, 1e-13);
    assert_close(pt, p, 1e-13);
    assert_int_equal(tokio_stats_pearson(x, off, 8, &rb, &pb), TOKIO_OK);
    assert_close(rb, r, 1e-7);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_betainc_matches_mpmath),
        cmocka_unit_test(test_betainc_matches_closed_forms),
        cmocka_unit_test(test_betainc_ends_and_symmetry),
        cmocka_unit_test(test_betainc_underflow_is_zero_not_nan),
        cmocka_unit_test(test_betainc_rejects_bad_arguments),
        cmocka_unit_test(test_t_pvalue_matches_mpmath),
        cmocka_unit_test(test_t_pvalue_matches_closed_forms),
        cmocka_unit_test(test_t_pvalue_limits),
        cmocka_unit_test(test_pearson_matches_mpmath),
        cmocka_unit_test(test_pearson_three_points),
        cmocka_unit_test(test_pearson_perfect_line_has_p_zero),
        cmocka_unit_test(test_pearson_two_points_is_line_with_p_one),
        cmocka_unit_test(test_pearson_constant_vector_has_no_correlation),
        cmocka_unit_test(test_pearson_needs_two_finite_pairs),
        cmocka_unit_test(test_pearson_is_scale_free_at_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
