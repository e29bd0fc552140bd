/* perfan/threads.h: where each thread's wall-clock time went: on-CPU and
 * off-CPU time by state, the CPU/wall ratio, intervals open at the edges
 * of the recording, and the call sites it blocked at most (the system call
 * or wait, and the function that made it), from an off-CPU analysis's
 * summary and its time profile (perfan/offcpu.h); and what a recording
 * cannot answer, with the perf command that records what is missing. */
#ifndef PERFAN_THREADS_H
#define PERFAN_THREADS_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/offcpu.h>
#include <perfan/profile.h>
#include <perfan/threadnames.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_threads perfan_threads;

/* One call site a thread blocked at. Strings are borrowed from the
 * threads result and its profile. */
struct perfan_thread_site {
	/* The wait: "futex", "epoll_wait", "poll/select", "read/recv",
	 * "nanosleep", "sem_wait", "disk I/O", another system call's name
	 * ("fsync", "wait4"), the outermost kernel function when no system
	 * call is on the stack, or "(no stack)" for intervals recorded
	 * without one (PERF_RECORD_SWITCH, sched_switch without -g). */
	const char *wait;
	/* The function that called it: the innermost frame outside the
	 * kernel, the C library, libpthread and the dynamic loader, or on a
	 * stack with Python functions the innermost Python function; NULL
	 * when the stack has none. */
	const char *caller;
	uint64_t total;                        /* ns */
	uint64_t off[PERFAN_OFFCPU_NR_STATES]; /* ns, by state */
	/* Why it waited: the class of its off-CPU leaf (enum
	 * perfan_wait_class, perfan/waits.h; 0: not said). Sites of
	 * different classes are different sites. */
	uint32_t wait_class;
	/* The blocking site, the innermost frame of the user's own code
	 * (perfan_wait_site); NULL when the stack has none. */
	const char *site;
	/* What it waited in: the frame that names the class (the
	 * Condition.wait or Queue.get an idle site called, take_gil,
	 * pthread_mutex_lock), else WAIT. */
	const char *mechanism;
};

/* One thread. */
struct perfan_thread_row {
	int32_t pid, tid;
	const char *comm;
	uint64_t start, end; /* ns: its lifetime in the recording */
	uint64_t wall;       /* end - start */
	/* Its cpu-clock/task-clock sample periods; or, when every
	 * switch-in of the thread was recorded and the recording has no
	 * such samples (a system-wide sched_switch recording: perf sched
	 * record) or has the process's own switch records (perf record
	 * --switch-events, which count exactly where samples count
	 * periods), the time from them to its switch-outs and its exit
	 * (struct perfan_offcpu_thread's run; on_cpu_switches 1), as perf
	 * sched timehist's run time. */
	uint64_t on_cpu, on_cpu_samples;
	int on_cpu_switches;
	uint64_t off[PERFAN_OFFCPU_NR_STATES]; /* ns, by state */
	uint32_t intervals[PERFAN_OFFCPU_NR_STATES];
	uint64_t off_total;
	uint32_t open_start, open_end, inexact;
	int exited;
	double cpu_ratio; /* on_cpu / wall; 0 for no wall time */
	/* Its blocking call sites (every state but waiting for a CPU and
	 * before first seen), heaviest first, at most max_sites. */
	size_t nr_sites;
	const struct perfan_thread_site *sites;
	/* What to call it (perfan/threadnames.h: its name, else its comm),
	 * what it was started to run (NULL: not known) and its pool among
	 * the table's (perfan_threads_pool; PERFAN_NO_POOL: none). */
	const char *name;
	const char *role;
	size_t pool;
	/* Shares of its wall time as py-spy top shows a thread's: off the
	 * CPU waiting for CPython's GIL (its blocking sites of class
	 * PERFAN_WAIT_GIL), and waiting for anything else (off the CPU in
	 * every state but waiting for a CPU and before first seen, the GIL
	 * left out), in ns; and its top function: the frame with the most
	 * on-CPU self time of the profile's column (NULL in a profile of
	 * off-CPU time alone) and that time. */
	uint64_t gil, waiting;
	const char *top;
	uint64_t top_self;
};

/* Threads of one pool (perfan/threadnames.h) among the table's rows: the
 * sums of their figures, and their call sites merged. */
struct perfan_thread_pool_row {
	int32_t pid;
	const char *name; /* the pool's role or name pattern */
	size_t nr_threads;
	size_t first; /* its first row */
	uint64_t wall, on_cpu, off_total;
	uint64_t off[PERFAN_OFFCPU_NR_STATES];
	uint32_t open_start, open_end;
	size_t nr_sites;
	const struct perfan_thread_site *sites;
	uint64_t gil, waiting; /* summed */
	const char *top;       /* over its threads */
	uint64_t top_self;
};

struct perfan_threads_opts {
	size_t sz;
	/* Call sites per thread; 0: 5. */
	size_t max_sites;
	/* The profile's column of off-CPU (or wall) ns; PERFAN_THREADS_AUTO
	 * (what PERFAN_THREADS_OPTS_INIT sets): the column of kind
	 * PERFAN_COLUMN_OFFCPU, else PERFAN_COLUMN_WALL (its name does not
	 * matter). */
	size_t column;
	/* Leave out threads with neither on-CPU nor off-CPU time. */
	int skip_idle;
	/* The threads' names and pools (borrowed; NULL: each row is known
	 * by its comm, with no pool). */
	const perfan_thread_names *names;
	/* Of a system-wide recording (the summary's system_wide) whose
	 * filter keeps every thread, keep every process's threads; else
	 * only those of the process with the most on-CPU time (its
	 * samples, else its switch-ins to switch-outs), the others counted
	 * (perfan_threads_left_out). */
	int all;
	/* The rows' order (enum perfan_threads_sort); a pool's threads
	 * stay together, ranked by their sum. */
	int sort;
};

enum perfan_threads_sort {
	PERFAN_THREADS_SORT_TID = 0,     /* pid, then tid */
	PERFAN_THREADS_SORT_ON_CPU = 1,  /* most on-CPU time first */
	PERFAN_THREADS_SORT_GIL = 2,     /* most GIL wait first */
	PERFAN_THREADS_SORT_WAITING = 3, /* most other waiting first */
	PERFAN_THREADS_SORT_WALL = 4,    /* longest lived first */
};
/* The order named NAME ("tid", "on-cpu", "gil", "waiting", "wall"), or
 * -1. */
PERFAN_API int perfan_threads_sort_parse(const char *name);
#define PERFAN_THREADS_AUTO ((size_t)-1)
#define PERFAN_THREADS_OPTS_INIT                                                \
	((struct perfan_threads_opts){.sz = sizeof(struct perfan_threads_opts), \
				      .column = PERFAN_THREADS_AUTO})

/* The threads of summary S (borrowed: it must outlive the result, as P
 * must) that its filter keeps (perfan_offcpu_opts': by pid, tid and comm,
 * and alive in its time window, their lifetime cut to it) with the call sites of P's off-CPU leaves (frames of kind
 * PERFAN_FRAME_OFFCPU), attributed to threads by their stacks' process
 * frames (perfan_profile_frame_thread: a profile made with roots
 * PERFAN_ROOT_PID_TID has one per thread). Rows in S's order (pid, then
 * tid). Returns 0, PERFAN_EINVAL (NULL arguments), PERFAN_ENOMEM. Free
 * with perfan_threads_free. */
PERFAN_API int perfan_threads_new(perfan_threads **out, const perfan_profile *p,
				  const struct perfan_offcpu_summary *s,
				  const struct perfan_threads_opts *opts);
PERFAN_API void perfan_threads_free(perfan_threads *t);

PERFAN_API size_t perfan_threads_nr(const perfan_threads *t);
PERFAN_API const struct perfan_thread_row *
perfan_threads_row(const perfan_threads *t, size_t i);
/* A bit (1 << state) per state any row has time in. */
PERFAN_API uint32_t perfan_threads_states(const perfan_threads *t);
/* The pools of two rows or more, in the order of their first rows. */
PERFAN_API size_t perfan_threads_nr_pools(const perfan_threads *t);
PERFAN_API const struct perfan_thread_pool_row *
perfan_threads_pool(const perfan_threads *t, size_t i);
/* The threads and processes a system-wide table left out (opts' all). */
PERFAN_API void perfan_threads_left_out(const perfan_threads *t,
					size_t *threads, size_t *processes);

enum perfan_threads_format {
	PERFAN_THREADS_TEXT = 0, /* a table in ms, '#' comment lines */
	PERFAN_THREADS_JSON = 1, /* one JSON object, times in ns */
};

struct perfan_threads_write_opts {
	size_t sz;
	int format; /* enum perfan_threads_format */
};

/* Write the table: text (one line per thread: wall, on-CPU, off-CPU by
 * state, a column per state present, the CPU/wall ratio; then the
 * intervals open at the edges and each thread's top blocking call sites)
 * or JSON ({"threads": [{"comm", "pid", "tid", "start", "end", "wall",
 * "on_cpu", "on_cpu_samples", "on_cpu_from" ("samples" or "switches"), "off_cpu", "off": {STATE: ns},
 * "intervals": {STATE: n}, "open_start", "open_end", "inexact",
 * "exited", "cpu_wall_ratio", "sites": [{"wait", "caller", "total",
 * "off": {STATE: ns}, "class" (perfan_wait_class_name, null when not
 * said), "site", "mechanism"}]}]}). A text site with a class reads
 * "SITE <- MECHANISM (CLASS wait)", one without "WAIT in CALLER". Returns 0, PERFAN_EINVAL (a NULL argument, an
 * unknown format) or PERFAN_EIO. OPTS NULL: text. */
PERFAN_API int
perfan_threads_write(const perfan_threads *t, FILE *fp,
		     const struct perfan_threads_write_opts *opts);

/* What a recording can and cannot answer. */
enum perfan_advice_level {
	/* the view means nothing on this recording */
	PERFAN_ADVICE_ERROR = 1,
	/* part of the answer is missing */
	PERFAN_ADVICE_WARN = 2,
	/* what is measured inexactly, or not at all */
	PERFAN_ADVICE_NOTE = 3,
};

/* Call FN once per thing to say about summary S for VIEW (enum
 * perfan_time_view), worst first: each message ends with the perf
 * command that records what is missing (sched:sched_switch and
 * sched:sched_waking with call graphs, the CPU clock by its own
 * frequency, never -F). A non-zero return of FN stops
 * and is returned; else 0. */
PERFAN_API int
perfan_threads_advice(const struct perfan_offcpu_summary *s, int view,
		      int (*fn)(int level, const char *msg, void *payload),
		      void *payload);

struct perfan_threads_advice_opts {
	size_t sz;
	int view; /* enum perfan_time_view */
	/* The recording has Python functions or CPython's library: its
	 * recipes unwind with DWARF (--call-graph dwarf,8192: CPython keeps
	 * no frame pointers, and -g loses its frames), and a note names the
	 * GIL's perf probe events. */
	int python;
	/* The recording has those probe events (perf probe's
	 * GROUP:take_gil): no note about them. */
	int gil_probes;
};

/* perfan_threads_advice with options (NULL: not the wall-clock view, no
 * Python). */
PERFAN_API int
perfan_threads_advice_ext(const struct perfan_offcpu_summary *s,
			  const struct perfan_threads_advice_opts *opts,
			  int (*fn)(int level, const char *msg, void *payload),
			  void *payload);

#ifdef __cplusplus
}
#endif
#endif
