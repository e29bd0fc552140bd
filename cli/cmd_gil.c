/* cli/cmd_gil.c: perfan gil: the GIL ledger of a perf.data recording: who
 * waited for CPython's GIL, how long, and who held it meanwhile. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <perfan/perfan.h>

#include "analysis.h"
#include "args.h"
#include "cli.h"

#define CMD "gil"

static const char head[] =
	"usage: perfan gil [options] FILE\n"
	"\n"
	"The GIL ledger of perf.data FILE, recorded with sched:sched_switch\n"
	"(and sched:sched_waking) with call graphs (--call-graph dwarf for\n"
	"CPython, which has no frame pointers): for each thread of a Python\n"
	"process, the time it waited for the GIL (take_gil on its\n"
	"switch-out stack), split into blocked and run-queue time, its\n"
	"episodes, forced switches (drop_gil), on-CPU time and the part of\n"
	"it that held the GIL; then, for each thread that waited, which\n"
	"threads held the GIL meanwhile. Where the recording has perf probe\n"
	"events on take_gil, its return and drop_gil, their exact waits and\n"
	"holds are shown beside, and say who held it. With -o FILE.svg, the\n"
	"flame graph of the holders' stacks weighted by the time others\n"
	"waited for them (the GIL blame).\n"
	"\n";

struct opts {
	struct perfan_load_opts load;
	struct perfan_gil_opts go;
	int format;
	const char *out;
};

static const struct cli_opt options[] = {
	CLI_FLAG_VALUE("json", format, PERFAN_GIL_JSON,
		       "print a JSON object instead"),
	CLI_FLAG_VALUE("no-probes", go.no_probes, 1,
		       "ignore perf probe events on take_gil and\n"
		       "drop_gil: the figures from stacks alone"),
	CLI_OUTPUT(out),
	CLI_TABLE(cli_python_table, load),
	CLI_TABLE(cli_filter_table, load),
	CLI_TABLE(cli_symbols_table, load),
	CLI_TABLE(cli_threads_table, load),
	CLI_END,
};

CLI_ANALYSIS_FNS(gil)

static const perfan_profile *blame(const void *g)
{
	return perfan_gil_blame(g);
}

static const struct cli_analysis analysis = {
	.cmd = CMD,
	.run = gil_run,
	.write = gil_write,
	.free = gil_free,
	.profile = blame,
	.title = "GIL blame: holders' stacks by the time others waited",
	.no_profile = "no on-CPU samples to blame"};

int cmd_gil(int argc, char **argv)
{
	struct opts o = {.go = PERFAN_OPTS_INIT(struct perfan_gil_opts)};
	cli_args_init(&o.load, CMD);
	const char *path;
	int status = cli_one_perfdata(CMD, argc, argv, options, &o, head,
				      &o.out, &path);
	if (status >= 0)
		return status;
	o.go.python_view = cli_python_view(&o.load);
	return cli_analysis_run(&analysis, &o.load, path, &o.go, o.format,
				o.out);
}
