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

/* Spans that start together on a thread, K[0..N) (in input order), the
 * longer first: few, mostly. */
static void order_ties(struct key *k, size_t n)
{
	if (n > 32) {
		qsort(k, n, sizeof(*k), cmp_key);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct key x = k[i];
		size_t j = i;
		for (; j && cmp_key(&k[j - 1], &x) > 0; j--)
			k[j] = k[j - 1];
		k[j] = x;
	}
}

int perfan__trace_nest(const perfan_trace *t, int cpu_only,
		       struct perfan__nest **out, size_t *n)
{
	const struct perfan_trace_info *ti = perfan_trace_info(t);
	size_t m = 0, cap = ti->nr_events ? ti->nr_events : 1;
	*out = NULL;
	*n = 0;
	struct key *k = malloc(cap * sizeof(*k));
	struct perfan__nest *o = malloc(cap * sizeof(*o));
	size_t *at = calloc(ti->nr_threads + 1, sizeof(*at));
	if (!k || !o || !at) {
		free(k);
		free(o);
		free(at);
		return PERFAN_ENOMEM;
	}
	/* the order of cmp_key: the events are by time, then input order,
	 * so each thread's are in place once put together by thread, but
	 * for the spans that start together */
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (!cpu_only || ti->threads[e->thread].device < 0)
			at[e->thread + 1]++;
	}
	for (size_t th = 0; th < ti->nr_threads; th++)
		at[th + 1] += at[th];
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (cpu_only && ti->threads[e->thread].device >= 0)
			continue;
		k[at[e->thread]++] = (struct key){
			e->ts, e->dur > 0 ? e->dur : 0, e->thread, (uint32_t)i};
		m++;
	}
	free(at);
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i + 1;
		     j < m && k[j].thread == k[i].thread && k[j].ts == k[i].ts;
		     j++)
			;
		if (j - i > 1)
			order_ties(k + i, j - i);
	}
	/* the innermost open span, its parents through .parent */
	uint32_t top = PERFAN__NEST_TOP;
	for (size_t i = 0; i < m; i++) {
		if (i && k[i].thread != k[i - 1].thread)
			top = PERFAN__NEST_TOP;
		while (top != PERFAN__NEST_TOP && k[i].ts >= o[top].end)
			top = o[top].parent;
		int64_t end = k[i].ts + k[i].len;
		if (top != PERFAN__NEST_TOP && end > o[top].end)
			end = o[top].end;
		o[i] = (struct perfan__nest){k[i].ev, top, end};
		top = (uint32_t)i;
	}
	free(k);
	*out = o;
	*n = m;
	return 0;
}
