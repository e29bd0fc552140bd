/* render/layout.c: where each frame of a flame graph goes, in weight
 * units: from the stack trie (children in name order, frames narrower than
 * minwidth merged into one "(other)" per parent; with a base column the
 * union of both sides, laid out in each side's own weight and in the
 * union of their shares) or, for a flame
 * chart, from the kept samples in their order (adjacent equal frames
 * merged). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/flamegraph.h>

#include "render/internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

struct perfan_fg_layout {
	const perfan_profile *p;
	perfan_profile *own; /* the reversed profile, with reverse */
	struct perfan_fg_frame *f;
	size_t n, cap;
	uint64_t total, base_total, union_total;
	size_t *par; /* each frame's parent frame (SIZE_MAX: none, or unknown) */
	size_t cur_parent; /* the parent of the frames emitted now */
};

static int emit(perfan_fg_layout *l, const struct perfan_fg_frame *f)
{
	void **const arrays[] = {(void **)&l->f, (void **)&l->par};
	const size_t size[] = {sizeof(*l->f), sizeof(*l->par)};
	if (perfan__grow_each(arrays, size, 2, &l->cap, l->n + 1))
		return perfan__nomem("flame graph");
	l->par[l->n] = l->cur_parent;
	l->f[l->n++] = *f;
	return 0;
}

/* Emit F, then make room for one more of the caller's open frames (*ST,
 * NST of SIZE bytes each, *CAP of room): the walks' step before they
 * descend into F. */
static int emit_open(perfan_fg_layout *l, const struct perfan_fg_frame *f,
		     void **st, size_t *cap, size_t nst, size_t size)
{
	int rc = emit(l, f);
	if (!rc && nst == *cap && perfan__grow(st, cap, nst + 1, size))
		rc = perfan__nomem("flame graph");
	return rc;
}

/* The share of the total below which a frame is merged into "(other)". */
static double fraction(const struct perfan_flamegraph_opts *o)
{
	double mw = o->minwidth < 0 ? PERFAN__FG_MINWIDTH : o->minwidth;
	if (o->minwidth_percent)
		return mw / 100.0;
	double px = perfan__fg_width(o) - 2 * PERFAN__FG_XPAD;
	return px > 0 ? mw / px : 0;
}

/* The weight below which a frame is merged into "(other)". */
static double threshold(const struct perfan_flamegraph_opts *o, uint64_t total)
{
	return fraction(o) * (double)total;
}

double perfan_flamegraph_prune_fraction(const struct perfan_flamegraph_opts *o)
{
	/* reversed stacks and flame charts need every stack */
	return o->reverse || o->flamechart ? 0 : fraction(o);
}

/* ---- reversed stacks --------------------------------------------------------- */

/* A copy of P's stacks leaf first, in the columns the graph uses. */
static int reverse_profile(perfan_fg_layout *l,
			   const struct perfan_flamegraph_opts *o)
{
	const perfan_profile *p = l->p;
	size_t cols[2] = {o->column, o->base_column},
	       ncols = o->base_column == PERFAN_FG_NO_BASE ? 1 : 2;
	int newcol[2];
	perfan_frame_id *map = NULL, *path = NULL;
	size_t nf = perfan_profile_nr_frames(p), cap = 0;
	int rc = perfan_profile_new(&l->own, NULL);
	if (rc)
		return rc;
	for (size_t c = 0; c < ncols; c++) {
		newcol[c] = perfan_profile_add_column(
			l->own, perfan_profile_column_name(p, cols[c]),
			perfan_profile_column_unit(p, cols[c]));
		if (newcol[c] < 0)
			return newcol[c];
		perfan_profile_set_column_kind(
			l->own, (size_t)newcol[c],
			perfan_profile_column_kind(p, cols[c]));
	}
	map = malloc((nf ? nf : 1) * sizeof(*map));
	if (!map)
		return perfan__nomem("flame graph");
	for (size_t i = 0; i < nf; i++)
		map[i] = PERFAN_FG_ALL; /* not interned yet */
	size_t nn = perfan_profile_nr_nodes(p);
	for (perfan_node_id n = 1; n < nn && !rc; n++) {
		uint64_t w[2];
		int any = 0;
		for (size_t c = 0; c < ncols; c++)
			any |= (w[c] = perfan_profile_node_self(p, n,
								cols[c])) != 0;
		if (!any)
			continue;
		size_t depth = perfan_profile_node_depth(p, n), i = 0;
		if (depth > cap &&
		    perfan__grow((void **)&path, &cap, depth, sizeof(*path))) {
			rc = perfan__nomem("flame graph");
			break;
		}
		/* walking up from the leaf gives the reversed order */
		for (perfan_node_id x = n; x != PERFAN_ROOT_NODE && i < depth;
		     x = perfan_profile_node_parent(p, x)) {
			perfan_frame_id id = perfan_profile_node_frame(p, x);
			if (map[id] == PERFAN_FG_ALL &&
			    (rc = perfan_profile_frame_copy(l->own, &map[id], p,
							    id)))
				break;
			path[i++] = map[id];
		}
		for (size_t c = 0; c < ncols && !rc; c++)
			if (w[c])
				rc = perfan_profile_add(l->own, path, i,
							(size_t)newcol[c], w[c],
							NULL, NULL);
	}
	free(map);
	free(path);
	return rc;
}

/* ---- from the trie ------------------------------------------------------------ */

struct open_node {
	perfan_node_id node;
	uint64_t offset, base_offset;
	uint32_t depth;
	size_t index; /* its frame's */
};

/* Weight W of TOTAL in PERFAN__FG_UNION parts, at least 1 where W is
 * not 0, so that no frame with weight lacks a union width. */
static uint64_t union_part(uint64_t w, uint64_t total)
{
	if (!w || !total)
		return 0;
	uint64_t u =
		(uint64_t)((double)w / (double)total * PERFAN__FG_UNION + 0.5);
	return u ? u : 1;
}

/* The union shape of the laid-out frames: a frame's union width is the
 * larger of its two self shares ("(other)": of its two widths) plus its
 * children's union widths, so that it is at least as wide as on either
 * side and holds its children exactly. From the frames, not the trie, so
 * that a pruned read, whose narrow stacks were merged as they were read,
 * gives the same shape. Parents come before their children, and siblings
 * left to right. */
static int union_shape(perfan_fg_layout *l)
{
	size_t n = l->n;
	uint64_t *cur = malloc((n ? n : 1) * sizeof(*cur));
	if (!cur)
		return perfan__nomem("flame graph");
	for (size_t i = n; i-- > 0;) {
		struct perfan_fg_frame *f = &l->f[i];
		int other = f->frame == PERFAN_FG_OTHER;
		uint64_t a = union_part(other ? f->width : f->self, l->total);
		uint64_t b = union_part(other ? f->base_width : f->base_self,
					l->base_total);
		f->union_width += a > b ? a : b;
		if (l->par[i] != SIZE_MAX)
			l->f[l->par[i]].union_width += f->union_width;
	}
	for (size_t i = 0; i < n; i++) {
		struct perfan_fg_frame *f = &l->f[i];
		if (l->par[i] != SIZE_MAX) {
			f->union_offset = cur[l->par[i]];
			cur[l->par[i]] += f->union_width;
		}
		cur[i] = f->union_offset;
	}
	l->union_total = n ? l->f[0].union_width : 0;
	free(cur);
	return 0;
}

/* With a base column BASE (else PERFAN_FG_NO_BASE) the frames are those
 * of either side, each side laid out in its own weight with the same
 * order, and a frame is narrow when it is narrow on both: below THR
 * after, below BTHR before. */
static int layout_trie(perfan_fg_layout *l, const perfan_profile *p, size_t col,
		       size_t base, double thr, double bthr)
{
	struct open_node *st = NULL;
	size_t nst = 0, cap = 0;
	int rc = 0, diff = base != PERFAN_FG_NO_BASE;
	struct perfan_fg_frame all = {.frame = PERFAN_FG_ALL,
				      .width = l->total};
	if (diff) {
		all.self = perfan_profile_node_self(p, PERFAN_ROOT_NODE, col);
		all.base_self =
			perfan_profile_node_self(p, PERFAN_ROOT_NODE, base);
		all.base_width = l->base_total;
	}
	if ((rc = emit(l, &all)))
		return rc;
	if (!l->total && !l->base_total)
		return 0;
	if (perfan__grow((void **)&st, &cap, 1, sizeof(*st)))
		return perfan__nomem("flame graph");
	st[nst++] = (struct open_node){PERFAN_ROOT_NODE, 0, 0, 0, 0};
	while (nst && !rc) {
		struct open_node x = st[--nst];
		const perfan_node_id *kids;
		size_t nk = perfan_profile_node_children(p, x.node, &kids);
		uint64_t off = x.offset, other = 0;
		uint64_t boff = x.base_offset, bother = 0;
		size_t first = nst;
		l->cur_parent = x.index;
		for (size_t i = 0; i < nk; i++) {
			uint64_t w = perfan_profile_node_total(p, kids[i], col);
			uint64_t bw = diff ? perfan_profile_node_total(
						     p, kids[i], base)
					   : 0;
			if (!w && !bw)
				continue;
			/* a side without weight makes nothing wide */
			int narrow = (double)w < thr || !l->total;
			if (diff)
				narrow = narrow &&
					 ((double)bw < bthr || !l->base_total);
			if (narrow ||
			    perfan_profile_frame_get(
				    p, perfan_profile_node_frame(p, kids[i]))
					    ->kind == PERFAN_FRAME_OTHER) {
				other += w;
				bother += bw;
				continue;
			}
			struct perfan_fg_frame f = {
				.frame = perfan_profile_node_frame(p, kids[i]),
				.depth = x.depth + 1,
				.offset = off,
				.width = w,
			};
			if (diff) {
				f.self = perfan_profile_node_self(p, kids[i],
								  col);
				f.base_self = perfan_profile_node_self(
					p, kids[i], base);
				f.base_offset = boff;
				f.base_width = bw;
			}
			if ((rc = emit_open(l, &f, (void **)&st, &cap, nst,
					    sizeof(*st))))
				break;
			st[nst++] = (struct open_node){kids[i], off, boff,
						       f.depth, l->n - 1};
			off += w;
			boff += bw;
		}
		if (!rc && (other || bother)) {
			struct perfan_fg_frame f = {
				.frame = PERFAN_FG_OTHER,
				.depth = x.depth + 1,
				.offset = off,
				.width = other,
			};
			if (diff) {
				f.base_offset = boff;
				f.base_width = bother;
			}
			rc = emit(l, &f);
		}
		/* leftmost child on top of the stack: depth first, left to
		 * right */
		for (size_t a = first, b = nst; b > a + 1; a++, b--) {
			struct open_node t = st[a];
			st[a] = st[b - 1];
			st[b - 1] = t;
		}
	}
	free(st);
	if (!rc && diff)
		rc = union_shape(l);
	return rc;
}

/* ---- flame chart: samples in order ------------------------------------------------ */

/* A run: one frame over adjacent samples that share the stack up to it. */
struct run {
	perfan_frame_id frame;
	uint32_t depth;
	uint32_t parent, first_child, last_child, next; /* 0: none */
	uint64_t offset, width;
};

struct chart {
	struct run *r;
	size_t n, cap;
};

static int new_run(struct chart *c, uint32_t parent, perfan_frame_id frame,
		   uint32_t depth, uint64_t offset, uint32_t *out)
{
	if (c->n == c->cap &&
	    perfan__grow((void **)&c->r, &c->cap, c->n + 1, sizeof(*c->r)))
		return perfan__nomem("flame graph");
	uint32_t id = (uint32_t)c->n++;
	c->r[id] = (struct run){.frame = frame,
				.depth = depth,
				.parent = parent,
				.offset = offset};
	struct run *par = &c->r[parent];
	if (par->last_child)
		c->r[par->last_child].next = id;
	else
		par->first_child = id;
	par->last_child = id;
	*out = id;
	return 0;
}

static int build_chart(struct chart *c, const perfan_profile *p, size_t col,
		       int reverse)
{
	perfan_frame_id *path = NULL;
	uint32_t *open = NULL; /* open[d]: the run at depth d + 1 */
	size_t pcap = 0, ocap = 0, nopen = 0;
	uint64_t cursor = 0;
	int rc = 0;
	if (perfan__grow((void **)&c->r, &c->cap, 1, sizeof(*c->r)))
		return perfan__nomem("flame graph");
	c->r[0] = (struct run){.frame = PERFAN_FG_ALL};
	c->n = 1;
	size_t ns = perfan_profile_nr_samples(p);
	for (size_t s = 0; s < ns && !rc; s++) {
		const struct perfan_profile_sample *sm =
			perfan_profile_sample_get(p, s);
		if (sm->col != col || !sm->weight)
			continue;
		size_t depth = perfan_profile_node_depth(p, sm->leaf);
		if ((depth > pcap && perfan__grow((void **)&path, &pcap, depth,
						  sizeof(*path))) ||
		    (depth > ocap && perfan__grow((void **)&open, &ocap, depth,
						  sizeof(*open)))) {
			rc = perfan__nomem("flame graph");
			break;
		}
		size_t i = depth;
		for (perfan_node_id x = sm->leaf; x != PERFAN_ROOT_NODE && i;
		     x = perfan_profile_node_parent(p, x))
			path[--i] = perfan_profile_node_frame(p, x);
		if (reverse)
			for (size_t a = 0, b = depth; b > a + 1; a++, b--) {
				perfan_frame_id t = path[a];
				path[a] = path[b - 1];
				path[b - 1] = t;
			}
		size_t k = 0;
		while (k < nopen && k < depth && c->r[open[k]].frame == path[k])
			k++;
		for (size_t d = 0; d < k; d++)
			c->r[open[d]].width += sm->weight;
		for (size_t d = k; d < depth; d++) {
			uint32_t id = 0;
			rc = new_run(c, d ? open[d - 1] : 0, path[d],
				     (uint32_t)d + 1, cursor, &id);
			if (rc)
				break;
			c->r[id].width = sm->weight;
			open[d] = id;
		}
		nopen = depth;
		c->r[0].width += sm->weight;
		cursor += sm->weight;
	}
	free(path);
	free(open);
	return rc;
}

/* Children of each run left to right; narrow neighbours (with the narrow
 * gaps of their parent's own time between them) merge into one "(other)"
 * that spans them. */
static int layout_chart(perfan_fg_layout *l, const perfan_profile *p,
			size_t col, double thr, int reverse)
{
	struct chart c = {0};
	uint32_t *st = NULL;
	size_t nst = 0, cap = 0;
	int rc = build_chart(&c, p, col, reverse);
	if (rc)
		goto out;
	l->total = c.r[0].width;
	struct perfan_fg_frame all = {.frame = PERFAN_FG_ALL,
				      .width = l->total};
	if ((rc = emit(l, &all)))
		goto out;
	if (perfan__grow((void **)&st, &cap, 1, sizeof(*st))) {
		rc = perfan__nomem("flame graph");
		goto out;
	}
	st[nst++] = 0;
	while (nst && !rc) {
		const struct run *par = &c.r[st[--nst]];
		size_t first = nst;
		struct perfan_fg_frame other = {.frame = PERFAN_FG_OTHER};
		size_t nother = 0;
		uint64_t end = par->offset; /* of the last child seen */
		for (uint32_t k = par->first_child; k && !rc; k = c.r[k].next) {
			const struct run *r = &c.r[k];
			int narrow = (double)r->width < thr;
			int gap_narrow = (double)(r->offset - end) < thr;
			if (nother && !(narrow && gap_narrow)) {
				rc = emit(l, &other);
				nother = 0;
			}
			end = r->offset + r->width;
			if (rc)
				break;
			if (narrow) {
				if (!nother) {
					other.depth = r->depth;
					other.offset = r->offset;
				}
				nother++;
				other.width = end - other.offset;
				continue;
			}
			struct perfan_fg_frame f = {.frame = r->frame,
						    .depth = r->depth,
						    .offset = r->offset,
						    .width = r->width};
			if ((rc = emit_open(l, &f, (void **)&st, &cap, nst,
					    sizeof(*st))))
				break;
			st[nst++] = k;
		}
		if (!rc && nother)
			rc = emit(l, &other);
		for (size_t a = first, b = nst; b > a + 1; a++, b--) {
			uint32_t t = st[a];
			st[a] = st[b - 1];
			st[b - 1] = t;
		}
	}
out:
	free(c.r);
	free(st);
	return rc;
}

/* ---- the API ------------------------------------------------------------------------ */

int perfan_fg_layout_new(perfan_fg_layout **out, const perfan_profile *p,
			 const struct perfan_flamegraph_opts *opts)
{
	if (out)
		*out = NULL;
	if (!out || !p)
		return perfan__err_null(__func__, out ? "profile" : "out");
	struct perfan_flamegraph_opts o;
	perfan__fg_opts(&o, opts);
	size_t ncols = perfan_profile_nr_columns(p);
	if ((ncols || o.column) && o.column >= ncols)
		return perfan__err(PERFAN_EINVAL,
				   "flame graph: the profile has no column %zu",
				   o.column);
	if (o.base_column != PERFAN_FG_NO_BASE && o.base_column >= ncols)
		return perfan__err(PERFAN_EINVAL,
				   "flame graph: the profile has no column %zu",
				   o.base_column);
	if (o.flamechart && o.base_column != PERFAN_FG_NO_BASE)
		return perfan__err(PERFAN_EINVAL,
				   "flame graph: a flame chart cannot be "
				   "differential");
	if (o.flamechart && ncols && perfan_profile_total(p, o.column) &&
	    !perfan_profile_nr_samples(p))
		return perfan__err(PERFAN_EINVAL,
				   "flame graph: a flame chart needs the "
				   "samples in order (keep_samples)");
	perfan_fg_layout *l = calloc(1, sizeof(*l));
	if (!l)
		return perfan__nomem("flame graph");
	l->p = p;
	l->cur_parent = SIZE_MAX;
	int rc = 0;
	if (!ncols) {
		struct perfan_fg_frame all = {.frame = PERFAN_FG_ALL};
		rc = emit(l, &all);
	} else if (o.flamechart) {
		/* the threshold needs the total, which is the chart's */
		l->total = perfan_profile_total(p, o.column);
		rc = layout_chart(l, p, o.column, threshold(&o, l->total),
				  o.reverse);
	} else {
		if (o.reverse && !(rc = reverse_profile(l, &o))) {
			l->p = l->own;
			o.column = 0;
			if (o.base_column != PERFAN_FG_NO_BASE)
				o.base_column = 1;
		}
		if (!rc) {
			l->total = perfan_profile_total(l->p, o.column);
			if (o.base_column != PERFAN_FG_NO_BASE)
				l->base_total = perfan_profile_total(
					l->p, o.base_column);
			rc = layout_trie(l, l->p, o.column, o.base_column,
					 threshold(&o, l->total),
					 threshold(&o, l->base_total));
		}
	}
	if (rc) {
		perfan_fg_layout_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

void perfan_fg_layout_free(perfan_fg_layout *l)
{
	if (!l)
		return;
	perfan_profile_free(l->own);
	free(l->par);
	free(l->f);
	free(l);
}

size_t perfan_fg_layout_nr_frames(const perfan_fg_layout *l)
{
	return l ? l->n : 0;
}

const struct perfan_fg_frame *perfan_fg_layout_frame(const perfan_fg_layout *l,
						     size_t i)
{
	return l && i < l->n ? &l->f[i] : NULL;
}

uint64_t perfan_fg_layout_total(const perfan_fg_layout *l)
{
	return l ? l->total : 0;
}

uint64_t perfan_fg_layout_base_total(const perfan_fg_layout *l)
{
	return l ? l->base_total : 0;
}

size_t perfan__fg_layout_parent(const perfan_fg_layout *l, size_t i)
{
	return l && i < l->n ? l->par[i] : SIZE_MAX;
}

uint64_t perfan_fg_layout_union_total(const perfan_fg_layout *l)
{
	return l ? l->union_total : 0;
}

const perfan_profile *perfan_fg_layout_profile(const perfan_fg_layout *l)
{
	return l ? l->p : NULL;
}
