/* analysis/diff.c: BEFORE and AFTER runs compared function by function:
 * per-run self and total weights (a recursive function counted once per
 * stack), shares, changes, the test across runs (Welch's on the per-run
 * shares and weights with a sampling-noise floor, and a count test,
 * Benjamini-Hochberg-adjusted), the noise floor and Amdahl's estimate
 * from the significant changes. */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/diff.h>

#include "analysis/diff_internal.h"
#include "analysis/signif.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/log.h"
#include "util/names.h"
#include "util/opts.h"

int perfan_diff_sort_parse(const char *name)
{
	static const char *const keys[] = {"self",   "total", "relative",
					   "before", "after", "name"};
	return perfan__name_index(keys, sizeof(keys) / sizeof(*keys), name);
}

/* Function index of each frame of P (UINT32_MAX: process roots, which
 * are not functions). */
static int map_frames(perfan_diff *d, const perfan_profile *p, uint32_t **out)
{
	size_t n = perfan_profile_nr_frames(p);
	uint32_t *m = malloc((n ? n : 1) * sizeof(*m));
	if (!m)
		return perfan__nomem("diff");
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(p, (perfan_frame_id)i);
		m[i] = UINT32_MAX;
		if (f->kind != PERFAN_FRAME_PROCESS &&
		    perfan__diff_function(d, f->name, &m[i])) {
			free(m);
			return PERFAN_ENOMEM;
		}
	}
	*out = m;
	return 0;
}

/* ---- weights of one run ---------------------------------------------------------- */

struct visit {
	perfan_node_id node;
	uint32_t fn;
	int leaving;
};

/* Self and total weight of each function in run R: a node's subtree
 * counts toward its function's total unless the function is already on
 * the path above it (recursion counts once). */
static int weigh(perfan_diff *d, size_t r, const struct perfan_diff_run *run,
		 const uint32_t *map)
{
	const perfan_profile *p = run->profile;
	size_t col = run->column, nr = d->nr;
	uint32_t *onpath = calloc(d->nf ? d->nf : 1, sizeof(*onpath));
	struct visit *st = NULL;
	size_t nst = 0, cap = 0;
	int rc = 0;
	if (!onpath)
		return perfan__nomem("diff");
	d->run_total[r] = (double)perfan_profile_total(p, col);
	if (perfan__grow((void **)&st, &cap, 1, sizeof(*st))) {
		free(onpath);
		return perfan__nomem("diff");
	}
	st[nst++] = (struct visit){PERFAN_ROOT_NODE, UINT32_MAX, 0};
	while (nst) {
		struct visit v = st[--nst];
		if (v.leaving) {
			onpath[v.fn]--;
			continue;
		}
		if (v.node != PERFAN_ROOT_NODE) {
			uint64_t total =
				perfan_profile_node_total(p, v.node, col);
			if (!total)
				continue;
			v.fn = map[perfan_profile_node_frame(p, v.node)];
			if (v.fn != UINT32_MAX) {
				d->self_w[v.fn * nr + r] +=
					(double)perfan_profile_node_self(
						p, v.node, col);
				if (!onpath[v.fn]++)
					d->total_w[v.fn * nr + r] +=
						(double)total;
				st[nst++] = (struct visit){v.node, v.fn, 1};
			}
		}
		const perfan_node_id *kids;
		size_t nk = perfan_profile_node_children(p, v.node, &kids);
		if (nst + nk + 1 > cap &&
		    perfan__grow((void **)&st, &cap, nst + nk + 1,
				 sizeof(*st))) {
			rc = perfan__nomem("diff");
			break;
		}
		for (size_t i = 0; i < nk; i++)
			st[nst++] = (struct visit){kids[i], UINT32_MAX, 0};
	}
	free(st);
	free(onpath);
	return rc;
}

/* ---- rows -------------------------------------------------------------------------- */

static double rel(double change, double before)
{
	return before > 0 ? change / before : change > 0 ? INFINITY : 0;
}

static double key_of(const struct perfan_diff_row *r, int sort_key)
{
	switch (sort_key) {
	case PERFAN_DIFF_SORT_TOTAL: return r->total_change;
	case PERFAN_DIFF_SORT_RELATIVE: return r->total_relative;
	case PERFAN_DIFF_SORT_BEFORE: return -r->before_total;
	case PERFAN_DIFF_SORT_AFTER: return -r->after_total;
	default: return r->self_change;
	}
}

/* Change keys: shrinking first (largest drop first), growing next
 * (largest growth first), unchanged last; others by value; ties by
 * name. */
static int cmp_row(const void *va, const void *vb, void *arg)
{
	const struct perfan_diff_row *a = va, *b = vb;
	int sort_key = *(const int *)arg;
	if (sort_key != PERFAN_DIFF_SORT_NAME) {
		double ka = key_of(a, sort_key), kb = key_of(b, sort_key);
		int change = sort_key <= PERFAN_DIFF_SORT_RELATIVE;
		if (change) {
			int ga = ka < 0 ? 0 : ka > 0 ? 1 : 2;
			int gb = kb < 0 ? 0 : kb > 0 ? 1 : 2;
			if (ga != gb)
				return ga - gb;
			if (ga == 1) {
				ka = -ka;
				kb = -kb;
			}
		}
		if (ka != kb)
			return ka < kb ? -1 : 1;
	}
	return strcmp(a->name, b->name);
}

/* What the test of one measure (self or total) of one function gives. */
struct measure {
	double p_share, p_abs; /* NaN: not tested */
	double se, df;         /* of the shown values' test (noise floor) */
	double noise;          /* sampling-noise half-width of the change */
	double share_change, abs_change;
};

/* The mean of X over runs FROM..TO. */
static double mean_of(const double *x, size_t from, size_t to)
{
	double s = 0;
	for (size_t r = from; r < to; r++)
		s += x[r];
	return to > from ? s / (double)(to - from) : 0;
}

/* Test the weights W[0..nr) of one measure of one function: Welch's test
 * on the per-run values, each side's variance floored at what sampling
 * alone gives, and, with sample counts, the test of the counts; a
 * p-value is the larger of the two. Values: the shares of each run's
 * total; and the weight per run, raw with absolute, else as the share
 * times the side's mean total, so that a run the machine slowed down
 * (every function's weight larger) does not pass for a change. TMP holds
 * 3 * nr values. */
static void test_measure(const perfan_diff *d, const double *w, int test,
			 double *tmp, struct measure *m)
{
	size_t nb = d->nb, na = d->na, nr = d->nr;
	double *share = tmp, *abs = tmp + nr, *cnt = tmp + 2 * nr;
	double tbar[2] = {mean_of(d->run_total, 0, nb),
			  mean_of(d->run_total, nb, nr)};
	double nbar[2] = {mean_of(d->nsamp, 0, nb), mean_of(d->nsamp, nb, nr)};
	double wall = 0, tall = 0, cs[2] = {0, 0}, ns[2] = {0, 0};
	double ca[2] = {0, 0};
	for (size_t r = 0; r < nr; r++) {
		int side = r >= nb;
		double t = d->run_total[r];
		share[r] = t > 0 ? w[r] / t : 0;
		abs[r] = d->o.absolute ? w[r] : share[r] * tbar[side];
		wall += w[r];
		tall += t;
		cnt[r] = t > 0 && d->counts ? w[r] * d->nsamp[r] / t : 0;
		cs[side] += cnt[r];
		ns[side] += d->nsamp[r];
		/* counts per run as if every run had its side's mean
		 * number of samples (raw with absolute) */
		ca[side] += d->o.absolute || !(d->nsamp[r] > 0)
				    ? cnt[r]
				    : cnt[r] * nbar[side] / d->nsamp[r];
	}
	m->share_change = mean_of(share, nb, nr) - mean_of(share, 0, nb);
	m->abs_change = mean_of(abs, nb, nr) - mean_of(abs, 0, nb);
	/* under no change: one share p0 for all runs (or one weight per
	 * run m0); the variance of a run's value from sampling alone */
	double p0 = tall > 0 ? wall / tall : 0;
	double m0 = mean_of(abs, 0, nr);
	double fs[2] = {0, 0}, fa[2] = {0, 0}, vs_mean = 0, va_mean = 0;
	for (size_t r = 0; d->counts && r < nr; r++) {
		int side = r >= nb;
		double n = (double)(side ? na : nb), nsr = d->nsamp[r];
		if (!(nsr > 0))
			continue;
		double vs = p0 * (1 - p0) / nsr, va;
		if (d->o.absolute) {
			double per = d->run_total[r] / nsr;
			va = m0 / per * per * per; /* a Poisson count */
		} else {
			double pa = tbar[side] > 0 ? m0 / tbar[side] : 0;
			pa = pa < 1 ? pa : 1;
			va = tbar[side] * tbar[side] * pa * (1 - pa) / nsr;
		}
		fs[side] += vs / n;
		fa[side] += va / n;
		vs_mean += vs / (n * n);
		va_mean += va / (n * n);
	}
	m->noise = d->counts
			   ? 1.959964 * sqrt(d->o.absolute ? va_mean : vs_mean)
			   : NAN;
	m->p_share = m->p_abs = m->se = m->df = NAN;
	if (!test)
		return;
	double se_s, df_s, se_a, df_a;
	m->p_share = perfan__welch_floor(share, nb, fs[0], share + nb, na,
					 fs[1], &se_s, &df_s);
	m->p_abs = perfan__welch_floor(abs, nb, fa[0], abs + nb, na, fa[1],
				       &se_a, &df_a);
	if (d->counts) {
		double ps =
			perfan__poisson_two_sided(cs[0], ns[0], cs[1], ns[1]);
		double pa = perfan__poisson_two_sided(ca[0], (double)nb, ca[1],
						      (double)na);
		m->p_share = ps > m->p_share ? ps : m->p_share;
		m->p_abs = pa > m->p_abs ? pa : m->p_abs;
	}
	m->se = d->o.absolute ? se_a : se_s;
	m->df = d->o.absolute ? df_a : df_s;
}

/* Whether a measure's change is significant, and the q-value that says
 * so (QS, QA: of the share and of the weight). */
static int decide(const perfan_diff *d, const struct measure *m, double qs,
		  double qa, double change, double *q)
{
	int agree = 1;
	if (d->o.absolute)
		*q = qa;
	else if (d->o.shares_only)
		*q = qs;
	else {
		/* an intersection-union test: both must reject, so the
		 * larger q-value is the test's */
		*q = qs > qa ? qs : qa;
		agree = (m->share_change > 0) == (m->abs_change > 0) &&
			m->share_change != 0 && m->abs_change != 0;
	}
	if (isnan(*q))
		return 0;
	return *q < d->o.alpha && agree &&
	       (isnan(d->noise) || fabs(change) >= d->noise);
}

static double median(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return !n ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The fewest samples, in all runs together, that a count test can tell
 * from sampling noise at 5 %: 6 against 0 with equal exposure gives
 * p = 2 / 2^6 = 0.031. */
#define MIN_SAMPLES 6

static int make_rows(perfan_diff *d)
{
	size_t nr = d->nr, nb = d->nb, na = d->na, nf = d->nf ? d->nf : 1;
	d->rows = calloc(nf, sizeof(*d->rows));
	/* q-values: self share, self weight, total share, total weight */
	double *q = malloc(4 * nf * sizeof(double));
	double *floor = malloc(nf * sizeof(double));
	double *tmp = malloc(3 * nr * sizeof(double));
	struct measure *ms = malloc(2 * nf * sizeof(*ms));
	int rc = 0;
	if (!d->rows || !q || !floor || !tmp || !ms) {
		rc = perfan__nomem("diff");
		goto out;
	}
	d->tested = nb >= 2 && na >= 2;
	double min_share = d->o.min_share > 0 ? d->o.min_share : 0.005;
	size_t nfloor = 0;
	for (size_t f = 0; f < d->nf; f++) {
		double *sv = &d->self_v[f * nr], *tv = &d->total_v[f * nr];
		for (size_t r = 0; r < nr; r++) {
			double div = d->o.absolute || !d->run_total[r]
					     ? 1
					     : d->run_total[r];
			if (!d->o.absolute && !d->run_total[r]) {
				sv[r] = tv[r] = 0;
				continue;
			}
			sv[r] = d->self_w[f * nr + r] / div;
			tv[r] = d->total_w[f * nr + r] / div;
		}
		struct perfan_diff_row *w = &d->rows[f];
		double var;
		w->name = d->fname[f];
		perfan__mean_var(sv, nb, &w->before_self, &var);
		perfan__mean_var(sv + nb, na, &w->after_self, &var);
		perfan__mean_var(tv, nb, &w->before_total, &var);
		perfan__mean_var(tv + nb, na, &w->after_total, &var);
		w->self_change = w->after_self - w->before_self;
		w->total_change = w->after_total - w->before_total;
		w->self_relative = rel(w->self_change, w->before_self);
		w->total_relative = rel(w->total_change, w->before_total);
		w->is_new = w->before_total == 0 && w->after_total > 0;
		w->vanished = w->after_total == 0 && w->before_total > 0;
		double bw = 0, aw = 0;
		for (size_t r = 0; r < nb; r++)
			bw += d->self_w[f * nr + r];
		for (size_t r = nb; r < nr; r++)
			aw += d->self_w[f * nr + r];
		w->before_self_weight = bw / (double)nb;
		w->after_self_weight = aw / (double)na;
		w->runs_self = sv;
		w->runs_total = tv;
		/* which to test: the mean share over all runs (and, with
		 * counts, the samples of all runs) is what no change would
		 * give either side, and says nothing of the split between
		 * them: filtering on it leaves the tests' error rates as they
		 * are (independent filtering) */
		double ms_self = 0, ms_total = 0, c_self = 0, c_total = 0;
		for (size_t r = 0; r < nr; r++)
			if (d->run_total[r] > 0) {
				double k = d->nsamp[r] / d->run_total[r];
				ms_self +=
					d->self_w[f * nr + r] / d->run_total[r];
				ms_total += d->total_w[f * nr + r] /
					    d->run_total[r];
				c_self += d->self_w[f * nr + r] * k;
				c_total += d->total_w[f * nr + r] * k;
			}
		ms_self /= (double)nr;
		ms_total /= (double)nr;
		int ts = d->tested && ms_self >= min_share &&
			 (!d->counts || c_self >= MIN_SAMPLES);
		int tt = d->tested && ms_total >= min_share &&
			 (!d->counts || c_total >= MIN_SAMPLES);
		struct measure *m = &ms[2 * f];
		test_measure(d, &d->self_w[f * nr], ts, tmp, &m[0]);
		test_measure(d, &d->total_w[f * nr], tt, tmp, &m[1]);
		w->tested = ts || tt;
		d->nr_tested += (size_t)w->tested;
		w->self_noise = m[0].noise;
		w->total_noise = m[1].noise;
		q[0 * nf + f] = m[0].p_share;
		q[1 * nf + f] = m[0].p_abs;
		q[2 * nf + f] = m[1].p_share;
		q[3 * nf + f] = m[1].p_abs;
		/* the noise floor from the functions tested */
		if (tt && m[1].se > 0)
			floor[nfloor++] =
				m[1].se *
				perfan__t_quantile(d->o.alpha, m[1].df);
	}
	for (int k = 0; k < 4 && !rc; k++)
		rc = perfan__bh(&q[(size_t)k * nf], d->nf);
	if (rc)
		goto out;
	d->noise = median(floor, nfloor);
	for (size_t f = 0; f < d->nf; f++) {
		struct perfan_diff_row *w = &d->rows[f];
		w->self_significant = decide(d, &ms[2 * f], q[f], q[nf + f],
					     w->self_change, &w->p_self);
		w->total_significant = decide(d, &ms[2 * f + 1], q[2 * nf + f],
					      q[3 * nf + f], w->total_change,
					      &w->p_total);
		w->significant = w->self_significant || w->total_significant;
	}
	d->nrows = d->nf;
	qsort_r(d->rows, d->nrows, sizeof(*d->rows), cmp_row, &d->o.sort);
out:
	free(q);
	free(floor);
	free(tmp);
	free(ms);
	return rc;
}

/* The samples behind each run, and the unit of the weights. */
static int sample_counts(perfan_diff *d, const struct perfan_diff_run *before,
			 const struct perfan_diff_run *after)
{
	d->nsamp = calloc(d->nr, sizeof(*d->nsamp));
	if (!d->nsamp)
		return perfan__nomem("diff");
	d->counts = 1;
	int all_samples = 1;
	for (size_t r = 0; r < d->nr; r++) {
		const struct perfan_diff_run *run =
			r < d->nb ? &before[r] : &after[r - d->nb];
		const char *u =
			perfan_profile_column_unit(run->profile, run->column);
		int samples = u && !strcmp(u, "samples");
		all_samples &= samples;
		d->nsamp[r] = samples           ? d->run_total[r]
			      : d->o.nr_samples ? d->o.nr_samples[r]
						: 0;
		if (!(d->nsamp[r] > 0) && d->run_total[r] > 0)
			d->counts = 0;
	}
	const char *name =
		perfan_profile_column_name(before->profile, before->column);
	const char *unit =
		perfan_profile_column_unit(before->profile, before->column);
	d->unit_scale = 1;
	if (all_samples)
		d->unit = "samples";
	else if ((unit && !strcmp(unit, "ns")) ||
		 (unit && !strcmp(unit, "period") && name &&
		  (!strncmp(name, "cpu-clock", 9) ||
		   !strncmp(name, "task-clock", 10)))) {
		d->unit = "ms";
		d->unit_scale = 1e-6;
	} else
		d->unit = name && *name ? name : unit ? unit : "weight";
	return 0;
}

/* ---- the API ------------------------------------------------------------------------ */

int perfan_diff_new(perfan_diff **out, const struct perfan_diff_run *before,
		    size_t nr_before, const struct perfan_diff_run *after,
		    size_t nr_after, const struct perfan_diff_opts *opts)
{
	if (!out)
		return perfan__err_null(__func__, "out");
	*out = NULL;
	if (!nr_before || !nr_after || !before || !after)
		return perfan__err(PERFAN_EINVAL, "diff: no run on the %s side",
				   nr_before && before ? "after" : "before");
	perfan_diff *d = calloc(1, sizeof(*d));
	if (!d)
		return perfan__nomem("diff");
	int rc = PERFAN__OPTS_COPY(d->o, opts);
	if (rc) {
		free(d);
		return rc;
	}
	if (!(d->o.alpha > 0 && d->o.alpha < 1))
		d->o.alpha = 0.05;
	if (!d->o.amdahl_top)
		d->o.amdahl_top = 5;
	if (d->o.amdahl_top > 16)
		d->o.amdahl_top = 16;
	d->nb = nr_before;
	d->na = nr_after;
	d->nr = nr_before + nr_after;
	rc = 0;
	uint32_t **maps = calloc(d->nr, sizeof(*maps));
	d->runname = calloc(d->nr, sizeof(*d->runname));
	d->run_total = calloc(d->nr, sizeof(*d->run_total));
	if (!maps || !d->runname || !d->run_total)
		rc = perfan__nomem("diff");
	for (size_t r = 0; r < d->nr && !rc; r++) {
		const struct perfan_diff_run *run =
			r < d->nb ? &before[r] : &after[r - d->nb];
		d->runname[r] = run->name;
		if (!run->profile ||
		    run->column >= perfan_profile_nr_columns(run->profile))
			rc = perfan__err(PERFAN_EINVAL,
					 "diff: run %s has no column %zu",
					 run->name ? run->name : "?",
					 run->column);
		else
			rc = map_frames(d, run->profile, &maps[r]);
	}
	if (!rc) {
		size_t n = (d->nf ? d->nf : 1) * d->nr;
		d->self_w = calloc(n, sizeof(double));
		d->total_w = calloc(n, sizeof(double));
		d->self_v = calloc(n, sizeof(double));
		d->total_v = calloc(n, sizeof(double));
		if (!d->self_w || !d->total_w || !d->self_v || !d->total_v)
			rc = perfan__nomem("diff");
	}
	for (size_t r = 0; r < d->nr && !rc; r++)
		rc = weigh(d, r, r < d->nb ? &before[r] : &after[r - d->nb],
			   maps[r]);
	if (!rc)
		rc = sample_counts(d, before, after);
	if (!rc)
		rc = make_rows(d);
	if (!rc)
		rc = perfan__diff_attribute(d, before, after, maps);
	for (size_t r = 0; maps && r < d->nr; r++)
		free(maps[r]);
	free(maps);
	if (rc) {
		perfan_diff_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

void perfan_diff_free(perfan_diff *d)
{
	if (!d)
		return;
	free(d->runname);
	free(d->run_total);
	free(d->fname);
	free(d->slot);
	free(d->self_w);
	free(d->total_w);
	free(d->self_v);
	free(d->total_v);
	free(d->rows);
	free(d->nsamp);
	free(d);
}

size_t perfan_diff_nr_rows(const perfan_diff *d)
{
	return d ? d->nrows : 0;
}

const struct perfan_diff_row *perfan_diff_row(const perfan_diff *d, size_t i)
{
	return d && i < d->nrows ? &d->rows[i] : NULL;
}

int perfan_diff_tested(const perfan_diff *d)
{
	return d && d->tested;
}

double perfan_diff_noise_floor(const perfan_diff *d)
{
	return d ? d->noise : NAN;
}

const char *perfan_diff_unit(const perfan_diff *d, double *scale)
{
	if (scale)
		*scale = d ? d->unit_scale : 1;
	return d ? d->unit : "weight";
}
