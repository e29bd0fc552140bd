/* perfan/triage.h: the first look at one recording, in the order the
 * documents this project serves teach: is it on CPU or waiting (CPU
 * against wall time per thread, and where threads blocked); which
 * plateaus are wide and what a fix could give at most (Amdahl); is the
 * CPU stalled (the perf stat verdict); what changed since a good run (a
 * diff); and, for what the input could not answer, the perf command that
 * records it. Built only from the other analyses' results, which the
 * caller makes; written as text or as one HTML page
 * (perfan_triage_write). */
#ifndef PERFAN_TRIAGE_H
#define PERFAN_TRIAGE_H

#include <stdio.h>

#include <perfan/classify.h>
#include <perfan/common.h>
#include <perfan/diff.h>
#include <perfan/filter.h>
#include <perfan/gpu.h>
#include <perfan/profile.h>
#include <perfan/report.h>
#include <perfan/threadnames.h>
#include <perfan/threads.h>
#include <perfan/timeline.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_triage perfan_triage;

/* What the triage is made of. Everything is borrowed and must outlive
 * the result; NULL where the input has none, which the triage says, with
 * what to record instead. */
struct perfan_triage_in {
	size_t sz;
	const char *name; /* the recording, for headings */
	/* The on-CPU report, ordered by self weight (report opts
	 * no_children, sort "sym"): the rows of its column COLUMN are the
	 * plateaus. */
	const perfan_report *plateaus;
	size_t column;
	int has_cpu; /* 0: no on-CPU samples (COLUMN means nothing) */
	/* The profiles the flame graphs are drawn of: on-CPU samples (its
	 * column COLUMN), and the off-CPU time or NULL. */
	const perfan_profile *cpu;
	const perfan_profile *wait;
	/* Per thread CPU and wall time and blocking call sites (an off-CPU
	 * or wall analysis), and what was recorded for it. */
	const perfan_threads *threads;
	const struct perfan_offcpu_summary *offcpu;
	const perfan_classify *classify; /* a perf stat verdict */
	const perfan_diff *diff;         /* against a before recording */
	/* The recording had call graphs (callchains or user stacks). */
	int callchains;
	/* Frames were resolved: of how many, how many not. */
	uint64_t frames, frames_unresolved;
	/* Python: interpreter frames were seen, and Python functions. */
	int python_interpreter, python_functions;
	/* The GIL ledger of the recording (perfan/gil.h), or NULL: with a
	 * GIL wait, a section of the threads that waited for it. */
	const struct perfan_gil_result *gil;
	/* Since 0.2. The thread the Amdahl bounds are on, the one that does
	 * the work: the busiest on CPU, or the only one (a --tid filter).
	 * Its on-CPU weight is BOUND_TOTAL, 0 when none is known (the
	 * plateaus' own bounds stand); BOUND_ROWS, when not NULL, is a
	 * report by pid,dso,sym whose rows of that thread (column
	 * BOUND_COLUMN) give each plateau's weight in it; NULL: the
	 * plateaus are that thread's alone. */
	const perfan_report *bound_rows;
	size_t bound_column;
	int32_t bound_pid, bound_tid;
	const char *bound_comm;
	uint64_t bound_total;
	size_t bound_threads; /* threads on CPU */
	/* Since 0.2. What every thread did over time, with its on-CPU samples
	 * (perfan/timeline.h), or NULL: the page's timeline section, and a
	 * range selected on it filters the page's thread table and flame
	 * graphs. */
	const struct perfan_timeline_result *timeline;
	/* Since 0.2. The flame graphs, drawn by one rule: CPU_GRAPH (its
	 * column CPU_GRAPH_COLUMN) and WAIT_GRAPH, both with threads merged
	 * (a root per command) or both with a root per thread (named by
	 * NAMES, perfan/threadnames.h, when not NULL); NULL: CPU (COLUMN)
	 * and WAIT as they are. FILTER (NULL: none) is what the recording
	 * was read with, named in the graphs' titles. */
	const perfan_profile *cpu_graph;
	size_t cpu_graph_column;
	const perfan_profile *wait_graph;
	const perfan_thread_names *names;
	const struct perfan_filter *filter;
	/* Since 0.2. How the graphs were drawn, for those the page redraws
	 * for a range of the timeline: a root per thread (else per
	 * command), the kernel's frames of waits kept (else folded into the
	 * wait's leaf). */
	int per_thread;
	int kernel_detail;
	/* Since 0.2. The input is a GPU profiler's trace (perfan/trace.h):
	 * GPU is its analysis (perfan_gpu_new: per step and device the
	 * verdict, GPU busy and idle time, and perfan_gpu_profile's CPU
	 * stacks the GPU's idle time is charged to), PLATEAUS and CPU its
	 * CPU time (perfan_trace_profile's PERFAN_TRACE_CPU_TIME column
	 * COLUMN): the CPU ops by self time. The page is the trace's: a GPU
	 * section, the CPU ops with their flame graph, the CPU verdict and
	 * the change only when given; what applies only to a perf recording
	 * (on CPU or waiting, the Amdahl bounds, blocking sites, what to
	 * record next) is left out. NULL: a recording. */
	const perfan_gpu *gpu;
};

struct perfan_triage_opts {
	size_t sz;
	size_t max_plateaus; /* 0: 10 */
	size_t max_sites;    /* 0: 10 */
	size_t max_changes;  /* 0: 10 */
	/* Called by perfan_triage_free, last, with RELEASE_PAYLOAD: what the
	 * inputs borrow from goes with the result (perfan_load_triage);
	 * not called when perfan_triage_new fails. NULL: the caller's. */
	void (*release)(void *payload);
	void *release_payload;
	/* Since 0.2. Rows of the thread table (threads and pools, in its
	 * order: the busiest first) shown; the others are folded (HTML)
	 * or counted (text). 0: 10; SIZE_MAX: every row. */
	size_t max_threads;
};

/* What a thing to record next is for: the question it answers. */
enum perfan_triage_topic {
	PERFAN_TRIAGE_ON_CPU = 1,   /* on-CPU samples */
	PERFAN_TRIAGE_CALLS = 2,    /* call graphs */
	PERFAN_TRIAGE_PYTHON = 3,   /* Python functions */
	PERFAN_TRIAGE_SYMBOLS = 4,  /* symbols of the frames */
	PERFAN_TRIAGE_WAITING = 5,  /* off-CPU time (switches) */
	PERFAN_TRIAGE_COUNTERS = 6, /* perf stat counters */
	PERFAN_TRIAGE_COMPARE = 7,  /* a run to compare with */
};

/* One thing to record next: why, and the command. */
struct perfan_triage_next {
	const char *why;
	const char *command;
	int topic; /* enum perfan_triage_topic */
};

/* A blocking call site, over every thread. */
struct perfan_triage_site {
	const char *wait, *caller; /* as struct perfan_thread_site */
	uint64_t total;            /* ns */
	size_t nr_threads;         /* threads that blocked there */
	/* as struct perfan_thread_site: sites of different classes,
	 * user's functions or mechanisms are different sites */
	uint32_t wait_class;
	const char *site, *mechanism;
};

PERFAN_API int perfan_triage_new(perfan_triage **out,
				 const struct perfan_triage_in *in,
				 const struct perfan_triage_opts *opts);
PERFAN_API void perfan_triage_free(perfan_triage *t);

/* The plateaus: the report's rows of the first column, widest first,
 * their speedup_self and speedup_total the Amdahl bounds on the thread
 * that does the work (perfan_triage_bound_thread): how much sooner that
 * thread would be done if the function cost nothing; NAN where no bound
 * holds (counts of an event). Borrowed from the triage. */
PERFAN_API size_t perfan_triage_nr_plateaus(const perfan_triage *t);
PERFAN_API const struct perfan_report_row *
perfan_triage_plateau(const perfan_triage *t, size_t i);

/* Since 0.2. The thread the plateaus' bounds are on: 1 and its pid, tid
 * and name (borrowed: the thread table's name, as perfan/threadnames.h
 * gives it, else its comm; NULL when not known), with NR_THREADS (when not
 * NULL) the threads on CPU; 0 when there is none. */
PERFAN_API int perfan_triage_bound_thread(const perfan_triage *t, int32_t *pid,
					  int32_t *tid, const char **comm,
					  size_t *nr_threads);

/* Blocking call sites, heaviest first. */
PERFAN_API size_t perfan_triage_nr_sites(const perfan_triage *t);
PERFAN_API const struct perfan_triage_site *
perfan_triage_site(const perfan_triage *t, size_t i);

/* What to record next, most important first. */
PERFAN_API size_t perfan_triage_nr_next(const perfan_triage *t);
PERFAN_API const struct perfan_triage_next *
perfan_triage_next(const perfan_triage *t, size_t i);

enum perfan_triage_format {
	PERFAN_TRIAGE_TEXT = 0, /* sections for a terminal */
	/* one self-contained HTML page that works offline: the sections
	 * as tables, the interactive flame graphs */
	PERFAN_TRIAGE_HTML = 1,
};

struct perfan_triage_write_opts {
	size_t sz;
	int format; /* enum perfan_triage_format */
};

/* Write the findings. Returns 0, PERFAN_EINVAL, PERFAN_EIO. OPTS NULL:
 * text. */
PERFAN_API int perfan_triage_write(const perfan_triage *t, FILE *fp,
				   const struct perfan_triage_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
