/* analysis/gpu_work.c: the pieces of GPU work of a trace (kernels, copies,
 * sets, syncs on a stream), each with its launch (the CPU call of its
 * correlation) and its type by name as HTA types kernels; and the CPU's
 * synchronising calls. */
#include <stdlib.h>
#include <string.h>

#include "analysis/gpu_internal.h"
#include "util/htab.h"
#include "util/keysort.h"
#include "util/log.h"

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

uint8_t perfan__gpu_type(const char *name)
{
	if (!name)
		return GPU_COMPUTE;
	/* HTA's CommunicateKernelGroupingPattern */
	if (starts(name, "nccl") || starts(name, "hip") ||
	    starts(name, "hccl") || strstr(name, "ncclKernel"))
		return GPU_COMM;
	/* MemoryKernelGroupingPattern */
	if (starts(name, "Memcpy") || starts(name, "Memset") ||
	    starts(name, "dma"))
		return GPU_MEMORY;
	/* ComputeKernelGroupingPattern, inverted */
	static const char *const not_at[] = {"Stream Wait Event",
					     "runFunction",
					     "job_exe",
					     "packet",
					     "pe_exe",
					     "cpum_exe_subgraph",
					     "collective_subgraph_execution"};
	static const char *const not_in[] = {"Memcpy", "Memset", "dma", "Sync"};
	for (size_t i = 0; i < sizeof(not_at) / sizeof(*not_at); i++)
		if (starts(name, not_at[i]))
			return GPU_OTHERW;
	for (size_t i = 0; i < sizeof(not_in) / sizeof(*not_in); i++)
		if (strstr(name, not_in[i]))
			return GPU_OTHERW;
	if (starts(name, "cuda") && strstr(name + 4, "LaunchKernel"))
		return GPU_OTHERW;
	return GPU_COMPUTE;
}

int perfan__gpu_is_sync_call(const struct perfan_trace_event *e)
{
	switch (e->kind) {
	case PERFAN_TRACE_RUNTIME:
	case PERFAN_TRACE_DRIVER:
		return e->sync != PERFAN_TRACE_SYNC_NONE ||
		       (e->name && strstr(e->name, "Synchronize"));
	case PERFAN_TRACE_SYNC: /* cuda_sync: the host waited, but for a
				   stream waiting on an event */
		return e->sync != PERFAN_TRACE_SYNC_WAIT &&
		       !(e->name && !strcmp(e->name, "Stream Wait Event"));
	case PERFAN_TRACE_CPU_OP:
		return e->name &&
		       (!strcmp(e->name, "aten::item") ||
			!strcmp(e->name, "aten::_local_scalar_dense"));
	default: return 0;
	}
}

static int is_work(const struct perfan_trace_event *e)
{
	return e->kind == PERFAN_TRACE_KERNEL ||
	       e->kind == PERFAN_TRACE_MEMCPY ||
	       e->kind == PERFAN_TRACE_MEMSET || e->kind == PERFAN_TRACE_SYNC;
}

static int cmp_work(const void *a, const void *b)
{
	const struct gpu_work *x = a, *y = b;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* The launch of each correlation: as HTA's index_correlation links them,
 * the last CPU event (in input order) of the correlation. */
static int launches(perfan_gpu *g, struct perfan__htab *h)
{
	const struct perfan_trace_info *ti = g->ti;
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (e->correlation < 0 || ti->threads[e->thread].device >= 0 ||
		    is_work(e))
			continue;
		uint64_t *v = perfan__htab_get(h, (uint64_t)e->correlation);
		if (v && ti->events[*v].index > e->index)
			continue;
		if (perfan__htab_put(h, (uint64_t)e->correlation, i))
			return perfan__nomem("gpu");
	}
	return 0;
}

static int syncs(perfan_gpu *g)
{
	const struct perfan_trace_info *ti = g->ti;
	size_t n = 0;
	for (size_t i = 0; i < ti->nr_events; i++)
		n += perfan__gpu_is_sync_call(&ti->events[i]);
	g->syncs = malloc((n ? n : 1) * sizeof(*g->syncs));
	if (!g->syncs)
		return perfan__nomem("gpu");
	n = 0;
	for (size_t i = 0; i < ti->nr_events; i++)
		if (perfan__gpu_is_sync_call(&ti->events[i]) && g->keep[i])
			g->syncs[n++] = (struct gpu_span){g->ts[i], g->end[i]};
	int64_t total;
	g->nr_syncs =
		perfan__gpu_merge(g->syncs, n, INT64_MIN, INT64_MAX, &total);
	return 0;
}

int perfan__gpu_work(perfan_gpu *g)
{
	const struct perfan_trace_info *ti = g->ti;
	struct perfan__htab h = {0};
	int rc = launches(g, &h);
	size_t n = 0;
	for (size_t i = 0; i < ti->nr_events && !rc; i++)
		if (is_work(&ti->events[i]))
			n += g->keep[i];
	if (!rc && !(g->work = malloc((n ? n : 1) * sizeof(*g->work))))
		rc = perfan__nomem("gpu");
	for (size_t i = 0; i < ti->nr_events && !rc; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		const struct perfan_trace_thread *th = &ti->threads[e->thread];
		if (!is_work(e) || !g->keep[i])
			continue;
		int32_t dev = e->device >= 0 ? e->device : th->device;
		if (g->o.one_device && dev != g->o.device)
			continue;
		struct gpu_work w = {
			.ts = g->ts[i],
			.end = g->end[i],
			.ev = (uint32_t)i,
			.launch = GPU_NONE,
			.device = dev,
			.stream = e->stream >= 0 ? e->stream : th->stream,
			.type = e->kind == PERFAN_TRACE_SYNC
					? GPU_SYNCW
					: perfan__gpu_type(e->name),
			.busy = e->kind != PERFAN_TRACE_SYNC,
		};
		/* an HTA sync with no stream is a device's */
		if (e->stream < 0 && e->kind == PERFAN_TRACE_SYNC)
			w.stream = -1;
		uint64_t *l =
			e->correlation >= 0
				? perfan__htab_get(&h, (uint64_t)e->correlation)
				: NULL;
		if (l && g->keep[*l])
			w.launch = (uint32_t)*l;
		/* kept once per CPU event of its correlation (HTA) */
		for (unsigned k = 0; k < g->keep[i]; k++)
			g->work[g->nr_work++] = w;
	}
	perfan__htab_free(&h);
	if (!rc) {
		perfan__sort_unless_sorted(g->work, g->nr_work,
					   sizeof(*g->work), cmp_work);
		rc = syncs(g);
	}
	return rc;
}
