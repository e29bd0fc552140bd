/* load/timeline_beside.c: the timeline beside a time view, read again
 * from the input it read (a path, or the stream it kept) with its on-CPU
 * samples, for the triage page's timeline and the range it filters the
 * page by. */
#include "load/internal.h"

#include <perfan/timeline.h>

int perfan__load_timeline_beside(perfan_timeline **out, perfan_load **tl,
				 const perfan_load *l, int all)
{
	*out = NULL;
	*tl = NULL;
	struct perfan_load_opts lo = l->o;
	if (!l->offcpu)
		return 0;
	perfan__load_quiet(&lo);
	struct perfan_timeline_opts to =
		PERFAN_OPTS_INIT(struct perfan_timeline_opts);
	to.samples = 1;
	to.filter = &l->o.filter;
	to.all = all;
	struct perfan_resolve_opts ro;
	int rc = perfan_load_new(tl, &lo);
	if (!rc)
		rc = perfan__load_open_again(*tl, l, &ro);
	if (!rc)
		rc = perfan_timeline_perfdata(out, (*tl)->time_pd, &ro, &to);
	if (rc < 0) {
		perfan_timeline_free(*out);
		perfan_load_free(*tl);
		*out = NULL;
		*tl = NULL;
		return rc;
	}
	return 0;
}
