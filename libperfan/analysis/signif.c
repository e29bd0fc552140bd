/* analysis/signif.c: Welch's t-test with Student's t distribution and the
 * binomial test of two counts, both from the regularized incomplete beta
 * function (a continued fraction, evaluated with the modified Lentz
 * method), and Holm's and Benjamini-Hochberg's adjustments. */
#include <math.h>
#include <stdlib.h>

#include "analysis/signif.h"
#include "util/cmp.h"
#include "util/error.h"
#include "util/log.h"

void perfan__mean_var(const double *x, size_t n, double *mean, double *var)
{
	double m = 0, v = 0;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m = n ? m / (double)n : 0;
	for (size_t i = 0; i < n; i++)
		v += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = n > 1 ? v / (double)(n - 1) : 0;
}

/* One step of the modified Lentz method: C and D updated with the
 * coefficient AA; returns the factor of the running product. */
static double lentz_step(double aa, double *c, double *d)
{
	const double tiny = 1e-300;
	*d = 1 + aa * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + aa / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

/* The continued fraction of I_x(a, b), for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;
	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m;
		h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c,
				&d);
		double del = lentz_step(-(a + m) * (qab + m) * x /
						((a + m2) * (qap + m2)),
					&c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double ibeta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		     b * log1p(-x);
	double bt = exp(lbt);
	if (x < (a + 1) / (a + b + 2))
		return bt * beta_cf(a, b, x) / a;
	return 1 - bt * beta_cf(b, a, 1 - x) / b;
}

double perfan__t_two_sided(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	if (df > 1e6) /* the normal limit */
		return erfc(fabs(t) / sqrt(2));
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double perfan__t_quantile(double p, double df)
{
	double lo = 0, hi = 1;
	if (df > 1e6)
		df = INFINITY;
	while (perfan__t_two_sided(hi, df) > p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (perfan__t_two_sided(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double perfan__welch(const double *a, size_t na, const double *b, size_t nb,
		     double *se, double *df)
{
	return perfan__welch_floor(a, na, 0, b, nb, 0, se, df);
}

double perfan__welch_floor(const double *a, size_t na, double floor_a,
			   const double *b, size_t nb, double floor_b,
			   double *se, double *df)
{
	double ma, va, mb, vb;
	perfan__mean_var(a, na, &ma, &va);
	perfan__mean_var(b, nb, &mb, &vb);
	/* a side at its floor has a known variance: no degrees of freedom
	 * lost to estimating it (Satterthwaite's sum leaves it out) */
	int known_a = va < floor_a, known_b = vb < floor_b;
	if (known_a)
		va = floor_a;
	if (known_b)
		vb = floor_b;
	double qa = va / (double)na, qb = vb / (double)nb;
	double s = sqrt(qa + qb);
	*se = s;
	*df = (double)(na + nb - 2);
	if (na < 2 || nb < 2)
		return NAN;
	if (!(s > 0))
		return ma == mb ? 1 : 0;
	double den = (known_a ? 0 : qa * qa / (double)(na - 1)) +
		     (known_b ? 0 : qb * qb / (double)(nb - 1));
	*df = den > 0 ? (qa + qb) * (qa + qb) / den : INFINITY;
	return perfan__t_two_sided((ma - mb) / s, *df);
}

/* P(X >= K) for X ~ Binomial(N, P), K in 1..N. */
static double binom_upper(double k, double n, double p)
{
	return ibeta(k, n - k + 1, p);
}

double perfan__poisson_two_sided(double ka, double ea, double kb, double eb)
{
	double n = ka + kb;
	if (!(n > 0) || !(ea > 0) || !(eb > 0))
		return 1;
	double p = ea / (ea + eb);
	/* twice the smaller tail, the observed count in both */
	double upper = ka > 0 ? binom_upper(ka, n, p) : 1;
	double lower = ka < n ? 1 - binom_upper(ka + 1, n, p) : 1;
	double two = 2 * (upper < lower ? upper : lower);
	return two < 1 ? two : 1;
}

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *va, const void *vb)
{
	const struct ranked *a = va, *b = vb;
	int c = perfan__cmp_f64(a->p, b->p);
	return c ? c : perfan__cmp_u64(a->i, b->i);
}

/* The p-values of P that are not NaN, smallest first, with their
 * indices; their number in *M. NULL when out of memory. */
static struct ranked *rank(const double *p, size_t n, size_t *m)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	*m = 0;
	if (!r)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[(*m)++] = (struct ranked){p[i], i};
	qsort(r, *m, sizeof(*r), cmp_ranked);
	return r;
}

int perfan__holm(double *p, size_t n)
{
	size_t m;
	struct ranked *r = rank(p, n, &m);
	if (!r)
		return perfan__nomem("diff");
	double run = 0;
	for (size_t k = 0; k < m; k++) {
		double adj = r[k].p * (double)(m - k);
		if (adj > 1)
			adj = 1;
		if (adj < run) /* adjusted values never decrease */
			adj = run;
		run = adj;
		p[r[k].i] = adj;
	}
	free(r);
	return 0;
}

int perfan__bh(double *p, size_t n)
{
	size_t m;
	struct ranked *r = rank(p, n, &m);
	if (!r)
		return perfan__nomem("diff");
	/* from the largest down: q_k = min(p_k m / k, q_k+1) */
	double run = 1;
	for (size_t k = m; k-- > 0;) {
		double adj = r[k].p * (double)m / (double)(k + 1);
		if (adj < run)
			run = adj;
		p[r[k].i] = run;
	}
	free(r);
	return 0;
}
