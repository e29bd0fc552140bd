/* cli/cmd_dump.c: perfan dump: every thread of a perf.data recording at one
 * moment, as py-spy dump shows a live process. */
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

#define CMD "dump"

static const char head[] =
	"usage: perfan dump [--at TIME] [options] FILE\n"
	"\n"
	"Every thread alive in perf.data FILE at TIME (seconds, as perf\n"
	"script prints times; default: the end of the recording), as py-spy\n"
	"dump shows a live process: running, or off the CPU and why (the\n"
	"wait's class: GIL, lock, idle, I/O, sleep, ...; its state), for how\n"
	"long, and its stack (the switch-out stack while off the CPU, else\n"
	"its last sample's), Python functions by name. Record sched:sched_switch\n"
	"with call graphs, and cpu-clock/freq=N/ for the running threads.\n"
	"\n";

struct opts {
	struct perfan_load_opts load;
	struct perfan_dump_opts dopts;
	int format;
	const char *out;
};

/* SEC.FRACTION seconds as ns, exactly (no floating point). */
static const char *set_at(void *at, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long s = strtoull(arg, &end, 10);
	uint64_t ns = 0, scale = 100000000;
	if (end == arg || errno || s > UINT64_MAX / 1000000000ull)
		return "is not a time in seconds (SEC.NSEC)";
	if (*end == '.')
		for (end++; *end >= '0' && *end <= '9'; end++, scale /= 10)
			ns += (uint64_t)(*end - '0') * scale;
	if (*end)
		return "is not a time in seconds (SEC.NSEC)";
	*(uint64_t *)at = s * 1000000000ull + ns;
	return *(uint64_t *)at ? NULL : "is not a time after 0";
}

static const struct cli_opt options[] = {
	CLI_CALL("at", "TIME", dopts.at, set_at,
		 "the moment, in seconds as perf script prints\n"
		 "it (default: the end of the recording)"),
	CLI_FLAG_VALUE("json", format, PERFAN_DUMP_JSON,
		       "print a JSON object instead"),
	CLI_OUTPUT(out),
	CLI_TABLE(cli_filter_table, load),
	CLI_TABLE(cli_symbols_table, load),
	CLI_TABLE(cli_threads_table, load),
	CLI_END,
};

CLI_ANALYSIS_FNS(dump)

static const struct cli_analysis analysis = {
	.cmd = CMD, .run = dump_run, .write = dump_write, .free = dump_free};

int cmd_dump(int argc, char **argv)
{
	struct opts o = {.dopts = PERFAN_OPTS_INIT(struct perfan_dump_opts)};
	cli_args_init(&o.load, CMD);
	const char *path;
	int status = cli_one_perfdata(CMD, argc, argv, options, &o, head,
				      &o.out, &path);
	return status >= 0 ? status
			   : cli_analysis_run(&analysis, &o.load, path,
					      &o.dopts, o.format, o.out);
}
