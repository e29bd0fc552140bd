/* analysis/scaling.c: runs at several input sizes: per function (matched by
 * name; its total and self weights as perf report counts them) the
 * exponent of time ~ n^k by least squares on log-log with a t interval,
 * and the whole program's time per size and per doubling. */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/pprof.h>
#include <perfan/report.h>
#include <perfan/scaling.h>

#include "analysis/scaling_result.h"
#include "analysis/signif.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/names.h"
#include "util/opts.h"

int perfan_scaling_sort_parse(const char *name)
{
	static const char *const keys[] = {"exponent", "time", "name"};
	return perfan__name_index(keys, sizeof(keys) / sizeof(*keys), name);
}

/* ---- the fit --------------------------------------------------------------- */

/* Least squares of log W on log SIZE over N runs; NaN unless every W is
 * positive. */
static void fit(const double *size, const double *w, size_t n, double level,
		struct perfan_scaling_fit *out)
{
	out->exponent = out->lo = out->hi = out->se = NAN;
	out->df = n > 2 ? n - 2 : 0;
	double mx = 0, my = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(w[i] > 0))
			return;
		mx += log(size[i]);
		my += log(w[i]);
	}
	mx /= (double)n;
	my /= (double)n;
	double sxx = 0, sxy = 0;
	for (size_t i = 0; i < n; i++) {
		double dx = log(size[i]) - mx;
		sxx += dx * dx;
		sxy += dx * (log(w[i]) - my);
	}
	if (!(sxx > 0))
		return;
	double k = sxy / sxx;
	out->exponent = k;
	if (!out->df)
		return;
	double ssr = 0;
	for (size_t i = 0; i < n; i++) {
		double r = log(w[i]) - my - k * (log(size[i]) - mx);
		ssr += r * r;
	}
	out->se = sqrt(ssr / (double)out->df / sxx);
	double t = perfan__t_quantile(1 - level, (double)out->df);
	out->lo = k - t * out->se;
	out->hi = k + t * out->se;
}

/* ---- functions by name ------------------------------------------------------ */

static int function(perfan_scaling *s, const char *name, uint32_t *out)
{
	if (perfan__idtab_reserve(&s->tab))
		return perfan__nomem("scaling");
	size_t len = strlen(name);
	uint32_t h = perfan__hash32(perfan__hash_mem(name, len));
	size_t i = perfan__idtab_start(&s->tab, h);
	for (;; i = perfan__idtab_step(&s->tab, i)) {
		const struct perfan__idslot *sl = &s->tab.slots[i];
		if (!sl->id1)
			break;
		if (sl->hash == h && !strcmp(s->fname[sl->id1 - 1], name)) {
			*out = sl->id1 - 1;
			return 0;
		}
	}
	if (perfan__grow((void **)&s->fname, &s->fcap, s->nf + 1,
			 sizeof(*s->fname)))
		return perfan__nomem("scaling");
	if (!(s->fname[s->nf] = strdup(name)))
		return perfan__nomem("scaling");
	perfan__idtab_put(&s->tab, i, (uint32_t)s->nf, h);
	*out = (uint32_t)s->nf++;
	return 0;
}

/* ---- rows -------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The distinct sizes and their runs' totals. */
static int make_sizes(perfan_scaling *s)
{
	double *v = malloc(s->nr * sizeof(*v));
	s->sizes = calloc(s->nr, sizeof(*s->sizes));
	if (!v || !s->sizes) {
		free(v);
		return perfan__nomem("scaling");
	}
	memcpy(v, s->size, s->nr * sizeof(*v));
	qsort(v, s->nr, sizeof(*v), cmp_double);
	for (size_t i = 0; i < s->nr; i++)
		if (!s->nsizes || s->sizes[s->nsizes - 1].size != v[i])
			s->sizes[s->nsizes++].size = v[i];
	free(v);
	for (size_t i = 0; i < s->nsizes; i++) {
		struct perfan_scaling_size *z = &s->sizes[i];
		z->min = INFINITY;
		z->max = -INFINITY;
		for (size_t r = 0; r < s->nr; r++) {
			if (s->size[r] != z->size)
				continue;
			double t = s->run_total[r];
			z->nr_runs++;
			z->mean += t;
			z->min = t < z->min ? t : z->min;
			z->max = t > z->max ? t : z->max;
		}
		z->mean /= (double)z->nr_runs;
		z->per_doubling = z->exponent = NAN;
		if (i) {
			const struct perfan_scaling_size *p = &s->sizes[i - 1];
			z->exponent = log2(z->mean / p->mean) /
				      log2(z->size / p->size);
			z->per_doubling = exp2(z->exponent);
		}
	}
	return 0;
}

/* Mean of W over the runs at SIZE. */
static double mean_at(const perfan_scaling *s, const double *w, double size)
{
	double sum = 0;
	size_t n = 0;
	for (size_t r = 0; r < s->nr; r++)
		if (s->size[r] == size) {
			sum += w[r];
			n++;
		}
	return n ? sum / (double)n : 0;
}

static double key_of(const struct perfan_scaling_row *r, int sort)
{
	return sort == PERFAN_SCALING_SORT_TIME ? r->at_largest
						: r->total.exponent;
}

/* Fitted rows by the key (largest first), then the others by time at the
 * largest size; ties by name. */
static int cmp_row(const void *va, const void *vb, void *arg)
{
	const struct perfan_scaling_row *a = va, *b = vb;
	int sort = *(const int *)arg;
	if (a->fitted != b->fitted)
		return a->fitted ? -1 : 1;
	if (!a->fitted && sort != PERFAN_SCALING_SORT_NAME)
		sort = PERFAN_SCALING_SORT_TIME;
	if (sort != PERFAN_SCALING_SORT_NAME) {
		double ka = key_of(a, sort), kb = key_of(b, sort);
		if (ka != kb)
			return ka > kb ? -1 : 1;
	}
	return strcmp(a->name, b->name);
}

static int make_rows(perfan_scaling *s)
{
	size_t nr = s->nr;
	double smallest = s->sizes[0].size;
	double largest = s->sizes[s->nsizes - 1].size;
	double largest_total = s->sizes[s->nsizes - 1].mean;
	s->rows = calloc(s->nf ? s->nf : 1, sizeof(*s->rows));
	if (!s->rows)
		return perfan__nomem("scaling");
	for (size_t f = 0; f < s->nf; f++) {
		const double *tw = &s->tw[f * nr], *sw = &s->sw[f * nr];
		/* the mean share: a sample or two in one short run is not
		 * enough to be fitted */
		double share = 0;
		size_t absent = 0;
		for (size_t r = 0; r < nr; r++) {
			share += tw[r] / s->run_total[r];
			absent += !(tw[r] > 0);
		}
		if (share / (double)nr < s->o.min_share) {
			s->nbelow++;
			continue;
		}
		struct perfan_scaling_row *w = &s->rows[s->nrows++];
		w->name = s->fname[f];
		w->runs_total = tw;
		w->runs_self = sw;
		w->nr_absent = absent;
		w->fitted = !absent;
		fit(s->size, tw, nr, s->o.level, &w->total);
		fit(s->size, sw, nr, s->o.level, &w->self);
		w->flagged = w->fitted && w->total.exponent >= s->o.flag;
		w->at_smallest = mean_at(s, tw, smallest);
		w->at_largest = mean_at(s, tw, largest);
		w->share_at_largest = w->at_largest / largest_total;
	}
	qsort_r(s->rows, s->nrows, sizeof(*s->rows), cmp_row, &s->o.sort);
	return 0;
}

/* ---- reading the runs ----------------------------------------------------------- */

/* The unit run R's weights are in: "ns" for time, else the column's. */
static const char *unit_of(const struct perfan_scaling_run *r)
{
	const char *name = perfan_profile_column_name(r->profile, r->column);
	const char *unit = perfan_profile_column_unit(r->profile, r->column);
	const char *u = perfan_pprof_unit(name, unit);
	if (!strcmp(u, "nanoseconds"))
		return "ns";
	return unit ? unit : "samples";
}

/* Run I's name for messages: its own, else "#I" (1-based) in BUF. */
static const char *run_name(const struct perfan_scaling_run *r, size_t i,
			    char buf[32])
{
	if (r->name)
		return r->name;
	snprintf(buf, 32, "#%zu", i + 1);
	return buf;
}

static int check_runs(perfan_scaling *s, const struct perfan_scaling_run *runs)
{
	char b0[32], bi[32];
	int sizes = 0;
	if (s->nr < 2)
		return perfan__err(PERFAN_EINVAL,
				   "scaling: %zu run%s: give runs at two sizes "
				   "or more",
				   s->nr, s->nr == 1 ? "" : "s");
	for (size_t i = 0; i < s->nr; i++) {
		const struct perfan_scaling_run *r = &runs[i];
		const char *name = run_name(r, i, bi);
		if (!(r->size > 0) || isinf(r->size))
			return perfan__err(
				PERFAN_EINVAL,
				"scaling: run %s: the size %g is not "
				"positive",
				name, r->size);
		if (!r->profile ||
		    r->column >= perfan_profile_nr_columns(r->profile))
			return perfan__err(PERFAN_EINVAL,
					   "scaling: run %s has no column %zu",
					   name, r->column);
		if (!perfan_profile_total(r->profile, r->column))
			return perfan__err(PERFAN_EINVAL,
					   "scaling: run %s has no samples",
					   name);
		const char *u = unit_of(r);
		if (!i && (!(s->unit = strdup(u)) ||
			   !(s->event = strdup(perfan_profile_column_name(
				     r->profile, r->column)))))
			return perfan__nomem("scaling");
		if (strcmp(u, s->unit))
			return perfan__err(PERFAN_EINVAL,
					   "scaling: run %s is weighed in %s, "
					   "run %s in %s: give runs of one "
					   "kind",
					   run_name(&runs[0], 0, b0), s->unit,
					   name, u);
		sizes |= r->size != runs[0].size;
	}
	if (!sizes)
		return perfan__err(PERFAN_EINVAL,
				   "scaling: all runs are at size %g: give "
				   "runs at two sizes or more",
				   s->nr ? runs[0].size : 0.0);
	return 0;
}

/* Each run's functions (perf report's symbol rows: total counted once per
 * stack, self of the innermost function), into tw and sw. */
static int weigh(perfan_scaling *s, const struct perfan_scaling_run *runs)
{
	struct perfan_report_opts ro =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	ro.sort = "sym";
	perfan_report **rep = calloc(s->nr, sizeof(*rep));
	int rc = rep ? 0 : perfan__nomem("scaling");
	for (size_t r = 0; r < s->nr && !rc; r++) {
		rc = perfan_report_new(&rep[r], runs[r].profile, &ro);
		size_t col = runs[r].column;
		size_t n = rc ? 0 : perfan_report_nr_rows(rep[r], col);
		uint32_t id;
		for (size_t i = 0; i < n && !rc; i++) {
			const char *sym =
				perfan_report_row(rep[r], col, i)->sym;
			rc = sym ? function(s, sym, &id) : 0;
		}
	}
	if (!rc) {
		size_t n = (s->nf ? s->nf : 1) * s->nr;
		s->tw = calloc(n, sizeof(*s->tw));
		s->sw = calloc(n, sizeof(*s->sw));
		if (!s->tw || !s->sw)
			rc = perfan__nomem("scaling");
	}
	for (size_t r = 0; r < s->nr && !rc; r++) {
		size_t col = runs[r].column;
		size_t n = perfan_report_nr_rows(rep[r], col);
		s->run_total[r] = (double)perfan_report_total(rep[r], col);
		for (size_t i = 0; i < n && !rc; i++) {
			const struct perfan_report_row *w =
				perfan_report_row(rep[r], col, i);
			uint32_t f;
			if (!w->sym)
				continue;
			/* the same name as a kernel and a user symbol: one
			 * function */
			rc = function(s, w->sym, &f);
			if (!rc) {
				s->tw[f * s->nr + r] += (double)w->total;
				s->sw[f * s->nr + r] += (double)w->self;
			}
		}
	}
	for (size_t r = 0; rep && r < s->nr; r++)
		perfan_report_free(rep[r]);
	free(rep);
	return rc;
}

/* ---- the API ------------------------------------------------------------------------ */

int perfan_scaling_new(perfan_scaling **out,
		       const struct perfan_scaling_run *runs, size_t nr,
		       const struct perfan_scaling_opts *opts)
{
	if (!out)
		return perfan__err_null(__func__, "out");
	*out = NULL;
	if (!runs && nr)
		return perfan__err_null(__func__, "runs");
	perfan_scaling *s = calloc(1, sizeof(*s));
	if (!s)
		return perfan__nomem("scaling");
	int rc = PERFAN__OPTS_COPY(s->o, opts);
	if (rc) {
		free(s);
		return rc;
	}
	if (!(s->o.level > 0 && s->o.level < 1))
		s->o.level = 0.95;
	if (s->o.min_share == 0)
		s->o.min_share = 0.01;
	if (s->o.flag == 0)
		s->o.flag = 1.5;
	s->nr = nr;
	rc = check_runs(s, runs);
	if (!rc) {
		s->size = malloc(nr * sizeof(*s->size));
		s->runname = malloc(nr * sizeof(*s->runname));
		s->run_total = calloc(nr, sizeof(*s->run_total));
		if (!s->size || !s->runname || !s->run_total)
			rc = perfan__nomem("scaling");
	}
	for (size_t r = 0; r < nr && !rc; r++) {
		s->size[r] = runs[r].size;
		s->runname[r] = runs[r].name;
	}
	if (!rc)
		rc = weigh(s, runs);
	if (!rc)
		rc = make_sizes(s);
	if (!rc) {
		fit(s->size, s->run_total, nr, s->o.level, &s->whole);
		rc = make_rows(s);
	}
	if (rc) {
		perfan_scaling_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void perfan_scaling_free(perfan_scaling *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nf; i++)
		free(s->fname[i]);
	free(s->fname);
	perfan__idtab_free(&s->tab);
	free(s->size);
	free(s->runname);
	free(s->run_total);
	free(s->unit);
	free(s->event);
	free(s->tw);
	free(s->sw);
	free(s->rows);
	free(s->sizes);
	free(s);
}

const char *perfan_scaling_unit(const perfan_scaling *s)
{
	return s ? s->unit : NULL;
}

size_t perfan_scaling_nr_sizes(const perfan_scaling *s)
{
	return s ? s->nsizes : 0;
}

const struct perfan_scaling_size *perfan_scaling_size(const perfan_scaling *s,
						      size_t i)
{
	return s && i < s->nsizes ? &s->sizes[i] : NULL;
}

const struct perfan_scaling_fit *perfan_scaling_whole(const perfan_scaling *s)
{
	return s ? &s->whole : NULL;
}

size_t perfan_scaling_nr_rows(const perfan_scaling *s)
{
	return s ? s->nrows : 0;
}

const struct perfan_scaling_row *perfan_scaling_row(const perfan_scaling *s,
						    size_t i)
{
	return s && i < s->nrows ? &s->rows[i] : NULL;
}

size_t perfan_scaling_nr_below(const perfan_scaling *s)
{
	return s ? s->nbelow : 0;
}
