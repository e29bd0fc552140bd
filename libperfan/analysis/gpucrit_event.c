/* analysis/gpucrit_event.c: what an event sync or a stream wait waits for,
 * as HTA finds it: the GPU work of the last launch on the stream a
 * cudaEventRecord recorded on, before the record; and, for a stream wait,
 * the work of the next launch onto the waiting stream from the same
 * thread, which may not start before it. */
#include <stdlib.h>
#include <string.h>

#include "analysis/gpucrit_graph.h"
#include "util/error.h"

static int named(const struct perfan_trace_event *e, const char *name)
{
	return e->name && !strcmp(e->name, name);
}

/* A before B in time, then in input order (HTA sorts by time). */
static int before(const struct perfan_trace_event *a,
		  const struct perfan_trace_event *b)
{
	return a->ts != b->ts ? a->ts < b->ts : a->index < b->index;
}

/* The launches of GPU work on a stream, in time order: HTA's launch
 * ids. */
static size_t launches(const struct gc_graph *g, uint32_t *out)
{
	const struct perfan_trace_info *ti = g->ti;
	size_t n = 0;
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		int32_t p = g->partner[i];
		if (p >= 0 && !perfan__gc_on_gpu(e->kind) &&
		    perfan__gc_is_launch(e) && ti->events[p].stream >= 0)
			out[n++] = (uint32_t)i;
	}
	/* insertion into order: the events come sorted by ts already */
	for (size_t k = 1; k < n; k++) {
		uint32_t v = out[k];
		size_t j = k;
		while (j && before(&ti->events[v], &ti->events[out[j - 1]])) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = v;
	}
	return n;
}

/* The last launch in L (N of them) onto DEVICE's STREAM before event AT,
 * or -1. */
static int32_t last_before(const struct gc_graph *g, const uint32_t *l,
			   size_t n, int32_t device, int64_t stream,
			   const struct perfan_trace_event *at)
{
	const struct perfan_trace_event *E = g->ti->events;
	int32_t best = -1;
	for (size_t k = 0; k < n && before(&E[l[k]], at); k++) {
		const struct perfan_trace_event *w = &E[g->partner[l[k]]];
		if (w->device == device && w->stream == stream)
			best = (int32_t)l[k];
	}
	return best;
}

/* The first launch in L from CALL's thread onto STREAM at or after CALL,
 * or -1. */
static int32_t next_after(const struct gc_graph *g, const uint32_t *l, size_t n,
			  const struct perfan_trace_event *call, int64_t stream)
{
	const struct perfan_trace_info *ti = g->ti;
	const struct perfan_trace_thread *th = &ti->threads[call->thread];
	for (size_t k = 0; k < n; k++) {
		const struct perfan_trace_event *e = &ti->events[l[k]];
		const struct perfan_trace_thread *t = &ti->threads[e->thread];
		if (!before(e, call) && t->pid == th->pid &&
		    t->tid == th->tid &&
		    ti->events[g->partner[l[k]]].stream == stream)
			return (int32_t)l[k];
	}
	return -1;
}

int perfan__gc_event_links(const struct gc_graph *g, int32_t *src,
			   int32_t *dest)
{
	const struct perfan_trace_info *ti = g->ti;
	const struct perfan_trace_event *E = ti->events;
	uint32_t *l = malloc((ti->nr_events + 1) * sizeof(*l));
	if (!l)
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	size_t nl = launches(g, l);
	/* the syncs that name the stream a record was on, and the records:
	 * few */
	uint32_t *on_s = malloc((ti->nr_events + 1) * sizeof(*on_s));
	uint32_t *recs = malloc((ti->nr_events + 1) * sizeof(*recs));
	if (!on_s || !recs) {
		free(l);
		free(on_s);
		free(recs);
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	}
	size_t non = 0, nrec = 0;
	for (size_t j = 0; j < ti->nr_events; j++) {
		if (E[j].kind == PERFAN_TRACE_SYNC && E[j].event_record >= 0 &&
		    E[j].wait_stream >= 0)
			on_s[non++] = (uint32_t)j;
		if (named(&E[j], "cudaEventRecord") && E[j].correlation >= 0)
			recs[nrec++] = (uint32_t)j;
	}
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *s = &E[i];
		if (s->kind != PERFAN_TRACE_SYNC || s->event_record < 0 ||
		    (s->sync != PERFAN_TRACE_SYNC_EVENT &&
		     s->sync != PERFAN_TRACE_SYNC_WAIT))
			continue;
		/* the stream the record was on: a sync that names it */
		const struct perfan_trace_event *on = NULL;
		for (size_t j = 0; j < non && !on; j++)
			if (E[on_s[j]].event_record == s->event_record)
				on = &E[on_s[j]];
		/* the record itself */
		const struct perfan_trace_event *rec = NULL;
		for (size_t j = 0; j < nrec && on && !rec; j++)
			if (E[recs[j]].correlation == s->event_record)
				rec = &E[recs[j]];
		if (!rec)
			continue;
		int32_t prev =
			last_before(g, l, nl, on->device, on->wait_stream, rec);
		if (prev < 0)
			continue;
		src[i] = g->partner[prev];
		if (s->sync == PERFAN_TRACE_SYNC_WAIT && g->partner[i] >= 0) {
			int32_t next = next_after(g, l, nl, &E[g->partner[i]],
						  s->stream);
			if (next >= 0)
				dest[i] = g->partner[next];
		}
	}
	free(l);
	free(on_s);
	free(recs);
	return 0;
}
