/* cli/cmd_record.c: perfan record: perf record with what perfan's analyses
 * need (the plan and its run are libperfan's; this parses and prints). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "cli.h"
#include "opt.h"

#define CMD "record"

static const char head[] =
	"usage: perfan record [--wall] [--python] [--gil] [-F HZ]\n"
	"                     [--duration S] [-o FILE] [--dry-run]\n"
	"                     (-p PID | -- COMMAND [ARGS...])\n"
	"\n"
	"Run perf record with what perfan's analyses need: the CPU clock at\n"
	"its own frequency (never -F, which perf 6.1 applies to tracepoints\n"
	"and probes too), DWARF stacks when the target is Python run with -X\n"
	"perf or -X perf_jit (or PYTHONPERFSUPPORT=1, or --python), frame\n"
	"pointers otherwise, compressed (-z), 64 MB buffers as root. Without\n"
	"--wall only the CPU is recorded. Checks kernel.perf_event_paranoid\n"
	"and your rights first and says what to change; prints the next\n"
	"command (perfan triage FILE) at the end. --dry-run prints the perf\n"
	"commands instead.\n"
	"\n";

struct opts {
	struct perfan_record_opts r;
	const char *out;
	int dry_run;
};

static const char *set_pid(void *dst, const char *arg)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v <= 0 || v > 0x7fffffff)
		return "is not a process id";
	*(int32_t *)dst = (int32_t)v;
	return NULL;
}

static const char *set_uint(void *dst, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 10);
	if (end == arg || *end || errno || !v || v > 1000000)
		return "is not a positive count";
	*(unsigned *)dst = (unsigned)v;
	return NULL;
}

static const char *set_seconds(void *dst, const char *arg)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (end == arg || *end || errno || !(v > 0) || v > 1e7)
		return "is not a duration in seconds";
	*(double *)dst = v;
	return NULL;
}

static const struct cli_opt options[] = {
	CLI_FLAG("wall", r.wall,
		 "also record every context switch and wakeup with its\n"
		 "stack (sched:sched_switch, sched:sched_waking) and the\n"
		 "switch records (perf's --switch-events), for the\n"
		 "off-CPU and wall-clock views, the wakers and the\n"
		 "timeline; the switch records make the target's on-CPU\n"
		 "intervals exact without -a"),
	CLI_FLAG("python", r.python,
		 "the target is Python: DWARF stacks (CPython keeps no\n"
		 "frame pointers), and -X perf added to a python COMMAND\n"
		 "run without it"),
	CLI_FLAG("gil", r.gil,
		 "also the GIL's probes on the target's libpython (perf\n"
		 "probe, as root): take_gil, a plain uprobe on its ret\n"
		 "and drop_gil, removed again at the end; for perfan gil"),
	{CLI_OPT_(CLI_OPT_CALL, "pid", "PID", "record the running process PID",
		  offsetof(struct opts, r.pid)),
	 .short_name = 'p', .call = set_pid},
	CLI_CALL("duration", "S", r.duration, set_seconds,
		 "stop after S seconds (default: when COMMAND exits,\n"
		 "or at Ctrl-C)"),
	{CLI_OPT_(CLI_OPT_CALL, "freq", "HZ",
		  "cpu-clock samples per second (default 999, 499\n"
		  "with DWARF stacks)",
		  offsetof(struct opts, r.freq)),
	 .short_name = 'F', .call = set_uint},
	CLI_CALL("stack-size", "BYTES", r.stack_size, set_uint,
		 "stack bytes copied per sample with DWARF (default\n"
		 "16384)"),
	{CLI_OPT_(CLI_OPT_STRING, "output", "FILE",
		  "the recording (default perf.data)",
		  offsetof(struct opts, out)),
	 .short_name = 'o'},
	CLI_STRING("perf", "PATH", r.perf, "the perf to run (default perf)"),
	CLI_FLAG("dry-run", dry_run,
		 "print the commands it would run, and exit"),
	CLI_END,
};

static int record(struct opts *o)
{
	struct perfan_record_host h =
		PERFAN_OPTS_INIT(struct perfan_record_host);
	perfan_record_plan *p = NULL;
	int err = perfan_record_host_read(&h, &o->r);
	if (!err)
		err = perfan_record_plan_new(&p, &o->r, &h);
	perfan_record_host_free(&h);
	if (err) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	const struct perfan_record_plan_result *r =
		perfan_record_plan_result(p);
	for (size_t i = 0; i < r->nr_notes; i++)
		fprintf(stderr, "perfan record: note: %s\n", r->notes[i]);
	int status = 0;
	if (o->dry_run) {
		if (perfan_record_plan_write(p, stdout))
			status = 1;
		else
			printf("# then: %s\n", r->next);
	} else {
		struct perfan_record_run_opts ro =
			PERFAN_OPTS_INIT(struct perfan_record_run_opts);
		ro.log_fd = 2;
		err = perfan_record_run(p, &ro);
		if (err < 0) {
			cli_error(CMD, "%s", perfan_error_last());
			status = 1;
		} else if (err) {
			fprintf(stderr,
				"perfan record: perf record exited with "
				"status %d\n",
				err);
			status = 1;
		} else {
			fprintf(stderr, "perfan record: next: %s\n", r->next);
		}
	}
	perfan_record_plan_free(p);
	return status;
}

int cmd_record(int argc, char **argv)
{
	struct opts o = {.r = PERFAN_OPTS_INIT(struct perfan_record_opts)};
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 1);
	if (status >= 0)
		return status;
	if (optind < argc)
		o.r.argv = argv + optind;
	o.r.output = o.out;
	if (o.r.pid > 0 && optind < argc)
		return cli_opt_error(CMD, options, head, "%s",
				     "-p PID or a COMMAND, not both");
	if (o.r.pid <= 0 && optind >= argc)
		return cli_opt_error(CMD, options, head, "%s",
				     "nothing to record: -p PID or -- COMMAND");
	return record(&o);
}
