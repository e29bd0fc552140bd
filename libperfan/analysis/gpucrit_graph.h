/* analysis/gpucrit_graph.h: HTA's critical-path graph as the files that
 * build it share it: nodes (an event's start or end), edges kept in the
 * order they were added (networkx's order, which breaks HTA's ties), and
 * the longest path. */
#ifndef PERFAN_ANALYSIS_GPUCRIT_GRAPH_H
#define PERFAN_ANALYSIS_GPUCRIT_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/gpucrit.h>
#include <perfan/trace.h>

struct gc_node {
	uint32_t ev; /* index into the trace's events */
	uint8_t start;
	int64_t ts;
	int64_t idx; /* the event's place in the input */
};

struct gc_edge {
	uint32_t u, v; /* node ids */
	uint32_t type;
	int64_t w;
};

struct gc_graph {
	const struct perfan_trace_info *ti;
	/* nodes sorted by (ts, input index), start before end */
	struct gc_node *nodes;
	size_t nr_nodes;
	int32_t *start_of, *end_of; /* per event: its node ids, or -1 */
	/* CPU events in the window (dur > 0) and GPU work launched there */
	uint8_t *in_window;
	/* per event: the event its correlation links it to on the other
	 * side (a launch's GPU work, the work's launch, a sync's call), or
	 * -1 */
	int32_t *partner;
	/* per event: its parent in its thread's nesting (HTA's call
	 * stack), or -1; filled by perfan__gc_cpu */
	int32_t *parent;
	struct gc_edge *edges; /* each (u, v) once, first-added order */
	size_t nr_edges, cap_edges;
	/* open-addressed map (u, v) -> edge index + 1 */
	uint32_t *hash;
	size_t hash_cap;
	int err;
};

/* Whether an event of KIND happens on a GPU (HTA: it has a stream, or is
 * an event or context sync); the rest are CPU events. */
static inline int perfan__gc_on_gpu(uint32_t kind)
{
	return kind == PERFAN_TRACE_KERNEL || kind == PERFAN_TRACE_MEMCPY ||
	       kind == PERFAN_TRACE_MEMSET || kind == PERFAN_TRACE_SYNC ||
	       kind == PERFAN_TRACE_GPU_ANNOTATION;
}

/* Whether E is a call that launches GPU work (HTA's list of them). */
int perfan__gc_is_launch(const struct perfan_trace_event *e);

/* Add the edge U -> V of TYPE (weight: V's time less U's for operator,
 * launch and kernel-kernel edges unless ZERO; else 0); an edge added again
 * takes the new type and weight and keeps its place, as networkx does.
 * Returns its index, or -1 (G->err set) on no memory. */
long perfan__gc_edge(struct gc_graph *g, uint32_t u, uint32_t v, uint32_t type,
		     int zero);
/* The index of edge U -> V, or -1. */
long perfan__gc_find(const struct gc_graph *g, uint32_t u, uint32_t v);

/* The CPU side: edges between calls holding the CUDA runtime lock, and the
 * nesting of each thread's events (gpucrit_cpu.c). */
int perfan__gc_cpu(struct gc_graph *g);
/* The GPU side: each piece of GPU work's span, its launch or the work
 * before it on its stream, and the syncs (gpucrit_gpu.c). */
int perfan__gc_gpu(struct gc_graph *g);

/* For each event sync and stream wait I whose cudaEventRecord is found:
 * SRC[I], the GPU work it waits for; for a stream wait, DEST[I], the work
 * that may not start before it (gpucrit_event.c). Others stay as they
 * are. Returns 0 or PERFAN_ENOMEM. */
int perfan__gc_event_links(const struct gc_graph *g, int32_t *src,
			   int32_t *dest);

/* The longest path as networkx 2.8's dag_longest_path finds it: node ids
 * into *PATH (malloc'd), their number into *N. Returns 0 or a negative
 * error. */
int perfan__gc_longest(const struct gc_graph *g, uint32_t **path, size_t *n);

#endif
