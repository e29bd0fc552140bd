/* analysis/gpu_cpu.c: the CPU side: each CPU thread's spans by time and
 * nested (each span's enclosing one), and a step's launching threads: their
 * time in spans, in CUDA runtime and driver calls, in synchronising
 * calls. */
#include <stdlib.h>

#include "analysis/gpu_internal.h"
#include "trace/nest.h"
#include "util/htab.h"
#include "util/log.h"

/* The nesting of trace/nest.c: each CPU thread's spans in time order
 * (the longer first at equal starts), each span's enclosing one. */
int perfan__gpu_nesting(perfan_gpu *g)
{
	const struct perfan_trace_info *ti = g->ti;
	size_t nt = ti->nr_threads ? ti->nr_threads : 1;
	size_t ne = ti->nr_events ? ti->nr_events : 1;
	struct perfan__nest *nest = NULL;
	size_t n = 0;
	g->by_thread = calloc(nt, sizeof(*g->by_thread));
	g->nr_by_thread = calloc(nt, sizeof(*g->nr_by_thread));
	g->parent = malloc(ne * sizeof(*g->parent));
	if (!g->by_thread || !g->nr_by_thread || !g->parent ||
	    perfan__trace_nest(g->t, 1, &nest, &n))
		return perfan__nomem("gpu");
	for (size_t i = 0; i < ti->nr_events; i++)
		g->parent[i] = GPU_NONE;
	/* each thread's spans are one run of the nesting */
	for (size_t i = 0, j; i < n; i = j) {
		uint32_t t = ti->events[nest[i].ev].thread;
		for (j = i; j < n && ti->events[nest[j].ev].thread == t; j++)
			;
		g->by_thread[t] = malloc((j - i) * sizeof(uint32_t));
		if (!g->by_thread[t]) {
			free(nest);
			return perfan__nomem("gpu");
		}
		g->nr_by_thread[t] = j - i;
		for (size_t k = i; k < j; k++) {
			g->by_thread[t][k - i] = nest[k].ev;
			if (nest[k].parent != PERFAN__NEST_TOP)
				g->parent[nest[k].ev] = nest[nest[k].parent].ev;
		}
	}
	free(nest);
	return 0;
}

/* The time of the events of thread T that PICK takes, merged, in [A, B). */
static int64_t covered(const perfan_gpu *g, uint32_t t, int64_t a, int64_t b,
		       int (*pick)(const struct perfan_trace_event *),
		       struct gpu_span *buf)
{
	const uint32_t *v = g->by_thread[t];
	size_t n = 0;
	for (size_t k = 0; k < g->nr_by_thread[t]; k++) {
		uint32_t i = v[k];
		if (g->ts[i] >= b)
			break;
		if (g->end[i] > a && pick(&g->ti->events[i]))
			buf[n++] = (struct gpu_span){g->ts[i], g->end[i]};
	}
	int64_t total;
	perfan__gpu_merge(buf, n, a, b, &total);
	return total;
}

static int any(const struct perfan_trace_event *e)
{
	(void)e;
	return 1;
}

static int runtime(const struct perfan_trace_event *e)
{
	return e->kind == PERFAN_TRACE_RUNTIME ||
	       e->kind == PERFAN_TRACE_DRIVER;
}

int perfan__gpu_step_cpu(const perfan_gpu *g, struct perfan_gpu_step *st,
			 const struct gpu_work *w, size_t n)
{
	const struct perfan_trace_info *ti = g->ti;
	struct perfan__htab seen = {0};
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (w[i].launch == GPU_NONE || w[i].ts < st->start ||
		    w[i].ts >= st->end)
			continue;
		uint32_t t = ti->events[w[i].launch].thread;
		if (perfan__htab_get(&seen, t))
			continue;
		if (perfan__htab_put(&seen, t, 1)) {
			rc = perfan__nomem("gpu");
			break;
		}
		struct gpu_span *buf =
			malloc((g->nr_by_thread[t] ? g->nr_by_thread[t] : 1) *
			       sizeof(*buf));
		if (!buf) {
			rc = perfan__nomem("gpu");
			break;
		}
		st->nr_threads++;
		st->cpu_time += covered(g, t, st->start, st->end, any, buf);
		st->cpu_runtime +=
			covered(g, t, st->start, st->end, runtime, buf);
		st->cpu_sync += covered(g, t, st->start, st->end,
					perfan__gpu_is_sync_call, buf);
		free(buf);
	}
	perfan__htab_free(&seen);
	return rc;
}
