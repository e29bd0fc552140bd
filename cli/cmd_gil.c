/* cli/cmd_gil.c: perfan gil: the GIL ledger of a perf.data recording: who
 * waited for CPython's GIL, how long, and who held it meanwhile. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <perfan/perfan.h>

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

struct job {
	const perfan_gil *g;
	int format;
};

static int write_job(const void *arg, FILE *fp)
{
	const struct job *j = arg;
	struct perfan_gil_write_opts wo = {sizeof(wo), j->format};
	return perfan_gil_write(j->g, fp, &wo);
}

/* The blame flame graph of G to O->out, after a load that ended with
 * STATUS: the exit status. */
static int write_blame(const struct opts *o, const perfan_gil *g,
		       const char *path, int status)
{
	const perfan_profile *b = perfan_gil_blame(g);
	if (!b) {
		cli_error(CMD, "%s: no on-CPU samples to blame", path);
		return 1;
	}
	struct perfan_flamegraph_opts fo = PERFAN_FG_OPTS_INIT;
	fo.title = "GIL blame: holders' stacks by the time others waited";
	fo.countname = "ns";
	return cli_write_flamegraph(CMD, b, &fo, o->out, status);
}

static int gil(struct opts *o, const char *path)
{
	perfan_load *l = NULL;
	perfan_gil *g = NULL;
	o->go.python_view = o->load.python_view < 0 ? PERFAN_PY_PYTHON
						    : o->load.python_view;
	int err = perfan_load_new(&l, &o->load);
	if (!err)
		err = perfan_load_gil(&g, l, path, &o->go);
	/* advice (PERFAN_LOAD_ADVISED) said why; the ledger still shows */
	int status = err != 0;
	if (err < 0)
		cli_error(CMD, "%s", perfan_error_last());
	if (g && cli_svg_path(o->out)) {
		status = write_blame(o, g, path, status);
	} else if (g) {
		struct job j = {g, o->format};
		if (cli_write_result(CMD, o->out, write_job, &j))
			status = 1;
	}
	perfan_gil_free(g);
	perfan_load_free(l);
	return status;
}

int cmd_gil(int argc, char **argv)
{
	struct opts o = {.go = PERFAN_OPTS_INIT(struct perfan_gil_opts)};
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
		status = gil(&o, path);
	return status;
}
