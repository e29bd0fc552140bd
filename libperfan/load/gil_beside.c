/* load/gil_beside.c: the GIL ledger beside a time view that has GIL
 * waits, read again from the same recording (perfan_load_gil), for the
 * GIL sections of report and triage, its threads named as the view's. */
#include "load/internal.h"

#include <perfan/gil.h>
#include <perfan/waits.h>

/* Whether P has an off-CPU leaf of a GIL wait. */
static int gil_waits(const perfan_profile *p)
{
	for (size_t i = 0; p && i < perfan_profile_nr_frames(p); i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(p, i);
		if (f->kind == PERFAN_FRAME_OFFCPU &&
		    f->wait == PERFAN_WAIT_GIL)
			return 1;
	}
	return 0;
}

int perfan__load_gil_beside(perfan_gil **out, perfan_load **gl,
			    const perfan_load *l)
{
	*out = NULL;
	*gl = NULL;
	struct perfan_load_opts lo;
	if (!l->offcpu || !gil_waits(l->p) || !perfan__load_beside_opts(l, &lo))
		return 0;
	int rc = perfan_load_new(gl, &lo);
	struct perfan_gil_opts go = PERFAN_OPTS_INIT(struct perfan_gil_opts);
	go.filter = &l->o.filter;
	go.names = l->names; /* the names of the thread table beside */
	if (!rc)
		rc = perfan_load_gil(out, *gl, l->info.name, &go);
	if (rc < 0) {
		perfan_gil_free(*out);
		perfan_load_free(*gl);
		*out = NULL;
		*gl = NULL;
		return rc;
	}
	return 0;
}
