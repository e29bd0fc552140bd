/* trace/root.h: the root frame of a trace's thread or stream in a
 * profile, one naming for every sink of a trace. */
#ifndef PERFAN_TRACE_ROOT_H
#define PERFAN_TRACE_ROOT_H

#include <perfan/profile.h>
#include <perfan/trace.h>

/* A trace's pid or tid as the profile keeps it: -1 (not known) outside
 * 0..INT32_MAX. */
static inline int32_t perfan__trace_id32(int64_t v)
{
	return v >= 0 && v <= INT32_MAX ? (int32_t)v : -1;
}

/* The process frame of TH in P as ROOT (enum perfan_process_root, not
 * PERFAN_ROOT_NONE) names it, from its ids and command: a CPU thread's
 * the COMM of Kineto's thread name "thread TID (COMM)", else the thread's
 * name as it is, else its process's (else none: perf's ":TID"); a
 * stream's "GPU D stream S"; its ids as perfan__trace_id32 keeps them.
 * Returns 0 or a negative error. */
int perfan__trace_root(perfan_profile *p, const struct perfan_trace_thread *th,
		       int root, perfan_frame_id *out);

#endif
