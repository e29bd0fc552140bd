/* load/advise.c: advice, what an input cannot answer, given to the
 * caller's callback (the library never prints). */
#define _GNU_SOURCE /* vasprintf */
#include "load/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/python.h>
#include <perfan/threads.h>

#include "util/said.h"

/* Advice of LEVEL, KEY its identity (NULL: its text), the message FMT
 * with AP: given once to the callback, however many inputs (a diff's runs)
 * or readings (triage's) give it. */
static void vadvise(perfan_load *l, int level, const char *key, const char *fmt,
		    va_list ap)
{
	if (level == PERFAN_ADVICE_ERROR)
		l->advice_errors++;
	if (!l->o.advice)
		return;
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	const char *text = msg ? msg : fmt;
	if (level == PERFAN_ADVICE_ERROR ||
	    !perfan__said(&l->o.advice, sizeof(l->o.advice),
			  l->o.advice_payload, key ? key : text))
		l->o.advice(level, text, l->o.advice_payload);
	free(msg);
}

void perfan__load_advise(perfan_load *l, int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vadvise(l, level, NULL, fmt, ap);
	va_end(ap);
}

void perfan__load_advise_once(perfan_load *l, int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vadvise(l, level, fmt, fmt, ap);
	va_end(ap);
}

static int forward(int level, const char *msg, void *payload)
{
	perfan_load *l = payload;
	perfan__load_advise(l, level, "%s", msg);
	return 0;
}

void perfan__load_time_advice(perfan_load *l,
			      const struct perfan_offcpu_summary *s, int view,
			      int python)
{
	struct perfan_threads_advice_opts ao =
		PERFAN_OPTS_INIT(struct perfan_threads_advice_opts);
	ao.view = view;
	ao.python = python;
	/* perf probe's names: GROUP:take_gil, probe_libpython3 by default */
	const perfan_perfdata *pd = l->time_pd; /* the time view's reader */
	for (size_t i = 0; pd && i < perfan_perfdata_nr_events(pd); i++) {
		const struct perfan_event *ev = perfan_perfdata_event(pd, i);
		const char *n = ev && ev->name ? strchr(ev->name, ':') : NULL;
		ao.gil_probes |= n && !strncmp(ev->name, "probe", 5) &&
				 !strcmp(n, ":take_gil");
	}
	perfan_threads_advice_ext(s, &ao, forward, l);
}

int perfan__load_has_interpreter(const perfan_profile *p)
{
	for (size_t i = 0; p && i < perfan_profile_nr_frames(p); i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(p, i);
		if (f->module && perfan_python_is_interpreter(f->module))
			return 1;
	}
	return 0;
}

int perfan__load_python_recording(const perfan_profile *p)
{
	return perfan_python_present(p) || perfan__load_has_interpreter(p);
}
