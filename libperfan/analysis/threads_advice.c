/* analysis/threads_advice.c: what an off-CPU or wall-clock view of a
 * recording cannot answer, from the analysis's summary, each said with the
 * perfan record command that records what is missing. */
#include <stdio.h>

#include <perfan/threads.h>

#include "util/error.h"
#include "util/opts.h"

/* The recording that answers everything, as perfan record --wall makes
 * it: every switch with its stack, the wakeups that split blocked time and
 * name their waker (sched_waking runs in the waker's context; sched_wakeup
 * may be recorded on the wakee's CPU, outside it), the switch records that
 * end each interval exactly, on-CPU time by the clock (never -F, which
 * samples the tracepoints too); for Python (--python), stacks unwound with
 * DWARF (CPython keeps no frame pointers: -g loses its frames). */
#define RECORD_NATIVE "perfan record --wall"
#define RECORD_PYTHON "perfan record --wall --python"

/* The GIL's probes (perf/gil.h): take_gil's entry, a plain uprobe on its
 * one ret instruction (a uretprobe, 'take_gil%return', replaces the
 * return address on the stack, so that DWARF unwinding from inside
 * take_gil stops there and loses the Python frames), drop_gil. */
#define GIL_PROBES                                                             \
	"for the GIL's exact hold and wait times record with its probes: "     \
	"sudo perfan record --wall --python --gil -- COMMAND (or -p PID; it "  \
	"adds them on the libpython the process runs, LIBPYTHON, with OFF "    \
	"the offset of take_gil's ret instruction: perf probe -x LIBPYTHON "   \
	"take_gil; perf probe -x LIBPYTHON 'take_gil__return=take_gil+OFF'; "  \
	"perf probe -x LIBPYTHON drop_gil; never 'take_gil%return': a "        \
	"uretprobe cuts the stacks under take_gil and loses the Python "       \
	"frames)"

int perfan_threads_advice(const struct perfan_offcpu_summary *s, int view,
			  int (*fn)(int level, const char *msg, void *payload),
			  void *payload)
{
	struct perfan_threads_advice_opts o =
		PERFAN_OPTS_INIT(struct perfan_threads_advice_opts);
	o.view = view;
	return perfan_threads_advice_ext(s, &o, fn, payload);
}

int perfan_threads_advice_ext(const struct perfan_offcpu_summary *s,
			      const struct perfan_threads_advice_opts *opts,
			      int (*fn)(int level, const char *msg,
					void *payload),
			      void *payload)
{
	if (!s || !fn)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_threads_advice: NULL argument");
	struct perfan_threads_advice_opts o;
	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
	int view = o.view;
	const char *RECORD = o.python ? RECORD_PYTHON : RECORD_NATIVE;
	char msg[1536];
#define SAY(level, ...)                                                        \
	do {                                                                   \
		snprintf(msg, sizeof(msg), __VA_ARGS__);                       \
		if ((rc = fn(level, msg, payload)))                            \
			return rc;                                             \
	} while (0)

	int switches = s->sched_switch || s->switch_records;
	if (!switches && !s->offcpu_time && s->unnamed_tracepoint) {
		/* recording again would not help: read the whole file */
		SAY(PERFAN_ADVICE_ERROR,
		    "no off-CPU time can be read: %llu samples of tracepoints "
		    "have lost their names and formats (with the feature "
		    "section of a recording cut short), so its "
		    "sched:sched_switch samples cannot be told apart; read "
		    "the recording as perf record wrote it, uncut",
		    (unsigned long long)s->unnamed_tracepoint);
		return 0;
	}
	if (!switches && !s->offcpu_time) {
		SAY(PERFAN_ADVICE_ERROR,
		    "no off-CPU time in this recording: it has no "
		    "sched:sched_switch samples, no PERF_RECORD_SWITCH records "
		    "and no offcpu-time samples; record the switches with "
		    "their stacks: %s -- COMMAND (add -a for the whole "
		    "system)",
		    RECORD);
		return 0;
	}
	if (s->bad_state)
		SAY(PERFAN_ADVICE_WARN,
		    "%llu sched:sched_switch samples have a prev_state with "
		    "bits no kernel reports (a damaged recording): their "
		    "threads' intervals end as \"%s\" (not as exits)",
		    (unsigned long long)s->bad_state,
		    perfan_offcpu_state_name(PERFAN_OFFCPU_UNKNOWN));
	if (s->pid_mismatch)
		SAY(PERFAN_ADVICE_WARN,
		    "%llu sched:sched_switch samples have a prev_pid other "
		    "than the sample's own thread (a damaged recording, or "
		    "perf ran in another PID namespace): they end the "
		    "sample's thread's interval as \"%s\"",
		    (unsigned long long)s->pid_mismatch,
		    perfan_offcpu_state_name(PERFAN_OFFCPU_UNKNOWN));
	if (s->switch_sampled)
		SAY(PERFAN_ADVICE_ERROR,
		    "sched:sched_switch was sampled (perf record -F applies "
		    "to tracepoints too), so most switches are missing and "
		    "the off-CPU intervals mean nothing; record the "
		    "tracepoints unsampled (-c 1, or no -F) and the CPU clock "
		    "by its own frequency (-e cpu-clock/freq=999/): %s -- "
		    "COMMAND",
		    RECORD);
	if (s->sched_switch && !s->switch_stacks)
		SAY(PERFAN_ADVICE_WARN,
		    "sched:sched_switch was recorded without call graphs: "
		    "off-CPU time has no blocking stacks, only threads and "
		    "states; record them with their stacks: %s -- COMMAND "
		    "(%s)",
		    RECORD,
		    o.python ? "DWARF stacks, --call-graph dwarf: CPython "
			       "keeps no frame pointers, -g loses its frames"
			     : "frame pointers; for libraries without them, "
			       "perf record --call-graph dwarf, or --python");
	else if (!s->sched_switch && s->switch_records)
		SAY(PERFAN_ADVICE_WARN,
		    "off-CPU time from PERF_RECORD_SWITCH (--switch-events), "
		    "which carries no stack and no state but preempted or "
		    "not: for the blocking stacks and sleep, disk and "
		    "run-queue time record sched:sched_switch: %s -- COMMAND",
		    RECORD);
	if (s->lost)
		SAY(PERFAN_ADVICE_WARN,
		    "perf lost %llu records: intervals around them are too "
		    "long or missing; record with larger buffers: %s -- "
		    "COMMAND as root (-m 64M)",
		    (unsigned long long)s->lost, RECORD);
	if (view == PERFAN_VIEW_WALL && !s->cpu_samples)
		SAY(PERFAN_ADVICE_WARN,
		    "no cpu-clock or task-clock samples: the wall-clock view "
		    "has no on-CPU time; record the CPU clock too "
		    "(-e cpu-clock/freq=999/): %s -- COMMAND",
		    RECORD);
	if (switches && !s->system_wide) {
		uint64_t inexact = 0, n = 0;
		for (size_t i = 0; i < s->nr_threads; i++) {
			inexact += s->threads[i].inexact;
			for (int st = 0; st < PERFAN_OFFCPU_NR_STATES; st++)
				n += s->threads[i].intervals[st];
		}
		/* (with the switch records, --switch-events, every
		 * interval ends exactly: nothing to say) */
		if (inexact)
			SAY(PERFAN_ADVICE_NOTE,
			    "a recording of one process: a switch-in from a "
			    "task it does not trace (the idle task, another "
			    "process) is not recorded, so %llu of %llu "
			    "off-CPU intervals end where the thread's next "
			    "cpu-clock sample says it ran again, or at its "
			    "next record, a little late; record the switch "
			    "records too for exact intervals: %s -- COMMAND "
			    "(--switch-events: every switch-in of its "
			    "threads; or perf record -a, the whole system)",
			    (unsigned long long)inexact, (unsigned long long)n,
			    RECORD);
	}
	if (s->sched_switch && !s->wakeups)
		SAY(PERFAN_ADVICE_NOTE,
		    "no sched:sched_waking (or sched_wakeup): blocked time is "
		    "not split into the wait and the run-queue delay after "
		    "the wakeup, and no wait names its waker; add -e "
		    "sched:sched_waking (it runs in the waker's context; "
		    "sched_wakeup may be recorded outside it): %s -- COMMAND",
		    RECORD);
	else if (s->wakeups && !s->system_wide)
		SAY(PERFAN_ADVICE_NOTE,
		    "wakeups by tasks this recording does not trace (a timer "
		    "while the CPU idles, another process) are missing: "
		    "run-queue delay is measured only after the wakeups it "
		    "has; record with -a for all of them");
	if (o.python && switches && !o.gil_probes)
		SAY(PERFAN_ADVICE_NOTE, "%s", "Python: " GIL_PROBES);
	if (s->offcpu_time)
		SAY(PERFAN_ADVICE_NOTE,
		    "%llu offcpu-time samples (perf record --off-cpu): totals "
		    "per user stack, with no timeline and no state",
		    (unsigned long long)s->offcpu_time);
#undef SAY
	return 0;
}
