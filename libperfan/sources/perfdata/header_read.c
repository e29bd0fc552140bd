/* sources/perfdata/header_read.c: perfan_header_read, a perf.data opened
 * for its header and features only. */
#include <stdlib.h>

#include "sources/perfdata/header_result.h"
#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

int perfan_header_read(perfan_header **out, const char *path,
		       const struct perfan_header_read_opts *opts)
{
	struct perfan_header_read_opts ro;
	if (PERFAN__OPTS_COPY(ro, opts))
		return PERFAN_EINVAL; /* named by perfan__opts_copy */
	if (!out)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_header_read: out is NULL");
	*out = NULL;
	struct perfan_perfdata_opts po =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	po.unordered = 1; /* only the header is read */
	po.log = ro.log;
	po.log_payload = ro.log_payload;
	perfan_header *h = calloc(1, sizeof(*h));
	if (!h)
		return perfan__nomem(NULL);
	int rc = perfan_perfdata_open(&h->pd, path, &po);
	if (!rc)
		rc = perfan_perfdata_read_header(h->pd);
	if (rc) {
		perfan_header_free(h);
		return rc;
	}
	*out = h;
	return 0;
}

void perfan_header_free(perfan_header *h)
{
	if (!h)
		return;
	perfan_perfdata_free(h->pd);
	free(h);
}
