/* analysis/gpucrit.c: the critical path of a trace (perfan/gpucrit.h):
 * picks HTA's events (the window), links each launch to its GPU work by
 * correlation, makes the nodes, has the CPU and GPU sides add their edges,
 * and charges the longest path's edges to the events that hold them. */
#include <stdlib.h>
#include <string.h>

#include <perfan/gpucrit.h>

#include "analysis/gpucrit_graph.h"
#include "analysis/gpucrit_trace.h"
#include "util/error.h"
#include "util/opts.h"

struct perfan_gpucrit {
	struct perfan_gpucrit_result res;
	const perfan_trace *trace;
	struct perfan_gpucrit_event *events;
	struct perfan_gpucrit_edge *edges;
};

const char *perfan_gpucrit_edge_name(enum perfan_gpucrit_edge_type type)
{
	static const char *const names[] = {
		[PERFAN_GPUCRIT_OPERATOR] = "critical_path_operator",
		[PERFAN_GPUCRIT_DEPENDENCY] = "critical_path_dependency",
		[PERFAN_GPUCRIT_LAUNCH] = "critical_path_kernel_launch_delay",
		[PERFAN_GPUCRIT_KERNEL_KERNEL] =
			"critical_path_kernel_kernel_delay",
		[PERFAN_GPUCRIT_SYNC] = "critical_path_sync_dependency",
	};
	return (unsigned)type < PERFAN_GPUCRIT_NTYPES ? names[type] : "?";
}

/* HTA's index_correlation: a CPU event and a GPU event of one correlation
 * point at each other (the last GPU event of it, as pandas assigns). */
static int link_partners(struct gc_graph *g)
{
	const struct perfan_trace_info *ti = g->ti;
	size_t n = ti->nr_events, cap = 16;
	while (cap < 2 * n + 2)
		cap *= 2;
	int32_t *slot = malloc(cap * sizeof(*slot));
	if (!slot)
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	memset(slot, 0xff, cap * sizeof(*slot));
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			const struct perfan_trace_event *e = &ti->events[i];
			if (e->correlation < 0 ||
			    perfan__gc_on_gpu(e->kind) != pass)
				continue;
			uint64_t h = (uint64_t)e->correlation *
				     0x9E3779B97F4A7C15ull;
			size_t s = (size_t)(h >> 20) & (cap - 1);
			for (;; s = (s + 1) & (cap - 1)) {
				int32_t c = slot[s];
				if (c < 0 ||
				    ti->events[c].correlation == e->correlation)
					break;
			}
			if (!pass) {
				if (slot[s] < 0)
					slot[s] = (int32_t)i;
			} else if (slot[s] >= 0) {
				g->partner[i] = slot[s];
				g->partner[slot[s]] = (int32_t)i;
			}
		}
	free(slot);
	return 0;
}

/* HTA's window with no annotation: CPU events of positive duration, and
 * GPU work and syncs whose call is one */
static void pick_window(struct gc_graph *g, int64_t *start, int64_t *end)
{
	const struct perfan_trace_info *ti = g->ti;
	*start = INT64_MAX;
	*end = INT64_MIN;
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		int32_t p = g->partner[i];
		if (!perfan__gc_on_gpu(e->kind))
			g->in_window[i] = e->dur > 0;
		else if (e->kind == PERFAN_TRACE_SYNC && e->stream < 0)
			g->in_window[i] = p >= 0 && e->dur > 0;
		else
			g->in_window[i] = p >= 0 && ti->events[p].dur > 0;
		if (e->ts < *start)
			*start = e->ts;
		if (e->ts + e->dur > *end)
			*end = e->ts + e->dur;
	}
}

static int has_node(const struct gc_graph *g, size_t i)
{
	const struct perfan_trace_event *e = &g->ti->events[i];
	if (!g->in_window[i])
		return 0;
	if (e->kind == PERFAN_TRACE_CPU_OP || e->kind == PERFAN_TRACE_RUNTIME ||
	    e->kind == PERFAN_TRACE_DRIVER)
		return 1;
	return e->kind != PERFAN_TRACE_SYNC && perfan__gc_on_gpu(e->kind) &&
	       e->stream >= 0 && g->partner[i] >= 0;
}

/* HTA sorts its nodes by time, then by the event's place in the input */
static int node_cmp(const void *pa, const void *pb)
{
	const struct gc_node *a = pa, *b = pb;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (a->idx != b->idx)
		return a->idx < b->idx ? -1 : 1;
	return b->start - a->start;
}

static int make_nodes(struct gc_graph *g)
{
	const struct perfan_trace_info *ti = g->ti;
	g->nodes = malloc((2 * ti->nr_events + 1) * sizeof(*g->nodes));
	if (!g->nodes)
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	for (size_t i = 0; i < ti->nr_events; i++) {
		if (!has_node(g, i))
			continue;
		const struct perfan_trace_event *e = &ti->events[i];
		g->nodes[g->nr_nodes++] =
			(struct gc_node){(uint32_t)i, 1, e->ts, e->index};
		g->nodes[g->nr_nodes++] = (struct gc_node){
			(uint32_t)i, 0, e->ts + e->dur, e->index};
	}
	qsort(g->nodes, g->nr_nodes, sizeof(*g->nodes), node_cmp);
	for (size_t k = 0; k < g->nr_nodes; k++)
		(g->nodes[k].start ? g->start_of : g->end_of)[g->nodes[k].ev] =
			(int32_t)k;
	return 0;
}

/* Charge path edge E to an event, as HTA's _attribute_edge does: an
 * operator edge to the event it starts in or ends, or between two
 * children to their parent; a launch delay to the launch; a gap between
 * kernels to the kernel before it. -1: not charged (weight 0 kinds). */
static int32_t charged(const struct gc_graph *g, const struct gc_edge *e)
{
	const struct gc_node *u = &g->nodes[e->u], *v = &g->nodes[e->v];
	switch (e->type) {
	case PERFAN_GPUCRIT_KERNEL_KERNEL:
	case PERFAN_GPUCRIT_LAUNCH: return (int32_t)u->ev;
	case PERFAN_GPUCRIT_OPERATOR:
		if (u->start)
			return (int32_t)u->ev;
		if (!v->start)
			return (int32_t)v->ev;
		return g->parent[u->ev];
	default: return -1;
	}
}

static int fill_result(perfan_gpucrit *c, struct gc_graph *g,
		       const uint32_t *path, size_t np)
{
	const struct perfan_trace_info *ti = g->ti;
	struct perfan_gpucrit_result *r = &c->res;
	int32_t *slot = malloc((ti->nr_events + 1) * sizeof(*slot));
	c->events = malloc((np + ti->nr_events + 1) * sizeof(*c->events));
	c->edges = malloc((np + 1) * sizeof(*c->edges));
	if (!slot || !c->events || !c->edges) {
		free(slot);
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	}
	memset(slot, 0xff, (ti->nr_events + 1) * sizeof(*slot));
	for (size_t k = 0; k < np; k++) {
		uint32_t ev = g->nodes[path[k]].ev;
		if (slot[ev] < 0) {
			slot[ev] = (int32_t)r->nr_events;
			c->events[r->nr_events++] =
				(struct perfan_gpucrit_event){ev, 1, 0};
		}
	}
	for (size_t k = 0; k + 1 < np; k++) {
		long j = perfan__gc_find(g, path[k], path[k + 1]);
		const struct gc_edge *e = &g->edges[j];
		c->edges[r->nr_edges++] = (struct perfan_gpucrit_edge){
			.from = g->nodes[e->u].ev,
			.to = g->nodes[e->v].ev,
			.from_start = g->nodes[e->u].start,
			.to_start = g->nodes[e->v].start,
			.type = e->type,
			.weight = e->w};
		r->length += e->w;
		r->by_type[e->type] += e->w;
		int32_t ev = charged(g, e);
		if (ev < 0 || !e->w)
			continue;
		if (slot[ev] < 0) {
			slot[ev] = (int32_t)r->nr_events;
			c->events[r->nr_events++] =
				(struct perfan_gpucrit_event){(uint32_t)ev, 0,
							      0};
		}
		c->events[slot[ev]].time += e->w;
		r->by_kind[ti->events[ev].kind] += e->w;
	}
	free(slot);
	r->events = c->events;
	r->edges = c->edges;
	return 0;
}

int perfan_gpucrit_trace(perfan_gpucrit **out, const perfan_trace *t,
			 const struct perfan_gpucrit_opts *opts)
{
	struct perfan_gpucrit_opts o;
	if (!out)
		return perfan__err_null(__func__, "out");
	*out = NULL;
	if (!t)
		return perfan__err_null(__func__, "t");
	int err = PERFAN__OPTS_COPY(o, opts);
	if (err < 0)
		return err;
	struct gc_graph g = {.ti = perfan_trace_info(t)};
	size_t n = g.ti->nr_events;
	perfan_gpucrit *c = calloc(1, sizeof(*c));
	g.start_of = malloc((n + 1) * sizeof(int32_t));
	g.end_of = malloc((n + 1) * sizeof(int32_t));
	g.partner = malloc((n + 1) * sizeof(int32_t));
	g.parent = malloc((n + 1) * sizeof(int32_t));
	g.in_window = calloc(n + 1, 1);
	uint32_t *path = NULL;
	size_t np = 0;
	if (!c || !g.start_of || !g.end_of || !g.partner || !g.parent ||
	    !g.in_window) {
		err = perfan__err(PERFAN_ENOMEM, "out of memory");
		goto done;
	}
	memset(g.start_of, 0xff, (n + 1) * sizeof(int32_t));
	memset(g.end_of, 0xff, (n + 1) * sizeof(int32_t));
	memset(g.partner, 0xff, (n + 1) * sizeof(int32_t));
	memset(g.parent, 0xff, (n + 1) * sizeof(int32_t));
	if ((err = link_partners(&g)) < 0)
		goto done;
	pick_window(&g, &c->res.start, &c->res.end);
	if ((err = make_nodes(&g)) < 0 || (err = perfan__gc_cpu(&g)) < 0 ||
	    (err = perfan__gc_gpu(&g)) < 0 ||
	    (err = perfan__gc_longest(&g, &path, &np)) < 0 ||
	    (err = fill_result(c, &g, path, np)) < 0)
		goto done;
	c->trace = t;
	c->res.nr_nodes = g.nr_nodes;
	c->res.nr_graph_edges = g.nr_edges;
	*out = c;
	c = NULL;
done:
	free(path);
	free(g.nodes);
	free(g.edges);
	free(g.hash);
	free(g.start_of);
	free(g.end_of);
	free(g.partner);
	free(g.parent);
	free(g.in_window);
	perfan_gpucrit_free(c);
	return err;
}

const struct perfan_gpucrit_result *
perfan_gpucrit_result(const perfan_gpucrit *c)
{
	return c ? &c->res : NULL;
}

const perfan_trace *perfan__gpucrit_trace(const perfan_gpucrit *c)
{
	return c->trace;
}

void perfan_gpucrit_free(perfan_gpucrit *c)
{
	if (!c)
		return;
	free(c->events);
	free(c->edges);
	free(c);
}
