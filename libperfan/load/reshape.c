/* load/reshape.c: a profile's stacks copied into a new one reshaped for
 * what a view shows: process frames made again (threads merged into a
 * root per command), the kernel's frames of a wait folded into its
 * off-CPU leaf. */
#include "load/internal.h"

#include <stdlib.h>

#include "util/log.h"

struct reshape {
	perfan_profile *dst;
	const perfan_profile *src;
	const struct perfan__reshape *how;
	perfan_frame_id *map; /* SRC's frame id -> DST's, or -1 */
	perfan_frame_id *path;
	size_t cap;
};

/* Frame ID of SRC as a frame of DST (a process frame as HOW's root
 * says), interned once. */
static int map_frame(struct reshape *r, perfan_frame_id id,
		     perfan_frame_id *out)
{
	if (r->map[id] != (perfan_frame_id)-1) {
		*out = r->map[id];
		return 0;
	}
	const struct perfan_frame *f = perfan_profile_frame_get(r->src, id);
	int rc = r->how->root && f->kind == PERFAN_FRAME_PROCESS && f->root
			 ? perfan_profile_process_frame(r->dst, out,
							r->how->root, f->comm,
							f->pid, f->tid)
			 : perfan_profile_frame_copy(r->dst, out, r->src, id);
	if (!rc)
		r->map[id] = *out;
	return rc;
}

/* The stack of SRC's node N in DST, root first, reshaped: its length in
 * *LEN. */
static int stack_of(struct reshape *r, perfan_node_id n, size_t *len)
{
	size_t depth = perfan_profile_node_depth(r->src, n);
	if (depth > r->cap) {
		perfan_frame_id *np = realloc(r->path, depth * sizeof(*np));
		if (!np)
			return PERFAN_ENOMEM;
		r->path = np;
		r->cap = depth;
	}
	size_t k = depth;
	const perfan_profile *p = r->src;
	int folding = 0, rc;
	for (perfan_node_id m = n; m != PERFAN_ROOT_NODE && k;
	     m = perfan_profile_node_parent(p, m)) {
		perfan_frame_id id = perfan_profile_node_frame(p, m);
		uint32_t kind = perfan_profile_frame_get(p, id)->kind;
		/* the kernel's frames right under a wait's leaf, which
		 * names the wait */
		if (m == n)
			folding = r->how->fold_kernel &&
				  kind == PERFAN_FRAME_OFFCPU;
		else if (folding && kind == PERFAN_FRAME_KERNEL)
			continue;
		else
			folding = 0;
		if ((rc = map_frame(r, id, &r->path[--k])))
			return rc;
	}
	/* the kept frames, moved to the start */
	*len = depth - k;
	if (k)
		for (size_t i = 0; i < *len; i++)
			r->path[i] = r->path[k + i];
	return 0;
}

/* SRC's columns and main binary into DST. */
static int copy_columns(perfan_profile *dst, const perfan_profile *src)
{
	int rc = perfan_profile_set_main_module(
		dst, perfan_profile_main_module(src));
	if (rc)
		return rc;
	for (size_t c = 0; c < perfan_profile_nr_columns(src); c++) {
		int col = perfan_profile_add_column(
			dst, perfan_profile_column_name(src, c),
			perfan_profile_column_unit(src, c));
		if (col < 0)
			return col;
		perfan_profile_set_column_kind(
			dst, (size_t)col, perfan_profile_column_kind(src, c));
	}
	return 0;
}

static int copy_stacks(struct reshape *r)
{
	const perfan_profile *p = r->src;
	size_t nc = perfan_profile_nr_columns(p), len;
	int rc = 0;
	size_t ns = perfan_profile_nr_samples(p);
	/* kept samples (a flame chart's) in their order, with their meta */
	for (size_t i = 0; !rc && i < ns; i++) {
		const struct perfan_profile_sample *s =
			perfan_profile_sample_get(p, i);
		rc = stack_of(r, s->leaf, &len);
		if (!rc)
			rc = perfan_profile_add(r->dst, r->path, len, s->col,
						s->weight, &s->meta, NULL);
	}
	for (perfan_node_id n = 1; !rc && !ns && n < perfan_profile_nr_nodes(p);
	     n++) {
		int self = 0;
		for (size_t c = 0; c < nc && !self; c++)
			self = perfan_profile_node_self(p, n, c) > 0;
		if (!self || (rc = stack_of(r, n, &len)))
			continue;
		for (size_t c = 0; !rc && c < nc; c++) {
			uint64_t w = perfan_profile_node_self(p, n, c);
			if (w)
				rc = perfan_profile_add(r->dst, r->path, len, c,
							w, NULL, NULL);
		}
	}
	return rc;
}

int perfan__load_reshape(perfan_profile **out, const perfan_profile *src,
			 const struct perfan__reshape *how)
{
	*out = NULL;
	size_t nf = perfan_profile_nr_frames(src);
	struct reshape r = {.src = src, .how = how};
	r.map = malloc((nf ? nf : 1) * sizeof(*r.map));
	/* samples kept where SRC keeps them (a flame chart's) */
	struct perfan_profile_opts po = {.sz = sizeof(po)};
	po.keep_samples = perfan_profile_nr_samples(src) > 0;
	int rc = r.map ? perfan_profile_new(&r.dst, &po) : PERFAN_ENOMEM;
	for (size_t i = 0; r.map && i < nf; i++)
		r.map[i] = (perfan_frame_id)-1;
	if (!rc)
		rc = copy_columns(r.dst, src);
	if (!rc)
		rc = copy_stacks(&r);
	free(r.map);
	free(r.path);
	if (rc) {
		perfan_profile_free(r.dst);
		return rc == PERFAN_ENOMEM ? perfan__nomem("profile") : rc;
	}
	*out = r.dst;
	return 0;
}
