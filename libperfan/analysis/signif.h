/* analysis/signif.h: the statistics behind diffs of several runs: Welch's
 * t-test, Student's t distribution, the binomial test of two counts,
 * Holm's and Benjamini-Hochberg's adjustments for many tests. */
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

/* Welch's test as perfan__welch with each side's variance at least
 * FLOOR_A, FLOOR_B (the variance one run's value would have from sampling
 * alone): a side whose runs agree by chance, or all read 0, is not taken
 * for exact. A side at its floor counts as of known variance in the
 * Welch-Satterthwaite df (both: the normal distribution). */
double perfan__welch_floor(const double *a, size_t na, double floor_a,
			   const double *b, size_t nb, double floor_b,
			   double *se, double *df);

/* Two counts of Poisson processes, K_A with exposure E_A and K_B with
 * E_B: the two-sided p-value of their rates being equal, by the exact
 * conditional binomial test (K_A of K_A + K_B, with probability
 * E_A / (E_A + E_B)). 1 when both are 0. */
double perfan__poisson_two_sided(double ka, double ea, double kb, double eb);

/* P(|T| > t) for Student's t with DF degrees of freedom. */
double perfan__t_two_sided(double t, double df);

/* The t with P(|T| > t) = P. */
double perfan__t_quantile(double p, double df);

/* Holm's step-down adjustment of N p-values in place (NaN ones are left
 * out): rejecting where the adjusted p < alpha keeps the chance of any
 * false finding under alpha. Returns 0 or PERFAN_ENOMEM. */
int perfan__holm(double *p, size_t n);

/* Benjamini-Hochberg's step-up adjustment of N p-values in place (NaN
 * ones are left out): rejecting where the adjusted p (the q-value) < alpha
 * keeps the expected share of false findings among the findings under
 * alpha (for independent or positively dependent tests). Returns 0 or
 * PERFAN_ENOMEM. */
int perfan__bh(double *p, size_t n);

#endif
