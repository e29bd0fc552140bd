/* trace/nest.h: the spans of each thread or stream of a trace nested by
 * time, one order for every reader of the nesting (the profile of a trace,
 * speedscope's timelines). */
#ifndef PERFAN_TRACE_NEST_H
#define PERFAN_TRACE_NEST_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/trace.h>

#define PERFAN__NEST_TOP UINT32_MAX

/* One span in the nesting. A span is inside the innermost one open on its
 * thread that holds its start (it ends by that one's end: a span that
 * sticks out is cut there); spans that start together nest the longer
 * outside; then input order. */
struct perfan__nest {
	uint32_t ev;     /* index into the trace's events */
	uint32_t parent; /* index into the nesting, or PERFAN__NEST_TOP */
	int64_t end;     /* the span's end, cut to its parent's */
};

/* The spans of T's CPU threads (CPU_ONLY) or of all its threads and
 * streams in *OUT (*N of them; free it), by thread, each thread's in time
 * order, a parent before its children. Returns 0 or PERFAN_ENOMEM. */
int perfan__trace_nest(const perfan_trace *t, int cpu_only,
		       struct perfan__nest **out, size_t *n);

#endif
