/* analysis/diff.c: BEFORE and AFTER runs compared function by function:
 * per-run self and total weights (a recursive function counted once per
 * stack), shares, changes, Welch's t-test across runs with Holm's
 * adjustment, the noise floor and Amdahl's estimate. */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/diff.h>

#include "analysis/diff_internal.h"
#include "analysis/stats.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/opts.h"

static int nomem(void)
{
	return perfan__err(PERFAN_ENOMEM, "diff: out of memory");
}

int perfan_diff_sort_parse(const char *name)
{
	static const char *const keys[] = {"self",   "total", "relative",
					   "before", "after", "name"};
	for (int i = 0; name && i < 6; i++)
		if (!strcmp(name, keys[i]))
			return i;
	return -1;
}

/* ---- functions by name ------------------------------------------------------ */

static int grow_table(perfan_diff *d)
{
	size_t n = d->nslots ? d->nslots * 2 : 1024;
	uint32_t *s = calloc(n, sizeof(*s));
	if (!s)
		return nomem();
	for (size_t i = 0; i < d->nf; i++) {
		size_t h = perfan__hash_mem(d->fname[i], strlen(d->fname[i]));
		for (h &= n - 1; s[h]; h = (h + 1) & (n - 1))
			;
		s[h] = (uint32_t)i + 1;
	}
	free(d->slot);
	d->slot = s;
	d->nslots = n;
	return 0;
}

static int function(perfan_diff *d, const char *name, uint32_t *out)
{
	if ((d->nf + 1) * 2 > d->nslots && grow_table(d))
		return PERFAN_ENOMEM;
	size_t mask = d->nslots - 1;
	size_t h = perfan__hash_mem(name, strlen(name)) & mask;
	for (; d->slot[h]; h = (h + 1) & mask)
		if (!strcmp(d->fname[d->slot[h] - 1], name)) {
			*out = d->slot[h] - 1;
			return 0;
		}
	if (d->nf == d->fcap && perfan__grow((void **)&d->fname, &d->fcap,
					     d->nf + 1, sizeof(*d->fname)))
		return nomem();
	d->fname[d->nf] = name;
	d->slot[h] = (uint32_t)++d->nf;
	*out = (uint32_t)d->nf - 1;
	return 0;
}

/* Function index of each frame of P (UINT32_MAX: process roots, which
 * are not functions). */
static int map_frames(perfan_diff *d, const perfan_profile *p, uint32_t **out)
{
	size_t n = perfan_profile_nr_frames(p);
	uint32_t *m = malloc((n ? n : 1) * sizeof(*m));
	if (!m)
		return nomem();
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(p, (perfan_frame_id)i);
		m[i] = UINT32_MAX;
		if (f->kind != PERFAN_FRAME_PROCESS &&
		    function(d, f->name, &m[i])) {
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
		return nomem();
	d->run_total[r] = (double)perfan_profile_total(p, col);
	if (perfan__grow((void **)&st, &cap, 1, sizeof(*st))) {
		free(onpath);
		return nomem();
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
			rc = nomem();
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

static int make_rows(perfan_diff *d)
{
	size_t nr = d->nr, nb = d->nb, na = d->na;
	d->rows = calloc(d->nf ? d->nf : 1, sizeof(*d->rows));
	double *ps = malloc((d->nf ? d->nf : 1) * sizeof(double));
	double *pt = malloc((d->nf ? d->nf : 1) * sizeof(double));
	double *floor = malloc((d->nf ? d->nf : 1) * sizeof(double));
	if (!d->rows || !ps || !pt || !floor) {
		free(ps);
		free(pt);
		free(floor);
		return nomem();
	}
	d->tested = nb >= 2 && na >= 2;
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
		ps[f] = pt[f] = NAN;
		if (d->tested) {
			double se, df;
			ps[f] = perfan__welch(sv, nb, sv + nb, na, &se, &df);
			pt[f] = perfan__welch(tv, nb, tv + nb, na, &se, &df);
			/* the noise floor from functions that matter */
			double share = w->before_total > w->after_total
					       ? w->before_total
					       : w->after_total;
			if (se > 0 && (d->o.absolute || share >= 0.01))
				floor[nfloor++] =
					se * perfan__t_quantile(d->o.alpha, df);
		}
	}
	int rc = 0;
	if (d->tested && (perfan__holm(ps, d->nf) || perfan__holm(pt, d->nf)))
		rc = PERFAN_ENOMEM;
	for (size_t f = 0; f < d->nf && !rc; f++) {
		struct perfan_diff_row *w = &d->rows[f];
		w->p_self = ps[f];
		w->p_total = pt[f];
		w->significant = d->tested &&
				 (ps[f] < d->o.alpha || pt[f] < d->o.alpha);
	}
	d->noise = NAN;
	if (nfloor) {
		/* median */
		for (size_t i = 1; i < nfloor; i++)
			for (size_t j = i; j > 0 && floor[j - 1] > floor[j];
			     j--) {
				double t = floor[j];
				floor[j] = floor[j - 1];
				floor[j - 1] = t;
			}
		d->noise = nfloor % 2 ? floor[nfloor / 2]
				      : (floor[nfloor / 2 - 1] +
					 floor[nfloor / 2]) /
						2;
	}
	free(ps);
	free(pt);
	free(floor);
	d->nrows = d->nf;
	qsort_r(d->rows, d->nrows, sizeof(*d->rows), cmp_row, &d->o.sort);
	return rc;
}

/* ---- the API ------------------------------------------------------------------------ */

int perfan_diff_new(perfan_diff **out, const struct perfan_diff_run *before,
		    size_t nr_before, const struct perfan_diff_run *after,
		    size_t nr_after, const struct perfan_diff_opts *opts)
{
	if (!out)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_diff_new: out is NULL");
	*out = NULL;
	if (!nr_before || !nr_after || !before || !after)
		return perfan__err(PERFAN_EINVAL, "diff: no run on the %s side",
				   nr_before && before ? "after" : "before");
	perfan_diff *d = calloc(1, sizeof(*d));
	if (!d)
		return nomem();
	PERFAN__OPTS_COPY(d->o, opts);
	if (!(d->o.alpha > 0 && d->o.alpha < 1))
		d->o.alpha = 0.05;
	if (!d->o.amdahl_top)
		d->o.amdahl_top = 5;
	if (d->o.amdahl_top > 16)
		d->o.amdahl_top = 16;
	d->nb = nr_before;
	d->na = nr_after;
	d->nr = nr_before + nr_after;
	int rc = 0;
	uint32_t **maps = calloc(d->nr, sizeof(*maps));
	d->runname = calloc(d->nr, sizeof(*d->runname));
	d->run_total = calloc(d->nr, sizeof(*d->run_total));
	if (!maps || !d->runname || !d->run_total)
		rc = nomem();
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
			rc = nomem();
	}
	for (size_t r = 0; r < d->nr && !rc; r++)
		rc = weigh(d, r, r < d->nb ? &before[r] : &after[r - d->nb],
			   maps[r]);
	for (size_t r = 0; maps && r < d->nr; r++)
		free(maps[r]);
	free(maps);
	if (!rc)
		rc = make_rows(d);
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

void perfan_diff_amdahl(const perfan_diff *d, struct perfan_diff_amdahl *out)
{
	memset(out, 0, sizeof(*out));
	if (!d)
		return;
	for (size_t r = 0; r < d->nr; r++)
		*(r < d->nb ? &out->before_total : &out->after_total) +=
			d->run_total[r];
	out->before_total /= (double)d->nb;
	out->after_total /= (double)d->na;
	/* the largest self changes by weight, either way */
	double net = 0;
	for (size_t k = 0; k < d->o.amdahl_top; k++) {
		const struct perfan_diff_row *best = NULL;
		double bestc = 0;
		for (size_t i = 0; i < d->nrows; i++) {
			const struct perfan_diff_row *w = &d->rows[i];
			double c = fabs(w->after_self_weight -
					w->before_self_weight);
			int taken = 0;
			for (size_t j = 0; j < out->nr_top; j++)
				taken |= out->top[j] == w;
			if (!taken && c > bestc) {
				best = w;
				bestc = c;
			}
		}
		if (!best)
			break;
		out->top[out->nr_top++] = best;
		net += best->after_self_weight - best->before_self_weight;
	}
	double b = out->before_total;
	out->speedup_top = b + net > 0 ? b / (b + net) : INFINITY;
	out->speedup_whole = out->after_total > 0 ? b / out->after_total
						  : INFINITY;
}
