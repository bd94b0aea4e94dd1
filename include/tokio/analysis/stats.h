/*
 * tokio/analysis/stats.h - the few statistics the analyses need, written
 * here rather than pulled from a numerical library: Pearson's correlation
 * coefficient with its two-sided p-value (what the reference got from
 * scipy.stats.pearsonr), Student's t distribution and the regularized
 * incomplete beta function beneath both.
 *
 * Accuracy: the incomplete beta is evaluated by its continued fraction to
 * a relative 1e-15 per step; against 50-digit references results agree
 * to about 1e-14 relative for parameters up to ~100 and 1e-12 for
 * parameters in the thousands (there a * log(x) is ~1e3, and its last
 * ulp, like x's own rounding, is amplified a-fold).
 * All functions are thread-safe (lgamma_r, no state).
 */
#ifndef TOKIO_ANALYSIS_STATS_H
#define TOKIO_ANALYSIS_STATS_H

#include <stddef.h>

#include "tokio/common.h"

/**
 * The regularized incomplete beta function I_x(a, b), the CDF at `x` of
 * the Beta(a, b) distribution, into *out.
 * @return TOKIO_OK; TOKIO_EINVAL (a or b not a positive finite number, x
 * outside [0, 1] or NaN), TOKIO_ERR (the continued fraction did not
 * converge: not seen for a, b below 1e7); on failure *out is NaN.
 */
TOKIO_API int tokio_stats_betainc(double a, double b, double x, double *out);

/**
 * Two-sided p-value of Student's t statistic `t` with `df` degrees of
 * freedom: P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2), into *out.
 * t = +-inf gives 0.
 * @return TOKIO_OK; TOKIO_EINVAL (t NaN, df not positive and finite),
 * TOKIO_ERR as tokio_stats_betainc(); on failure *out is NaN.
 */
TOKIO_API int tokio_stats_t_pvalue(double t, double df, double *out);

/**
 * Pearson's correlation coefficient of the `n` pairs (x[i], y[i]) into
 * *r_out, clipped to [-1, 1], and, if p_out is not NULL, its two-sided
 * p-value for "no correlation" into *p_out: Student's t with n - 2
 * degrees of freedom, as scipy.stats.pearsonr computes it.  Two pairs
 * always lie on a line: r is +-1 and p is 1 (scipy's convention).
 * @return TOKIO_OK; TOKIO_EINVAL when n < 2, a value is not finite, or
 * x or y is constant (the coefficient is then undefined: no correlation
 * can be measured, and the message says which vector); TOKIO_ERR as
 * tokio_stats_betainc().  On failure *r_out and *p_out are NaN.
 */
TOKIO_API int tokio_stats_pearson(const double *x, const double *y, size_t n,
                                  double *r_out, double *p_out);

#endif
