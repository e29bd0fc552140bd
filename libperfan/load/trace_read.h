/* load/trace_read.h: a GPU profiler's trace read through the load. */
#ifndef PERFAN_LOAD_TRACE_READ_H
#define PERFAN_LOAD_TRACE_READ_H

#include <perfan/load.h>

/* Read PATH with L (perfan_load_read) for an analysis of its trace alone:
 * a trace is kept (perfan_load_trace), no profile is made of it (the
 * load's profile stays empty). Returns as perfan_load_read. */
int perfan__load_trace_only(perfan_load *l, const char *path);

/* Read PATH so (perfan__load_trace_only) and give its trace in *T, kept
 * by L. Returns perfan_load_read's non-negative return, or a negative
 * error: PERFAN_EINVAL when PATH is not a trace. */
int perfan__load_trace_read(perfan_load *l, const char *path,
			    const perfan_trace **t);

#endif
