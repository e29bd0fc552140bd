/* analysis/threads_keep.h: which threads a per-thread view shows (the
 * thread table, the timeline): the filter's, alive in its time window, of
 * the busiest process of a system-wide recording unless all are asked
 * for. */
#ifndef PERFAN_ANALYSIS_THREADS_KEEP_H
#define PERFAN_ANALYSIS_THREADS_KEEP_H

#include <stdint.h>

#include <perfan/offcpu.h>

/* The process a view of S shows: of a system-wide recording whose filter
 * keeps every thread, unless ALL, the one with the most on-CPU time (its
 * samples, else its switch-ins to switch-outs); -1: all of them. */
int32_t perfan__threads_focus(int all, const struct perfan_offcpu_summary *s);

/* Whether TH of S is shown: a thread S's filter keeps, of process FOCUS
 * when it is not -1, alive in the filter's time window (*START and *END:
 * its lifetime cut to it), and with SKIP_IDLE, with time on or off the
 * CPU. */
int perfan__threads_keep(int skip_idle, int32_t focus,
			 const struct perfan_offcpu_summary *s,
			 const struct perfan_offcpu_thread *th, uint64_t *start,
			 uint64_t *end);

#endif
