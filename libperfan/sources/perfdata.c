/* sources/perfdata.c: the perf.data format in the registry: known by its
 * magic, read into a profile through the resolver, or handed out as the
 * reader (perfan_source_perfdata) for the stream and the time views; the
 * reader a load used stays for its header (perfan_source_reader). */
#include "sources/internal.h"

#include <string.h>

#include "util/opts.h"

static int detect(const void *buf, size_t len)
{
	return len >= 8 &&
	       (!memcmp(buf, "PERFILE2", 8) || !memcmp(buf, "2ELIFREP", 8));
}

static int load(perfan_source *s, perfan_profile *p,
		struct perfan_source_stats *st)
{
	perfan_perfdata *pd = NULL;
	struct perfan_resolve_opts ro = PERFAN_RESOLVE_OPTS_INIT;
	int rc = 0;
	if (s->o.perfdata.resolve)
		rc = PERFAN__OPTS_COPY(ro, s->o.perfdata.resolve);
	if (!rc)
		rc = perfan__input_perfdata(s, &pd, NULL);
	if (!rc) {
		ro.root = s->o.root;
		ro.weight = s->o.count_samples ? PERFAN_WEIGHT_SAMPLES
					       : PERFAN_WEIGHT_PERIOD;
		ro.filter.event = s->o.event;
		ro.log = s->o.log;
		ro.log_payload = s->o.log_payload;
		rc = perfan_resolve_perfdata(p, pd, &ro,
					     st ? &st->resolve : NULL);
	}
	/* its header stays for perfan_source_reader: a pipe cannot be
	 * opened again to read it */
	s->reader = pd;
	return rc;
}

const struct perfan__format perfan__format_perfdata = {
	.name = "perf.data",
	.caps = PERFAN_SOURCE_RECORDS | PERFAN_SOURCE_EVENTS |
		PERFAN_SOURCE_FRAMES,
	.detect = detect,
	.load = load,
};
