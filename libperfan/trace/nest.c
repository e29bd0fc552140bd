/* trace/nest.c: each thread's spans nested by time (trace/nest.h). */
#include "trace/nest.h"

#include <stdlib.h>

#include <perfan/common.h>

/* A span in the order of the nesting. */
struct key {
	int64_t ts, len;
	uint32_t thread, ev;
};

static int cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* Event EV's place in the nesting's order. */
static struct key key_of(const struct perfan_trace_info *ti, uint32_t ev)
{
	const struct perfan_trace_event *e = &ti->events[ev];
	return (struct key){e->ts, e->dur > 0 ? e->dur : 0, e->thread, ev};
}

/* The spans that start together on a thread, O[0..N) (their .ev in input
 * order), the longer first: few, mostly. Returns 0 or PERFAN_ENOMEM. */
static int order_ties(const struct perfan_trace_info *ti,
		      struct perfan__nest *o, size_t n)
{
	struct key few[32];
	struct key *k = n <= 32 ? few : malloc(n * sizeof(*k));
	if (!k)
		return PERFAN_ENOMEM;
	for (size_t i = 0; i < n; i++)
		k[i] = key_of(ti, o[i].ev);
	if (k != few) {
		qsort(k, n, sizeof(*k), cmp_key);
	} else {
		for (size_t i = 1; i < n; i++) {
			struct key x = k[i];
			size_t j = i;
			for (; j && cmp_key(&k[j - 1], &x) > 0; j--)
				k[j] = k[j - 1];
			k[j] = x;
		}
	}
	for (size_t i = 0; i < n; i++)
		o[i].ev = k[i].ev;
	if (k != few)
		free(k);
	return 0;
}

int perfan__trace_nest(const perfan_trace *t, int cpu_only,
		       struct perfan__nest **out, size_t *n)
{
	const struct perfan_trace_info *ti = perfan_trace_info(t);
	const struct perfan_trace_event *ev = ti->events;
	size_t m = 0, cap = ti->nr_events ? ti->nr_events : 1;
	*out = NULL;
	*n = 0;
	struct perfan__nest *o = malloc(cap * sizeof(*o));
	size_t *at = calloc(ti->nr_threads + 1, sizeof(*at));
	if (!o || !at) {
		free(o);
		free(at);
		return PERFAN_ENOMEM;
	}
	/* the order of cmp_key, the events' (.ev) in O: the events are by
	 * time, then input order, so each thread's are in place once put
	 * together by thread, but for the spans that start together */
	for (size_t i = 0; i < ti->nr_events; i++)
		if (!cpu_only || ti->threads[ev[i].thread].device < 0)
			at[ev[i].thread + 1]++;
	for (size_t th = 0; th < ti->nr_threads; th++)
		at[th + 1] += at[th];
	for (size_t i = 0; i < ti->nr_events; i++) {
		if (cpu_only && ti->threads[ev[i].thread].device >= 0)
			continue;
		o[at[ev[i].thread]++].ev = (uint32_t)i;
		m++;
	}
	free(at);
	int rc = 0;
	for (size_t i = 0, j; i < m && !rc; i = j) {
		const struct perfan_trace_event *e = &ev[o[i].ev];
		for (j = i + 1; j < m && ev[o[j].ev].thread == e->thread &&
				ev[o[j].ev].ts == e->ts;
		     j++)
			;
		if (j - i > 1)
			rc = order_ties(ti, o + i, j - i);
	}
	if (rc) {
		free(o);
		return rc;
	}
	/* the innermost open span, its parents through .parent */
	uint32_t top = PERFAN__NEST_TOP;
	for (size_t i = 0; i < m; i++) {
		const struct perfan_trace_event *e = &ev[o[i].ev];
		if (i && e->thread != ev[o[i - 1].ev].thread)
			top = PERFAN__NEST_TOP;
		while (top != PERFAN__NEST_TOP && e->ts >= o[top].end)
			top = o[top].parent;
		int64_t end = e->ts + (e->dur > 0 ? e->dur : 0);
		if (top != PERFAN__NEST_TOP && end > o[top].end)
			end = o[top].end;
		o[i].parent = top;
		o[i].end = end;
		top = (uint32_t)i;
	}
	*out = o;
	*n = m;
	return 0;
}
