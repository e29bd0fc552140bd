/* sources/trace_profile.c: a GPU profiler's trace as a profile, the `load`
 * of every trace format: CPU self time by the nesting of each thread's
 * spans, GPU work under the CPU stack that launched it. */
#include "sources/internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"

#define NONE UINT32_MAX

/* One span open on the thread being walked. */
struct open {
	uint32_t ev;
	int64_t end;   /* its end, cut to its parent's */
	int64_t child; /* the time of its children, ns */
};

struct tp {
	const struct perfan_trace_info *ti;
	perfan_profile *p;
	int root;
	size_t cpu, gpu;            /* the columns */
	perfan_frame_id *roots;     /* per thread: its root frame, or NONE */
	struct perfan__htab launch; /* correlation -> the launch's node */
	perfan_frame_id *frames;    /* the stack being built, root first */
	size_t frames_cap;
	struct open *open;
	size_t open_cap;
};

static int32_t id32(int64_t v)
{
	return v >= 0 && v <= INT32_MAX ? (int32_t)v : -1;
}

/* A CPU thread's command: Kineto names a thread "thread TID (COMM)"; a
 * name of another form is the command as it is; else the process's. N
 * bytes of BUF hold a cut-out. */
static const char *thread_comm(const struct perfan_trace_thread *th, char *buf,
			       size_t n)
{
	const char *name = th->name;
	if (!name)
		return th->process;
	size_t len = strlen(name);
	const char *open = strstr(name, " (");
	if (!strncmp(name, "thread ", 7) && open && len &&
	    name[len - 1] == ')' && open + 2 < name + len - 1) {
		snprintf(buf, n, "%.*s", (int)(name + len - 1 - (open + 2)),
			 open + 2);
		return buf;
	}
	return name;
}

/* The root frame of thread I (NONE: no root), made once. */
static int root_of(struct tp *x, uint32_t i, perfan_frame_id *out)
{
	*out = NONE;
	if (x->root == PERFAN_ROOT_NONE)
		return 0;
	if (x->roots[i] != NONE) {
		*out = x->roots[i];
		return 0;
	}
	const struct perfan_trace_thread *th = &x->ti->threads[i];
	char buf[256];
	const char *comm;
	if (th->device < 0) {
		comm = thread_comm(th, buf, sizeof(buf));
	} else {
		snprintf(buf, sizeof(buf), "GPU %d stream %lld",
			 (int)th->device, (long long)th->stream);
		comm = buf;
	}
	int rc = perfan_profile_process_frame(x->p, &x->roots[i],
					      (enum perfan_process_root)x->root,
					      comm, id32(th->pid),
					      id32(th->tid));
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

/* A CPU event in the order of the walk: by thread, then time, the longer
 * first at equal times (a parent before the child that starts with it),
 * then input order. */
struct walk {
	int64_t ts, len;
	uint32_t thread, ev;
};

static int cmp_walk(const void *a, const void *b)
{
	const struct walk *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* Close the innermost open span of the stack FRAMES[0..N) (its frame the
 * last): its self time to the CPU column, a launch's node kept. */
static int close_span(struct tp *x, const struct open *o, size_t n)
{
	const struct perfan_trace_event *e = &x->ti->events[o->ev];
	const struct perfan_trace_thread *th = &x->ti->threads[e->thread];
	int64_t self = o->end - e->ts - o->child;
	if (self <= 0 && !is_launch(e))
		return 0;
	struct perfan_sample_meta m = {(uint64_t)e->ts, id32(th->pid),
				       id32(th->tid), -1};
	perfan_node_id leaf;
	int rc = perfan_profile_add(x->p, x->frames, n, x->cpu,
				    self > 0 ? (uint64_t)self : 0, &m, &leaf);
	if (!rc && is_launch(e) &&
	    !perfan__htab_get(&x->launch, (uint64_t)e->correlation) &&
	    perfan__htab_put(&x->launch, (uint64_t)e->correlation, leaf))
		rc = perfan__nomem("trace profile");
	return rc;
}

/* The spans of one CPU thread, W[0..N), nested by time. */
static int walk_thread(struct tp *x, const struct walk *w, size_t n)
{
	perfan_frame_id root;
	int rc = root_of(x, w[0].thread, &root);
	size_t base = root != NONE, depth = 0;
	if (!rc && root != NONE) {
		if (perfan__grow((void **)&x->frames, &x->frames_cap, 1,
				 sizeof(*x->frames)))
			return perfan__nomem("trace profile");
		x->frames[0] = root;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		const struct perfan_trace_event *e = &x->ti->events[w[i].ev];
		while (depth && e->ts >= x->open[depth - 1].end && !rc) {
			rc = close_span(x, &x->open[depth - 1], base + depth);
			depth--;
		}
		if (rc)
			break;
		int64_t end = end_of(e);
		if (depth && end > x->open[depth - 1].end)
			end = x->open[depth - 1].end;
		if (depth)
			x->open[depth - 1].child += end - e->ts;
		if (perfan__grow((void **)&x->open, &x->open_cap, depth + 1,
				 sizeof(*x->open)) ||
		    perfan__grow((void **)&x->frames, &x->frames_cap,
				 base + depth + 1, sizeof(*x->frames)))
			return perfan__nomem("trace profile");
		rc = frame_of(x, e, &x->frames[base + depth]);
		x->open[depth++] = (struct open){w[i].ev, end, 0};
	}
	for (; depth && !rc; depth--)
		rc = close_span(x, &x->open[depth - 1], base + depth);
	return rc;
}

static int cpu_side(struct tp *x)
{
	const struct perfan_trace_info *ti = x->ti;
	size_t n = 0;
	struct walk *w =
		malloc((ti->nr_events ? ti->nr_events : 1) * sizeof(*w));
	if (!w)
		return perfan__nomem("trace profile");
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (ti->threads[e->thread].device < 0)
			w[n++] = (struct walk){e->ts, end_of(e) - e->ts,
					       e->thread, (uint32_t)i};
	}
	qsort(w, n, sizeof(*w), cmp_walk);
	int rc = 0;
	for (size_t i = 0, j; i < n && !rc; i = j) {
		for (j = i; j < n && w[j].thread == w[i].thread; j++)
			;
		rc = walk_thread(x, w + i, j - i);
	}
	free(w);
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
	struct perfan_sample_meta m = {(uint64_t)e->ts, id32(th->pid),
				       id32(th->tid), -1};
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
	rc = cpu_side(&x);
	for (size_t i = 0; i < x.ti->nr_events && !rc; i++) {
		const struct perfan_trace_event *e = &x.ti->events[i];
		if (x.ti->threads[e->thread].device >= 0 &&
		    is_gpu_work(e->kind))
			rc = gpu_event(&x, e);
	}
	free(x.roots);
	free(x.frames);
	free(x.open);
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
