/* analysis/gpucrit_graph.c: the critical-path graph's edges, kept once each
 * in the order first added, and its longest path found as networkx 2.8's
 * dag_longest_path finds it, so that equal paths break ties as HTA's do. */
#include <stdlib.h>
#include <string.h>

#include "analysis/gpucrit_graph.h"
#include "util/error.h"
#include "util/grow.h"

/* HTA's get_runtime_launch_events_mask */
static const char *const launch_calls[] = {
	"cudaLaunchKernel",
	"cudaLaunchKernelExC",
	"cuLaunchKernel",
	"cuLaunchKernelEx",
	"cudaMemcpyAsync",
	"cudaMemsetAsync",
	"hipLaunchKernel",
	"hipExtModuleLaunchKernel",
	"hipMemsetAsync",
	"hipMemcpyAsync",
	"hipMemcpyWithStream",
	"runFunction - job_prep_and_submit_for_execution",
	NULL};

int perfan__gc_is_launch(const struct perfan_trace_event *e)
{
	for (const char *const *l = launch_calls; *l; l++)
		if (e->name && !strcmp(e->name, *l))
			return 1;
	return 0;
}

static size_t slot_of(uint32_t u, uint32_t v, size_t cap)
{
	uint64_t k = ((uint64_t)u << 32 | v) * 0x9E3779B97F4A7C15ull;
	return (size_t)(k >> 17) & (cap - 1);
}

long perfan__gc_find(const struct gc_graph *g, uint32_t u, uint32_t v)
{
	if (!g->hash_cap)
		return -1;
	for (size_t i = slot_of(u, v, g->hash_cap);;
	     i = (i + 1) & (g->hash_cap - 1)) {
		uint32_t h = g->hash[i];
		if (!h)
			return -1;
		const struct gc_edge *e = &g->edges[h - 1];
		if (e->u == u && e->v == v)
			return (long)h - 1;
	}
}

static int rehash(struct gc_graph *g)
{
	size_t cap = g->hash_cap ? g->hash_cap * 2 : 1024;
	uint32_t *h = calloc(cap, sizeof(*h));
	if (!h)
		return PERFAN_ENOMEM;
	for (size_t k = 0; k < g->nr_edges; k++) {
		size_t i = slot_of(g->edges[k].u, g->edges[k].v, cap);
		while (h[i])
			i = (i + 1) & (cap - 1);
		h[i] = (uint32_t)k + 1;
	}
	free(g->hash);
	g->hash = h;
	g->hash_cap = cap;
	return 0;
}

long perfan__gc_edge(struct gc_graph *g, uint32_t u, uint32_t v, uint32_t type,
		     int zero)
{
	int64_t w = 0;
	if (!zero && type != PERFAN_GPUCRIT_DEPENDENCY &&
	    type != PERFAN_GPUCRIT_SYNC)
		w = g->nodes[v].ts - g->nodes[u].ts;
	long k = perfan__gc_find(g, u, v);
	if (k >= 0) {
		g->edges[k].type = type;
		g->edges[k].w = w;
		return k;
	}
	if ((g->nr_edges + 1) * 2 > g->hash_cap && rehash(g) < 0)
		goto nomem;
	if (perfan__grow((void **)&g->edges, &g->cap_edges, g->nr_edges + 1,
			 sizeof(*g->edges)) < 0)
		goto nomem;
	k = (long)g->nr_edges++;
	g->edges[k] = (struct gc_edge){.u = u, .v = v, .type = type, .w = w};
	size_t i = slot_of(u, v, g->hash_cap);
	while (g->hash[i])
		i = (i + 1) & (g->hash_cap - 1);
	g->hash[i] = (uint32_t)k + 1;
	return k;
nomem:
	g->err = PERFAN_ENOMEM;
	return -1;
}

/* Edges by their source (succ) or destination (pred), each list in the
 * order the edges were added, as networkx's adjacency dicts keep them. */
struct adj {
	size_t *first;  /* per node, into list; nr_nodes + 1 entries */
	uint32_t *list; /* edge indices */
};

static int adj_build(struct adj *a, const struct gc_graph *g, int by_dest)
{
	size_t n = g->nr_nodes;
	a->first = calloc(n + 1, sizeof(*a->first));
	a->list = malloc((g->nr_edges + 1) * sizeof(*a->list));
	if (!a->first || !a->list)
		return PERFAN_ENOMEM;
	for (size_t k = 0; k < g->nr_edges; k++)
		a->first[(by_dest ? g->edges[k].v : g->edges[k].u) + 1]++;
	for (size_t i = 0; i < n; i++)
		a->first[i + 1] += a->first[i];
	size_t *fill = malloc((n + 1) * sizeof(*fill));
	if (!fill)
		return PERFAN_ENOMEM;
	memcpy(fill, a->first, (n + 1) * sizeof(*fill));
	for (size_t k = 0; k < g->nr_edges; k++)
		a->list[fill[by_dest ? g->edges[k].v : g->edges[k].u]++] =
			(uint32_t)k;
	free(fill);
	return 0;
}

static void adj_free(struct adj *a)
{
	free(a->first);
	free(a->list);
}

int perfan__gc_longest(const struct gc_graph *g, uint32_t **path, size_t *np)
{
	size_t n = g->nr_nodes;
	struct adj succ = {0}, pred = {0};
	/* networkx holds only the nodes some edge touches, in the order an
	 * edge first touched them */
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	uint8_t *seen = calloc(n + 1, 1);
	uint32_t *indeg = calloc(n + 1, sizeof(*indeg));
	uint32_t *topo = malloc((n + 1) * sizeof(*topo));
	int64_t *dist = malloc((n + 1) * sizeof(*dist));
	uint32_t *from = malloc((n + 1) * sizeof(*from));
	uint32_t *out = NULL;
	int err = PERFAN_ENOMEM;
	if (!order || !seen || !indeg || !topo || !dist || !from ||
	    adj_build(&succ, g, 0) < 0 || adj_build(&pred, g, 1) < 0)
		goto done;
	size_t no = 0;
	for (size_t k = 0; k < g->nr_edges; k++) {
		uint32_t uv[2] = {g->edges[k].u, g->edges[k].v};
		for (int j = 0; j < 2; j++)
			if (!seen[uv[j]]) {
				seen[uv[j]] = 1;
				order[no++] = uv[j];
			}
		indeg[g->edges[k].v]++;
	}
	err = PERFAN_ENOTFOUND;
	if (!no) {
		perfan__err(err, "the trace has no events to link");
		goto done;
	}
	/* topological_generations: the nodes of in-degree 0 in node order,
	 * then each generation's children as their last edge is taken */
	size_t nt = 0;
	for (size_t i = 0; i < no; i++)
		if (!indeg[order[i]])
			topo[nt++] = order[i];
	for (size_t gen = 0; gen < nt;) {
		size_t end = nt;
		for (; gen < end; gen++) {
			uint32_t u = topo[gen];
			for (size_t j = succ.first[u]; j < succ.first[u + 1];
			     j++) {
				uint32_t v = g->edges[succ.list[j]].v;
				if (!--indeg[v])
					topo[nt++] = v;
			}
		}
	}
	if (nt != no) {
		err = PERFAN_EFORMAT;
		perfan__err(err, "the critical-path graph has a cycle");
		goto done;
	}
	/* each node's best predecessor: the first of the longest, in the
	 * order its edges were added; the path ends at the first node (in
	 * topological order) of the longest distance */
	size_t best = 0;
	for (size_t i = 0; i < nt; i++) {
		uint32_t v = topo[i];
		dist[v] = 0;
		from[v] = v;
		int any = 0;
		for (size_t j = pred.first[v]; j < pred.first[v + 1]; j++) {
			const struct gc_edge *e = &g->edges[pred.list[j]];
			int64_t d = dist[e->u] + e->w;
			if (!any || d > dist[v]) {
				dist[v] = d;
				from[v] = e->u;
				any = 1;
			}
		}
		if (dist[v] < 0) {
			dist[v] = 0;
			from[v] = v;
		}
		if (dist[v] > dist[topo[best]])
			best = i;
	}
	size_t len = 1;
	for (uint32_t v = topo[best]; from[v] != v; v = from[v])
		len++;
	out = malloc(len * sizeof(*out));
	if (!out) {
		err = PERFAN_ENOMEM;
		goto done;
	}
	size_t i = len;
	for (uint32_t v = topo[best];; v = from[v]) {
		out[--i] = v;
		if (from[v] == v)
			break;
	}
	*path = out;
	*np = len;
	err = 0;
done:
	if (err == PERFAN_ENOMEM)
		perfan__err(err, "out of memory");
	adj_free(&succ);
	adj_free(&pred);
	free(order);
	free(seen);
	free(indeg);
	free(topo);
	free(dist);
	free(from);
	return err;
}
