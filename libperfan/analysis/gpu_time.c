/* analysis/gpu_time.c: the times of a trace's events as the GPU analysis
 * reads them: exact, or as HTA rounds them (the start up and the end down
 * to a microsecond, from the values its JSON parser reads as doubles), and
 * HTA's last-step filter (the last ProfilerStep and the work not launched
 * before it left out). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gpu_internal.h"
#include "util/error.h"
#include "util/htab.h"
#include "util/log.h"

/* NS ns as the double a JSON parser reads from Kineto's microseconds with
 * their ns fraction: the decimal text read by strtod, correctly rounded
 * as Python's float() is. */
static double us_double(int64_t ns)
{
	char buf[48];
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	snprintf(buf, sizeof(buf), "%s%llu.%03llu", ns < 0 ? "-" : "",
		 (unsigned long long)(a / 1000),
		 (unsigned long long)(a % 1000));
	return strtod(buf, NULL);
}

static int is_step_name(const char *name)
{
	/* HTA's ProfilerStepGroupingPattern, ^ProfilerStep#(\d+) */
	if (!name || strncmp(name, "ProfilerStep#", 13))
		return 0;
	return name[13] >= '0' && name[13] <= '9';
}

/* HTA's GPU kernel filter: work on a stream with a correlation, and the
 * device-wide syncs. */
static int hta_gpu(const struct perfan_trace_event *e)
{
	int work = e->kind == PERFAN_TRACE_KERNEL ||
		   e->kind == PERFAN_TRACE_MEMCPY ||
		   e->kind == PERFAN_TRACE_MEMSET ||
		   e->kind == PERFAN_TRACE_SYNC;
	if (!work)
		return 0;
	if (e->stream >= 0 && e->correlation >= 0)
		return 1;
	return e->name && (!strcmp(e->name, "Event Sync") ||
			   !strcmp(e->name, "Context Sync"));
}

/* HTA's _filter_irrelevant_gpu_kernels: with two or more ProfilerStep
 * names, CPU events from the last step's start on are left out, and GPU
 * work kept once per kept CPU event of its correlation (as its merge on
 * the correlation does). */
static int last_step_filter(perfan_gpu *g)
{
	const struct perfan_trace_info *ti = g->ti;
	const char *names[2] = {NULL, NULL};
	int64_t last = INT64_MIN;
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (hta_gpu(e) || !is_step_name(e->name))
			continue;
		if (!names[0])
			names[0] = e->name;
		else if (e->name != names[0])
			names[1] = e->name;
		if (g->ts[i] > last)
			last = g->ts[i];
	}
	if (!names[1])
		return 0; /* "only one iteration": nothing left out */
	g->res.last_step_cut = 1;
	struct perfan__htab corr = {0};
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (hta_gpu(e))
			continue;
		g->keep[i] = g->ts[i] < last;
		if (!g->keep[i])
			continue;
		uint64_t *n = perfan__htab_get(&corr, (uint64_t)e->correlation);
		if (n)
			(*n)++;
		else if (perfan__htab_put(&corr, (uint64_t)e->correlation, 1))
			goto nomem;
	}
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (!hta_gpu(e))
			continue;
		uint64_t *n = perfan__htab_get(&corr, (uint64_t)e->correlation);
		g->keep[i] = n ? (*n > 255 ? 255 : (uint8_t)*n) : 0;
	}
	perfan__htab_free(&corr);
	return 0;
nomem:
	perfan__htab_free(&corr);
	return perfan__nomem("gpu");
}

int perfan__gpu_times(perfan_gpu *g)
{
	const struct perfan_trace_info *ti = g->ti;
	size_t n = ti->nr_events ? ti->nr_events : 1;
	g->ts = malloc(n * sizeof(*g->ts));
	g->end = malloc(n * sizeof(*g->end));
	g->keep = malloc(n);
	if (!g->ts || !g->end || !g->keep)
		return perfan__nomem("gpu");
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		int64_t dur = e->dur > 0 ? e->dur : 0;
		g->keep[i] = 1;
		if (!g->o.hta_compat) {
			g->ts[i] = e->ts;
			g->end[i] = e->ts + dur;
			continue;
		}
		/* HTA's round_down_time_stamps: end = ts + dur as doubles,
		 * then ts up and end down */
		double ts = us_double(e->ts - ti->base_ns);
		double end = ts + us_double(e->dur);
		g->ts[i] = (int64_t)ceil(ts) * 1000 + ti->base_ns;
		g->end[i] = (int64_t)floor(end) * 1000 + ti->base_ns;
	}
	return g->o.hta_compat ? last_step_filter(g) : 0;
}
