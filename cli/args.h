/* cli/args.h: the options every command that reads profiles shares
 * (filters, weights, where symbols are found, the Python and time views)
 * into the library's perfan_load_opts, their --help lines, and the
 * printing of what the library advises. */
#ifndef PERFAN_CLI_ARGS_H
#define PERFAN_CLI_ARGS_H

#include <getopt.h>
#include <stdint.h>

#include <perfan/perfan.h>

#include "opt.h"

/* The shared options as tables of cli/opt.h, for a perfan_load_opts
 * (CLI_TABLE(cli_load_table, lo)): all of them, or a part. */
extern const struct cli_opt cli_load_table[];
extern const struct cli_opt cli_filter_table[]; /* event, pid, tid, ... */
extern const struct cli_opt cli_event_table[];
extern const struct cli_opt cli_comm_cpu_time_table[];
extern const struct cli_opt cli_symbols_table[]; /* symfs ... jitdump-dir */
extern const struct cli_opt cli_threads_table[];
extern const struct cli_opt cli_views_table[]; /* python, off-cpu, wall */

/* The --help lines of --event. */
#define CLI_EVENT_HELP                                                         \
	"\nonly samples of event NAME; in a perf.data, of\n"                   \
	"the one event whose name starts with NAME (an\n"                      \
	"error names its events when none or several\n"                        \
	"do)\n"                                                                \
	"bpftrace: the map NAME (@name); speedscope\n"                         \
	"JSON: time, bytes or samples"

/* perfan_load_opts_set for a table entry (LO a perfan_load_opts). */
int cli_set_load(void *lo, const char *name, const char *value);
/* perfan_flamegraph_opts_set, perfan_diff_opts_set,
 * perfan_scaling_opts_set and perfan_report_opts_set the same way. */
int cli_set_fg(void *fo, const char *name, const char *value);
int cli_set_diff(void *d, const char *name, const char *value);
int cli_set_scaling(void *so, const char *name, const char *value);
int cli_set_report(void *rep, const char *name, const char *value);

/* Defaults for command CMD: every sample, weighed by period; warnings,
 * advice and a progress line on stderr as "perfan CMD: ...". */
void cli_args_init(struct perfan_load_opts *o, const char *cmd);

/* The long options of the shared set, values from CLI_ARGS_OPT_BASE on;
 * CLI_ARGS_LONGOPTS goes into a command's getopt table. */
enum {
	CLI_ARGS_OPT_BASE = 1000,
	CLI_ARGS_O_SAMPLES = CLI_ARGS_OPT_BASE,
	CLI_ARGS_O_PERIOD,
	CLI_ARGS_O_PID,
	CLI_ARGS_O_TID,
	CLI_ARGS_O_COMM,
	CLI_ARGS_O_CPU,
	CLI_ARGS_O_TIME,
	CLI_ARGS_O_EVENT,
	CLI_ARGS_O_INLINE,
	CLI_ARGS_O_SYMFS,
	CLI_ARGS_O_DEBUG_DIR,
	CLI_ARGS_O_BUILDID_DIR,
	CLI_ARGS_O_KALLSYMS,
	CLI_ARGS_O_PERF_MAP_DIR,
	CLI_ARGS_O_JITDUMP_DIR,
	CLI_ARGS_O_PYTHON,
	CLI_ARGS_O_OFFCPU,
	CLI_ARGS_O_WALL,
	CLI_ARGS_O_LINENO,
	CLI_ARGS_O_THREADS,
	CLI_ARGS_OPT_END,
};
#define CLI_ARGS_LONGOPTS                                                      \
	{"samples", no_argument, NULL, CLI_ARGS_O_SAMPLES},                    \
		{"period", no_argument, NULL, CLI_ARGS_O_PERIOD},              \
		{"pid", required_argument, NULL, CLI_ARGS_O_PID},              \
		{"tid", required_argument, NULL, CLI_ARGS_O_TID},              \
		{"comm", required_argument, NULL, CLI_ARGS_O_COMM},            \
		{"cpu", required_argument, NULL, CLI_ARGS_O_CPU},              \
		{"time", required_argument, NULL, CLI_ARGS_O_TIME},            \
		{"event", required_argument, NULL, CLI_ARGS_O_EVENT},          \
		{"inline", no_argument, NULL, CLI_ARGS_O_INLINE},              \
		{"symfs", required_argument, NULL, CLI_ARGS_O_SYMFS},          \
		{"debug-dir", required_argument, NULL, CLI_ARGS_O_DEBUG_DIR},  \
		{"buildid-dir", required_argument, NULL,                       \
		 CLI_ARGS_O_BUILDID_DIR},                                      \
		{"kallsyms", required_argument, NULL, CLI_ARGS_O_KALLSYMS},    \
		{"perf-map-dir", required_argument, NULL,                      \
		 CLI_ARGS_O_PERF_MAP_DIR},                                     \
		{"jitdump-dir", required_argument, NULL,                       \
		 CLI_ARGS_O_JITDUMP_DIR},                                      \
		{"off-cpu", no_argument, NULL, CLI_ARGS_O_OFFCPU},             \
		{"wall", no_argument, NULL, CLI_ARGS_O_WALL},                  \
		{"lineno", no_argument, NULL, CLI_ARGS_O_LINENO},              \
		{"threads", required_argument, NULL, CLI_ARGS_O_THREADS},      \
	{                                                                      \
		"python", required_argument, NULL, CLI_ARGS_O_PYTHON           \
	}

/* The lines of --help for the filters, the same words in every command
 * (collapse has its own --pid and --tid, and --event-filter). */
#define CLI_FILTER_HELP_EVENT_TEXT                                              \
	"                     only samples of event NAME; in a perf.data, of\n" \
	"                     the one event whose name starts with NAME (an\n"  \
	"                     error names its events when none or several\n"    \
	"                     do)\n"
/* ... and what --event means for the other inputs. */
#define CLI_FILTER_HELP_EVENT_OTHERS                                           \
	"                     bpftrace: the map NAME (@name); speedscope\n"    \
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
#define CLI_ARGS_HELP                                                                   \
	"  --samples          weigh every sample as 1\n"                                \
	"  --period           weigh samples by their period (the default, as\n"         \
	"                     perf report)\n"                                           \
	"  --event NAME\n" CLI_FILTER_HELP_EVENT_TEXT                                   \
		CLI_FILTER_HELP_EVENT_OTHERS                                            \
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
	"                     (file:line), not one per function\n" CLI_ARGS_PYTHON_HELP \
		CLI_ARGS_TIME_HELP CLI_THREADS_HELP

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

/* The lines of --help for --python (collapse has its own option loop). */
#define CLI_ARGS_PYTHON_HELP                                                     \
	"  --python VIEW      Python frames: python (Python functions, the\n"    \
	"                     interpreter and libc frames under one in its\n"    \
	"                     self time, extension modules and the kernel as\n"  \
	"                     native leaves; the default when there are any),\n" \
	"                     mixed (each Python function in place of the\n"     \
	"                     interpreter frames that ran it, the C code it\n"   \
	"                     called below it) or native (as perf)\n"

/* The lines of --help for --off-cpu and --wall. */
#define CLI_ARGS_TIME_HELP                                                        \
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

/* Handle option OPT (a CLI_ARGS_O_*) with argument ARG. Returns 1 when it
 * was one, 0 when it is not ours, -1 for a bad value (the message, naming
 * CMD, is printed). */
int cli_args_option(struct perfan_load_opts *o, int opt, const char *arg,
		    const char *cmd);

/* A command's option loop: ARGV through getopt_long (SHORTOPTS,
 * LONGOPTS, from optind 1), the shared options into LO, the command's own
 * to OPTION(PAYLOAD, opt, arg), which returns 0, -1 after --help, or an
 * exit status. After a bad shared value USAGE (when not NULL) follows its
 * message. Returns -1 to go on, or the exit status. */
int cli_args_parse(int argc, char **argv, const char *shortopts,
		   const struct option *longopts, struct perfan_load_opts *lo,
		   int (*option)(void *payload, int opt, const char *arg),
		   void *payload, const char *usage, const char *cmd);

/* A perfan_load_opts advice callback: "perfan CMD: " errors, warnings and
 * notes (PAYLOAD is CMD). */
int cli_advice(int level, const char *msg, void *payload);

/* Read PATH with O into a new *L, with the error printed as "perfan CMD:
 * ...". Returns the exit status, 0 or 1; *L is NULL only when no handle
 * could be made (then nothing was read). */
int cli_read(perfan_load **l, const char *path,
	     const struct perfan_load_opts *o, const char *cmd);

/* The same for perfan_load_read into L (another input added). */
int cli_read_more(perfan_load *l, const char *path, const char *cmd);

#endif
