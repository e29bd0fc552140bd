/* load/gpu.c: perfan_load_gpu, the GPU analysis of a trace read through
 * the load (which keeps the trace the result points into). */
#include <perfan/gpu.h>
#include <perfan/load.h>

#include "util/error.h"

int perfan_load_gpu(perfan_gpu **out, perfan_load *l, const char *path,
		    const struct perfan_gpu_opts *go)
{
	if (!out || !l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_gpu: an argument is NULL");
	*out = NULL;
	int rc = perfan_load_read(l, path);
	if (rc < 0)
		return rc;
	const perfan_trace *t = perfan_load_trace(l);
	if (!t)
		return perfan__err(PERFAN_EINVAL,
				   "%s is not a GPU profiler's trace "
				   "(torch.profiler, the autograd profiler, "
				   "Nsight Systems' SQLite export)",
				   perfan_load_info(l)->name);
	int err = perfan_gpu_new(out, t, go);
	return err ? err : rc;
}
