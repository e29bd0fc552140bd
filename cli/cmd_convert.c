/* cli/cmd_convert.c: perfan convert: any input perfan reads, written in
 * another tool's format: pprof (profile.proto, gzipped), speedscope JSON or
 * folded stacks. */
#include <getopt.h>
#include <stdio.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"

#define CMD "convert"

static const char head[] =
	"usage: perfan convert [options] INPUT -o OUT\n"
	"\n"
	"Write the profile of INPUT (any input perfan reads: a perf.data\n"
	"recording, `perf script` text, folded stacks, py-spy raw, a cProfile\n"
	"dump, speedscope JSON, bpftrace stack maps, a GPU profiler's trace;\n"
	"'-' for standard input) as OUT, in the format its name ends with:\n"
	".pb.gz or .pprof: pprof (profile.proto, gzipped, as pprof,\n"
	"Pyroscope, Parca and Grafana read it); .speedscope.json: speedscope's\n"
	"JSON (speedscope.app); .folded: folded stacks. Each thread is a root\n"
	"of its own (comm-PID/TID); in pprof it is the samples' labels comm,\n"
	"thread, pid and tid; in speedscope a profile of its own, its samples\n"
	"in time order where the input has times (perf.data, --off-cpu,\n"
	"--wall, perf script text), else one sample per distinct stack. A\n"
	"GPU profiler's trace goes to pprof as sample types cpu time and gpu\n"
	"time, to speedscope as its timelines: a profile per CPU thread and\n"
	"per GPU stream.\n"
	"\n";

struct opts {
	struct perfan_load_opts lo;
	struct perfan_convert_write_opts wo;
	const char *out;
};

static const char *set_to(void *format, const char *arg)
{
	*(int *)format = perfan_convert_format_parse(arg);
	return *(int *)format < 0 ? "is not pprof, speedscope or folded" : NULL;
}

static const struct cli_opt options[] = {
	{CLI_OPT_(CLI_OPT_STRING, "output", "OUT",
		  "write to OUT (atomically); '-': standard output\n"
		  "(needs --to)",
		  offsetof(struct opts, out)),
	 .short_name = 'o'},
	CLI_CALL("to", "FORMAT", wo.format, set_to,
		 "pprof, speedscope or folded, whatever OUT is\ncalled"),
	CLI_TABLE(cli_load_table, lo),
	CLI_END,
};

static int write_out(const void *l, FILE *fp, const void *wo)
{
	return perfan_convert_write(l, fp, wo);
}

int cmd_convert(int argc, char **argv)
{
	struct opts o = {
		.wo = PERFAN_OPTS_INIT(struct perfan_convert_write_opts)};
	cli_args_init(&o.lo, CMD);
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 0);
	if (status >= 0)
		return status;
	if (optind + 1 != argc || !o.out)
		return cli_opt_error(CMD, options, head, "%s",
				     !o.out ? "-o OUT is missing"
					    : "one INPUT is needed");
	const char *path = argv[optind];
	if (!o.wo.format)
		o.wo.format = perfan_convert_format_of_path(o.out);
	if (!o.wo.format)
		return cli_opt_error(CMD, options, head,
				     "%s: no format for this name (.pb.gz, "
				     ".pprof, .speedscope.json, .folded): "
				     "say --to",
				     o.out);
	if (cli_output_guard(CMD, o.out, &path, 1))
		return 1;
	o.lo.root = PERFAN_ROOT_PID_TID;
	o.lo.folded_process_root = 1;
	/* speedscope shows samples in time order: keep them */
	o.lo.keep_samples = o.wo.format == PERFAN_CONVERT_SPEEDSCOPE;
	perfan_load *l = NULL;
	if (cli_read(&l, path, &o.lo, CMD)) {
		/* a convert is all or nothing: no half profile goes out */
		perfan_load_free(l);
		return 1;
	}
	o.wo.column = perfan_load_column(l, NULL, NULL);
	status = cli_write(CMD, o.out, 0, write_out, l, &o.wo);
	perfan_load_free(l);
	return status;
}
