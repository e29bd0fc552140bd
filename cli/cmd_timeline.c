/* cli/cmd_timeline.c: perfan timeline: what every thread of a perf.data
 * recording did over time, as a page to zoom into or as JSON. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

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

struct job {
	const perfan_timeline *t;
	int format;
};

static int write_job(const void *arg, FILE *fp)
{
	const struct job *j = arg;
	struct perfan_timeline_write_opts wo = {sizeof(wo), j->format};
	return perfan_timeline_write(j->t, fp, &wo);
}

static int timeline(struct opts *o, const char *path)
{
	perfan_load *l = NULL;
	perfan_timeline *t = NULL;
	int err = perfan_load_new(&l, &o->load);
	if (!err)
		err = perfan_load_timeline(&t, l, path, &o->topts);
	int status = err != 0;
	if (err < 0)
		cli_error(CMD, "%s", perfan_error_last());
	if (t) {
		struct job j = {t, o->format};
		if (cli_write_result(CMD, o->out, write_job, &j))
			status = 1;
	}
	perfan_timeline_free(t);
	perfan_load_free(l);
	return status;
}

int cmd_timeline(int argc, char **argv)
{
	struct opts o = {.topts =
				 PERFAN_OPTS_INIT(struct perfan_timeline_opts)};
	cli_args_init(&o.load, CMD);
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 0);
	const char *path = argv[argc - 1];
	if (status < 0 && optind != argc - 1)
		status = cli_opt_error(CMD, options, head, "%s",
				       optind >= argc ? "no perf.data"
						      : "one perf.data only");
	else if (status < 0 && cli_output_guard(CMD, o.out, &path, 1))
		status = 1;
	if (status < 0)
		status = timeline(&o, path);
	return status;
}
