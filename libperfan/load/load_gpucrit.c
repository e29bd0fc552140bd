/* load/load_gpucrit.c: the critical path of a GPU profiler's trace read
 * by a load (perfan_load_gpucrit). */
#include <perfan/gpucrit.h>
#include <perfan/load.h>

#include "load/trace_read.h"
#include "util/error.h"

int perfan_load_gpucrit(perfan_gpucrit **out, perfan_load *l, const char *path,
			const struct perfan_gpucrit_opts *opts)
{
	if (!out || !l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_gpucrit: an argument is NULL");
	*out = NULL;
	int rc = perfan__load_trace_only(l, path);
	if (rc)
		return rc;
	const perfan_trace *t = perfan_load_trace(l);
	if (!t)
		return perfan__err(PERFAN_EINVAL,
				   "%s is not a GPU profiler's trace: the "
				   "critical path of a perf.data needs a "
				   "thread (--tid TID)",
				   path);
	return perfan_gpucrit_trace(out, t, opts);
}
