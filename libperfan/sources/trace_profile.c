/* sources/trace_profile.c: a GPU profiler's trace as a profile, the `load`
 * of every trace format: CPU self time by the nesting of each thread's
 * spans, GPU work under the CPU stack that launched it. */
#include "sources/internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/nest.h"
#include "trace/root.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"

#define NONE UINT32_MAX

struct tp {
	const struct perfan_trace_info *ti;
	perfan_profile *p;
	int root;
	size_t cpu, gpu;            /* the columns */
	perfan_frame_id *roots;     /* per thread: its root frame, or NONE */
	struct perfan__htab launch; /* correlation -> the launch's node */
	perfan_frame_id *frames;    /* the stack being built, root first */
	size_t frames_cap;
	uint32_t *path; /* the nesting's spans open, outermost first */
	size_t path_cap;
};

/* The root frame of thread I (NONE: no root), made once. */
static int root_of(struct tp *x, uint32_t i, perfan_frame_id *out)
{
	*out = NONE;
	if (x->root == PERFAN_ROOT_NONE)
		return 0;
	int rc = 0;
	if (x->roots[i] == NONE)
		rc = perfan__trace_root(x->p, &x->ti->threads[i], x->root,
					&x->roots[i]);
	*out = x->roots[i];
	return rc;
}

static int frame_of(struct tp *x, const struct perfan_trace_event *e,
		    perfan_frame_id *out)
{
	return perfan_profile_frame(x->p, out, e->name ? e->name : "[unnamed]",
				    NULL, NULL, 0,
				    e->kind == PERFAN_TRACE_PYTHON_FUNCTION
					    ? PERFAN_FRAME_PYTHON
					    : PERFAN_FRAME_NATIVE);
}

static int is_gpu_work(uint32_t kind)
{
	return kind == PERFAN_TRACE_KERNEL || kind == PERFAN_TRACE_MEMCPY ||
	       kind == PERFAN_TRACE_MEMSET;
}

static int is_launch(const struct perfan_trace_event *e)
{
	return (e->kind == PERFAN_TRACE_RUNTIME ||
		e->kind == PERFAN_TRACE_DRIVER) &&
	       e->correlation >= 0;
}

static int64_t end_of(const struct perfan_trace_event *e)
{
	return e->dur > 0 ? e->ts + e->dur : e->ts;
}

/* Span I of the nesting N, its stack FRAMES[0..DEPTH) (its own frame the
 * last), self time SELF: to the CPU column, a launch's node kept. */
static int add_span(struct tp *x, const struct perfan__nest *nest, size_t depth,
		    int64_t self)
{
	const struct perfan_trace_event *e = &x->ti->events[nest->ev];
	const struct perfan_trace_thread *th = &x->ti->threads[e->thread];
	if (self <= 0 && !is_launch(e))
		return 0;
	struct perfan_sample_meta m = {(uint64_t)e->ts,
				       perfan__trace_id32(th->pid),
				       perfan__trace_id32(th->tid), -1};
	perfan_node_id leaf;
	int rc = perfan_profile_add(x->p, x->frames, depth, x->cpu,
				    self > 0 ? (uint64_t)self : 0, &m, &leaf);
	if (!rc && is_launch(e) &&
	    !perfan__htab_get(&x->launch, (uint64_t)e->correlation) &&
	    perfan__htab_put(&x->launch, (uint64_t)e->correlation, leaf))
		rc = perfan__nomem("trace profile");
	return rc;
}

/* The CPU threads' spans NEST[0..N), each weighed by its time less its
 * children's (CHILD). */
static int walk(struct tp *x, const struct perfan__nest *nest, size_t n,
		const int64_t *child)
{
	int rc = 0;
	size_t depth = 0, base = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const struct perfan_trace_event *e = &x->ti->events[nest[i].ev];
		if (nest[i].parent == PERFAN__NEST_TOP) {
			/* a thread's outermost span: its root first */
			perfan_frame_id root;
			if ((rc = root_of(x, e->thread, &root)))
				break;
			base = root != NONE;
			depth = 0;
			if (perfan__grow((void **)&x->frames, &x->frames_cap, 1,
					 sizeof(*x->frames)))
				return perfan__nomem("trace profile");
			x->frames[0] = root;
		}
		while (depth && x->path[depth - 1] != nest[i].parent)
			depth--;
		if (perfan__grow((void **)&x->path, &x->path_cap, depth + 1,
				 sizeof(*x->path)) ||
		    perfan__grow((void **)&x->frames, &x->frames_cap,
				 base + depth + 1, sizeof(*x->frames)))
			return perfan__nomem("trace profile");
		x->path[depth++] = (uint32_t)i;
		if (!(rc = frame_of(x, e, &x->frames[base + depth - 1])))
			rc = add_span(x, &nest[i], base + depth,
				      nest[i].end - e->ts - child[i]);
	}
	return rc;
}

static int cpu_side(struct tp *x, const perfan_trace *t)
{
	struct perfan__nest *nest;
	size_t n;
	if (perfan__trace_nest(t, 1, &nest, &n))
		return perfan__nomem("trace profile");
	int64_t *child = calloc(n ? n : 1, sizeof(*child));
	if (!child) {
		free(nest);
		return perfan__nomem("trace profile");
	}
	for (size_t i = 0; i < n; i++)
		if (nest[i].parent != PERFAN__NEST_TOP)
			child[nest[i].parent] +=
				nest[i].end - x->ti->events[nest[i].ev].ts;
	int rc = walk(x, nest, n, child);
	free(child);
	free(nest);
	return rc;
}

/* GPU work E on the CPU stack of its launch, else under its stream's
 * root. */
static int gpu_event(struct tp *x, const struct perfan_trace_event *e)
{
	const uint64_t *node =
		e->correlation >= 0
			? perfan__htab_get(&x->launch, (uint64_t)e->correlation)
			: NULL;
	size_t n = 0;
	int rc = 0;
	if (node) {
		n = perfan_profile_node_depth(x->p, (perfan_node_id)*node);
	} else {
		perfan_frame_id root;
		if ((rc = root_of(x, e->thread, &root)))
			return rc;
		n = root != NONE;
		if (n) {
			if (perfan__grow((void **)&x->frames, &x->frames_cap, 1,
					 sizeof(*x->frames)))
				return perfan__nomem("trace profile");
			x->frames[0] = root;
		}
	}
	if (perfan__grow((void **)&x->frames, &x->frames_cap, n + 1,
			 sizeof(*x->frames)))
		return perfan__nomem("trace profile");
	if (node) {
		size_t k = n;
		for (perfan_node_id v = (perfan_node_id)*node;
		     v != PERFAN_ROOT_NODE && k;
		     v = perfan_profile_node_parent(x->p, v))
			x->frames[--k] = perfan_profile_node_frame(x->p, v);
	}
	if ((rc = frame_of(x, e, &x->frames[n])))
		return rc;
	const struct perfan_trace_thread *th = &x->ti->threads[e->thread];
	struct perfan_sample_meta m = {(uint64_t)e->ts,
				       perfan__trace_id32(th->pid),
				       perfan__trace_id32(th->tid), -1};
	return perfan_profile_add(x->p, x->frames, n + 1, x->gpu,
				  (uint64_t)(end_of(e) - e->ts), &m, NULL);
}

int perfan_trace_profile(const perfan_trace *t, perfan_profile *p, int root)
{
	if (!t || !p)
		return perfan__err_null(__func__, t ? "profile" : "trace");
	struct tp x;
	memset(&x, 0, sizeof(x));
	x.ti = perfan_trace_info(t);
	x.p = p;
	x.root = root;
	int c = perfan_profile_add_column(p, PERFAN_TRACE_CPU_TIME, "ns");
	if (c < 0)
		return c;
	x.cpu = (size_t)c;
	int rc = perfan_profile_set_column_kind(p, x.cpu, PERFAN_COLUMN_CPU);
	if (rc)
		return rc;
	if ((c = perfan_profile_add_column(p, PERFAN_TRACE_GPU_TIME, "ns")) < 0)
		return c;
	x.gpu = (size_t)c;
	size_t nt = x.ti->nr_threads;
	x.roots = malloc((nt ? nt : 1) * sizeof(*x.roots));
	if (!x.roots)
		return perfan__nomem("trace profile");
	for (size_t i = 0; i < nt; i++)
		x.roots[i] = NONE;
	rc = cpu_side(&x, t);
	for (size_t i = 0; i < x.ti->nr_events && !rc; i++) {
		const struct perfan_trace_event *e = &x.ti->events[i];
		if (x.ti->threads[e->thread].device >= 0 &&
		    is_gpu_work(e->kind))
			rc = gpu_event(&x, e);
	}
	free(x.roots);
	free(x.frames);
	free(x.path);
	perfan__htab_free(&x.launch);
	return rc;
}

int perfan__trace_load(perfan_source *s, perfan_profile *p,
		       struct perfan_source_stats *st)
{
	(void)st;
	perfan_trace *t = NULL;
	int rc = s->fmt->trace(s, &t);
	if (!rc)
		rc = perfan_trace_profile(t, p, s->o.root);
	perfan_trace_free(t);
	return rc;
}
