/* cli/load.h: reading one input (any format of the library's registry,
 * perfan/source.h) into a profile, with the options every command that
 * reads profiles shares: sample filters, weights and where symbols are
 * found, and the warnings and errors a person needs. */
#ifndef PERFAN_CLI_LOAD_H
#define PERFAN_CLI_LOAD_H

#include <getopt.h>
#include <stdint.h>

#include <perfan/perfan.h>

struct cli_load_opts {
	/* from the shared options */
	int samples, inline_frames;
	/* which samples: --pid, --tid, --comm, --cpu, --time, --event */
	struct perfan_filter filter;
	const char *symfs, *debug_dir, *buildid_dir, *kallsyms;
	const char *perf_map_dir, *jitdump_dir;
	/* enum perfan_python_view, or -1: python when Python frames are
	 * present (their self time with the interpreter's frames in it) */
	int python_view;
	/* set by the command */
	int root; /* enum perfan_process_root, for perf.data and script
		     text (PID_TID: "comm-PID/TID" roots) */
	/* folded stacks: the first frame is the process (comm) */
	int folded_process_root;
	/* folded stacks with two counts ("STACK BEFORE AFTER"): BEFORE goes
	 * to this column; NULL: one count per line */
	const char *before_column;
	/* folded stacks: fold what would be narrower than this fraction of
	 * the total into "(other)" while reading (perfan_folded_read_opts'
	 * prune); 0: keep everything */
	double folded_prune;
	/* perf.data: enum perfan_time_view (--off-cpu, --wall): the
	 * off-CPU analysis's time profile instead of samples; 0: samples */
	int time_view;
	/* set by the command: keep the analysis in cli_load_result.offcpu */
	int keep_offcpu;
	/* set by the command: what the recording cannot answer is not
	 * printed (the command says it itself) */
	int quiet_advice;
	/* set by the command: how frames are named (perf script text, and
	 * perf.data for addrs), as perfan_source_opts */
	int kernel, jit, addrs, compat;
	/* folded stacks: "_[k]" and the like give frame kinds (the
	 * default) */
	int folded_annotations;
	/* set by the command (report): an input of call counts (a cProfile
	 * dump, PERFAN_SOURCE_CALLS) is read into *calls, not a profile */
	perfan_pstats **calls;
	/* set by the command (report --native-detail): where cli_load puts
	 * the profile as it was before the Python view; stays NULL when no
	 * view was taken (then the profile is that one) */
	perfan_profile **native;
	/* py-spy raw: a frame per line ("name (file:line)"), not per
	 * function */
	int lineno;
	/* perf.data: threads to read with (perfan_perfdata_opts' threads);
	 * the default is the number of CPUs online */
	int threads;
	/* the readers' warnings; NULL: cli_progress_log */
	perfan_log_fn log;
	/* the warning for options the input's format does not take (CAPS:
	 * its enum perfan_source_cap); NULL: "NAME is not a perf.data: ..." */
	void (*warn_options)(const struct cli_load_opts *o, unsigned caps,
			     const char *name, const char *cmd);
};

/* A failure already explained on stderr: no PERFAN_E* code is this. */
#define CLI_REPORTED (-1000)

/* Defaults: every sample, weighed by period. */
void cli_load_init(struct cli_load_opts *o);

/* The long options of the shared set, values from CLI_LOAD_OPT_BASE on;
 * CLI_LOAD_LONGOPTS goes into a command's getopt table. */
enum {
	CLI_LOAD_OPT_BASE = 1000,
	CLI_LOAD_O_SAMPLES = CLI_LOAD_OPT_BASE,
	CLI_LOAD_O_PERIOD,
	CLI_LOAD_O_PID,
	CLI_LOAD_O_TID,
	CLI_LOAD_O_COMM,
	CLI_LOAD_O_CPU,
	CLI_LOAD_O_TIME,
	CLI_LOAD_O_EVENT,
	CLI_LOAD_O_INLINE,
	CLI_LOAD_O_SYMFS,
	CLI_LOAD_O_DEBUG_DIR,
	CLI_LOAD_O_BUILDID_DIR,
	CLI_LOAD_O_KALLSYMS,
	CLI_LOAD_O_PERF_MAP_DIR,
	CLI_LOAD_O_JITDUMP_DIR,
	CLI_LOAD_O_PYTHON,
	CLI_LOAD_O_OFFCPU,
	CLI_LOAD_O_WALL,
	CLI_LOAD_O_LINENO,
	CLI_LOAD_O_THREADS,
	CLI_LOAD_OPT_END,
};
#define CLI_LOAD_LONGOPTS                                                      \
	{"samples", no_argument, NULL, CLI_LOAD_O_SAMPLES},                    \
		{"period", no_argument, NULL, CLI_LOAD_O_PERIOD},              \
		{"pid", required_argument, NULL, CLI_LOAD_O_PID},              \
		{"tid", required_argument, NULL, CLI_LOAD_O_TID},              \
		{"comm", required_argument, NULL, CLI_LOAD_O_COMM},            \
		{"cpu", required_argument, NULL, CLI_LOAD_O_CPU},              \
		{"time", required_argument, NULL, CLI_LOAD_O_TIME},            \
		{"event", required_argument, NULL, CLI_LOAD_O_EVENT},          \
		{"inline", no_argument, NULL, CLI_LOAD_O_INLINE},              \
		{"symfs", required_argument, NULL, CLI_LOAD_O_SYMFS},          \
		{"debug-dir", required_argument, NULL, CLI_LOAD_O_DEBUG_DIR},  \
		{"buildid-dir", required_argument, NULL,                       \
		 CLI_LOAD_O_BUILDID_DIR},                                      \
		{"kallsyms", required_argument, NULL, CLI_LOAD_O_KALLSYMS},    \
		{"perf-map-dir", required_argument, NULL,                      \
		 CLI_LOAD_O_PERF_MAP_DIR},                                     \
		{"jitdump-dir", required_argument, NULL,                       \
		 CLI_LOAD_O_JITDUMP_DIR},                                      \
		{"off-cpu", no_argument, NULL, CLI_LOAD_O_OFFCPU},             \
		{"wall", no_argument, NULL, CLI_LOAD_O_WALL},                  \
		{"lineno", no_argument, NULL, CLI_LOAD_O_LINENO},              \
		{"threads", required_argument, NULL, CLI_LOAD_O_THREADS},      \
	{                                                                      \
		"python", required_argument, NULL, CLI_LOAD_O_PYTHON           \
	}

/* The lines of --help for the filters, the same words in every command
 * (collapse has its own --pid and --tid, and --event-filter). */
#define CLI_FILTER_HELP_EVENT_TEXT                                              \
	"                     only samples of event NAME; in a perf.data, of\n" \
	"                     the one event whose name starts with NAME (an\n"  \
	"                     error names its events when none or several\n"    \
	"                     do)\n"
/* ... and what --event means for the other inputs. */
#define CLI_FILTER_HELP_EVENT_OTHERS                                             \
	"                     bpftrace: the map NAME (@name); speedscope\n"     \
	"                     JSON: time, bytes or samples\n"
#define CLI_FILTER_HELP_COMM_CPU_TIME                                           \
	"  --comm COMM        (perf.data) only samples and off-CPU time of\n"   \
	"                     threads named COMM\n"                             \
	"  --cpu CPU          (perf.data) only samples taken on CPU (off-CPU\n" \
	"                     time is on none)\n"                               \
	"  --time START,END   (perf.data) only samples and off-CPU time\n"      \
	"                     between these times, in seconds as perf script\n" \
	"                     prints them; either may be left empty\n"

/* The lines of --help for the shared options. */
#define CLI_LOAD_HELP                                                                   \
	"  --samples          weigh every sample as 1\n"                                \
	"  --period           weigh samples by their period (the default, as\n"         \
	"                     perf report)\n"                                           \
	"  --event NAME\n" CLI_FILTER_HELP_EVENT_TEXT CLI_FILTER_HELP_EVENT_OTHERS      \
	"  --pid PID          (perf.data) only samples and off-CPU time of\n"           \
	"                     process PID\n"                                            \
	"  --tid TID          (perf.data) only samples and off-CPU time of\n"           \
	"                     thread TID\n" CLI_FILTER_HELP_COMM_CPU_TIME               \
	"  --inline           (perf.data) add the functions inlined into others\n"      \
	"  --symfs DIR        (perf.data) look for binaries under DIR\n"                \
	"  --debug-dir DIR    (perf.data) look for debug files under DIR too\n"         \
	"  --buildid-dir DIR  (perf.data) perf's build-id cache (default\n"             \
	"                     ~/.debug)\n"                                              \
	"  --kallsyms FILE    (perf.data) kernel symbols from FILE\n"                   \
	"  --perf-map-dir DIR (perf.data) JIT symbols from DIR/perf-PID.map\n"          \
	"                     (default /tmp)\n"                                         \
	"  --jitdump-dir DIR  (perf.data) look for jit-PID.dump in DIR first\n"         \
	"  --lineno           (py-spy, speedscope) a frame per line, name\n"            \
	"                     (file:line), not one per function\n" CLI_LOAD_PYTHON_HELP \
		CLI_LOAD_TIME_HELP CLI_THREADS_HELP

/* The lines of --help for --threads (collapse has its own option loop). */
#define CLI_THREADS_HELP                                                           \
	"  --threads N        with N >= 2, a second thread: perf.data is read\n"   \
	"                     ahead on it (reading, time order, decoding) while\n" \
	"                     this one resolves; a folded file read pruned (a\n"   \
	"                     flame graph) is read and its frames interned on\n"   \
	"                     it while this one prunes; 1: one thread. The\n"      \
	"                     output is the same. Default: the CPUs online\n"

/* "--threads N" into *OUT: 0, or -1 with the message printed. */
int cli_parse_threads(const char *arg, int *out, const char *cmd);
/* The default of --threads: the CPUs online. */
int cli_default_threads(void);

/* The lines of --help for --python (collapse has its own option loop). */
#define CLI_LOAD_PYTHON_HELP                                                     \
	"  --python VIEW      Python frames: python (Python functions, the\n"    \
	"                     interpreter and libc frames under one in its\n"    \
	"                     self time, extension modules and the kernel as\n"  \
	"                     native leaves; the default when there are any),\n" \
	"                     mixed (each Python function in place of the\n"     \
	"                     interpreter frames that ran it, the C code it\n"   \
	"                     called below it) or native (as perf)\n"

/* The lines of --help for --off-cpu and --wall. */
#define CLI_LOAD_TIME_HELP                                                        \
	"  --off-cpu          (perf.data) off-CPU time instead of samples: how\n" \
	"                     long threads were off the CPU (sched_switch,\n"     \
	"                     switch events), in ns, on the stack that left\n"    \
	"                     it, under a leaf [off-cpu: STATE]\n"                \
	"  --wall             (perf.data) wall-clock time: on-CPU time (the\n"    \
	"                     cpu-clock or task-clock period) and off-CPU time\n" \
	"                     in one profile, in ns\n"

/* The filter option --NAME ("pid", "tid", "comm", "cpu", "time",
 * "event") with argument ARG into F: 0, or -1 with the message printed. */
int cli_filter_set(struct perfan_filter *f, const char *name, const char *arg,
		   const char *cmd);

/* Handle option OPT (a CLI_LOAD_O_*) with argument ARG. Returns 1 when it
 * was one, 0 when it is not ours, -1 for a bad value (the message, naming
 * CMD, is printed). */
int cli_load_option(struct cli_load_opts *o, int opt, const char *arg,
		    const char *cmd);

/* The resolver's options for O (log through the progress line). */
void cli_load_resolve_opts(struct perfan_resolve_opts *ro,
			   const struct cli_load_opts *o);

/* What a load found. */
struct cli_load_result {
	const char *format; /* perfan_source_format, NULL: none (or unread) */
	unsigned caps;      /* perfan_source_caps */
	int read;           /* the input was opened and read (maybe in part) */
	const char *name;   /* the input as messages name it (static or PATH) */
	uint64_t size;      /* of a regular file, else 0 */
	struct perfan_resolve_stats rst; /* perf.data */
	struct perfan_script_stats sst;  /* perf script text */
	/* --off-cpu, --wall with keep_offcpu: the analysis, for its summary
	 * (the caller frees it with perfan_offcpu_free); else NULL */
	perfan_offcpu *offcpu;
};

/* PD's time profile (enum perfan_time_view VIEW) into P, as
 * perfan_offcpu_profile, then what the recording cannot answer printed
 * as "perfan CMD: " errors, warnings and notes (none with QUIET: the
 * command says them itself). *KEEP (when not NULL)
 * gets the analysis. Returns 0, a PERFAN_E* code (unprinted), or
 * CLI_REPORTED when the recording cannot answer (printed; P holds what
 * was read). */
int cli_load_offcpu(perfan_profile *p, perfan_perfdata *pd,
		    const struct perfan_resolve_opts *ro, int view,
		    const char *cmd, int quiet, perfan_offcpu **keep,
		    struct perfan_resolve_stats *st);

/* "not a perf.data" for --off-cpu and --wall on another input. */
void cli_load_offcpu_input_error(const char *cmd, const char *name);

/* Read PATH ("-": standard input) into *P, with a progress line on a
 * terminal. Errors are printed as "perfan CMD: ..."; what was read before
 * an error stays in *P. A pruned read of an unsorted regular file starts
 * again without pruning, in a new profile that replaces *P. Returns 0, or
 * 1 after an error. */
int cli_load(perfan_profile **p, const char *path,
	     const struct cli_load_opts *o, const char *cmd,
	     struct cli_load_result *res);

/* PATH into P as cli_load reads it, without the Python view and its
 * warnings, and without pruning. Returns 0, or 1 after an error
 * (printed). */
int cli_load_one(perfan_profile *p, const char *path,
		 const struct cli_load_opts *o, const char *cmd,
		 struct cli_load_result *res);

/* The column of P to show: the one named EVENT, else the first with
 * weight (not counting one named SKIP, which may be NULL), with a warning
 * "perfan CMD: warning: NAME has samples of N events" when there are
 * several. 0 when there is none. */
size_t cli_load_pick_column(const perfan_profile *p, const char *event,
			    const char *skip, const char *name,
			    const char *cmd);

/* The folded_prune fraction that draws the flame graph of FO unchanged:
 * its minimum width over its width (0 for reversed stacks and flame
 * charts, which need every stack). */
double cli_load_prune_for(const struct perfan_flamegraph_opts *fo);

#define CLI_LOAD_AFTER "after"
#define CLI_LOAD_BEFORE "before"

/* For a differential graph: when BEFORE and AFTER are both folded stacks
 * in regular files, read them together (perfan_folded_read_pair, pruned by
 * o->folded_prune) into a new profile that replaces *P, with the columns
 * CLI_LOAD_AFTER (0) and CLI_LOAD_BEFORE (1); a pair that pruning cannot
 * take (out of order) is read again whole. Errors are printed as in
 * cli_load, and what was read before one stays in *P. Returns 0, 1 after
 * an error, or -1 when either input is something else (nothing read or
 * printed: load each with cli_load and merge them). */
int cli_load_folded_pair(perfan_profile **p, const char *before,
			 const char *after, const struct cli_load_opts *o,
			 const char *cmd);

#endif
