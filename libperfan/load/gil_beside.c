/* load/gil_beside.c: the GIL ledger beside a time view that has GIL
 * waits, read again from the same input (its path, or the stream it kept),
 * for the GIL sections of report and triage, its threads named as the
 * view's. */
#include "load/internal.h"

#include <perfan/gil.h>
#include <perfan/threads.h>
#include <perfan/waits.h>

#include "sources/read.h"

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

int perfan__load_gil_beside(perfan_gil **out, perfan_load **gl, perfan_load *l)
{
	*out = NULL;
	*gl = NULL;
	if (!l->offcpu || !gil_waits(l->p))
		return 0;
	if (!perfan__source_rereadable(l->src)) {
		perfan__load_advise(
			l, PERFAN_ADVICE_WARN,
			"%s is a stream read once: the GIL section, "
			"which reads it again, is left out (keep "
			"the input: perfan_load_opts' keep_input)",
			l->info.name);
		return 0;
	}
	struct perfan_load_opts lo = l->o;
	perfan__load_quiet(&lo);
	struct perfan_resolve_opts ro;
	int rc = perfan_load_new(gl, &lo);
	if (!rc)
		rc = perfan__load_open_again(*gl, l, &ro);
	struct perfan_gil_opts go = PERFAN_OPTS_INIT(struct perfan_gil_opts);
	go.filter = &l->o.filter;
	go.names = l->names; /* the names of the thread table beside */
	if (!rc)
		rc = perfan__load_gil_read(out, *gl, &ro, &go);
	if (rc < 0) {
		perfan_gil_free(*out);
		perfan_load_free(*gl);
		*out = NULL;
		*gl = NULL;
		return rc;
	}
	return 0;
}
