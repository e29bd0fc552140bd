/* perfan/gpucrit.h: the critical path of a GPU profiler's trace, as
 * Holistic Trace Analysis (HTA) computes it: a graph whose nodes are the
 * starts and ends of CPU operators, runtime calls and GPU work, whose edges
 * are operator spans, nesting, launches, stream order and synchronisations,
 * and its longest path; the events and edges on it. */
#ifndef PERFAN_GPUCRIT_H
#define PERFAN_GPUCRIT_H

#include <stdint.h>
#include <stdio.h>

#include <perfan/common.h>
#include <perfan/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What an edge of the graph stands for (HTA's CPEdgeType). */
enum perfan_gpucrit_edge_type {
	PERFAN_GPUCRIT_OPERATOR = 0,  /* within an operator or GPU work:
					weighs the time between its nodes */
	PERFAN_GPUCRIT_DEPENDENCY,    /* between top-level operators, or calls
					holding the CUDA runtime lock: 0 */
	PERFAN_GPUCRIT_LAUNCH,        /* a launch's start to its kernel's
					start (the GPU was waiting) */
	PERFAN_GPUCRIT_KERNEL_KERNEL, /* the gap between two kernels on one
					 stream */
	PERFAN_GPUCRIT_SYNC,          /* GPU work's end to the sync call
					 that waited for it, or to the work a
					 stream wait held back: 0 */
	PERFAN_GPUCRIT_NTYPES
};

/* One edge of the path: from the start or end of one event to the start
 * or end of another (indices into perfan_trace_info's events). */
struct perfan_gpucrit_edge {
	uint32_t from, to;
	uint8_t from_start, to_start; /* 1: the event's start; 0: its end */
	uint32_t type;                /* enum perfan_gpucrit_edge_type */
	int64_t weight;               /* ns */
};

/* An event with a node on the path, and the path's time charged to it:
 * the operator edges inside it not inside a child on the path, the launch
 * delays to its kernels (for a launch) and the gaps after it (for GPU
 * work). */
struct perfan_gpucrit_event {
	uint32_t event; /* index into perfan_trace_info's events */
	int on_path;    /* 1: a node of the path (HTA marks it critical); 0:
			   an operator holding a stretch of the path between
			   two of its children */
	int64_t time;   /* ns */
};

struct perfan_gpucrit_result {
	int64_t start, end; /* the window analysed (ns, the trace's clock) */
	int64_t length;     /* the path's length: the sum of its weights */
	int64_t by_type[PERFAN_GPUCRIT_NTYPES]; /* ns per edge type */
	/* ns per kind of the event charged (enum perfan_trace_kind) */
	int64_t by_kind[PERFAN_TRACE_NKINDS];
	size_t nr_events; /* in the order of the path, then the holders */
	const struct perfan_gpucrit_event *events;
	size_t nr_edges; /* in the order of the path */
	const struct perfan_gpucrit_edge *edges;
	size_t nr_nodes, nr_graph_edges; /* the size of the whole graph */
};

struct perfan_gpucrit_opts {
	size_t sz;
};

typedef struct perfan_gpucrit perfan_gpucrit;

/* Since 0.2. The critical path of the whole trace T (which must outlive
 * *OUT), as HTA's
 * critical_path_analysis(annotation="") finds it: CPU events of positive
 * duration and the GPU work whose launch is one; HTA's ties broken as
 * networkx 2.8 breaks them. Returns 0 or a negative error (*OUT NULL
 * then): PERFAN_ENOTFOUND when the trace has nothing to link. */
PERFAN_API int perfan_gpucrit_trace(perfan_gpucrit **out, const perfan_trace *t,
				    const struct perfan_gpucrit_opts *opts);
/* Since 0.2. Borrowed from C, valid until perfan_gpucrit_free. */
PERFAN_API const struct perfan_gpucrit_result *
perfan_gpucrit_result(const perfan_gpucrit *c);
/* Since 0.2. NULL is fine. */
PERFAN_API void perfan_gpucrit_free(perfan_gpucrit *c);

/* Since 0.2. HTA's name of an edge type ("critical_path_operator", ...). */
PERFAN_API const char *
perfan_gpucrit_edge_name(enum perfan_gpucrit_edge_type type);

enum perfan_gpucrit_format {
	PERFAN_GPUCRIT_TEXT = 0,
	PERFAN_GPUCRIT_JSON = 1,
};

struct perfan_gpucrit_write_opts {
	size_t sz;
	int format; /* enum perfan_gpucrit_format */
};

/* Since 0.2. Write C's path: text (the path's length and window, the time
 * per edge type and per kind of event, then a table of the critical
 * events: time charged, its share of the path, kind, start relative to
 * the window, duration, thread or stream, name) or JSON ({"critical":
 * {"start", "end", "length", "by_type": {TYPE: ns}, "by_kind": {KIND: ns},
 * "events": [{"index", "name", "kind", "pid", "tid", "device", "stream",
 * "ts", "dur", "on_path", "time"}], "edges": [{"from", "from_start", "to",
 * "to_start", "type", "weight"}]}}, times in ns, "index" the event's place
 * in the input). Returns 0, PERFAN_EINVAL or PERFAN_EIO. */
PERFAN_API int
perfan_gpucrit_write(const perfan_gpucrit *c, FILE *fp,
		     const struct perfan_gpucrit_write_opts *opts);

#ifdef __cplusplus
}
#endif

#endif
