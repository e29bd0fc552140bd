/* analysis/threads_keep.c: which threads a per-thread view shows (the
 * thread table, the timeline): the busiest process of a system-wide
 * recording, the filter's threads alive in its window. */
#include "analysis/threads_keep.h"

#include <perfan/filter.h>

int32_t perfan__threads_focus(int all, const struct perfan_offcpu_summary *s)
{
	const struct perfan_filter *f = s->filter;
	if (all || !s->system_wide ||
	    (f && (f->pid >= 0 || f->tid >= 0 || f->comm)))
		return -1;
	int32_t best = -1, pid = -1;
	uint64_t most = 0, n = 0;
	/* threads sorted by pid: a run per process */
	for (size_t i = 0; i <= s->nr_threads; i++) {
		const struct perfan_offcpu_thread *th =
			i < s->nr_threads ? &s->threads[i] : NULL;
		if (!th || th->pid != pid) {
			if (pid > 0 && n > most) {
				best = pid;
				most = n;
			}
			if (!th)
				break;
			pid = th->pid;
			n = 0;
		}
		n += th->on_cpu ? th->on_cpu : th->run;
	}
	return best;
}

int perfan__threads_keep(int skip_idle, int32_t focus,
			 const struct perfan_offcpu_summary *s,
			 const struct perfan_offcpu_thread *th, uint64_t *start,
			 uint64_t *end)
{
	const struct perfan_filter *f = s->filter;
	*start = th->start;
	*end = th->end;
	if (!perfan_filter_thread(f, th->pid, th->tid, th->comm))
		return 0;
	if (focus >= 0 && th->pid != focus)
		return 0;
	if (f && (f->time_start || f->time_end) &&
	    (!perfan_filter_clip(f, start, end) && *start != *end))
		return 0; /* not alive in the window */
	if (skip_idle) {
		uint64_t off = 0;
		for (int k = 0; k < PERFAN_OFFCPU_NR_STATES; k++)
			off += th->off[k];
		return th->on_cpu || off;
	}
	return 1;
}
