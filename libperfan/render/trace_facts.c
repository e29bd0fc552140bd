/* render/trace_facts.c: a trace's facts for perfan header: events per kind
 * and per thread, the time span, GPU streams and devices, GPU work linked
 * to its launch. */
#include "render/trace_header.h"

#include <stdlib.h>
#include <string.h>

#include "util/htab.h"
#include "util/log.h"

static int is_work(uint32_t k)
{
	return k == PERFAN_TRACE_KERNEL || k == PERFAN_TRACE_MEMCPY ||
	       k == PERFAN_TRACE_MEMSET;
}

/* GPU work whose correlation is a launch's (a runtime or driver call). */
static int links(struct perfan__trace_facts *f)
{
	struct perfan__htab launch = {0};
	const struct perfan_trace_info *ti = f->ti;
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if ((e->kind == PERFAN_TRACE_RUNTIME ||
		     e->kind == PERFAN_TRACE_DRIVER) &&
		    e->correlation >= 0 &&
		    perfan__htab_put(&launch, (uint64_t)e->correlation, 1)) {
			perfan__htab_free(&launch);
			return perfan__nomem(NULL);
		}
	}
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (!is_work(e->kind))
			continue;
		f->gpu_work++;
		if (e->correlation >= 0 &&
		    perfan__htab_get(&launch, (uint64_t)e->correlation))
			f->linked++;
	}
	perfan__htab_free(&launch);
	return 0;
}

int perfan__trace_facts(struct perfan__trace_facts *f, const perfan_trace *t)
{
	memset(f, 0, sizeof(*f));
	f->t = t;
	f->ti = perfan_trace_info(t);
	f->last_device = -1;
	const struct perfan_trace_info *ti = f->ti;
	f->per_thread = calloc(ti->nr_threads ? ti->nr_threads : 1,
			       sizeof(*f->per_thread));
	if (!f->per_thread)
		return perfan__nomem(NULL);
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (e->kind < PERFAN_TRACE_NKINDS)
			f->kinds[e->kind]++;
		if (e->thread < ti->nr_threads)
			f->per_thread[e->thread]++;
		int64_t end = e->ts + e->dur;
		if (!f->have_time || e->ts < f->first)
			f->first = e->ts;
		if (!f->have_time || end > f->last_end)
			f->last_end = end;
		f->have_time = 1;
	}
	for (size_t i = 0; i < ti->nr_threads; i++) {
		int32_t d = ti->threads[i].device;
		if (d < 0)
			continue;
		f->nr_streams++;
		if (d > f->last_device && d < PERFAN__TRACE_MAX_DEVICE)
			f->last_device = d;
	}
	for (int32_t d = f->last_device + 1; d < PERFAN__TRACE_MAX_DEVICE; d++)
		if (perfan_trace_device_name(t, d))
			f->last_device = d;
	int rc = links(f);
	if (rc)
		perfan__trace_facts_free(f);
	return rc;
}

void perfan__trace_facts_free(struct perfan__trace_facts *f)
{
	free(f->per_thread);
	f->per_thread = NULL;
}
