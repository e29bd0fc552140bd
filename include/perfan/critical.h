/* perfan/critical.h: the critical path of one thread's interval: its time
 * running, runnable and blocked, each blocked stretch followed to the
 * thread that woke it and back through that thread's own history from the
 * start of the wait to the wakeup, recursively and bounded, so that the
 * segments tile the interval exactly. */
#ifndef PERFAN_CRITICAL_H
#define PERFAN_CRITICAL_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/perfdata.h>
#include <perfan/profile.h>
#include <perfan/resolve.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a thread on the path is doing in a segment. */
enum perfan_critical_state {
	PERFAN_CRIT_RUNNING = 0,  /* on the CPU */
	PERFAN_CRIT_RUNNABLE = 1, /* preempted, or woken and waiting for a
				     CPU */
	PERFAN_CRIT_BLOCKED = 2,  /* waiting, and the wait not followed:
				     woken by a timer or a device, by no
				     recorded wakeup (unknown), or the path
				     too deep */
};

/* "running", "runnable", "blocked"; NULL for anything else. */
PERFAN_API const char *perfan_critical_state_name(uint32_t state);

/* One segment of the path, [START, END) ns. */
struct perfan_critical_segment {
	int32_t pid, tid;
	const char *comm;
	uint32_t depth; /* 0: the thread asked about; 1: a thread that woke
			   it; ... */
	uint32_t state; /* enum perfan_critical_state */
	uint32_t wait;  /* a blocked or runnable one's wait class (enum
			   perfan_wait_class) */
	uint32_t wake_source; /* a blocked one's (enum perfan_wake_source):
				 PERFAN_WAKE_NONE is unknown */
	uint64_t start, end;
	/* where: the blocking site of a wait, the hottest function of the
	 * user's own code among the samples in a running one (NULL: none) */
	const char *function;
	/* a runnable one's: the thread its CPU went to when it was
	 * preempted (0: idle; -1: not recorded or not preempted) */
	int32_t cpu_taken_by;
	/* the thread's name (perfan/threadnames.h: the name it gave
	 * itself, or the function it was started to run; else its comm)
	 * and its pool's name (NULL: none) */
	const char *name;
	const char *pool;
};

/* One row of the table: a (thread, state, class, function) and its time
 * on the path, ns, biggest first. */
struct perfan_critical_row {
	int32_t pid, tid;
	const char *comm;
	uint32_t state, wait;
	const char *function;
	uint64_t time;
	const char *name, *pool; /* the thread's, as a segment's */
};

/* A function's inclusive time on the path (the running segments' samples
 * that have it on their stack): making it free shortens the interval by
 * at most that much. Biggest first. */
struct perfan_critical_bound {
	const char *function;
	uint64_t time;
};

struct perfan_critical_result {
	int32_t pid, tid;
	const char *comm;
	uint64_t start, end; /* the interval */
	size_t nr_segments;  /* in time order */
	const struct perfan_critical_segment *segments;
	size_t nr_rows;
	const struct perfan_critical_row *rows;
	size_t nr_bounds;
	const struct perfan_critical_bound *bounds;
	/* the threads on the path, in the order first met (the thread asked
	 * about first) */
	size_t nr_chain;
	const int32_t *chain; /* tids */
	/* blocked time whose waker the recording does not name */
	uint64_t unknown;
	const char *name, *pool; /* the thread's, as a segment's */
};

struct perfan_critical_opts {
	size_t sz;
	int32_t tid; /* the thread (required) */
	/* the interval, ns in perf's clock; 0, 0: the thread's life */
	uint64_t start, end;
	/* how many wakers deep the path is followed (0: 8) */
	unsigned max_depth;
	/* the flame graph's frames: enum perfan_python_view (0: native) */
	int python_view;
};

typedef struct perfan_critical perfan_critical;

/* Read PD's stream (resolved as RO says; its filters do not apply) and
 * make the critical path of OPTS->tid over its interval. Returns 0, or
 * PERFAN_EINVAL (no such thread, an empty interval) or another negative
 * error; *OUT NULL then. */
PERFAN_API int
perfan_critical_perfdata(perfan_critical **out, perfan_perfdata *pd,
			 const struct perfan_resolve_opts *ro,
			 const struct perfan_critical_opts *opts);
PERFAN_API void perfan_critical_free(perfan_critical *c);
PERFAN_API const struct perfan_critical_result *
perfan_critical_result(const perfan_critical *c);
/* The path as a profile in ns (column 0, "critical path"): root the
 * thread asked about, then each thread of the chain that led to the
 * segment, then its stack: a running segment's samples (its time shared
 * among them by period; "[running: no samples]" without), a wait's
 * switch-out stack under "[off-cpu: CLASS]". Borrowed from C. */
PERFAN_API const perfan_profile *
perfan_critical_profile(const perfan_critical *c);

enum perfan_critical_format {
	PERFAN_CRITICAL_TEXT = 0,
	PERFAN_CRITICAL_JSON = 1,
};

struct perfan_critical_write_opts {
	size_t sz;
	int format; /* enum perfan_critical_format */
};

/* Write the path: text (the interval, the table of rows with ms and %,
 * the chain of threads, the Amdahl bounds, then the segments; threads
 * by name) or JSON ({"critical": {"pid", "tid", "comm", "name", "pool",
 * "start", "end", "unknown", "chain": [tid], "rows": [{"comm", "pid",
 * "tid", "name", "pool", "state", "class", "function", "ns",
 * "fraction"}], "bounds": [{"function", "ns"}], "segments": [{"comm",
 * "pid", "tid", "name", "pool", "depth", "state", "class", "wake",
 * "function", "cpu_taken_by", "start", "end"}]}}). Returns 0,
 * PERFAN_EINVAL or PERFAN_EIO. */
PERFAN_API int
perfan_critical_write(const perfan_critical *c, FILE *fp,
		      const struct perfan_critical_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
