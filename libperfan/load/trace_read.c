/* load/trace_read.c: a GPU profiler's trace read through the load, for the
 * analyses of a trace (perfan_load_gpu, perfan_load_keyavg,
 * perfan_load_gpucrit): the trace alone, no profile made of it. */
#include "load/trace_read.h"

#include "load/internal.h"
#include "util/error.h"

int perfan__load_trace_only(perfan_load *l, const char *path)
{
	l->trace_only = 1;
	int rc = perfan_load_read(l, path);
	l->trace_only = 0;
	return rc;
}

int perfan__load_trace_read(perfan_load *l, const char *path,
			    const perfan_trace **t)
{
	int rc = perfan__load_trace_only(l, path);
	if (rc < 0)
		return rc;
	*t = perfan_load_trace(l);
	if (!*t)
		return perfan__err(PERFAN_EINVAL,
				   "%s is not a GPU profiler's trace "
				   "(torch.profiler, the autograd profiler, "
				   "Nsight Systems' SQLite export)",
				   perfan_load_info(l)->name);
	return rc;
}
