/*
 * src/analysis/stats.c - Pearson correlation, Student's t p-values and
 * the regularized incomplete beta function (tokio/analysis/stats.h).
 *
 * The reference had these from scipy (scipy.stats.pearsonr).  Rather than
 * depend on a numerical library for three functions, they are written
 * here from the textbook mathematics:
 *
 * - I_x(a, b) = x^a (1-x)^b / (a B(a, b)) * 1/(1 + d1/(1 + d2/(1 + ...)))
 *   with d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)) and
 *   d(2m) = m(b-m) x / ((a+2m-1)(a+2m)) (DLMF 8.17.22), evaluated by the
 *   modified Lentz method.  The fraction converges fast for
 *   x < (a+1)/(a+b+2); above that, I_x(a, b) = 1 - I_{1-x}(b, a).
 * - The two-sided t p-value with df degrees of freedom is
 *   I_{df/(df+t^2)}(df/2, 1/2); for a correlation r over n pairs,
 *   t^2 = (n-2) r^2 / (1-r^2), so the argument is simply 1 - r^2.
 *
 * Both x and 1 - x are passed down separately: for a weak correlation x
 * is 1 - r^2, and forming 1 - x again would throw r^2 away (r = 1e-9
 * would give p = 1 exactly instead of 1 - 8e-10 for n = 1000).
 */
#include "tokio/analysis/stats.h"

#include <math.h>
#include <stdint.h>

#include "core/error.h"

/* lgamma() writes the global signgam, a data race between threads;
 * lgamma_r() (glibc, BSDs, macOS; <math.h> declares it under the
 * _DEFAULT_SOURCE the build defines) returns the sign instead. */

/* Stop when a Lentz step changes the fraction by less than this (a few
 * ulps): the fraction then agrees with its limit to about this much. */
#define CF_EPS 1e-15

/* Lentz's stand-in for a zero denominator: small enough never to matter
 * against a real term, large enough that 1/CF_TINY is finite. */
#define CF_TINY 1e-300

/* Each step takes O(1); the fraction needs about sqrt(max(a, b)) steps
 * near the mean (a few thousand for a = b = 1e7), so this bound is only
 * hit by arguments far outside what any analysis passes. */
#define CF_MAX_STEPS 1000000

/* One denominator of the Lentz recurrence, kept away from 0. */
static double
nonzero(double v)
{
    return fabs(v) < CF_TINY ? CF_TINY : v;
}

/*
 * The continued fraction 1/(1 + d1/(1 + d2/(1 + ...))) of I_x(a, b).  The
 * state starts after the first two partial fractions, where C = 1 and
 * D = 1/(1 + d1).
 */
static int
beta_fraction(double a, double b, double x, double *out)
{
    double c = 1.0;
    double d = 1.0 / nonzero(1.0 - (a + b) * x / (a + 1.0));
    double f = d;

    for (long m = 1; m <= CF_MAX_STEPS; m++) {
        double m2 = 2.0 * (double)m;
        double num = (double)m * (b - (double)m) * x /
                     ((a + m2 - 1.0) * (a + m2));

        d = 1.0 / nonzero(1.0 + num * d);
        c = nonzero(1.0 + num / c);
        f *= c * d;
        num = -(a + (double)m) * (a + b + (double)m) * x /
              ((a + m2) * (a + m2 + 1.0));
        d = 1.0 / nonzero(1.0 + num * d);
        c = nonzero(1.0 + num / c);
        double delta = c * d;
        f *= delta;
        if (fabs(delta - 1.0) < CF_EPS) {
            *out = f;
            return TOKIO_OK;
        }
    }
    return tokio__error(TOKIO_ERR, "incomplete beta I_%g(%g, %g): continued "
                        "fraction did not converge in %d steps", x, a, b,
                        CF_MAX_STEPS);
}

/*
 * Stirling's remainder: lgamma(v) = (v - 1/2) log v - v + log(2 pi)/2 +
 * stirling_rest(v).  With the terms B(2k) / (2k (2k-1) v^(2k-1)) up to
 * k = 7 it is good to 1e-17 absolute for v >= STIRLING_MIN.
 */
#define STIRLING_MIN 15.0

static double
stirling_rest(double v)
{
    double v2 = 1.0 / (v * v);

    return (1.0 / 12 + v2 * (-1.0 / 360 + v2 * (1.0 / 1260 + v2 *
            (-1.0 / 1680 + v2 * (1.0 / 1188 + v2 * (-691.0 / 360360 +
            v2 / 156)))))) / v;
}

/*
 * log B(a, b) when at most one of a, b reaches STIRLING_MIN.  The
 * p-values of correlations over n files need B((n-2)/2, 1/2):
 * lgamma(a) - lgamma(a + 1/2) for a in the thousands is a difference of
 * two numbers near 1e4 whose ulps (2e-12) would swamp the result;
 * Stirling's series gives the difference directly (only terms of order
 * b log a remain).
 */
static double
log_beta(double a, double b)
{
    double big = a > b ? a : b, small = a > b ? b : a;
    int sign;

    if (big < STIRLING_MIN)
        return lgamma_r(a, &sign) + lgamma_r(b, &sign) -
               lgamma_r(a + b, &sign);
    /* lgamma(big) - lgamma(big + small), each by Stirling, regrouped so
     * that no two large terms cancel */
    double diff = -small * log(big) -
                  (big + small - 0.5) * log1p(small / big) + small +
                  stirling_rest(big) - stirling_rest(big + small);
    return lgamma_r(small, &sign) + diff;
}

/* log v, given also w = 1 - v: near 1, log1p(-w) keeps w's digits. */
static double
log_of(double v, double w)
{
    return v < 0.5 ? log(v) : log1p(-w);
}

/*
 * log(x^a y^b / B(a, b)), y = 1 - x.  When a and b are both large, each
 * of a log x, b log y and log B is ~a and their sum ~1, so it is
 * regrouped around the mean x0 = a/(a+b) (as TOMS 708 does): with
 * x = x0 (1 + e) and y = y0 (1 + f), a e + b f = 0 exactly, and what is
 * left is a (e - log1p e) + b (f - log1p f), of order 1, plus Stirling's
 * small terms.
 */
static double
log_front(double a, double b, double x, double y)
{
    if (a < STIRLING_MIN || b < STIRLING_MIN)
        return a * log_of(x, y) + b * log_of(y, x) - log_beta(a, b);
    double s = a + b;
    double d = x * b - y * a;           /* a e = d, b f = -d */
    double e = d / a, f = -d / b;
    return -(a * (e - log1p(e)) + b * (f - log1p(f))) +
           0.5 * log(a / s * b / (2.0 * M_PI)) -
           (stirling_rest(a) + stirling_rest(b) - stirling_rest(s));
}

/* I_x(a, b) given x and y = 1 - x, each as exact as the caller has it. */
static int
betainc_xy(double a, double b, double x, double y, double *out)
{
    int rc;
    double frac;

    if (x <= 0.0) {
        *out = 0.0;
        return TOKIO_OK;
    }
    if (y <= 0.0) {
        *out = 1.0;
        return TOKIO_OK;
    }
    /* x^a y^b / B(a, b) in logarithms: x^a alone underflows for the
     * p-values of strong correlations over thousands of files */
    double front = exp(log_front(a, b, x, y));

    if (x < (a + 1.0) / (a + b + 2.0)) {
        if ((rc = beta_fraction(a, b, x, &frac)) < 0)
            return rc;
        *out = front * frac / a;
    } else {
        if ((rc = beta_fraction(b, a, y, &frac)) < 0)
            return rc;
        *out = 1.0 - front * frac / b;
    }
    /* the fraction's last-ulp errors must not leave the CDF's range */
    if (*out < 0.0)
        *out = 0.0;
    else if (*out > 1.0)
        *out = 1.0;
    return TOKIO_OK;
}

int
tokio_stats_betainc(double a, double b, double x, double *out)
{
    int rc;

    *out = NAN;
    if (!(a > 0.0) || !(b > 0.0) || isinf(a) || isinf(b))
        return tokio__error(TOKIO_EINVAL, "incomplete beta: parameters must "
                            "be positive and finite, not a=%g b=%g", a, b);
    if (!(x >= 0.0 && x <= 1.0))
        return tokio__error(TOKIO_EINVAL, "incomplete beta: x=%g is outside "
                            "[0, 1]", x);
    if ((rc = betainc_xy(a, b, x, 1.0 - x, out)) < 0)
        *out = NAN;
    return rc;
}

/* The two-sided p-value once x = df/(df+t^2) and y = 1 - x are known. */
static int
t_pvalue_xy(double df, double x, double y, double *out)
{
    int rc = betainc_xy(df / 2.0, 0.5, x, y, out);

    if (rc < 0)
        *out = NAN;
    return rc;
}

int
tokio_stats_t_pvalue(double t, double df, double *out)
{
    *out = NAN;
    if (isnan(t))
        return tokio__error(TOKIO_EINVAL, "t p-value: t is NaN");
    if (!(df > 0.0) || isinf(df))
        return tokio__error(TOKIO_EINVAL, "t p-value: degrees of freedom "
                            "must be positive and finite, not %g", df);
    double t2 = t * t;
    if (isinf(t2)) {
        *out = 0.0;
        return TOKIO_OK;
    }
    return t_pvalue_xy(df, df / (df + t2), t2 / (df + t2), out);
}

/*
 * A power of two that brings the largest |v[i]| into [0.5, 1): scaling by
 * it is exact, and keeps the sums of squares below from overflowing (file
 * sizes in bytes squared times millions of files) or underflowing.
 */
static double
unit_scale(const double *v, size_t n)
{
    double big = 0.0;
    int e;

    for (size_t i = 0; i < n; i++)
        if (fabs(v[i]) > big)
            big = fabs(v[i]);
    if (big == 0.0)
        return 1.0;
    frexp(big, &e);
    return ldexp(1.0, -e);
}

/* Nonzero unless every value equals the first. */
static int
varies(const double *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[0])
            return 1;
    return 0;
}

static double
scaled_mean(const double *v, size_t n, double s)
{
    double sum = 0.0;

    for (size_t i = 0; i < n; i++)
        sum += v[i] * s;
    return sum / (double)n;
}

int
tokio_stats_pearson(const double *x, const double *y, size_t n,
                    double *r_out, double *p_out)
{
    double dummy;

    if (p_out == NULL)
        p_out = &dummy;
    *r_out = *p_out = NAN;
    if (n < 2)
        return tokio__error(TOKIO_EINVAL, "correlation needs at least 2 "
                            "pairs, not %zu", n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || !isfinite(y[i]))
            return tokio__error(TOKIO_EINVAL, "correlation: pair %zu is not "
                                "finite (%g, %g)", i, x[i], y[i]);
    if (!varies(x, n) || !varies(y, n))
        return tokio__error(TOKIO_EINVAL, "correlation: %s is constant, so "
                            "no correlation can be measured",
                            varies(x, n) ? "y" : "x");
    if (n == 2) {
        /* any two distinct points lie on a line, and nothing is left to
         * test it against: scipy answers r = +-1, p = 1 */
        *r_out = ((x[1] > x[0]) == (y[1] > y[0])) ? 1.0 : -1.0;
        *p_out = 1.0;
        return TOKIO_OK;
    }

    /* two passes (means, then deviations): the one-pass formula loses
     * everything to cancellation when the mean dwarfs the spread */
    double sx = unit_scale(x, n), sy = unit_scale(y, n);
    double mx = scaled_mean(x, n, sx), my = scaled_mean(y, n, sy);
    double sxx = 0.0, syy = 0.0, sxy = 0.0;
    for (size_t i = 0; i < n; i++) {
        double dx = x[i] * sx - mx, dy = y[i] * sy - my;
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    double r = sxy / (sqrt(sxx) * sqrt(syy));
    if (isnan(r))       /* 0/0: differences lost below the scale */
        return tokio__error(TOKIO_EINVAL, "correlation: values vary too "
                            "little to be told apart");
    r = r > 1.0 ? 1.0 : r < -1.0 ? -1.0 : r;

    double ar = fabs(r);
    int rc = t_pvalue_xy((double)(n - 2), (1.0 - ar) * (1.0 + ar), ar * ar,
                         p_out);
    if (rc < 0)
        return rc;
    *r_out = r;
    return TOKIO_OK;
}
