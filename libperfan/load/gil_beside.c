/* load/gil_beside.c: the GIL ledger beside a time view that has GIL
 * waits, read again from the same recording (perfan_load_gil), for the
 * GIL sections of report and triage. */
#include "load/internal.h"

#include <string.h>

#include <perfan/gil.h>
#include <perfan/waits.h>

/* The first reading said what there is to say. */
static void no_log(enum perfan_log_level level, const char *msg, void *payload)
{
	(void)level;
	(void)msg;
	(void)payload;
}

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
	const char *path = l->info.name;
	/* a recording read from standard input cannot be read again */
	if (!l->offcpu || !gil_waits(l->p) || !path || !strcmp(path, "<stdin>"))
		return 0;
	struct perfan_load_opts lo = l->o;
	lo.log = no_log;
	lo.advice = NULL;
	lo.quiet_advice |= PERFAN_LOAD_QUIET_VIEW;
	int rc = perfan_load_new(gl, &lo);
	struct perfan_gil_opts go = PERFAN_OPTS_INIT(struct perfan_gil_opts);
	go.filter = &l->o.filter;
	if (!rc)
		rc = perfan_load_gil(out, *gl, path, &go);
	if (rc < 0) {
		perfan_gil_free(*out);
		perfan_load_free(*gl);
		*out = NULL;
		*gl = NULL;
		return rc;
	}
	return 0;
}
