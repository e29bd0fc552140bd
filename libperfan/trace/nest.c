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

int perfan__trace_nest(const perfan_trace *t, int cpu_only,
		       struct perfan__nest **out, size_t *n)
{
	const struct perfan_trace_info *ti = perfan_trace_info(t);
	size_t m = 0, cap = ti->nr_events ? ti->nr_events : 1;
	*out = NULL;
	*n = 0;
	struct key *k = malloc(cap * sizeof(*k));
	struct perfan__nest *o = malloc(cap * sizeof(*o));
	if (!k || !o) {
		free(k);
		free(o);
		return PERFAN_ENOMEM;
	}
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (cpu_only && ti->threads[e->thread].device >= 0)
			continue;
		k[m++] = (struct key){e->ts, e->dur > 0 ? e->dur : 0, e->thread,
				      (uint32_t)i};
	}
	qsort(k, m, sizeof(*k), cmp_key);
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
