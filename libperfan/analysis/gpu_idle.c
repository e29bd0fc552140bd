/* analysis/gpu_idle.c: why the GPU was idle in a gap: host wait (the work
 * after it was launched after the GPU went idle), sync wait (and a
 * synchronising call was running when the GPU went idle), kernel wait (queued before, the gap
 * under the threshold), other; and HTA's idle-time breakdown of a
 * stream. */
#include "analysis/gpu_internal.h"

/* Was a synchronising CPU call running at T, when the GPU went idle? (The
 * host blocked until the GPU drained, and could queue nothing meanwhile;
 * a sync begun later found the GPU idle already.) */
static int sync_at(const perfan_gpu *g, int64_t t)
{
	size_t lo = 0, hi = g->nr_syncs;
	while (lo < hi) { /* the first sync ending after T */
		size_t mid = lo + (hi - lo) / 2;
		if (g->syncs[mid].e <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nr_syncs && g->syncs[lo].s <= t;
}

uint32_t perfan__gpu_gap_class(const perfan_gpu *g, int64_t prev_end,
			       int64_t len, const struct gpu_work *next)
{
	int host = !next ||
		   (next->launch != GPU_NONE && g->ts[next->launch] > prev_end);
	if (host) {
		if (!g->o.hta_compat && len > 0 && sync_at(g, prev_end))
			return PERFAN_GPU_IDLE_SYNC;
		return PERFAN_GPU_IDLE_HOST;
	}
	return len < g->o.kernel_wait ? PERFAN_GPU_IDLE_KERNEL
				      : PERFAN_GPU_IDLE_OTHER;
}

void perfan__gpu_stream_idle(const perfan_gpu *g, const struct gpu_work *w,
			     size_t n, struct perfan_gpu_stream *st)
{
	for (size_t i = 0; i < n; i++) {
		st->nr_work++;
		if (!i)
			continue; /* HTA: no gap before the first */
		/* HTA: from the previous row's end, overlaps negative */
		int64_t gap = w[i].ts - w[i - 1].end;
		uint32_t c = perfan__gpu_gap_class(g, w[i - 1].end, gap, &w[i]);
		st->idle[c] += gap;
		st->nr_gaps[c]++;
	}
}
