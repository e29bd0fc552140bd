/* analysis/stats.h: the statistics behind diffs of several runs: Welch's
 * t-test, Student's t distribution, Holm's adjustment for many tests. */
#ifndef PERFAN_ANALYSIS_STATS_H
#define PERFAN_ANALYSIS_STATS_H

#include <stddef.h>

/* Mean and sample variance (n - 1) of X[0..N). */
void perfan__mean_var(const double *x, size_t n, double *mean, double *var);

/* Welch's t-test of the means of A and B (at least two values each):
 * the two-sided p-value; *SE gets the standard error of the difference
 * and *DF the Welch-Satterthwaite degrees of freedom. Equal samples
 * without variance give p = 1, different ones p = 0. */
double perfan__welch(const double *a, size_t na, const double *b, size_t nb,
		     double *se, double *df);

/* P(|T| > t) for Student's t with DF degrees of freedom. */
double perfan__t_two_sided(double t, double df);

/* The t with P(|T| > t) = P. */
double perfan__t_quantile(double p, double df);

/* Holm's step-down adjustment of N p-values in place (NaN ones are left
 * out): rejecting where the adjusted p < alpha keeps the chance of any
 * false finding under alpha. Returns 0 or PERFAN_ENOMEM. */
int perfan__holm(double *p, size_t n);

#endif
