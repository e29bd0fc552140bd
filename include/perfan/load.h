/* perfan/load.h: the library's one door from inputs to a profile: any
 * format of the registry (perfan/source.h), folded through the resolver or
 * taken as the off-CPU or wall-clock time view, the Python view, the
 * filters, a sorted folded file read pruned (and read again whole when it
 * is not sorted), two inputs as one differential profile, the column to
 * show; what the recording cannot answer goes to an advice callback. */
#ifndef PERFAN_LOAD_H
#define PERFAN_LOAD_H

#include <stdint.h>

#include <perfan/common.h>
#include <perfan/critical.h>
#include <perfan/dump.h>
#include <perfan/filter.h>
#include <perfan/gil.h>
#include <perfan/gpu.h>
#include <perfan/gpucrit.h>
#include <perfan/host.h>
#include <perfan/keyavg.h>
#include <perfan/offcpu.h>
#include <perfan/profile.h>
#include <perfan/pstats.h>
#include <perfan/report.h>
#include <perfan/resolve.h>
#include <perfan/script.h>
#include <perfan/threadnames.h>
#include <perfan/timeline.h>
#include <perfan/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_load perfan_load;

/* What the progress callback is told (perfan_load_opts.progress). */
enum perfan_load_progress {
	PERFAN_LOAD_START = 1, /* NAME is read; VALUE: its size (0: unknown) */
	PERFAN_LOAD_READ = 2,  /* VALUE more bytes were read (text inputs) */
	PERFAN_LOAD_AT = 3,    /* the perf.data reader is at offset VALUE */
	PERFAN_LOAD_END = 4,   /* reading ended */
};

/* What perfan_load_read found for the last input read (for a pair, its
 * AFTER input's name, format and caps); borrowed from the handle, valid
 * until the next read or perfan_load_free. */
struct perfan_load_info {
	const char *format; /* perfan_source_format; NULL: none (or unread) */
	unsigned caps;      /* enum perfan_source_cap bits */
	int read;           /* the input was opened and read (maybe in part) */
	const char *name;   /* as messages name it ("<stdin>" for "-") */
	uint64_t size;      /* of a regular file, else 0 */
	struct perfan_resolve_stats resolve; /* perf.data */
	struct perfan_script_stats script;   /* perf script text */
	size_t inputs;                       /* inputs read into the handle */
	/* a pair whose AFTER side is weighed by period: the event's name
	 * (its unit reads best so); else NULL */
	const char *period_event;
};

struct perfan_load_opts {
	size_t sz;
	/* Which samples are kept (sz 0: every one). */
	struct perfan_filter filter;
	/* Weigh every sample as 1 instead of by its period. */
	int count_samples;
	/* Where symbols are found (perf.data), as perfan_resolve_opts. */
	const char *symfs, *debug_dir, *buildid_dir, *kallsyms;
	const char *perf_map_dir, *jitdump_dir;
	int inline_frames;
	const struct perfan_host *host; /* NULL: the running machine */
	/* enum perfan_python_view, or PERFAN_LOAD_PY_AUTO: python when
	 * Python frames are present */
	int python_view;
	/* enum perfan_time_view (perf.data): the off-CPU analysis's time
	 * profile instead of samples; 0: samples */
	int time_view;
	/* enum perfan_process_root (perf.data, perf script text, py-spy) */
	int root;
	/* perf script text and perf.data: as perfan_source_opts */
	int kernel, jit, addrs, compat;
	/* folded stacks: as perfan_source_opts (folded_annotations 1: "_[k]"
	 * and the like give frame kinds) */
	int folded_process_root, folded_annotations;
	const char *before_column;
	/* folded stacks: fold what would be narrower than this fraction of
	 * the total into "(other)" while reading (a flame graph's is
	 * perfan_flamegraph_prune_fraction); 0: keep everything */
	double folded_prune;
	int lineno;  /* py-spy raw, speedscope: a frame per line */
	int threads; /* perf.data, pruned folded: perfan_source_opts' */
	/* the profile keeps each sample in order (flame charts) */
	int keep_samples;
	/* keep the profile as it was before the Python view
	 * (perfan_load_native) */
	int keep_native;
	/* an input of call counts (PERFAN_SOURCE_CALLS, a cProfile dump) is
	 * read into perfan_load_calls, not the profile */
	int want_calls;
	/* advice not given: enum perfan_load_quiet bits */
	unsigned quiet_advice;
	/* The readers' warnings. */
	perfan_log_fn log;
	void *log_payload;
	/* What the inputs cannot answer, worst first as enum
	 * perfan_advice_level: an option that does not apply to the input's
	 * format, a time view the recording lacks the records of, stacks
	 * estimated or missing Python functions. NULL: not given. A warning
	 * or note reaches one callback with one payload once in a process,
	 * however many inputs (a diff's runs) or readings give it; an input's
	 * warning that names the input is given for the first that has it
	 * (since 0.2; errors are always given). */
	int (*advice)(int level, const char *msg, void *payload);
	void *advice_payload;
	/* Reading's progress: enum perfan_load_progress WHAT, with NAME and
	 * VALUE as it says. */
	void (*progress)(int what, const char *name, uint64_t value,
			 void *payload);
	void *progress_payload;
	/* Called when an input is opened, before it is read, INFO telling its
	 * format; a non-zero return stops the read with that value. When it
	 * is set, the advice on options that do not apply to the format is
	 * the caller's to give. */
	int (*opened)(const struct perfan_load_info *info, void *payload);
	void *opened_payload;
	/* The order of the thread table of a time view (enum
	 * perfan_threads_sort, perfan/threads.h; 0: pid, then tid, but
	 * perfan_load_triage's by on-CPU time, the busiest first). */
	int thread_sort;
	/* Since 0.2. With time_view: keep the kernel's scheduler frames of
	 * each switch-out stack under its off-CPU leaf
	 * (perfan_offcpu_opts' kernel_detail); 0 folds them into it. */
	int kernel_detail;
	/* Since 0.2. An input that is a stream (standard input, a FIFO,
	 * <(...), a socket) is kept in an unlinked temporary file as it is
	 * read, so that what reads it again (perfan_load_again, the GIL
	 * section of perfan_load_report_new's time view) has the same bytes
	 * a path would give; 0: a stream is read once, and the GIL section
	 * of a time view read from it is left out with a warning (a
	 * file-mode perf.data from a stream is kept whatever this says: its
	 * reader needs it whole). */
	int keep_input;
};

#define PERFAN_LOAD_PY_AUTO (-1)

/* Advice a caller does without (perfan_load_opts.quiet_advice). */
enum perfan_load_quiet {
	/* the time view's (the caller says it from perfan_load_offcpu's
	 * summary itself) */
	PERFAN_LOAD_QUIET_VIEW = 1 << 0,
	/* whether a Python recording shows Python functions */
	PERFAN_LOAD_QUIET_PYTHON = 1 << 1,
};

/* Defaults: every sample by period, roots named by comm, the Python view
 * when there are Python frames, folded frame kinds from "_[k]". */
#define PERFAN_LOAD_OPTS_INIT                                                  \
	((struct perfan_load_opts){.sz = sizeof(struct perfan_load_opts),      \
				   .filter = PERFAN_FILTER_INIT,               \
				   .python_view = PERFAN_LOAD_PY_AUTO,         \
				   .root = PERFAN_ROOT_COMM,                   \
				   .folded_annotations = 1})

/* perfan_load_read's return when the input was read but the recording
 * cannot answer what was asked (a time view without switches): the
 * reasons went to the advice callback as PERFAN_ADVICE_ERROR; what was
 * read is in the profile. */
#define PERFAN_LOAD_ADVISED 1

/* O's option NAME as perfan's command line spells it, from VALUE
 * (borrowed; NULL for a switch): the switches samples, period, inline,
 * lineno, off-cpu, wall, kernel-detail, kernel, jit and addrs; the paths
 * symfs, debug-dir, buildid-dir, kallsyms, perf-map-dir and jitdump-dir;
 * threads (1 to 1024); python (native, mixed or python); compat (flamegraph or
 * none); and the filters of perfan_filter_set. Since
 * 0.2. Returns 0, or PERFAN_EINVAL with a message naming the option
 * ("--python: 'x' is none of native, mixed, python"). */
PERFAN_API int perfan_load_opts_set(struct perfan_load_opts *o,
				    const char *name, const char *value);

/* A new handle with an empty profile, and OPTS (NULL: defaults) copied;
 * the strings it points to must outlive the handle. Returns 0 or
 * PERFAN_ENOMEM, PERFAN_EINVAL (*OUT NULL then). */
PERFAN_API int perfan_load_new(perfan_load **out,
			       const struct perfan_load_opts *opts);

/* Add PATH ("-": standard input) to L's profile: opened through the
 * registry, read as its format reads (a pruned folded read of an unsorted
 * regular file starts again whole, in a new profile), then the Python
 * view. Returns 0, PERFAN_LOAD_ADVISED, or a negative error
 * (perfan_error_last says why; what was read before it stays in the
 * profile). */
PERFAN_API int perfan_load_read(perfan_load *l, const char *path);

/* perfan_load_new and perfan_load_read of PATH in one; *OUT is the handle
 * after a read error too (NULL only when it could not be made). */
PERFAN_API int perfan_load_open(perfan_load **out, const char *path,
				const struct perfan_load_opts *opts);

/* A new handle *OUT with OPTS (NULL: defaults) whose profile is read from
 * the input FROM read last, again from its first byte, without opening it
 * again: the time view of a recording read on CPU, say. That input is read
 * once: a regular file is read again through its descriptor, a file-mode
 * perf.data from a pipe or FIFO from the temporary file it was kept in as
 * it was read. Returns as perfan_load_read; PERFAN_EUNSUPPORTED for an
 * input that was a stream (pipe-mode perf.data or text through a pipe),
 * PERFAN_EINVAL when FROM read nothing. *OUT is the handle after a read
 * error too (NULL only when it could not be made). */
PERFAN_API int perfan_load_again(perfan_load **out, const perfan_load *from,
				 const struct perfan_load_opts *opts);

/* Flags of perfan_load_pair. */
enum {
	/* only two folded files read together; else PERFAN_LOAD_NOT_PAIR */
	PERFAN_LOAD_PAIR_FOLDED_ONLY = 1 << 0,
};
#define PERFAN_LOAD_NOT_PAIR 2

/* The columns of a differential profile. */
#define PERFAN_LOAD_AFTER "after"   /* column 0 */
#define PERFAN_LOAD_BEFORE "before" /* column 1 */

/* BEFORE and AFTER as one differential profile in a new handle *OUT:
 * AFTER's weights in column 0 (PERFAN_LOAD_AFTER), BEFORE's in column 1
 * (PERFAN_LOAD_BEFORE). Two folded files (regular files) are read
 * together, pruned by OPTS->folded_prune, and again whole when pruning
 * meets lines out of order; other inputs are read each whole on its own
 * (a side pruned alone could lose what is wide on the other), their
 * columns picked as perfan_load_column does, and merged; errors of a side
 * go to the advice callback as they happen (the return is then
 * PERFAN_LOAD_ADVISED). With PERFAN_LOAD_PAIR_FOLDED_ONLY, inputs that
 * are not two folded files are not read: PERFAN_LOAD_NOT_PAIR, *OUT NULL.
 * *OUT is NULL when nothing could be read. */
PERFAN_API int perfan_load_pair(perfan_load **out, const char *before,
				const char *after,
				const struct perfan_load_opts *opts,
				unsigned flags);

/* A new handle *OUT whose profile is the differential profile of two
 * loaded ones: AFTER's column ACOL in column 0 (PERFAN_LOAD_AFTER),
 * BEFORE's column BCOL in column 1 (PERFAN_LOAD_BEFORE), each in its
 * unit (a side without columns adds an empty column of "samples").
 * Returns 0 or a negative error (*OUT NULL). */
PERFAN_API int perfan_load_pair_merge(perfan_load **out,
				      const perfan_load *before, size_t bcol,
				      const perfan_load *after, size_t acol);

/* A new handle *OUT whose profile sums the N loaded RUNS, each its column
 * COLS[i], in one column "samples". Returns 0 or a negative error. */
PERFAN_API int perfan_load_sum(perfan_load **out, perfan_load *const *runs,
			       const size_t *cols, size_t n);

/* Give L's profile an empty column ("samples") when it has none, for
 * analyses that compare columns. Returns 0 or a negative error. */
PERFAN_API int perfan_load_ensure_column(perfan_load *l);

/* L's profile (NULL: L is NULL), owned by L. */
PERFAN_API perfan_profile *perfan_load_profile(const perfan_load *l);
/* With opts.keep_native: the profile before the Python view, when one was
 * taken; else NULL. Owned by L. */
PERFAN_API perfan_profile *perfan_load_native(const perfan_load *l);
/* With opts.want_calls: the call counts of an input of them, else NULL.
 * Owned by L. */
PERFAN_API perfan_pstats *perfan_load_calls(const perfan_load *l);
/* The names and pools of the threads of what L read (perfan/
 * threadnames.h), from its stacks before the Python view; NULL unless
 * its stacks start at a process frame per thread (opts' root
 * PERFAN_ROOT_PID_TID). Owned by L. */
PERFAN_API const perfan_thread_names *
perfan_load_thread_names(const perfan_load *l);
/* With opts.time_view: the off-CPU analysis (its summary says what the
 * recording holds), else NULL. Owned by L. */
PERFAN_API perfan_offcpu *perfan_load_offcpu(const perfan_load *l);
/* What the last read found. */
PERFAN_API const struct perfan_load_info *
perfan_load_info(const perfan_load *l);
/* The perf.data reader the last read of L read with, for what its header
 * and features say (events and their attributes, the command line,
 * build-ids, times) without reading the input again, which a pipe could
 * not give twice; NULL when that input was no perf.data (or L read
 * nothing). Borrowed from L until its next read or perfan_load_free. */
PERFAN_API const perfan_perfdata *perfan_load_reader(const perfan_load *l);
/* Since 0.2. The trace of the last input L read when it was a GPU
 * profiler's (PERFAN_SOURCE_TRACE: its profile is perfan_trace_profile's
 * of it), else NULL. Borrowed from L until its next read or
 * perfan_load_free. */
PERFAN_API const perfan_trace *perfan_load_trace(const perfan_load *l);
/* Since 0.2. Read PATH, a GPU profiler's trace, with L and find its
 * critical path (perfan_gpucrit_trace with OPTS) into *OUT, which borrows
 * the trace from L: free *OUT first. Returns 0 or a negative error
 * (PERFAN_EINVAL when PATH is no trace). */
PERFAN_API int perfan_load_gpucrit(perfan_gpucrit **out, perfan_load *l,
				   const char *path,
				   const struct perfan_gpucrit_opts *opts);

/* The column of L's profile to show: the one named opts.filter.event,
 * else the one with weight (not counting one named SKIP, which may be
 * NULL) of a CPU clock (PERFAN_COLUMN_CPU), else of another event that is
 * no tracepoint or probe, else any, the first of the recording's events
 * (else the first column) among equals, with the advice (warning) "NAME has samples of N events; these
 * are of EVENT (--event NAME for another)" when there are several. 0 when
 * there is none. NAME names the input (NULL: the last one read). */
PERFAN_API size_t perfan_load_column(const perfan_load *l, const char *skip,
				     const char *name);

/* The number of columns of L's profile. */
PERFAN_API size_t perfan_load_nr_columns(const perfan_load *l);

/* The total weight of column COL of L's profile; 0 when there is no such
 * column. */
PERFAN_API uint64_t perfan_load_total(const perfan_load *l, size_t col);

/* The samples behind column COL as read: known when the column holds
 * periods and is the only one with weight (the readers count the samples
 * of all events); else 0. */
PERFAN_API double perfan_load_nr_samples(const perfan_load *l, size_t col);

/* The column named opts.before_column (two-count folded lines) when it
 * has weight, else -1. */
PERFAN_API int perfan_load_base_column(const perfan_load *l);

/* The resolver's options that OPTS stand for (filters, weight, symbols,
 * root, log), for those who read a perf.data themselves (annotate). */
PERFAN_API void perfan_load_resolve_opts(struct perfan_resolve_opts *ro,
					 const struct perfan_load_opts *opts);

/* The report of what L read: perfan_report_new over L's profile with
 * OPTS, and what perfan_report_write shows beside its rows
 * (perfan_load_report_write_opts): the per-thread table of a time view
 * (idle left out), the resolver's figures of a perf.data, the input's
 * name, and with PERFAN_LOAD_REPORT_NATIVE_DETAIL the native functions of
 * each Python function's self time (a perfan_python_hotspots per column
 * with weight of the profile before the Python view, opts.keep_native;
 * rows as OPTS limit them). An input without samples (read without error)
 * and native detail without Python functions are warnings to L's advice
 * callback. L must outlive *OUT. Returns 0 or a negative error (*OUT NULL
 * then). */
typedef struct perfan_load_report perfan_load_report;
enum {
	PERFAN_LOAD_REPORT_NATIVE_DETAIL = 1 << 0,
	/* the thread table of a system-wide recording shows every process
	 * (perfan_threads_opts' all), not only the busiest */
	PERFAN_LOAD_REPORT_ALL_THREADS = 1 << 1,
};
PERFAN_API int perfan_load_report_new(perfan_load_report **out, perfan_load *l,
				      const struct perfan_report_opts *opts,
				      unsigned flags);
PERFAN_API void perfan_load_report_free(perfan_load_report *lr);
/* The report's rows, borrowed from LR. */
PERFAN_API const perfan_report *
perfan_load_report_rows(const perfan_load_report *lr);
/* WO's name, stats, threads, wall and native detail for LR (borrowed
 * from it); WO's format is the caller's. */
PERFAN_API void
perfan_load_report_write_opts(const perfan_load_report *lr,
			      struct perfan_report_write_opts *wo);

/* The annotation (perfan/annotate.h) of the perf.data PATH ("-":
 * standard input; a pipe too), opened through the registry and read with
 * L's filters, symbol places, threads and progress
 * (perfan_load_resolve_opts) and AO's functions, as
 * perfan_annotate_perfdata does; L keeps the reader, which *OUT borrows:
 * L must outlive *OUT. Returns as perfan_annotate_perfdata (*OUT holds
 * the samples before a damaged record with its error), or
 * perfan_source_open's and perfan_source_perfdata's errors (*OUT NULL). */
struct perfan_annotate;
struct perfan_annotate_opts;
PERFAN_API int perfan_load_annotate(struct perfan_annotate **out,
				    perfan_load *l, const char *path,
				    const struct perfan_annotate_opts *ao);

/* The GIL ledger (perfan/gil.h) of the perf.data at PATH, read with L's
 * symbol options; GO's filter NULL: L's filters. Returns 0 or a negative
 * error (*OUT NULL then). */
PERFAN_API int perfan_load_gil(perfan_gil **out, perfan_load *l,
			       const char *path,
			       const struct perfan_gil_opts *go);

/* The critical path (perfan/critical.h) of a thread of the perf.data at
 * PATH, read with L's symbol options; the thread and the interval from
 * CO, else from L's filter (--tid, --time), the flame graph's Python view
 * from L's when CO is NULL. Returns 0 or a negative error (*OUT NULL
 * then). */
PERFAN_API int perfan_load_critical(perfan_critical **out, perfan_load *l,
				    const char *path,
				    const struct perfan_critical_opts *co);

/* Every thread of the perf.data at PATH at one moment (perfan/dump.h),
 * read with L's symbol options; the process from DOPTS, else from L's
 * --pid. Returns 0 or a negative error (*OUT NULL then). */
PERFAN_API int perfan_load_dump(perfan_dump **out, perfan_load *l,
				const char *path,
				const struct perfan_dump_opts *dopts);

/* The timeline (perfan/timeline.h) of the perf.data at PATH, read with
 * L's symbol options; the threads and time window from TOPTS's filter,
 * else from L's (--pid, --tid, --comm, --time). Returns 0 or a negative
 * error (*OUT NULL then). */
PERFAN_API int perfan_load_timeline(perfan_timeline **out, perfan_load *l,
				    const char *path,
				    const struct perfan_timeline_opts *topts);

/* The GPU analysis (perfan/gpu.h) of the GPU profiler's trace at PATH
 * (torch.profiler/Kineto, the autograd profiler, Nsight Systems; "-":
 * standard input) with GO (NULL: defaults); the trace is kept in L, which
 * must outlive *OUT. Returns 0 or a negative error (*OUT NULL then):
 * PERFAN_EINVAL when PATH is not a trace. */
PERFAN_API int perfan_load_gpu(perfan_gpu **out, perfan_load *l,
			       const char *path,
			       const struct perfan_gpu_opts *go);

/* Since 0.2. Torch's key_averages() table (perfan/keyavg.h) of the GPU
 * profiler's trace at PATH ("-": standard input); OPTS is for options to
 * come, ignored now; the trace is kept in L, which must outlive *OUT.
 * Returns 0 or a negative error (*OUT NULL then): PERFAN_EINVAL when PATH
 * is not a trace. */
PERFAN_API int perfan_load_keyavg(perfan_keyavg **out, perfan_load *l,
				  const char *path, const void *opts);

/* What perfan_load_triage reads beside the recording. */
struct perfan_load_triage_opts {
	size_t sz;
	const char *stat; /* perf stat output of the same run ("-": standard
			   * input), or NULL */
	/* recordings of runs before, for what changed since (NR_BEFORE of
	 * them; none: no change section) */
	const char *const *before;
	size_t nr_before;
	/* the thread table of a system-wide recording shows every process
	 * (perfan_threads_opts' all), not only the busiest */
	int all_threads;
	/* Since 0.2. Recordings of runs after, compared with those before as
	 * perfan diff -b BEFORE... -a AFTER... compares them (two runs or
	 * more a side: the significance test); none: the recording triaged
	 * alone. A name equal to the triaged recording's is read once. */
	const char *const *after;
	size_t nr_after;
	/* Since 0.2. Both flame graphs with a root per thread, named as the
	 * thread table names it; 0: both with threads merged (a root per
	 * command). */
	int per_thread;
	/* Since 0.2. A GPU profiler's trace: the options of its GPU analysis
	 * (the steps, one device; NULL: perfan_gpu_new's defaults). */
	const struct perfan_gpu_opts *gpu;
};

/* The triage (perfan/triage.h) of the recording PATH read with OPTS
 * (roots by comm): its plateaus (the on-CPU report by dso,sym, self
 * first), its off-CPU view and per-thread table when its events record
 * switches (read again from the same input: perfan_load_again; a stream,
 * pipe-mode too, is kept in a temporary file for it as it is read; a
 * failure of that read is advice, and the triage says what is missing), the
 * verdict of OPTS' perf stat output, and the change since the runs
 * before; *OUT owns them all (perfan_triage_free). Returns 0,
 * PERFAN_LOAD_ADVISED when a read's errors went to the advice callback,
 * or a negative error (perfan_error_last says why); *OUT is NULL unless
 * 0. Of a GPU profiler's trace (perfan_load_trace): its CPU time's
 * plateaus and its GPU analysis (perfan_gpu_new with TOPTS' gpu) instead
 * of the views of a perf recording. */
struct perfan_triage;
PERFAN_API int perfan_load_triage(struct perfan_triage **out, const char *path,
				  const struct perfan_load_opts *opts,
				  const struct perfan_load_triage_opts *topts);

/* Free L and all it owns; NULL is fine. */
PERFAN_API void perfan_load_free(perfan_load *l);

#ifdef __cplusplus
}
#endif
#endif
