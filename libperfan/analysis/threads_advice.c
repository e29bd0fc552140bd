/* analysis/threads_advice.c: what an off-CPU or wall-clock view of a
 * recording cannot answer, from the analysis's summary, each said with the
 * perf command that records what is missing. */
#include <stdio.h>

#include <perfan/threads.h>

#include "util/error.h"

/* The recording that answers everything: every switch with its stack,
 * the wakeups that split blocked time, on-CPU time by the clock. */
#define RECORD                                                                 \
	"perf record -e sched:sched_switch -e sched:sched_wakeup "             \
	"-e cpu-clock/freq=999/ -g"

int perfan_threads_advice(const struct perfan_offcpu_summary *s, int view,
			  int (*fn)(int level, const char *msg, void *payload),
			  void *payload)
{
	if (!s || !fn)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_threads_advice: NULL argument");
	char msg[1024];
	int rc;
#define SAY(level, ...)                                                        \
	do {                                                                   \
		snprintf(msg, sizeof(msg), __VA_ARGS__);                       \
		if ((rc = fn(level, msg, payload)))                            \
			return rc;                                             \
	} while (0)

	int switches = s->sched_switch || s->switch_records;
	if (!switches && !s->offcpu_time) {
		SAY(PERFAN_ADVICE_ERROR,
		    "no off-CPU time in this recording: it has no "
		    "sched:sched_switch samples, no PERF_RECORD_SWITCH records "
		    "and no offcpu-time samples; record the switches with "
		    "their stacks: " RECORD " -- COMMAND (add -a for the whole "
		    "system)");
		return 0;
	}
	if (s->switch_sampled)
		SAY(PERFAN_ADVICE_ERROR,
		    "sched:sched_switch was sampled (perf record -F applies "
		    "to tracepoints too), so most switches are missing and "
		    "the off-CPU intervals mean nothing; record the "
		    "tracepoints unsampled (-c 1, or no -F) and the CPU clock "
		    "by its own frequency: " RECORD " -- COMMAND");
	if (s->sched_switch && !s->switch_stacks)
		SAY(PERFAN_ADVICE_WARN,
		    "sched:sched_switch was recorded without call graphs: "
		    "off-CPU time has no blocking stacks, only threads and "
		    "states; record with -g (or --call-graph dwarf where "
		    "libraries lack frame pointers): " RECORD " -- COMMAND");
	else if (!s->sched_switch && s->switch_records)
		SAY(PERFAN_ADVICE_WARN,
		    "off-CPU time from PERF_RECORD_SWITCH (--switch-events), "
		    "which carries no stack and no state but preempted or "
		    "not: for the blocking stacks and sleep, disk and "
		    "run-queue time record sched:sched_switch: " RECORD
		    " -- COMMAND");
	if (s->lost)
		SAY(PERFAN_ADVICE_WARN,
		    "perf lost %llu records: intervals around them are too "
		    "long or missing; record with larger buffers (-m 8M)",
		    (unsigned long long)s->lost);
	if (view == PERFAN_VIEW_WALL && !s->cpu_samples)
		SAY(PERFAN_ADVICE_WARN,
		    "no cpu-clock or task-clock samples: the wall-clock view "
		    "has no on-CPU time; add -e cpu-clock/freq=999/: " RECORD
		    " -- COMMAND");
	if (switches && !s->system_wide) {
		uint64_t inexact = 0, n = 0;
		for (size_t i = 0; i < s->nr_threads; i++) {
			inexact += s->threads[i].inexact;
			for (int st = 0; st < PERFAN_OFFCPU_NR_STATES; st++)
				n += s->threads[i].intervals[st];
		}
		SAY(PERFAN_ADVICE_NOTE,
		    "a recording of one process: a switch-in from a task it "
		    "does not trace (the idle task, another process) is not "
		    "recorded, so %llu of %llu off-CPU intervals end where "
		    "the thread's next cpu-clock sample says it ran again, "
		    "or at its next record, a little late; the switches of "
		    "other processes are not seen; record the whole system "
		    "for exact intervals: " RECORD " -a -- COMMAND",
		    (unsigned long long)inexact, (unsigned long long)n);
	}
	if (s->sched_switch && !s->wakeups)
		SAY(PERFAN_ADVICE_NOTE,
		    "no sched:sched_wakeup (or sched_waking): blocked time is "
		    "not split into the wait and the run-queue delay after "
		    "the wakeup; add -e sched:sched_wakeup: " RECORD
		    " -- COMMAND");
	else if (s->wakeups && !s->system_wide)
		SAY(PERFAN_ADVICE_NOTE,
		    "wakeups by tasks this recording does not trace (a timer "
		    "while the CPU idles, another process) are missing: "
		    "run-queue delay is measured only after the wakeups it "
		    "has; record with -a for all of them");
	if (s->offcpu_time)
		SAY(PERFAN_ADVICE_NOTE,
		    "%llu offcpu-time samples (perf record --off-cpu): totals "
		    "per user stack, with no timeline and no state",
		    (unsigned long long)s->offcpu_time);
#undef SAY
	return 0;
}
