/* sources/pstats_profile.c: stacks estimated from a cProfile dump, which
 * keeps only caller -> callee edges, the way flameprof draws them: from the
 * functions nobody calls down, a function's time on a path is split over
 * its callees in proportion to the edges' cumtime. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sources/pstats_internal.h"
#include "util/error.h"
#include "util/log.h"

/* Paths multiply where functions share callees: past these bounds a
 * path's remaining weight stays with the frame where it stopped. */
#define MAX_DEPTH 256
#define MAX_STACKS (1u << 20)

struct walk {
	const perfan_pstats *s;
	perfan_profile *p;
	perfan_frame_id *frame; /* per function */
	char *on_path;
	perfan_frame_id path[MAX_DEPTH];
	size_t stacks; /* walk calls: paths visited */
	int col;
};

static uint64_t ns(double sec)
{
	return sec > 0 ? (uint64_t)llround(sec * 1e9) : 0;
}

static int walk(struct walk *w, size_t f, size_t depth, double weight)
{
	const struct perfan_pstats_func *fn = &w->s->funcs[f];
	const size_t *ce;
	size_t n = perfan_pstats_callees(w->s, f, &ce), k;
	double sum = fn->tt, factor, self = weight;
	int rc;

	w->stacks++;
	w->path[depth] = w->frame[f];
	w->on_path[f] = 1;
	/* Recursive edges (to a function already on the path) are folded
	 * into the outermost call: its cumtime holds them. */
	for (k = 0; k < n; k++)
		if (!w->on_path[w->s->edges[ce[k]].callee])
			sum += w->s->edges[ce[k]].ct;
	factor = fn->ct > sum ? fn->ct : sum;
	factor = factor > 0 ? weight / factor : 0;
	for (k = 0; k < n && depth + 1 < MAX_DEPTH; k++) {
		const struct perfan_pstats_edge *e = &w->s->edges[ce[k]];
		double cw = e->ct * factor;
		if (w->on_path[e->callee] || !ns(cw) || w->stacks >= MAX_STACKS)
			continue;
		self -= cw;
		if ((rc = walk(w, e->callee, depth + 1, cw)))
			return rc;
	}
	w->on_path[f] = 0;
	if (!ns(self))
		return 0;
	return perfan_profile_add(w->p, w->path, depth + 1, (size_t)w->col,
				  ns(self), NULL, NULL);
}

int perfan_pstats_profile(const perfan_pstats *s, perfan_profile **out)
{
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	struct walk w = {.s = s};
	size_t i, roots = 0, best = SIZE_MAX;
	int rc;

	*out = NULL;
	if ((rc = perfan_profile_new(&w.p, &po)))
		return rc;
	w.col = perfan_profile_add_column(w.p, "cprofile", "ns");
	w.frame = calloc(s->nr_funcs + 1, sizeof(*w.frame));
	w.on_path = calloc(s->nr_funcs + 1, 1);
	rc = w.col < 0 ? w.col : 0;
	if (!rc && (!w.frame || !w.on_path))
		rc = perfan__nomem(NULL);
	for (i = 0; !rc && i < s->nr_funcs; i++) {
		const struct perfan_pstats_func *f = &s->funcs[i];
		int builtin = !strcmp(f->file, "~") && f->line == 0;
		rc = perfan_profile_frame(
			w.p, &w.frame[i], builtin ? s->labels[i] : f->name,
			builtin ? NULL : f->file, builtin ? NULL : f->file,
			f->line,
			builtin ? PERFAN_FRAME_NATIVE : PERFAN_FRAME_PYTHON);
		if (f->listed &&
		    (best == SIZE_MAX || f->ct > s->funcs[best].ct))
			best = i;
	}
	/* The roots are the functions nobody calls; where every function
	 * has a caller (a dump of part of a run), the one with the most
	 * cumulative time, as flameprof falls back to. */
	for (i = 0; !rc && i < s->nr_funcs; i++)
		if (s->funcs[i].listed && !s->funcs[i].nr_callers) {
			roots++;
			rc = walk(&w, i, 0, s->funcs[i].ct);
		}
	if (!rc && !roots && best != SIZE_MAX)
		rc = walk(&w, best, 0, s->funcs[best].ct);
	if (!rc && !perfan_profile_total(w.p, (size_t)w.col))
		rc = perfan__err(PERFAN_EFORMAT,
				 "the profile has no time to draw");
	free(w.frame);
	free(w.on_path);
	if (rc) {
		perfan_profile_free(w.p);
		return rc;
	}
	*out = w.p;
	return 0;
}
