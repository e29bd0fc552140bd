/* load/keyavg.c: perfan_load_keyavg, torch's key_averages() of a trace
 * read through the load (which keeps the trace the table points into). */
#include <perfan/keyavg.h>
#include <perfan/load.h>

#include "load/trace_read.h"
#include "util/error.h"

int perfan_load_keyavg(perfan_keyavg **out, perfan_load *l, const char *path,
		       const void *opts)
{
	(void)opts;
	if (!out || !l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_keyavg: an argument is NULL");
	*out = NULL;
	const perfan_trace *t = NULL;
	int rc = perfan__load_trace_read(l, path, &t);
	if (rc < 0)
		return rc;
	int err = perfan_keyavg_new(out, t);
	return err ? err : rc;
}
