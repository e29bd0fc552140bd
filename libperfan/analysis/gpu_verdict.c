/* analysis/gpu_verdict.c: a step's verdict from its figures: GPU-bound
 * (busy >= 90 % or the launch queue full), communication-bound, or, idle,
 * by the class most of the idle time is in. */
#include "analysis/gpu_internal.h"

/* CUDA's launch queue holds about this many launches */
#define QUEUE_FULL 1024

void perfan__gpu_verdict(struct perfan_gpu_step *st)
{
	int64_t wall = st->end - st->start;
	if (!st->busy || wall <= 0) {
		st->verdict = PERFAN_GPU_NO_WORK;
		return;
	}
	if (st->busy * 10 >= wall * 9 || st->queue_max >= QUEUE_FULL) {
		st->verdict = PERFAN_GPU_GPU_BOUND;
		return;
	}
	if (st->communication * 2 >= st->busy &&
	    st->communication >= st->idle) {
		st->verdict = PERFAN_GPU_COMM_BOUND;
		return;
	}
	uint32_t most = PERFAN_GPU_IDLE_HOST;
	for (uint32_t c = 1; c < PERFAN_GPU_NIDLE; c++)
		if (st->idle_by[c] > st->idle_by[most])
			most = c;
	static const uint32_t of[PERFAN_GPU_NIDLE] = {
		[PERFAN_GPU_IDLE_HOST] = PERFAN_GPU_CPU_BOUND,
		[PERFAN_GPU_IDLE_KERNEL] = PERFAN_GPU_LAUNCH_BOUND,
		[PERFAN_GPU_IDLE_SYNC] = PERFAN_GPU_SYNC_BOUND,
		[PERFAN_GPU_IDLE_OTHER] = PERFAN_GPU_STALLED,
	};
	st->verdict = of[most];
}
