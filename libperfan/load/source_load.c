/* load/source_load.c: perfan_source_load, the registry's "read it into a
 * profile", here because a perf.data is folded through the resolver, which
 * comes after the registry: text formats go back to their own readers
 * (sources/), a perf.data's records through perfan_resolve_perfdata. */
#include <string.h>

#include <perfan/resolve.h>
#include <perfan/source.h>

#include "sources/read.h"

int perfan_source_load(perfan_source *s, perfan_profile *p,
		       struct perfan_source_stats *stats)
{
	if (!s || !p || !(perfan_source_caps(s) & PERFAN_SOURCE_RECORDS))
		return perfan__source_read(s, p, stats);
	if (stats)
		memset(stats, 0, sizeof(*stats));
	perfan_perfdata *pd = NULL;
	struct perfan_resolve_opts ro;
	int rc = perfan__source_records(s, &pd, &ro);
	if (!rc)
		rc = perfan_resolve_perfdata(p, pd, &ro,
					     stats ? &stats->resolve : NULL);
	return rc; /* PD stays with S (perfan_source_reader) */
}
