/* sources/records.c: a perf.data source handed to load/ for the fold: its
 * reader, and the resolver's options the source was opened with (load/
 * runs the resolver, which comes after the registry). */
#include "sources/internal.h"

#include "sources/read.h"
#include "util/opts.h"

int perfan__source_records(perfan_source *s, perfan_perfdata **pd,
			   struct perfan_resolve_opts *ro)
{
	*pd = NULL;
	if (!s->fmt || !(s->fmt->caps & PERFAN_SOURCE_RECORDS) || s->used)
		return perfan_source_perfdata(s, pd, NULL); /* the error */
	s->used = 1;
	*ro = PERFAN_RESOLVE_OPTS_INIT;
	int rc = s->o.perfdata.resolve
			 ? PERFAN__OPTS_COPY(*ro, s->o.perfdata.resolve)
			 : 0;
	if (!rc)
		rc = perfan__input_perfdata(s, pd, NULL);
	/* its header stays for perfan_source_reader: a pipe cannot be opened
	 * again to read it */
	s->reader = *pd;
	if (rc)
		return rc;
	ro->root = s->o.root;
	ro->weight = s->o.count_samples ? PERFAN_WEIGHT_SAMPLES
					: PERFAN_WEIGHT_PERIOD;
	ro->filter.event = s->o.event;
	ro->log = s->o.log;
	ro->log_payload = s->o.log_payload;
	return 0;
}
