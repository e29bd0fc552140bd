/* sources/perfdata/header_read.c: perfan_header_read, a perf.data opened
 * for its header and features only. */
#include <stdlib.h>

#include "sources/perfdata/header_result.h"
#include "sources/perfdata/open_path.h"
#include "util/error.h"
#include "util/log.h"

int perfan_header_read(perfan_header **out, const char *path,
		       const struct perfan_header_read_opts *opts)
{
	if (!out)
		return perfan__err_null(__func__, "out");
	*out = NULL;
	perfan_header *h = calloc(1, sizeof(*h));
	if (!h)
		return perfan__nomem(NULL);
	int rc = perfan__perfdata_open_path(&h->pd, path, opts, 0, __func__);
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
