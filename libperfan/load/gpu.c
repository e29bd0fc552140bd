/* load/gpu.c: perfan_load_gpu, the GPU analysis of a trace read through
 * the load (which keeps the trace the result points into). */
#include <perfan/gpu.h>
#include <perfan/load.h>

#include "load/trace_read.h"
#include "util/error.h"

int perfan_load_gpu(perfan_gpu **out, perfan_load *l, const char *path,
		    const struct perfan_gpu_opts *go)
{
	if (!out || !l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_gpu: an argument is NULL");
	*out = NULL;
	const perfan_trace *t = NULL;
	int rc = perfan__load_trace_read(l, path, &t);
	if (rc < 0)
		return rc;
	int err = perfan_gpu_new(out, t, go);
	return err ? err : rc;
}
