/* render/svg_diff.c: what a differential flame graph decides before it is
 * drawn: which changes are real (the diff's significant rows, or the
 * sampling-noise options), each frame's colour change, which frames of one
 * side are outlined, and the summary line of the largest real changes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/svg_diff.h"
#include "util/cmp.h"
#include "util/error.h"
#include "util/log.h"

static double share(uint64_t w, uint64_t total)
{
	return total ? (double)w / (double)total : 0;
}

static int by_row_name(const void *a, const void *b)
{
	const struct perfan_diff_row
		*x = *(const struct perfan_diff_row *const *)a,
		*y = *(const struct perfan_diff_row *const *)b;
	return strcmp(x->name, y->name);
}

/* Whether a change from share PB to PA of function NAME is real: its
 * row's significance when the diff was tested, else outside the noise
 * floor and NOISE_SIGMAS of binomial sampling noise. */
static int real(const struct perfan__fg_diff *d, const char *name, double pa,
		double pb)
{
	if (pa == pb)
		return 0;
	if (d->rows) {
		struct perfan_diff_row key = {.name = name};
		const struct perfan_diff_row *
			k = &key,
		       *const *r = name ? bsearch(&k, d->rows, d->nrows,
						  sizeof(*d->rows), by_row_name)
					: NULL;
		return r && (*r)->significant;
	}
	double mag = fabs(pa - pb);
	if (mag < d->op->noise_floor)
		return 0;
	if (d->op->noise_sigmas > 0) {
		double var = 0;
		if (d->total)
			var += pa * (1 - pa) / (double)d->total;
		if (d->base_total)
			var += pb * (1 - pb) / (double)d->base_total;
		if (mag < d->op->noise_sigmas * sqrt(var))
			return 0;
	}
	return 1;
}

static const char *frame_name(const struct perfan__fg_diff *d,
			      const struct perfan_fg_frame *f)
{
	if (f->frame == PERFAN_FG_OTHER || f->frame == PERFAN_FG_ALL)
		return NULL;
	return perfan_profile_frame_get(d->p, f->frame)->name;
}

double perfan__fg_diff_change(const struct perfan__fg_diff *d,
			      const struct perfan_fg_frame *f)
{
	int tot = d->op->color_total;
	double pa = share(tot ? f->width : f->self, d->total);
	double pb = share(tot ? f->base_width : f->base_self, d->base_total);
	if (f->frame == PERFAN_FG_OTHER)
		return 0;
	if (f->frame == PERFAN_FG_ALL)
		return d->rows ? 0 : real(d, NULL, pa, pb) ? pa - pb : 0;
	return real(d, frame_name(d, f), pa, pb) ? pa - pb : 0;
}

int perfan__fg_one_side(const struct perfan_fg_frame *f)
{
	if (f->frame == PERFAN_FG_OTHER || f->frame == PERFAN_FG_ALL)
		return 0;
	return !f->base_width ? 1 : !f->width ? -1 : 0;
}

/* ---- the summary: per function, from the frames drawn ------------------- */

struct fn {
	uint64_t self[2], total[2]; /* after, before */
};

static const perfan_profile *sort_p; /* qsort has no payload */

static int by_frame_name(const void *a, const void *b)
{
	perfan_frame_id x = *(const perfan_frame_id *)a,
			y = *(const perfan_frame_id *)b;
	int c = strcmp(perfan_profile_frame_get(sort_p, x)->name,
		       perfan_profile_frame_get(sort_p, y)->name);
	return c ? c : x < y ? -1 : x > y;
}

/* For each frame of P the first frame of its name: a function is its
 * name, as for the diff, whatever module two builds put it in. */
static perfan_frame_id *by_name(const perfan_profile *p)
{
	size_t nf = perfan_profile_nr_frames(p);
	perfan_frame_id *ids = malloc((nf ? nf : 1) * sizeof(*ids)),
			*canon = malloc((nf ? nf : 1) * sizeof(*canon));
	if (!ids || !canon) {
		free(ids);
		free(canon);
		return NULL;
	}
	for (size_t i = 0; i < nf; i++)
		ids[i] = (perfan_frame_id)i;
	sort_p = p;
	qsort(ids, nf, sizeof(*ids), by_frame_name);
	for (size_t i = 0; i < nf; i++)
		canon[ids[i]] =
			i && !strcmp(perfan_profile_frame_get(p, ids[i])->name,
				     perfan_profile_frame_get(p, ids[i - 1])
					     ->name)
				? canon[ids[i - 1]]
				: ids[i];
	free(ids);
	return canon;
}

/* Each function's self and total weight on both sides over the frames of
 * L (a total counts a stack once however often the function recurs in
 * it), under its name's first frame (CANON): what the graph draws, the
 * same for a pruned read and a whole one. */
static int per_function(const perfan_fg_layout *l, const perfan_profile *p,
			const perfan_frame_id *canon, struct fn **out)
{
	size_t nf = perfan_profile_nr_frames(p),
	       n = perfan_fg_layout_nr_frames(l);
	struct fn *fn = calloc(nf ? nf : 1, sizeof(*fn));
	if (!fn)
		return perfan__nomem("flame graph");
	for (size_t i = 0; i < n; i++) {
		const struct perfan_fg_frame *f = perfan_fg_layout_frame(l, i);
		if (f->frame == PERFAN_FG_OTHER || f->frame == PERFAN_FG_ALL)
			continue;
		perfan_frame_id id = canon[f->frame];
		struct fn *x = &fn[id];
		x->self[0] += f->self;
		x->self[1] += f->base_self;
		size_t a = perfan__fg_layout_parent(l, i);
		while (a != SIZE_MAX) {
			perfan_frame_id up =
				perfan_fg_layout_frame(l, a)->frame;
			if (up != PERFAN_FG_ALL && up != PERFAN_FG_OTHER &&
			    canon[up] == id)
				break;
			a = perfan__fg_layout_parent(l, a);
		}
		if (a == SIZE_MAX) {
			x->total[0] += f->width;
			x->total[1] += f->base_width;
		}
	}
	*out = fn;
	return 0;
}

struct change {
	perfan_frame_id id;
	double delta;
};

static int by_size(const void *a, const void *b)
{
	const struct change *x = a, *y = b;
	/* the largest change first */
	int c = perfan__cmp_f64(fabs(y->delta), fabs(x->delta));
	return c ? c : perfan__cmp_u64(x->id, y->id);
}

/* The length of FR's name as the summary shows it: a Python function
 * without the " (FILE)" or " (FILE:LINE)" its source put after it, FILE
 * being the frame's module (the Python file) and LINE its line. */
static size_t short_name(const struct perfan_frame *fr)
{
	size_t len = strlen(fr->name);
	if (fr->kind != PERFAN_FRAME_PYTHON || !fr->module)
		return len;
	char line[16] = "";
	if (fr->line)
		snprintf(line, sizeof(line), ":%u", fr->line);
	size_t ml = strlen(fr->module), ll = strlen(line);
	size_t tail = 2 + ml + ll + 1; /* " (" FILE LINE ")" */
	if (len < tail)
		return len;
	const char *t = fr->name + len - tail;
	if (!strncmp(t, " (", 2) && !strncmp(t + 2, fr->module, ml) &&
	    !strncmp(t + 2 + ml, line, ll) && t[tail - 1] == ')')
		return len - tail;
	return len;
}

static int summarize(struct perfan__fg_diff *d, const perfan_fg_layout *l,
		     double room)
{
	struct fn *fn = NULL;
	perfan_frame_id *canon = by_name(d->p);
	int rc = canon ? per_function(l, d->p, canon, &fn)
		       : perfan__nomem("flame graph");
	if (rc) {
		free(canon);
		return rc;
	}
	size_t nf = perfan_profile_nr_frames(d->p), nc = 0;
	struct change *ch = malloc((nf ? nf : 1) * sizeof(*ch));
	if (!ch) {
		free(fn);
		free(canon);
		return perfan__nomem("flame graph");
	}
	int tot = d->op->color_total;
	for (size_t i = 0; i < nf; i++) {
		const struct perfan_frame *fr =
			perfan_profile_frame_get(d->p, i);
		if (fr->kind == PERFAN_FRAME_OTHER || canon[i] != i)
			continue;
		double pa =
			share(tot ? fn[i].total[0] : fn[i].self[0], d->total);
		double pb = share(tot ? fn[i].total[1] : fn[i].self[1],
				  d->base_total);
		if (real(d, fr->name, pa, pb))
			ch[nc++] = (struct change){(perfan_frame_id)i, pa - pb};
	}
	qsort(ch, nc, sizeof(*ch), by_size);
	int len = snprintf(d->summary, sizeof(d->summary), "%s of %s share: ",
			   d->rows ? "Largest significant changes"
				   : "Largest changes",
			   tot ? "total" : "self");
	if (!nc)
		snprintf(d->summary, sizeof(d->summary), "%s",
			 d->rows ? "No significant change"
				 : "No change beyond the noise");
	/* as many of the largest as fit, at most five */
	for (size_t i = 0; i < nc && i < 5; i++) {
		const struct perfan_frame *fr =
			perfan_profile_frame_get(d->p, ch[i].id);
		char item[256];
		double pts = 100 * ch[i].delta;
		const struct fn *f = &fn[ch[i].id];
		int n = snprintf(item, sizeof(item), "%s%.*s %s%.1f pts%s",
				 i ? ", " : "", (int)short_name(fr), fr->name,
				 /* U+2212, the minus sign */
				 pts < 0 ? "\xe2\x88\x92" : "+", fabs(pts),
				 !f->total[0]   ? " (vanished)"
				 : !f->total[1] ? " (new)"
						: "");
		/* the minus sign is one character in three bytes */
		double chars = (double)(len + n - (pts < 0 ? 2 : 0));
		if (n < 0 || (size_t)n >= sizeof(item) ||
		    (size_t)(len + n) >= sizeof(d->summary) ||
		    (i && chars > room))
			break;
		memcpy(d->summary + len, item, (size_t)n + 1);
		len += n;
		d->nsummary++;
	}
	free(ch);
	free(fn);
	free(canon);
	return 0;
}

/* ---- the API of this file ------------------------------------------------ */

int perfan__fg_diff_init(struct perfan__fg_diff *d, const perfan_fg_layout *l,
			 const struct perfan_flamegraph_opts *op, double room)
{
	memset(d, 0, sizeof(*d));
	d->op = op;
	d->p = perfan_fg_layout_profile(l);
	d->total = perfan_fg_layout_total(l);
	d->base_total = perfan_fg_layout_base_total(l);
	size_t n = perfan_fg_layout_nr_frames(l);
	if (op->diff && perfan_diff_tested(op->diff)) {
		d->nrows = perfan_diff_nr_rows(op->diff);
		d->rows = malloc((d->nrows ? d->nrows : 1) * sizeof(*d->rows));
		if (!d->rows)
			return perfan__nomem("flame graph");
		for (size_t i = 0; i < d->nrows; i++)
			d->rows[i] = perfan_diff_row(op->diff, i);
		qsort(d->rows, d->nrows, sizeof(*d->rows), by_row_name);
	}
	d->mark = calloc(n ? n : 1, 1);
	d->below = calloc(n ? n : 1, 1);
	if (!d->mark || !d->below) {
		perfan__fg_diff_fini(d);
		return perfan__nomem("flame graph");
	}
	for (size_t i = 0; i < n; i++) {
		const struct perfan_fg_frame *f = perfan_fg_layout_frame(l, i);
		double delta = fabs(perfan__fg_diff_change(d, f));
		if (delta > d->maxdelta)
			d->maxdelta = delta;
		/* one side's frames are outlined where their share is a real
		 * change and no caller is outlined: the frames above an
		 * outlined one are new (or vanished) too and say nothing
		 * more */
		int side = perfan__fg_one_side(f);
		size_t par = perfan__fg_layout_parent(l, i);
		if (par != SIZE_MAX && (d->mark[par] || d->below[par]))
			d->below[i] = 1;
		if (!side || d->below[i])
			continue;
		double pa = share(f->width, d->total),
		       pb = share(f->base_width, d->base_total);
		if (!real(d, frame_name(d, f), pa, pb))
			continue;
		d->mark[i] = (signed char)side;
		d->nnew += side > 0;
		d->nvanished += side < 0;
	}
	int rc = summarize(d, l, room);
	if (rc)
		perfan__fg_diff_fini(d);
	return rc;
}

void perfan__fg_diff_fini(struct perfan__fg_diff *d)
{
	free(d->rows);
	free(d->mark);
	free(d->below);
	d->rows = NULL;
	d->mark = NULL;
	d->below = NULL;
}
