/* cli/args_table.c: the shared options of the commands that read
 * profiles as option tables (cli/opt.h), with their --help lines, the
 * same words in every command; the library's setters take the values. */
#include "args.h"

int cli_set_load(void *lo, const char *name, const char *value)
{
	return perfan_load_opts_set(lo, name, value);
}

int cli_set_fg(void *fo, const char *name, const char *value)
{
	return perfan_flamegraph_opts_set(fo, name, value);
}

int cli_set_diff(void *d, const char *name, const char *value)
{
	return perfan_diff_opts_set(d, name, value);
}

int cli_set_scaling(void *so, const char *name, const char *value)
{
	return perfan_scaling_opts_set(so, name, value);
}

int cli_set_report(void *rep, const char *name, const char *value)
{
	return perfan_report_opts_set(rep, name, value);
}

#define LOAD(name, arg, help) CLI_SET_AT(name, arg, 0, cli_set_load, help)
#define SUB(table) CLI_TABLE_AT(table, 0)

const struct cli_opt cli_event_table[] = {
	LOAD("event", "NAME", CLI_EVENT_HELP),
	CLI_END,
};

const struct cli_opt cli_comm_cpu_time_table[] = {
	LOAD("comm", "COMM",
	     "(perf.data) only samples and off-CPU time of\n"
	     "threads named COMM"),
	LOAD("cpu", "CPU",
	     "(perf.data) only samples taken on CPU (off-CPU\n"
	     "time is on none)"),
	LOAD("time", "START,END",
	     "(perf.data) only samples and off-CPU time\n"
	     "between these times, in seconds as perf script\n"
	     "prints them; either may be left empty"),
	CLI_END,
};

const struct cli_opt cli_filter_table[] = {
	SUB(cli_event_table),
	LOAD("pid", "PID",
	     "(perf.data) only samples and off-CPU time of\n"
	     "process PID"),
	LOAD("tid", "TID",
	     "(perf.data) only samples and off-CPU time of\n"
	     "thread TID"),
	SUB(cli_comm_cpu_time_table),
	CLI_END,
};

const struct cli_opt cli_symbols_table[] = {
	LOAD("symfs", "DIR", "(perf.data) look for binaries under DIR"),
	LOAD("debug-dir", "DIR",
	     "(perf.data) look for debug files under DIR too"),
	LOAD("buildid-dir", "DIR",
	     "(perf.data) perf's build-id cache (default\n~/.debug)"),
	LOAD("kallsyms", "FILE", "(perf.data) kernel symbols from FILE"),
	LOAD("perf-map-dir", "DIR",
	     "(perf.data) JIT symbols from DIR/perf-PID.map\n(default /tmp)"),
	LOAD("jitdump-dir", "DIR",
	     "(perf.data) look for jit-PID.dump in DIR first"),
	CLI_END,
};

const struct cli_opt cli_threads_table[] = {
	LOAD("threads", "N",
	     "with N >= 2, a second thread: perf.data is read\n"
	     "ahead on it (reading, time order, decoding) while\n"
	     "this one resolves and unwinds DWARF user stacks\n"
	     "(with N >= 3, a third unwinds them); a folded\n"
	     "file read pruned (a flame graph) is read and its\n"
	     "frames interned on it while this one prunes; a\n"
	     ".json.gz trace is inflated on it while this one\n"
	     "parses; 1: one thread. The output is the same.\n"
	     "Default: the CPUs online"),
	CLI_END,
};

const struct cli_opt cli_python_table[] = {
	LOAD("python", "VIEW",
	     "Python frames: python (Python functions, the\n"
	     "interpreter and libc frames under one in its\n"
	     "self time, extension modules and the kernel as\n"
	     "native leaves; the default when there are any),\n"
	     "mixed (each Python function in place of the\n"
	     "interpreter frames that ran it, the C code it\n"
	     "called below it) or native (as perf)"),
	CLI_END,
};

const struct cli_opt cli_views_table[] = {
	SUB(cli_python_table),
	LOAD("off-cpu", NULL,
	     "(perf.data) off-CPU time instead of samples: how\n"
	     "long threads were off the CPU (sched_switch,\n"
	     "switch events), in ns, on the stack that left\n"
	     "it, under a leaf [off-cpu: CLASS] naming why it\n"
	     "waited (GIL, lock, idle, I/O, sleep, ...), else\n"
	     "[off-cpu: STATE]"),
	LOAD("wall", NULL,
	     "(perf.data) wall-clock time: on-CPU time (the\n"
	     "cpu-clock or task-clock period) and off-CPU time\n"
	     "in one profile, in ns"),
	LOAD("kernel-detail", NULL,
	     "(perf.data) --off-cpu, --wall: keep the kernel's\n"
	     "scheduler frames of each wait under its leaf\n"
	     "(default: folded into it, the thread's own\n"
	     "innermost frame directly under the leaf)"),
	CLI_END,
};

const struct cli_opt cli_load_table[] = {
	LOAD("samples", NULL, "weigh every sample as 1"),
	LOAD("period", NULL,
	     "weigh samples by their period (the default, as\nperf report)"),
	SUB(cli_filter_table),
	LOAD("inline", NULL,
	     "(perf.data) add the functions inlined into others"),
	SUB(cli_symbols_table),
	LOAD("lineno", NULL,
	     "(py-spy, speedscope) a frame per line, name\n"
	     "(file:line), not one per function"),
	SUB(cli_views_table),
	SUB(cli_threads_table),
	CLI_END,
};
