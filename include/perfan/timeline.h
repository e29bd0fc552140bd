/* perfan/timeline.h: what every thread did over time, from one read of a
 * perf.data's stream: its segments (running, runnable, off the CPU by
 * wait class, with the blocking site and a stack), and the wakeups from
 * thread to thread. Memory grows with threads and segments, not samples. */
#ifndef PERFAN_TIMELINE_H
#define PERFAN_TIMELINE_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/filter.h>
#include <perfan/offcpu.h>
#include <perfan/perfdata.h>
#include <perfan/profile.h>
#include <perfan/resolve.h>
#include <perfan/threadnames.h>
#include <perfan/waits.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a thread did in a segment: on the CPU (the time between its
 * off-CPU intervals), or off it in a state: PERFAN_TIMELINE_OFF + the
 * interval's enum perfan_offcpu_state (runnable: its RUNQ and
 * WAKEUP_DELAY states, waiting for a CPU). */
enum perfan_timeline_kind {
	PERFAN_TIMELINE_RUNNING = 0,
	PERFAN_TIMELINE_OFF = 1,
	PERFAN_TIMELINE_NR_KINDS = 1 + PERFAN_OFFCPU_NR_STATES,
};

/* No stack, no site, not merged. */
#define PERFAN_TIMELINE_NONE UINT32_MAX

/* One segment of a thread's lane, [START, END) ns on perf's clock. */
struct perfan_timeline_segment {
	uint64_t start, end;
	/* enum perfan_timeline_kind; of a merged segment, the kind it spent
	 * most of its time in */
	uint32_t kind;
	/* off the CPU: the wait's class (enum perfan_wait_class) */
	uint32_t wait;
	/* the stack: a node of the result's STACKS profile (its path to the
	 * root, perfan_profile_node_parent, is the stack, root first): off
	 * the CPU the switch-out stack, running the stack of the on-CPU
	 * sample in the segment nearest its middle; or NONE */
	uint32_t stack;
	/* off the CPU: the blocking site (perfan_wait_classify), a frame of
	 * STACKS; or NONE */
	uint32_t site;
	/* merged from segments shorter than the resolution: an index into
	 * the result's MIXES, their time by kind; NONE for one segment */
	uint32_t mix;
};

/* The time (ns) a merged segment spent in each kind. */
struct perfan_timeline_mix {
	uint64_t time[PERFAN_TIMELINE_NR_KINDS];
};

/* One thread. */
struct perfan_timeline_lane {
	int32_t pid, tid;
	const char *comm; /* its last name */
	/* its lifetime in the recording (struct perfan_offcpu_thread's),
	 * cut to the filter's time window */
	uint64_t start, end;
	/* ns by kind: the sum of its segments' time (a merged one's by its
	 * mix), so RUNNING is END - START less the off-CPU time, and
	 * TIME[PERFAN_TIMELINE_OFF + S] the thread table's off-CPU time in
	 * state S */
	uint64_t time[PERFAN_TIMELINE_NR_KINDS];
	/* off-CPU ns by wait class, the run-queue parts left out */
	uint64_t wait[PERFAN_WAIT_NR_CLASSES];
	/* its cpu-clock/task-clock sample periods (the thread table's
	 * on-CPU time where samples were recorded) */
	uint64_t on_cpu;
	/* what to call it (perfan/threadnames.h: the name it set, else the
	 * function it was started to run, else its comm), that function
	 * (NULL: not known), and its pool (an index into the result's
	 * POOLS; PERFAN_NO_POOL: none) */
	const char *name, *role;
	size_t pool;
	size_t nr_segments; /* in time order, without gaps */
	const struct perfan_timeline_segment *segments;
};

/* A wakeup of one thread by another (sched_waking or sched_wakeup run by
 * the waker) that ended a wait of the wakee: from the intervals' waker
 * fields (struct perfan_offcpu_interval). */
struct perfan_timeline_wake {
	uint64_t time; /* the wakeup record's */
	int32_t waker_pid, waker_tid;
	int32_t pid, tid; /* the wakee */
	/* read from sched_wakeup, which may run outside the waker */
	int uncertain;
};

/* Lanes of threads of one process started to run one function, or named
 * by one pattern (perfan/threadnames.h): one lane of the view with their
 * count, expandable. */
struct perfan_timeline_pool {
	int32_t pid;
	const char *name; /* the role, or the name pattern */
	size_t nr_lanes;  /* at least 2 */
	size_t first;     /* its first lane */
};

/* One on-CPU sample (with perfan_timeline_opts' samples). */
struct perfan_timeline_sample {
	uint64_t time, weight; /* weight: its period, ns */
	uint32_t lane;         /* index into LANES */
	uint32_t stack;        /* a node of STACKS, or NONE */
};

struct perfan_timeline_result {
	uint64_t start, end; /* the recording's, cut to the time window */
	uint64_t resolution; /* ns: shorter segments were merged */
	size_t nr_lanes;     /* sorted by pid, then tid */
	const struct perfan_timeline_lane *lanes;
	size_t nr_wakes; /* in time order */
	const struct perfan_timeline_wake *wakes;
	size_t nr_mixes;
	const struct perfan_timeline_mix *mixes;
	size_t nr_samples; /* in time order */
	const struct perfan_timeline_sample *samples;
	size_t nr_pools;
	const struct perfan_timeline_pool *pools;
	/* the frames and the stacks (its trie; no weights but under the
	 * threads' own process frames) */
	const perfan_profile *stacks;
};

struct perfan_timeline_opts {
	size_t sz;
	/* ns: a segment shorter than this is merged with its neighbours
	 * into one of at least this length, their time kept by kind; 0:
	 * the finest that keeps MAX_SEGMENTS */
	uint64_t resolution;
	/* segments in all with resolution 0; 0: 200000 (64 threads over
	 * 60 s in an HTML page of about 7 MB) */
	size_t max_segments;
	/* keep every on-CPU sample (time, lane, stack) for views that
	 * filter by time */
	int samples;
	/* the threads and the time window (copied; its strings must
	 * outlive the analysis); NULL: everything */
	const struct perfan_filter *filter;
	/* of a system-wide recording whose filter keeps every thread, a
	 * lane for every process's threads; else only for those of the
	 * process with the most on-CPU time, as the thread table
	 * (perfan_threads_opts' all) */
	int all;
};

typedef struct perfan_timeline perfan_timeline;

/* Read PD's stream (resolved as RO says; its filter does not apply:
 * OPTS's does) and build the lanes. Returns 0 or a negative error (*OUT
 * NULL then). */
PERFAN_API int
perfan_timeline_perfdata(perfan_timeline **out, perfan_perfdata *pd,
			 const struct perfan_resolve_opts *ro,
			 const struct perfan_timeline_opts *opts);
PERFAN_API void perfan_timeline_free(perfan_timeline *t);
/* The result, borrowed from T. */
PERFAN_API const struct perfan_timeline_result *
perfan_timeline_result(const perfan_timeline *t);

enum perfan_timeline_format {
	/* a self-contained page that works offline: a lane per thread,
	 * states coloured as the flame graphs colour wait classes, wake
	 * arrows, the stack on hover, zoom (wheel), pan (drag) and a range
	 * (shift-drag) whose totals a table shows */
	PERFAN_TIMELINE_HTML = 0,
	/* the data: {"timeline": {"start", "end" (ns on perf's clock;
	 * every other time in ns from START), "resolution", "kinds" (the
	 * kinds' names: "running", then the off-CPU states'), "classes"
	 * (the wait classes' names, null for none), "lanes": [{"comm",
	 * "pid", "tid", "start", "end", "on_cpu", "time" (ns by kind),
	 * "wait" (ns by class), "segments": [LENGTH, KIND, CLASS, STACK,
	 * SITE, MIX, ...]}] (they tile the lane from its start), "wakes":
	 * [DT, WAKER_PID, WAKER_TID, PID, TID, UNCERTAIN, ...] (DT from the
	 * wakeup before, the first's from START), "mixes": [NS of each
	 * kind, ...], "samples": [TIME, LANE, STACK, WEIGHT, ...], "frames":
	 * [[NAME, MODULE]], "stacks": [PARENT, FRAME, ...] (node i > 0 at
	 * 2(i - 1), its parent 0 for the root)}}, -1 for NONE */
	PERFAN_TIMELINE_JSON = 1,
};

struct perfan_timeline_write_opts {
	size_t sz;
	int format; /* enum perfan_timeline_format */
};

/* Write T as OPTS says (NULL: HTML). Returns 0, PERFAN_EINVAL or
 * PERFAN_EIO. */
PERFAN_API int
perfan_timeline_write(const perfan_timeline *t, FILE *fp,
		      const struct perfan_timeline_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
