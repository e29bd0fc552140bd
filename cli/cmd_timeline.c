/* cli/cmd_timeline.c: perfan timeline: what every thread of a perf.data
 * recording did over time, as a page to zoom into or as JSON. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "analysis.h"
#include "args.h"
#include "cli.h"

#define CMD "timeline"

static const char head[] =
	"usage: perfan timeline [options] FILE [-o timeline.html]\n"
	"\n"
	"What every thread in perf.data FILE did over time, as one HTML page\n"
	"that works offline: a lane per thread, running, runnable and off the\n"
	"CPU by why it waited (GIL, lock, idle, I/O, sleep, disk, ...; the\n"
	"flame graphs' colours), wake arrows from waker to wakee, the stack on\n"
	"hover, zoom with the wheel, pan by dragging, and a range (shift-drag)\n"
	"with its time by state per thread. Record sched:sched_switch and\n"
	"sched:sched_waking with call graphs, and cpu-clock/freq=N/.\n"
	"\n";

struct opts {
	struct perfan_load_opts load;
	struct perfan_timeline_opts topts;
	int format;
	const char *out;
};

/* MS milliseconds (a decimal number) as ns. */
static const char *set_resolution(void *res, const char *arg)
{
	char *end;
	errno = 0;
	double ms = strtod(arg, &end);
	if (end == arg || *end || errno || !(ms >= 0) || ms > 1e9)
		return "is not a time in milliseconds";
	uint64_t ns = (uint64_t)(ms * 1e6 + 0.5);
	if (ms > 0 && !ns)
		return "is below a nanosecond";
	*(uint64_t *)res = ns;
	return NULL;
}

static const struct cli_opt options[] = {
	CLI_CALL("resolution", "MS", topts.resolution, set_resolution,
		 "merge the segments shorter than MS milliseconds\n"
		 "(their time kept by state; default: the finest\n"
		 "that keeps the page small)"),
	CLI_FLAG("all", topts.all,
		 "of a system-wide recording, every process's\n"
		 "threads (default: the busiest process's)"),
	CLI_FLAG_VALUE("json", format, PERFAN_TIMELINE_JSON,
		       "print the data as JSON instead"),
	CLI_OUTPUT(out),
	CLI_TABLE(cli_filter_table, load),
	CLI_TABLE(cli_symbols_table, load),
	CLI_TABLE(cli_threads_table, load),
	CLI_END,
};

CLI_ANALYSIS_FNS(timeline)

static const struct cli_analysis analysis = {.cmd = CMD,
					     .run = timeline_run,
					     .write = timeline_write,
					     .free = timeline_free};

int cmd_timeline(int argc, char **argv)
{
	struct opts o = {.topts =
				 PERFAN_OPTS_INIT(struct perfan_timeline_opts)};
	cli_args_init(&o.load, CMD);
	const char *path;
	int status = cli_one_perfdata(CMD, argc, argv, options, &o, head,
				      &o.out, &path);
	return status >= 0 ? status
			   : cli_analysis_run(&analysis, &o.load, path,
					      &o.topts, o.format, o.out);
}
