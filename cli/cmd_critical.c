/* cli/cmd_critical.c: perfan critical: the critical path of one thread's
 * interval in a perf.data recording: what it ran, what it waited for, and
 * who it waited on, followed through the wakers; or, with no --tid, the
 * critical path of a GPU profiler's trace, as HTA finds it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "analysis.h"
#include "args.h"
#include "cli.h"

#define CMD "critical"

static const char head[] =
	"usage: perfan critical --tid TID [--time START,END] [options] FILE\n"
	"       perfan critical [--json] [-o FILE] TRACE\n"
	"\n"
	"The critical path of thread TID over its life in perf.data FILE (or\n"
	"over --time START,END): each stretch it was blocked is followed to\n"
	"the thread that woke it (sched:sched_waking) and through that\n"
	"thread's own history from the start of the wait to the wakeup,\n"
	"recursively, so that the segments tile the interval: a table of\n"
	"(thread, state, class, function) with their ms and share, the chain\n"
	"of threads, Amdahl bounds (making a function free shortens the\n"
	"interval by at most its time on the path) and the segments. With\n"
	"-o FILE.svg, a flame graph rooted at the thread. Record with\n"
	"sched:sched_switch, sched:sched_waking and cpu-clock/freq=N/, call\n"
	"graphs (--call-graph dwarf for CPython), -a for exact switch-ins.\n"
	"\n"
	"With no --tid, FILE is a GPU profiler's trace (a Kineto JSON, ...)\n"
	"and the path is Holistic Trace Analysis's over the whole trace: a\n"
	"graph of the starts and ends of CPU operators, runtime calls and GPU\n"
	"work, linked by nesting, launches, stream order and syncs, and its\n"
	"longest path: its length, its time per edge type (operators,\n"
	"launch delays, kernel-kernel gaps) and per kind of event, and the\n"
	"events that hold it, by their time on it.\n"
	"\n";

struct opts {
	struct perfan_load_opts load;
	struct perfan_critical_opts co;
	int format;
	const char *out;
};

static const char *set_depth(void *depth, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (end == arg || *end || n < 1 || n > 64)
		return "is not a depth from 1 to 64";
	*(unsigned *)depth = (unsigned)n;
	return NULL;
}

static const struct cli_opt options[] = {
	CLI_FLAG_VALUE("json", format, PERFAN_CRITICAL_JSON,
		       "print a JSON object instead"),
	CLI_CALL("depth", "N", co.max_depth, set_depth,
		 "follow wakers N threads deep (default 8)"),
	CLI_OUTPUT(out),
	CLI_TABLE(cli_python_table, load),
	CLI_TABLE(cli_filter_table, load),
	CLI_TABLE(cli_symbols_table, load),
	CLI_TABLE(cli_threads_table, load),
	CLI_END,
};

CLI_ANALYSIS_FNS(critical)
CLI_ANALYSIS_FNS(gpucrit)

static const perfan_profile *path_profile(const void *c)
{
	return perfan_critical_profile(c);
}

static const struct cli_analysis analysis = {.cmd = CMD,
					     .run = critical_run,
					     .write = critical_write,
					     .free = critical_free,
					     .profile = path_profile,
					     .title = "Critical path"};

static const struct cli_analysis gpu_analysis = {.cmd = CMD,
						 .run = gpucrit_run,
						 .write = gpucrit_write,
						 .free = gpucrit_free};

int cmd_critical(int argc, char **argv)
{
	struct opts o = {.co = PERFAN_OPTS_INIT(struct perfan_critical_opts)};
	cli_args_init(&o.load, CMD);
	const char *path;
	int status = cli_one_perfdata(CMD, argc, argv, options, &o, head,
				      &o.out, &path);
	if (status >= 0)
		return status;
	if (o.load.filter.tid < 0)
		return cli_analysis_run(&gpu_analysis, &o.load, path, NULL,
					o.format, o.out);
	o.co.python_view = cli_python_view(&o.load);
	return cli_analysis_run(&analysis, &o.load, path, &o.co, o.format,
				o.out);
}
