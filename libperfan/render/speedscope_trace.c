/* render/speedscope_trace.c: a GPU profiler's trace as speedscope's
 * evented profiles, one per CPU thread and per GPU stream: each span
 * opened and closed at its times, nested as trace/nest.h nests them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/speedscope.h>

#include "render/json.h"
#include "render/speedscope_head.h"
#include "trace/nest.h"
#include "trace/root.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"
#include "util/opts.h"

struct writer {
	const struct perfan_trace_info *ti;
	struct perfan_speedscope_write_opts o;
	struct perfan__json j;
	struct perfan__nest *nest;
	size_t n;
	int64_t t0; /* the trace's first time: every `at` is from it (a
		       double holds ns since 1970 only to 256 ns) */
	/* the frames: an event name (interned: one pointer) -> its index */
	struct perfan__htab frame_ix;
	const char **frames;
	size_t nframes, frames_cap;
	uint32_t *frame;       /* per span of the nesting: its frame */
	perfan_profile *names; /* the threads' root frames, for their names */
	uint32_t *path;        /* the spans open, outermost first */
	size_t path_cap;
};

static int frames(struct writer *w)
{
	w->frame = malloc((w->n ? w->n : 1) * sizeof(*w->frame));
	if (!w->frame)
		return perfan__nomem("speedscope");
	for (size_t i = 0; i < w->n; i++) {
		const char *name = w->ti->events[w->nest[i].ev].name;
		if (!name)
			name = "[unnamed]";
		uint64_t *ix = perfan__htab_get(&w->frame_ix, (uintptr_t)name);
		if (ix) {
			w->frame[i] = (uint32_t)*ix;
			continue;
		}
		if (perfan__grow((void **)&w->frames, &w->frames_cap,
				 w->nframes + 1, sizeof(*w->frames)) ||
		    perfan__htab_put(&w->frame_ix, (uintptr_t)name, w->nframes))
			return perfan__nomem("speedscope");
		w->frame[i] = (uint32_t)w->nframes;
		w->frames[w->nframes++] = name;
	}
	return 0;
}

/* The name of thread TH's profile: its root frame's, "COMM-PID/TID" as
 * perfan_trace_profile names it (made in the scratch profile NAMES). */
static const char *profile_name(perfan_profile *names,
				const struct perfan_trace_thread *th)
{
	perfan_frame_id id;
	if (perfan__trace_root(names, th, PERFAN_ROOT_PID_TID, &id))
		return "?";
	return perfan_profile_frame_get(names, id)->name;
}

static void event(struct writer *w, char type, uint32_t frame, int64_t at)
{
	perfan__json_open(&w->j, NULL, '{');
	perfan__json_str(&w->j, "type", type == 'O' ? "O" : "C");
	perfan__json_u64(&w->j, "frame", frame);
	perfan__json_i64(&w->j, "at", at - w->t0);
	perfan__json_close(&w->j, '}');
}

/* The spans NEST[A..B) of one thread as one evented profile. */
static int profile(struct writer *w, size_t a, size_t b)
{
	const struct perfan_trace_event *ev = w->ti->events;
	int64_t end = w->t0;
	for (size_t i = a; i < b; i++)
		if (w->nest[i].end > end)
			end = w->nest[i].end;
	perfan__json_open(&w->j, NULL, '{');
	perfan__json_str(&w->j, "type", "evented");
	perfan__json_str(
		&w->j, "name",
		profile_name(w->names,
			     &w->ti->threads[ev[w->nest[a].ev].thread]));
	perfan__json_str(&w->j, "unit", "nanoseconds");
	perfan__json_i64(&w->j, "startValue", 0);
	perfan__json_i64(&w->j, "endValue", end - w->t0);
	perfan__json_open(&w->j, "events", '[');
	size_t depth = 0;
	for (size_t i = a; i < b; i++) {
		const struct perfan__nest *s = &w->nest[i];
		if (s->end <= ev[s->ev].ts)
			continue; /* no time: a leaf, left out */
		while (depth && w->path[depth - 1] != s->parent) {
			uint32_t k = w->path[--depth];
			event(w, 'C', w->frame[k], w->nest[k].end);
		}
		if (perfan__grow((void **)&w->path, &w->path_cap, depth + 1,
				 sizeof(*w->path)))
			return perfan__nomem("speedscope");
		w->path[depth++] = (uint32_t)i;
		event(w, 'O', w->frame[i], ev[s->ev].ts);
	}
	while (depth) {
		uint32_t k = w->path[--depth];
		event(w, 'C', w->frame[k], w->nest[k].end);
	}
	perfan__json_close(&w->j, ']');
	perfan__json_close(&w->j, '}');
	return 0;
}

/* Each thread's first span in the nesting, and the index of the thread
 * whose outermost spans last longest (speedscope opens it first) in
 * *ACTIVE. */
static void busiest(const struct writer *w, int64_t *active)
{
	int64_t best = -1, k = -1, busy = 0;
	*active = -1;
	for (size_t i = 0; i < w->n; i++) {
		const struct perfan__nest *s = &w->nest[i];
		const struct perfan_trace_event *e = &w->ti->events[s->ev];
		if (!i ||
		    e->thread != w->ti->events[w->nest[i - 1].ev].thread) {
			k++;
			busy = 0;
		}
		if (s->parent == PERFAN__NEST_TOP)
			busy += s->end - e->ts;
		if (busy > best) {
			best = busy;
			*active = k;
		}
	}
}

static int write_file(struct writer *w)
{
	int rc = frames(w);
	if (rc)
		return rc;
	int64_t active;
	busiest(w, &active);
	struct perfan__json *j = &w->j;
	perfan__speedscope_head(j, w->o.name ? w->o.name : "perfan", active);
	perfan__json_open(j, "shared", '{');
	perfan__json_open(j, "frames", '[');
	for (size_t i = 0; i < w->nframes; i++) {
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "name", w->frames[i]);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_close(j, '}');
	perfan__json_open(j, "profiles", '[');
	const struct perfan_trace_event *ev = w->ti->events;
	for (size_t a = 0, b; a < w->n && !rc; a = b) {
		for (b = a + 1; b < w->n && ev[w->nest[b].ev].thread ==
						    ev[w->nest[a].ev].thread;
		     b++)
			;
		rc = profile(w, a, b);
	}
	perfan__json_close(j, ']');
	perfan__json_close(j, '}');
	fputc('\n', j->fp);
	return rc;
}

int perfan_speedscope_trace_write(const perfan_trace *t, FILE *out,
				  const struct perfan_speedscope_write_opts *o)
{
	if (!t || !out)
		return perfan__err(PERFAN_EINVAL,
				   "speedscope: no trace or output");
	struct writer w;
	memset(&w, 0, sizeof(w));
	int rc = PERFAN__OPTS_COPY(w.o, o);
	if (rc)
		return rc;
	w.ti = perfan_trace_info(t);
	w.t0 = w.ti->nr_events ? w.ti->events[0].ts : 0;
	if (perfan_profile_new(&w.names, NULL))
		return perfan__nomem("speedscope");
	if (perfan__trace_nest(t, 0, &w.nest, &w.n)) {
		perfan_profile_free(w.names);
		return perfan__nomem("speedscope");
	}
	perfan__json_init(&w.j, out, 0);
	rc = write_file(&w);
	if (!rc && (fflush(out) || ferror(out)))
		rc = perfan__err(PERFAN_EIO, "speedscope: writing failed");
	free(w.nest);
	perfan_profile_free(w.names);
	free(w.frame);
	free(w.frames);
	free(w.path);
	perfan__htab_free(&w.frame_ix);
	return rc;
}
