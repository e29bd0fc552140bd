/* analysis/diff_amdahl.c: what a diff's changes are worth for the whole:
 * which rows count, their weight with that of the callees that did not
 * change themselves, and Amdahl's estimate beside the measured change. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/diff.h>

#include "analysis/amdahl.h"
#include "analysis/diff_internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

int perfan__diff_amdahl_counts(const perfan_diff *d,
			       const struct perfan_diff_row *w)
{
	if (d->tested)
		return w->self_significant;
	if (w->self_change == 0)
		return 0;
	return isnan(w->self_noise) || fabs(w->self_change) > w->self_noise;
}

/* Whether row W is one of the changes the estimate sums: a change of own
 * time, or code that came or went as a whole. */
static int counts(const perfan_diff *d, const struct perfan_diff_row *w)
{
	if (perfan__diff_amdahl_counts(d, w))
		return 1;
	if (!w->is_new && !w->vanished)
		return 0;
	if (d->tested)
		return w->significant;
	return isnan(w->total_noise) || fabs(w->total_change) > w->total_noise;
}

struct visit {
	perfan_node_id node;
	uint32_t blame; /* the innermost counted function above, or none */
};

/* Run R's self weights, each given to the innermost counted function on
 * its stack (none: left out). */
static int attribute_run(perfan_diff *d, size_t r,
			 const struct perfan_diff_run *run, const uint32_t *map,
			 const unsigned char *target, double *w)
{
	const perfan_profile *p = run->profile;
	struct visit *st = NULL;
	size_t nst = 0, cap = 0;
	if (perfan__grow((void **)&st, &cap, 1, sizeof(*st)))
		return perfan__nomem("diff");
	st[nst++] = (struct visit){PERFAN_ROOT_NODE, UINT32_MAX};
	while (nst) {
		struct visit v = st[--nst];
		if (v.node != PERFAN_ROOT_NODE) {
			if (!perfan_profile_node_total(p, v.node, run->column))
				continue;
			uint32_t fn = map[perfan_profile_node_frame(p, v.node)];
			if (fn != UINT32_MAX && target[fn])
				v.blame = fn;
			if (v.blame != UINT32_MAX)
				w[v.blame * d->nr + r] +=
					(double)perfan_profile_node_self(
						p, v.node, run->column);
		}
		const perfan_node_id *kids;
		size_t nk = perfan_profile_node_children(p, v.node, &kids);
		if (nst + nk > cap &&
		    perfan__grow((void **)&st, &cap, nst + nk, sizeof(*st))) {
			free(st);
			return perfan__nomem("diff");
		}
		for (size_t i = 0; i < nk; i++)
			st[nst++] = (struct visit){kids[i], v.blame};
	}
	free(st);
	return 0;
}

int perfan__diff_attribute(perfan_diff *d, const struct perfan_diff_run *before,
			   const struct perfan_diff_run *after,
			   uint32_t *const *maps)
{
	size_t nf = d->nf ? d->nf : 1;
	unsigned char *target = calloc(nf, 1);
	uint32_t *fn_of = malloc((d->nrows ? d->nrows : 1) * sizeof(*fn_of));
	double *w = calloc(nf * d->nr, sizeof(*w));
	int rc = target && fn_of && w ? 0 : perfan__nomem("diff");
	for (size_t i = 0; i < d->nrows && !rc; i++) {
		struct perfan_diff_row *row = &d->rows[i];
		fn_of[i] = UINT32_MAX;
		row->amdahl = counts(d, row);
		if (!perfan__diff_lookup(d, row->name, &fn_of[i]))
			target[fn_of[i]] = (unsigned char)row->amdahl;
	}
	for (size_t r = 0; r < d->nr; r++) {
		const struct perfan_diff_run *run =
			r < d->nb ? &before[r] : &after[r - d->nb];
		d->no_bound |= !perfan__amdahl_holds(run->profile, run->column);
	}
	for (size_t r = 0; r < d->nr && !rc; r++)
		rc = attribute_run(d, r,
				   r < d->nb ? &before[r] : &after[r - d->nb],
				   maps[r], target, w);
	for (size_t i = 0; i < d->nrows && !rc; i++) {
		struct perfan_diff_row *row = &d->rows[i];
		if (fn_of[i] == UINT32_MAX)
			continue;
		double b = 0, a = 0;
		for (size_t r = 0; r < d->nr; r++)
			*(r < d->nb ? &b : &a) += w[fn_of[i] * d->nr + r];
		row->before_amdahl_weight = b / (double)d->nb;
		row->after_amdahl_weight = a / (double)d->na;
	}
	free(target);
	free(fn_of);
	free(w);
	return rc;
}

static double change(const struct perfan_diff_row *w)
{
	return w->after_amdahl_weight - w->before_amdahl_weight;
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
	double net = 0;
	for (size_t i = 0; i < d->nrows; i++)
		if (d->rows[i].amdahl)
			net += change(&d->rows[i]);
	/* the largest of them by weight, either way, named */
	for (size_t k = 0; k < d->o.amdahl_top; k++) {
		const struct perfan_diff_row *best = NULL;
		double bestc = 0;
		for (size_t i = 0; i < d->nrows; i++) {
			const struct perfan_diff_row *w = &d->rows[i];
			double c = fabs(change(w));
			int taken = !w->amdahl;
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
	}
	double b = out->before_total;
	if (d->no_bound) {
		out->speedup_top = out->speedup_whole = NAN;
		return;
	}
	out->speedup_top = b + net > 0 ? b / (b + net) : INFINITY;
	out->speedup_whole = out->after_total > 0 ? b / out->after_total
						  : INFINITY;
}
