/* analysis/gpu_temporal.c: the whole trace as HTA sees it: its temporal
 * breakdown (get_temporal_breakdown), the idle-time breakdown per stream
 * (get_idle_time_breakdown) and the launch statistics rows
 * (get_cuda_kernel_launch_stats). */
#include <stdlib.h>
#include <string.h>

#include "analysis/gpu_internal.h"
#include "util/htab.h"
#include "util/keysort.h"
#include "util/log.h"

/* A kept event of a CPU thread with a stream argument. */
static int cpu_on_stream(const perfan_gpu *g, size_t i)
{
	const struct perfan_trace_event *e = &g->ti->events[i];
	return g->keep[i] && e->stream >= 0 &&
	       g->ti->threads[e->thread].device < 0;
}

static int temporal(perfan_gpu *g)
{
	struct gpu_span *all =
		malloc((g->nr_work ? g->nr_work : 1) * sizeof(*all));
	struct gpu_span *comp =
		malloc((g->nr_work ? g->nr_work : 1) * sizeof(*comp));
	if (!all || !comp) {
		free(all);
		free(comp);
		return perfan__nomem("gpu");
	}
	size_t n = 0, nc = 0, extra = 0;
	const struct perfan_trace_info *ti = g->ti;
	/* HTA: any event with a stream argument, a CPU op's too (Triton's
	 * launcher names its stream) */
	for (size_t i = 0; g->o.hta_compat && i < ti->nr_events; i++)
		extra += cpu_on_stream(g, i);
	if (extra) {
		struct gpu_span *a2 =
			realloc(all, (g->nr_work + extra) * sizeof(*all));
		struct gpu_span *c2 =
			a2 ? realloc(comp, (g->nr_work + extra) * sizeof(*comp))
			   : NULL;
		if (a2)
			all = a2;
		if (c2)
			comp = c2;
		if (!a2 || !c2) {
			free(all);
			free(comp);
			return perfan__nomem("gpu");
		}
		for (size_t i = 0; i < ti->nr_events; i++) {
			if (!cpu_on_stream(g, i))
				continue;
			all[n++] = (struct gpu_span){g->ts[i], g->end[i]};
			if (perfan__gpu_type(ti->events[i].name) == GPU_COMPUTE)
				comp[nc++] = all[n - 1];
		}
	}
	for (size_t i = 0; i < g->nr_work; i++) {
		const struct gpu_work *w = &g->work[i];
		if (w->stream < 0)
			continue; /* HTA: work on a stream */
		all[n++] = (struct gpu_span){w->ts, w->end};
		if (w->type == GPU_COMPUTE)
			comp[nc++] = all[n - 1];
	}
	struct perfan_gpu_temporal *t = &g->res.temporal;
	int64_t run = 0, compute = 0;
	size_t m = perfan__gpu_merge(all, n, INT64_MIN, INT64_MAX, &run);
	perfan__gpu_merge(comp, nc, INT64_MIN, INT64_MAX, &compute);
	if (m) {
		t->total = all[m - 1].e - all[0].s;
		t->idle = t->total - run;
		t->compute = compute;
		t->non_compute = t->total - compute - t->idle;
	}
	free(all);
	free(comp);
	return 0;
}

static int cmp_stream(const void *a, const void *b)
{
	const struct gpu_work *x = a, *y = b;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* HTA's idle-time breakdown per stream: kernels, copies and sets. */
static int streams(perfan_gpu *g)
{
	struct gpu_work *w = malloc((g->nr_work ? g->nr_work : 1) * sizeof(*w));
	if (!w)
		return perfan__nomem("gpu");
	size_t n = 0, ns = 0;
	for (size_t i = 0; i < g->nr_work; i++)
		if (g->work[i].busy && g->work[i].stream >= 0)
			w[n++] = g->work[i];
	qsort(w, n, sizeof(*w), cmp_stream);
	for (size_t i = 0; i < n; i++)
		ns += !i || w[i].stream != w[i - 1].stream ||
		      w[i].device != w[i - 1].device;
	g->streams = calloc(ns ? ns : 1, sizeof(*g->streams));
	if (!g->streams) {
		free(w);
		return perfan__nomem("gpu");
	}
	ns = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && w[j].stream == w[i].stream &&
			    w[j].device == w[i].device;
		     j++)
			;
		struct perfan_gpu_stream *st = &g->streams[ns++];
		st->device = w[i].device;
		st->stream = w[i].stream;
		perfan__gpu_stream_idle(g, w + i, j - i, st);
		struct gpu_span *sp = malloc((j - i) * sizeof(*sp));
		if (!sp) {
			free(w);
			return perfan__nomem("gpu");
		}
		for (size_t k = i; k < j; k++)
			sp[k - i] = (struct gpu_span){w[k].ts, w[k].end};
		perfan__gpu_merge(sp, j - i, INT64_MIN, INT64_MAX, &st->busy);
		free(sp);
	}
	free(w);
	g->res.streams = g->streams;
	g->res.nr_streams = ns;
	return 0;
}

/* HTA's launch calls: kernel launches and async copies and sets. */
static int is_launch_name(const char *name)
{
	static const char *const names[] = {
		"cudaLaunchKernel", "cudaLaunchKernelExC",
		"runFunction - job_prep_and_submit_for_execution",
		"cudaMemcpyAsync", "cudaMemsetAsync"};
	for (size_t i = 0; name && i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

static int on_stream(const struct perfan_trace_event *e)
{
	return e->stream >= 0 &&
	       (e->kind == PERFAN_TRACE_KERNEL ||
		e->kind == PERFAN_TRACE_MEMCPY ||
		e->kind == PERFAN_TRACE_MEMSET || e->kind == PERFAN_TRACE_SYNC);
}

/* Event I of a launch's correlation (SET), kept: 1 work on a stream, 2 a
 * CPU event (not on a stream), else 0. */
static int of_launch(const perfan_gpu *g, const struct perfan__htab *set,
		     size_t i)
{
	const struct perfan_trace_event *e = &g->ti->events[i];
	if (!g->keep[i] || e->correlation < 0 ||
	    !perfan__htab_get(set, (uint64_t)e->correlation))
		return 0;
	if (on_stream(e))
		return g->o.one_device && e->device != g->o.device ? 0 : 1;
	return e->stream < 0 ? 2 : 0;
}

/* The kept events of the launches' correlations (SET) in input order:
 * the work on a stream in *W, the CPU events (not on a stream) in *C. */
static int of_launches(const perfan_gpu *g, const struct perfan__htab *set,
		       struct perfan__keyed **w, size_t *nw,
		       struct perfan__keyed **c, size_t *nc)
{
	const struct perfan_trace_info *ti = g->ti;
	size_t n[3] = {0, 0, 0};
	for (size_t i = 0; i < ti->nr_events; i++)
		n[of_launch(g, set, i)]++;
	*w = malloc((n[1] ? n[1] : 1) * sizeof(**w));
	*c = malloc((n[2] ? n[2] : 1) * sizeof(**c));
	if (!*w || !*c)
		return perfan__nomem("gpu");
	*nw = *nc = 0;
	for (size_t i = 0; i < ti->nr_events; i++) {
		struct perfan__keyed k = {ti->events[i].index, (uint32_t)i};
		switch (of_launch(g, set, i)) {
		case 1: (*w)[(*nw)++] = k; break;
		case 2: (*c)[(*nc)++] = k; break;
		}
	}
	if (perfan__keysort(*w, *nw) || perfan__keysort(*c, *nc))
		return perfan__nomem("gpu");
	return 0;
}

/* The rows: each CPU event (not on a stream) of a launch's correlation,
 * in input order, with each piece of work on a stream of that
 * correlation, in input order: HTA's inner merge. */
static int launch_rows(perfan_gpu *g)
{
	const struct perfan_trace_info *ti = g->ti;
	struct perfan__htab set = {0}, first = {0};
	struct perfan__keyed *w = NULL, *c = NULL;
	uint32_t *next = NULL;
	size_t nw = 0, nc = 0, nrows = 0;
	int rc = 0;
	for (size_t i = 0; i < ti->nr_events && !rc; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (g->keep[i] && e->correlation >= 0 &&
		    is_launch_name(e->name) &&
		    perfan__htab_put(&set, (uint64_t)e->correlation, 1))
			rc = perfan__nomem("gpu");
	}
	if (!rc)
		rc = of_launches(g, &set, &w, &nw, &c, &nc);
	perfan__htab_free(&set);
	if (!rc && !(next = malloc((nw ? nw : 1) * sizeof(*next))))
		rc = perfan__nomem("gpu");
	/* the work of each correlation, chained in input order */
	for (size_t k = nw; k-- > 0 && !rc;) {
		int64_t corr = ti->events[w[k].at].correlation;
		uint64_t *f = perfan__htab_get(&first, (uint64_t)corr);
		next[k] = f ? (uint32_t)*f : GPU_NONE;
		if (perfan__htab_put(&first, (uint64_t)corr, k))
			rc = perfan__nomem("gpu");
	}
	/* two rounds: the rows counted, then written */
	for (int fill = 0; fill < 2 && !rc; fill++) {
		if (fill && !(g->launches = malloc((nrows ? nrows : 1) *
						   sizeof(*g->launches)))) {
			rc = perfan__nomem("gpu");
			break;
		}
		nrows = 0;
		for (size_t k = 0; k < nc; k++) {
			uint32_t i = c[k].at;
			int64_t corr = ti->events[i].correlation;
			uint64_t *f = perfan__htab_get(&first, (uint64_t)corr);
			for (uint32_t q = f ? (uint32_t)*f : GPU_NONE;
			     q != GPU_NONE; q = next[q]) {
				uint32_t j = w[q].at;
				int64_t d = g->ts[j] - g->end[i];
				for (unsigned m = 0; m < g->keep[j];
				     m++, nrows++)
					if (fill)
						g->launches[nrows] =
							(struct perfan_gpu_launch){
								corr,
								g->end[i] -
									g->ts[i],
								g->end[j] -
									g->ts[j],
								d > 0 ? d : 0};
			}
		}
	}
	free(w);
	free(c);
	free(next);
	perfan__htab_free(&first);
	g->res.launches = g->launches;
	g->res.nr_launches = rc ? 0 : nrows;
	return rc;
}

int perfan__gpu_whole(perfan_gpu *g)
{
	int rc = temporal(g);
	if (!rc)
		rc = streams(g);
	if (!rc)
		rc = launch_rows(g);
	return rc;
}
