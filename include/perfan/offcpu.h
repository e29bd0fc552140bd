/* perfan/offcpu.h: where threads wait: off-CPU intervals read from the
 * sample stream (sched:sched_switch with its stacks, PERF_RECORD_SWITCH,
 * perf's offcpu-time event), each classified by the state the thread left
 * the CPU in, per-thread on-CPU and off-CPU totals, and the profiles that
 * put off-CPU time (and on-CPU time beside it: wall-clock time) on stacks. */
#ifndef PERFAN_OFFCPU_H
#define PERFAN_OFFCPU_H

#include <perfan/common.h>
#include <perfan/filter.h>
#include <perfan/perfdata.h>
#include <perfan/profile.h>
#include <perfan/resolve.h>
#include <perfan/stream.h>
#include <perfan/waits.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a thread was off the CPU. */
enum perfan_offcpu_state {
	/* S: interruptible sleep (futex, epoll_wait, poll, nanosleep, a
	 * pipe or socket read) */
	PERFAN_OFFCPU_SLEEP = 0,
	/* D: uninterruptible, mostly disk I/O */
	PERFAN_OFFCPU_DISK = 1,
	/* R: preempted while runnable: waiting for a CPU, not blocking */
	PERFAN_OFFCPU_RUNQ = 2,
	/* Blocked, the state not recorded (a PERF_RECORD_SWITCH out that
	 * was no preemption; perf's offcpu-time samples) */
	PERFAN_OFFCPU_BLOCKED = 3,
	/* Stopped, traced, idle kernel threads (I), anything else */
	PERFAN_OFFCPU_OTHER = 4,
	/* The part of a blocked interval from its wakeup (sched_wakeup or
	 * sched_waking) to its switch-in: run-queue delay, waiting for a
	 * CPU after the wait ended */
	PERFAN_OFFCPU_WAKEUP_DELAY = 5,
	/* Before a thread's first switch-in or sample, from the start of
	 * the recording: why is not recorded */
	PERFAN_OFFCPU_UNSEEN = 6,
	/* Left by a damaged sched_switch: a prev_state with bits no kernel
	 * reports, or a prev_pid that is not the sample's own thread (the
	 * summary's bad_state, pid_mismatch): off the CPU, why unknown */
	PERFAN_OFFCPU_UNKNOWN = 7,
	PERFAN_OFFCPU_NR_STATES = 8,
};

/* The state's short name, as in the leaf frame "[off-cpu: NAME]":
 * "sleep", "disk", "waiting for a CPU", "blocked", "other",
 * "run-queue delay", "before first seen", "unknown state"; NULL for
 * anything else. */
PERFAN_API const char *perfan_offcpu_state_name(uint32_t state);

/* Flags of an interval. */
enum {
	/* begun before the thread was first seen (state UNSEEN) */
	PERFAN_OFFCPU_OPEN_START = 1u << 0,
	/* still open at the end of the recording: ended there */
	PERFAN_OFFCPU_OPEN_END = 1u << 1,
	/* ended by a switch-in record (sched_switch next_pid, SWITCH IN);
	 * else (a recording of one process does not see the CPU handed to
	 * it by a task it does not trace) where its next cpu-clock or
	 * task-clock sample says it ran again: the sample's period less
	 * the CPU time it counted before the switch-out, before the
	 * sample; or at the thread's next record of another kind, a
	 * little late */
	PERFAN_OFFCPU_EXACT = 1u << 2,
	/* from perf's offcpu-time event: a total per stack, no timeline
	 * (start is 0, end - start the period) */
	PERFAN_OFFCPU_AGGREGATE = 1u << 3,
};

/* One off-CPU interval of one thread. Borrowed during the callback. */
struct perfan_offcpu_interval {
	int32_t pid, tid;
	const char *comm;
	uint32_t state; /* enum perfan_offcpu_state; a blocked interval
			   split by a wakeup is delivered as two: its state
			   to the wakeup, then WAKEUP_DELAY */
	uint32_t flags;
	uint64_t start, end; /* ns, perf's clock */
	/* The stack at the switch-out, leaf first (the blocking stack); 0
	 * frames when the record had none (PERF_RECORD_SWITCH, a
	 * sched_switch recorded without -g, UNSEEN). Frames are the
	 * stream's: their strings live as long as the stream. */
	size_t nr_frames;
	const struct perfan_stream_frame *frames;
	/* Why it waited (enum perfan_wait_class, perfan/waits.h), read
	 * from FRAMES; PERFAN_WAIT_NONE for a RUNQ or UNSEEN interval and
	 * where the stack says nothing. The WAKEUP_DELAY part of a split
	 * interval keeps its wait's class. */
	uint32_t wait;
	/* FRAMES[SITE] is the blocking site, the innermost frame of the
	 * user's own code; SITE == NR_FRAMES when there is none. */
	size_t site;
	/* What ended the wait: the first wakeup inside it (enum
	 * perfan_wake_source; PERFAN_WAKE_NONE when none was recorded),
	 * at WAKE_TIME, by thread WAKER_PID/WAKER_TID (-1 unless the
	 * source is a thread) with the stack it woke it from (the waking
	 * record's, leaf first; the stream's frames). WAKER_UNCERTAIN:
	 * read from sched_wakeup, which may be recorded on the wakee's CPU
	 * outside the waker's context, so the waker may be another thread
	 * (sched_waking always runs in the waker's). */
	uint32_t wake_source;
	int waker_uncertain;
	int32_t waker_pid, waker_tid;
	uint64_t wake_time;
	size_t nr_waker_frames;
	const struct perfan_stream_frame *waker_frames;
	/* The thread the CPU went to at the switch-out (a sched_switch's
	 * next_pid; 0 the idle task; -1 not recorded): for a preempted
	 * thread, who took its CPU. */
	int32_t next_tid;
};

/* One thread's totals, ns. */
struct perfan_offcpu_thread {
	int32_t pid, tid;
	const char *comm; /* its last name */
	/* Its lifetime in the recording: from its FORK, else the start of
	 * the recording when it was off-CPU then, else its first record;
	 * to its last record (its EXIT, or the final X/Z switch after it;
	 * the end of the recording when an interval was open there). */
	uint64_t start, end;
	uint64_t on_cpu;         /* cpu-clock/task-clock sample periods */
	uint64_t on_cpu_samples; /* their count */
	uint64_t off[PERFAN_OFFCPU_NR_STATES];
	uint32_t intervals[PERFAN_OFFCPU_NR_STATES];
	uint32_t open_start, open_end; /* intervals with those flags */
	uint32_t inexact;              /* intervals without EXACT */
	int exited;                    /* its EXIT or a final X/Z switch */
	/* Time on the CPU from each recorded switch-in to the switch-out
	 * after it (perf sched timehist's run time): exact where every
	 * switch is recorded (a system-wide sched_switch recording). */
	uint64_t run;
};

/* What the recording holds and what an analysis of it can say. */
struct perfan_offcpu_summary {
	uint64_t start, end;     /* ns: first and last record with a time */
	uint64_t sched_switch;   /* sched:sched_switch samples */
	uint64_t switch_stacks;  /* ... of them with a callchain */
	uint64_t switch_records; /* PERF_RECORD_SWITCH(_CPU_WIDE) */
	uint64_t wakeups;        /* sched_wakeup / sched_waking samples */
	uint64_t offcpu_time;    /* perf's offcpu-time samples */
	uint64_t cpu_samples;    /* cpu-clock / task-clock samples */
	uint64_t lost;           /* records or samples perf lost */
	/* sched_switch was sampled (-F, a period above 1): it misses
	 * switches, so its intervals mean nothing */
	int switch_sampled;
	/* The recording covered every CPU (perf record -a, perf sched
	 * record): switch-ins are seen whatever runs before. Read from the
	 * data: nearly every thread switched to has records of its own,
	 * and so do several processes not started in the recording (or a
	 * SWITCH_CPU_WIDE record, or a sample of the idle task) */
	int system_wide;
	size_t nr_threads; /* sorted by pid, then tid */
	const struct perfan_offcpu_thread *threads;
	/* The filter the per-thread figures obey (perfan_offcpu_opts'),
	 * borrowed from the analysis: threads are listed whatever it keeps
	 * (perfan_filter_thread tells which to show) */
	const struct perfan_filter *filter;
	/* Damaged sched_switch samples, each ending its thread's interval
	 * as PERFAN_OFFCPU_UNKNOWN (never as an exit): a prev_state with
	 * bits outside every kernel's states and preempt flag (above
	 * 0x1fff), a prev_pid other than the sample's own thread (its
	 * header's tid, whose interval it ends) */
	uint64_t bad_state, pid_mismatch;
	/* Samples of tracepoints the recording no longer names (their
	 * names and formats are in its feature section, lost when the file
	 * was cut): sched_switch samples may be among them */
	uint64_t unnamed_tracepoint;
};

struct perfan_offcpu_opts {
	size_t sz;
	/* 1: keep a wakeup's run-queue delay in the blocked state */
	int no_wakeup_split;
	/* Called for every interval as it closes (end of the recording for
	 * open ones, in perfan_offcpu_finish; an UNSEEN one at the thread's
	 * first record of its own, which gives its pid). NULL: none. A
	 * non-zero return stops the analysis with that error. */
	int (*interval)(const struct perfan_offcpu_interval *iv, void *payload);
	void *payload;
	/* What the intervals delivered and the per-thread figures count
	 * (copied; its strings must outlive the analysis, its event the
	 * stream): the threads its pid, tid and comm keep, intervals cut to
	 * its time window (AGGREGATE ones left out of a window), the on-CPU
	 * samples it keeps (its event compared whole: see
	 * perfan_filter_resolve). The analysis reads every record either
	 * way: a switch-in is written in the context of the task before,
	 * a wakeup in its waker's. NULL: everything. */
	const struct perfan_filter *filter;
};

typedef struct perfan_offcpu perfan_offcpu;

/* Whether the recording PD records switches, which time off the CPU is
 * taken from: an event with attr.context_switch (PERF_RECORD_SWITCH),
 * sched_switch samples, or perf's offcpu-time. 0 for a NULL PD. */
PERFAN_API int perfan_offcpu_recorded(const perfan_perfdata *pd);

/* An analysis fed from stream S, whose events are given one by one with
 * perfan_offcpu_feed, in order. Returns 0 or PERFAN_ENOMEM. */
PERFAN_API int perfan_offcpu_new(perfan_offcpu **out, perfan_stream *s,
				 const struct perfan_offcpu_opts *opts);
PERFAN_API void perfan_offcpu_free(perfan_offcpu *o);
/* Take the next event of the stream. Returns 0 or a negative error. */
PERFAN_API int perfan_offcpu_feed(perfan_offcpu *o,
				  const struct perfan_stream_event *ev);
/* The stream ended: close what is open (flag OPEN_END) at the last time
 * seen. Returns 0 or a negative error. */
PERFAN_API int perfan_offcpu_finish(perfan_offcpu *o);
/* Totals so far; borrowed from O. */
PERFAN_API const struct perfan_offcpu_summary *
perfan_offcpu_summary(const perfan_offcpu *o);

/* What a time profile holds. */
enum perfan_time_view {
	/* off-CPU intervals only: column "off-cpu", unit "ns" */
	PERFAN_VIEW_OFFCPU = 1,
	/* on-CPU samples (cpu-clock/task-clock period, ns) and off-CPU
	 * intervals: column "wall", unit "ns" */
	PERFAN_VIEW_WALL = 2,
};

/* Read PD's stream and add to P, in the view's column, every off-CPU
 * interval on its switch-out stack under a leaf frame of kind
 * PERFAN_FRAME_OFFCPU named "[off-cpu: STATE]" (and, for the wall view,
 * every cpu-clock/task-clock sample weighed by its period). Roots and
 * filters as RO says (RO->weight does not apply: time is in ns); the
 * filters select what is added, never what the analysis reads: pid, tid
 * and comm threads, the time window clips intervals (and leaves out
 * AGGREGATE ones), cpu and event select on-CPU samples. When RESULT is
 * not NULL, *RESULT is the analysis, for its summary (free it with
 * perfan_offcpu_free), after an error too. STATS as for
 * perfan_resolve_perfdata. Returns 0 or a negative error; what was added
 * before one stays in P. */
PERFAN_API int perfan_offcpu_profile(perfan_profile *p, perfan_perfdata *pd,
				     const struct perfan_resolve_opts *ro,
				     int view,
				     const struct perfan_offcpu_opts *oo,
				     perfan_offcpu **result,
				     struct perfan_resolve_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
