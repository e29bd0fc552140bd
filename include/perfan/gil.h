/* perfan/gil.h: the GIL ledger: for each thread of a CPython process, the
 * time it waited for the GIL (from its switch-out stacks: take_gil), the
 * time it held it, who held it while each thread waited, and the holders'
 * stacks weighted by the time others waited on them. Where the recording
 * has `perf probe` events on take_gil, its return and drop_gil, the exact
 * figures from them stand beside the estimates. */
#ifndef PERFAN_GIL_H
#define PERFAN_GIL_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/filter.h>
#include <perfan/offcpu.h>
#include <perfan/perfdata.h>
#include <perfan/profile.h>
#include <perfan/resolve.h>
#include <perfan/stream.h>
#include <perfan/threadnames.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One thread of a process with GIL waits or GIL probes, ns. */
struct perfan_gil_thread {
	int32_t pid, tid;
	const char *comm;
	uint64_t start, end; /* its lifetime in the recording */
	/* Waiting for the GIL: off-CPU intervals of class PERFAN_WAIT_GIL,
	 * blocked, and in the run queue after the wakeup */
	uint64_t wait, wait_blocked, wait_runq;
	/* episodes: runs of such intervals less than 200 us apart (the
	 * interpreter's 5 ms timed waits, merged), each ended by the GIL
	 * handed to the thread: its handoffs */
	uint32_t episodes;
	/* forced switches: drop_gil waiting until another thread took the
	 * GIL it was asked to drop (PERFAN_WAIT_GIL_HANDOFF), and that
	 * time */
	uint32_t forced;
	uint64_t handoff_wait;
	/* on-CPU samples (cpu-clock/task-clock periods), and those of them
	 * not in take_gil or drop_gil: a lower bound of holding the GIL */
	uint64_t on_cpu, hold_samples;
	/* From the probes (probes set): take_gil to its return, those
	 * waits, and take_gil's return to drop_gil (holding it) */
	uint64_t probe_wait, probe_hold;
	uint32_t probe_episodes;
	/* What to call it (perfan/threadnames.h: the name it gave itself,
	 * or the function it was started to run; else its comm), that
	 * function ("main" for a process's first thread; NULL: not known),
	 * and its pool's name (NULL: none); strings of the names the ledger
	 * was given (perfan_gil_opts.names), or of its own */
	const char *name;
	const char *role;
	const char *pool;
};

struct perfan_gil_result {
	size_t nr_threads; /* sorted by pid, then tid */
	const struct perfan_gil_thread *threads;
	/* NR_THREADS rows of NR_THREADS + 1: BLAME[w * (n + 1) + h] is the
	 * time thread w waited for the GIL while thread h held it (of the
	 * same process); the last column the time no thread was seen to
	 * hold it. Holding is read from the probes when there are (and
	 * perfan_gil_opts.no_probes is 0), else it is estimated: a thread
	 * holds it while on the CPU or preempted, not blocked; when several
	 * do at once, the wait is shared between them. */
	const uint64_t *blame;
	int probes;      /* the probes were read */
	int probes_seen; /* the recording has them */
	uint64_t start, end;
	/* the recording's switches, wakeups and what they allow */
	const struct perfan_offcpu_summary *offcpu;
};

struct perfan_gil_opts {
	size_t sz;
	/* Read no probe events: the figures from stacks and switches only */
	int no_probes;
	/* The threads, comms and time window counted (NULL: all) */
	const struct perfan_filter *filter;
	/* The blame profile's frames: enum perfan_python_view (0: native,
	 * as perf shows them) */
	int python_view;
	/* The threads' names and pools (borrowed: they must outlive the
	 * ledger), as a load named the threads of the same recording
	 * (perfan_load_thread_names); NULL: the ledger names them from the
	 * stacks it reads, on and off the CPU */
	const perfan_thread_names *names;
};

typedef struct perfan_gil perfan_gil;

/* Read PD's stream (resolved as RO says; its filters do not apply: OPTS'
 * filter does) into a new ledger *OUT. Returns 0 or a negative error
 * (*OUT NULL then). */
PERFAN_API int perfan_gil_perfdata(perfan_gil **out, perfan_perfdata *pd,
				   const struct perfan_resolve_opts *ro,
				   const struct perfan_gil_opts *opts);
PERFAN_API void perfan_gil_free(perfan_gil *g);
/* The ledger; borrowed from G. */
PERFAN_API const struct perfan_gil_result *
perfan_gil_result(const perfan_gil *g);
/* The holders' stacks (each under its thread's root), in column 0, "GIL
 * blame" in ns: each on-CPU sample of a thread weighted by its period
 * times the number of other threads of its process waiting for the GIL
 * then. Borrowed from G; NULL without samples. */
PERFAN_API const perfan_profile *perfan_gil_blame(const perfan_gil *g);

enum perfan_gil_format {
	PERFAN_GIL_TEXT = 0,
	PERFAN_GIL_JSON = 1,
};

struct perfan_gil_write_opts {
	size_t sz;
	int format; /* enum perfan_gil_format */
};

/* Write the ledger: text (a line per thread, named, or per pool, "NAME
 * [pool of N]" with its threads' figures summed: its lifetime, GIL wait
 * and its share of the lifetime, blocked and run-queue parts, episodes,
 * forced switches, on-CPU time and the part of it holding the GIL, the
 * probes' figures when read; then, per thread or pool that waited, who
 * held the GIL meanwhile) or JSON, a thread each ({"gil": {"probes",
 * "probes_seen", "start", "end", "threads": [{"comm", "pid", "tid",
 * "name", "role", "pool", "start", "end", "life",
 * "wait", "wait_fraction", "wait_blocked", "wait_runq", "episodes",
 * "handoffs",
 * "forced", "handoff_wait", "on_cpu", "hold_samples", "probe_wait",
 * "probe_wait_fraction", "probe_hold", "probe_episodes", "held_by":
 * [{"comm", "pid", "tid", "name", "pool", "ns", "fraction"}],
 * "held_by_none"}]}}), ns.
 * Returns 0, PERFAN_EINVAL (a NULL argument, an unknown format) or
 * PERFAN_EIO. OPTS NULL: text. */
PERFAN_API int perfan_gil_write(const perfan_gil *g, FILE *fp,
				const struct perfan_gil_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
