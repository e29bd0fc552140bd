/* analysis/gpu.c: perfan_gpu_new and its result: the trace's times, its
 * GPU work, the CPU threads' nesting, the whole trace as HTA sees it, then
 * each step on each device (perfan/gpu.h). */
#include <stdlib.h>
#include <string.h>

#include <perfan/gpu.h>

#include "analysis/gpu_internal.h"
#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

const char *perfan_gpu_idle_name(uint32_t cls)
{
	static const char *const names[PERFAN_GPU_NIDLE] = {
		"host wait", "kernel wait", "sync wait", "other"};
	return cls < PERFAN_GPU_NIDLE ? names[cls] : NULL;
}

const char *perfan_gpu_verdict_name(uint32_t verdict)
{
	static const char *const names[] = {
		"no GPU work", "CPU-bound",           "GPU-bound",
		"sync-bound",  "communication-bound", "launch-bound",
		"stalled"};
	return verdict < sizeof(names) / sizeof(*names) ? names[verdict] : NULL;
}

void perfan_gpu_free(perfan_gpu *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->res.nr_steps; i++) {
		free(g->step_streams[i]);
		free(g->step_gaps[i]);
	}
	if (g->by_thread)
		for (size_t t = 0; t < g->ti->nr_threads; t++)
			free(g->by_thread[t]);
	free(g->by_thread);
	free(g->nr_by_thread);
	free(g->parent);
	free(g->step_streams);
	free(g->step_gaps);
	free(g->steps);
	free(g->streams);
	free(g->launches);
	free(g->work);
	free(g->syncs);
	free(g->roots);
	perfan__htab_free(&g->frames);
	free(g->ts);
	free(g->end);
	free(g->keep);
	perfan_profile_free(g->profile);
	free(g);
}

int perfan_gpu_new(perfan_gpu **out, const perfan_trace *t,
		   const struct perfan_gpu_opts *opts)
{
	if (!out || !t)
		return perfan__err_null(__func__, out ? "trace" : "out");
	*out = NULL;
	perfan_gpu *g = calloc(1, sizeof(*g));
	if (!g)
		return perfan__nomem("gpu");
	int rc = PERFAN__OPTS_COPY(g->o, opts);
	if (rc) {
		free(g);
		return rc;
	}
	if (!g->o.kernel_wait)
		g->o.kernel_wait = g->o.hta_compat ? 30000 : 10000;
	if (!g->o.nr_longest)
		g->o.nr_longest = 5;
	g->t = t;
	g->ti = perfan_trace_info(t);
	g->res.layout = g->ti->layout;
	g->res.hta_compat = g->o.hta_compat;
	g->res.kernel_wait = g->o.kernel_wait;
	size_t nt = g->ti->nr_threads ? g->ti->nr_threads : 1;
	g->roots = malloc(nt * sizeof(*g->roots));
	if (!g->roots)
		rc = perfan__nomem("gpu");
	for (size_t i = 0; !rc && i < nt; i++)
		g->roots[i] = GPU_NONE;
	if (!rc)
		rc = perfan_profile_new(&g->profile, NULL);
	if (!rc) {
		int c = perfan_profile_add_column(g->profile, "gpu idle", "ns");
		rc = c < 0 ? c : 0;
		g->col = c < 0 ? 0 : (size_t)c;
	}
	if (!rc)
		rc = perfan__gpu_times(g);
	if (!rc)
		rc = perfan__gpu_work(g);
	if (!rc)
		rc = perfan__gpu_nesting(g);
	if (!rc)
		rc = perfan__gpu_whole(g);
	if (!rc)
		rc = perfan__gpu_steps(g);
	if (rc) {
		perfan_gpu_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

const struct perfan_gpu_result *perfan_gpu_result(const perfan_gpu *g)
{
	return g ? &g->res : NULL;
}

const perfan_profile *perfan_gpu_profile(const perfan_gpu *g)
{
	return g ? g->profile : NULL;
}
