/* sources/perfdata/open_path.c: a perf.data opened by path for one
 * unordered pass (sources/perfdata/open_path.h). */
#include "sources/perfdata/open_path.h"

#include "util/opts.h"

int perfan__perfdata_open_path(perfan_perfdata **pd, const char *path,
			       const struct perfan_header_read_opts *opts,
			       int skip_sample_fields, const char *func)
{
	struct perfan_header_read_opts ro;
	*pd = NULL;
	int rc = perfan__opts_copy(&ro, sizeof(ro), opts, opts ? opts->sz : 0,
				   func);
	if (rc)
		return rc;
	struct perfan_perfdata_opts po =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	po.unordered = 1; /* the header, or counts: no time order needed */
	po.skip_sample_fields = skip_sample_fields;
	po.log = ro.log;
	po.log_payload = ro.log_payload;
	return perfan_perfdata_open(pd, path, &po);
}
