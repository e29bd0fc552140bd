/* analysis/gpucrit_cpu.c: the CPU side of HTA's critical-path graph: the
 * calls that hold the CUDA runtime lock, chained across threads by the
 * order they end, and each thread's nesting of events walked depth first
 * (HTA's CallStackGraph, with its order of equal times), linking each
 * operator's start and end to its children's. */
#include <stdlib.h>
#include <string.h>

#include "analysis/gpucrit_graph.h"
#include "util/error.h"

static int named(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (name && !strcmp(name, *list))
			return 1;
	return 0;
}

/* HTA's CUDA_RUNTIME_EVENTS and BLOCKING_SYNC_CALLS */
static const char *const lock_calls[] = {"cudaHostAlloc", "cudaLaunchKernel",
					 "cudaMemcpyAsync", NULL};
static const char *const blocking_calls[] = {"cudaDeviceSynchronize",
					     "cudaStreamSynchronize",
					     "cudaEventQuery",
					     "cudaEventSynchronize",
					     "cudaMemcpy",
					     "cudaMemcpyAsync",
					     NULL};

static int is_lock(const struct gc_graph *g, uint32_t node)
{
	return named(g->ti->events[g->nodes[node].ev].name, lock_calls);
}

static int shares_lock(const struct gc_graph *g, uint32_t a, uint32_t b)
{
	return is_lock(g, a) && is_lock(g, b) &&
	       (g->nodes[a].start || !g->nodes[b].start);
}

static int lock_edges(struct gc_graph *g)
{
	uint32_t *starts = malloc((g->nr_nodes + 1) * sizeof(*starts));
	if (!starts)
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	size_t ns = 0;
	long last = -1;
	for (uint32_t i = 0; i < g->nr_nodes; i++) {
		if (!is_lock(g, i))
			continue;
		if (g->nodes[i].start) {
			starts[ns++] = i;
		} else {
			while (ns) {
				uint32_t p = starts[--ns];
				perfan__gc_edge(
					g, p, i,
					g->nodes[p].ev == g->nodes[i].ev
						? PERFAN_GPUCRIT_OPERATOR
						: PERFAN_GPUCRIT_DEPENDENCY,
					0);
			}
			if (last >= 0 && !g->nodes[last].start)
				perfan__gc_edge(g, (uint32_t)last, i,
						PERFAN_GPUCRIT_DEPENDENCY, 0);
		}
		last = i;
	}
	free(starts);
	return g->err;
}

/* One end of an event in a thread's ordering (HTA's call_stack Event). */
struct mark {
	uint32_t ev;
	int64_t time, dur, idx;
	int start;
};

/* HTA's compare_events */
static int mark_cmp(const void *pa, const void *pb)
{
	const struct mark *x = pa, *y = pb;
	if (x->ev == y->ev)
		return x->start ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->start == y->start) {
		if (x->start) {
			if (x->dur == y->dur)
				return x->idx < y->idx ? -1 : 1;
			return x->dur < y->dur ? 1 : -1;
		}
		if (x->dur == y->dur)
			return x->idx < y->idx ? 1 : -1;
		return x->dur < y->dur ? -1 : 1;
	}
	if (x->dur > 0 && y->dur > 0)
		return x->start ? 1 : -1;
	if (x->dur == 0 && y->dur == 0)
		return x->idx < y->idx ? -1 : 1;
	return x->start ? -1 : 1;
}

struct walk {
	struct gc_graph *g;
	long last;
	int depth;
};

static void enter(struct walk *w, uint32_t ev)
{
	struct gc_graph *g = w->g;
	if (g->start_of[ev] < 0 || g->end_of[ev] < 0)
		return;
	uint32_t s = (uint32_t)g->start_of[ev];
	if (w->last >= 0 && !shares_lock(g, (uint32_t)w->last, s))
		perfan__gc_edge(g, (uint32_t)w->last, s,
				w->depth ? PERFAN_GPUCRIT_OPERATOR
					 : PERFAN_GPUCRIT_DEPENDENCY,
				0);
	w->last = s;
	w->depth++;
}

static void leave(struct walk *w, uint32_t ev)
{
	struct gc_graph *g = w->g;
	if (g->start_of[ev] < 0 || g->end_of[ev] < 0)
		return;
	uint32_t e = (uint32_t)g->end_of[ev];
	if (w->last >= 0 && !shares_lock(g, (uint32_t)w->last, e))
		perfan__gc_edge(g, (uint32_t)w->last, e,
				PERFAN_GPUCRIT_OPERATOR,
				named(g->ti->events[ev].name, blocking_calls));
	w->last = e;
	w->depth--;
}

/* One thread's events EVS (N of them): nest them as HTA does (a start is
 * the child of the innermost open event; an end closes the innermost),
 * then walk the tree depth first. */
static int thread_edges(struct gc_graph *g, const uint32_t *evs, size_t n)
{
	const struct perfan_trace_event *E = g->ti->events;
	struct mark *m = malloc((2 * n + 1) * sizeof(*m));
	/* per local event: first child, next sibling, last child; the walk's
	 * stack and cursor */
	int32_t *first = malloc((n + 1) * sizeof(*first) * 5);
	if (!m || !first) {
		free(m);
		free(first);
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	}
	int32_t *next = first + n + 1, *lastc = next + n + 1,
		*stack = lastc + n + 1, *cur = stack + n + 1;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_trace_event *e = &E[evs[i]];
		int64_t dur = e->dur > 0 ? e->dur : 0;
		m[2 * i] = (struct mark){(uint32_t)i, e->ts, dur, e->index, 1};
		m[2 * i + 1] = (struct mark){(uint32_t)i, e->ts + dur, dur,
					     e->index, 0};
		first[i] = next[i] = lastc[i] = -1;
	}
	/* local event n is the root */
	first[n] = lastc[n] = -1;
	qsort(m, 2 * n, sizeof(*m), mark_cmp);
	size_t sp = 0;
	for (size_t k = 0; k < 2 * n; k++) {
		if (m[k].start) {
			int32_t p = sp ? stack[sp - 1] : (int32_t)n;
			int32_t c = (int32_t)m[k].ev;
			if (lastc[p] < 0)
				first[p] = c;
			else
				next[lastc[p]] = c;
			lastc[p] = c;
			g->parent[evs[c]] = p == (int32_t)n ? -1
							    : (int32_t)evs[p];
			stack[sp++] = c;
		} else if (sp) {
			sp--;
		}
	}
	struct walk w = {.g = g, .last = -1};
	sp = 0;
	stack[sp++] = (int32_t)n;
	cur[n] = first[n];
	while (sp) {
		int32_t v = stack[sp - 1];
		int32_t c = cur[v];
		if (c >= 0) {
			cur[v] = next[c];
			enter(&w, evs[c]);
			cur[c] = first[c];
			stack[sp++] = c;
			continue;
		}
		sp--;
		if (v != (int32_t)n)
			leave(&w, evs[v]);
	}
	free(m);
	free(first);
	return g->err;
}

/* The tid of the only thread whose cpu_op or user_annotation names hold
 * WHAT, or -1 */
static int64_t tid_with(const struct gc_graph *g, const char *what)
{
	int64_t tid = -1;
	for (size_t i = 0; i < g->ti->nr_events; i++) {
		const struct perfan_trace_event *e = &g->ti->events[i];
		if (!g->in_window[i] || !e->name ||
		    (e->kind != PERFAN_TRACE_CPU_OP &&
		     e->kind != PERFAN_TRACE_USER_ANNOTATION) ||
		    !strstr(e->name, what))
			continue;
		int64_t t = g->ti->threads[e->thread].tid;
		if (tid >= 0 && t != tid)
			return -1;
		tid = t;
	}
	return tid;
}

struct keyed {
	int64_t pid, tid;
	uint32_t ev;
};

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->ev < b->ev ? -1 : a->ev > b->ev;
}

int perfan__gc_cpu(struct gc_graph *g)
{
	int err = lock_edges(g);
	if (err < 0)
		return err;
	const struct perfan_trace_info *ti = g->ti;
	/* the backward pass's thread joins the forward's, as HTA merges
	 * them */
	int64_t fwd = tid_with(g, "forward"), bwd = tid_with(g, "autograd");
	struct keyed *k = malloc((ti->nr_events + 1) * sizeof(*k));
	uint32_t *evs = malloc((ti->nr_events + 1) * sizeof(*evs));
	if (!k || !evs) {
		free(k);
		free(evs);
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	}
	size_t n = 0;
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_thread *th =
			&ti->threads[ti->events[i].thread];
		if (!g->in_window[i] || perfan__gc_on_gpu(ti->events[i].kind))
			continue;
		int64_t tid = th->tid;
		if (fwd >= 0 && bwd >= 0 && tid == bwd)
			tid = fwd;
		k[n++] = (struct keyed){th->pid, tid, (uint32_t)i};
	}
	qsort(k, n, sizeof(*k), keyed_cmp);
	for (size_t a = 0; a < n && !err;) {
		size_t b = a, m = 0;
		while (b < n && k[b].pid == k[a].pid && k[b].tid == k[a].tid)
			evs[m++] = k[b++].ev;
		err = thread_edges(g, evs, m);
		a = b;
	}
	free(k);
	free(evs);
	return err;
}
