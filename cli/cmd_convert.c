/* cli/cmd_convert.c: perfan convert: any input perfan reads, written in
 * another tool's format: pprof (profile.proto, gzipped), speedscope JSON or
 * folded stacks. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"

#define CMD "convert"

static const char usage_text[] =
	"usage: perfan convert [options] INPUT -o OUT\n"
	"\n"
	"Write the profile of INPUT (any input perfan reads: a perf.data\n"
	"recording, `perf script` text, folded stacks, py-spy raw, a cProfile\n"
	"dump, speedscope JSON, bpftrace stack maps; '-' for standard input)\n"
	"as OUT, in the format its name ends with: .pb.gz or .pprof: pprof\n"
	"(profile.proto, gzipped, as pprof, Pyroscope, Parca and Grafana read\n"
	"it); .speedscope.json: speedscope's JSON (speedscope.app); .folded:\n"
	"folded stacks. Each thread is a root of its own (comm-PID/TID); in\n"
	"pprof it is the samples' labels comm, thread, pid and tid; in\n"
	"speedscope a profile of its own, its samples in time order where the\n"
	"input has times (perf.data, --off-cpu, --wall, perf script text),\n"
	"else one sample per distinct stack.\n"
	"\n"
	"  -o, --output OUT   write to OUT (atomically); '-': standard output\n"
	"                     (needs --to)\n"
	"  --to FORMAT        pprof, speedscope or folded, whatever OUT is\n"
	"                     called\n" CLI_ARGS_HELP
	"  -h, --help         show this help\n";

enum format { F_NONE, F_PPROF, F_FOLDED, F_SPEEDSCOPE };

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

static enum format format_of_name(const char *path)
{
	if (ends_with(path, ".pb.gz") || ends_with(path, ".pprof"))
		return F_PPROF;
	if (ends_with(path, ".folded"))
		return F_FOLDED;
	if (ends_with(path, ".speedscope.json"))
		return F_SPEEDSCOPE;
	return F_NONE;
}

/* What is written: the format, and the column. */
struct job {
	enum format to;
	size_t col;
};

static int write_out(const void *load, FILE *fp, const void *job)
{
	const perfan_load *l = load;
	const perfan_profile *p = perfan_load_profile(l);
	enum format f = ((const struct job *)job)->to;
	size_t col = ((const struct job *)job)->col;
	if (f == F_FOLDED) {
		struct perfan_folded_write_opts fo =
			PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
		fo.column = col;
		return perfan_folded_write(p, fp, &fo);
	}
	if (f == F_SPEEDSCOPE) {
		struct perfan_speedscope_write_opts so =
			PERFAN_OPTS_INIT(struct perfan_speedscope_write_opts);
		so.column = col;
		/* the title: the input's file name */
		const char *name = perfan_load_info(l)->name;
		const char *slash = strrchr(name, '/');
		so.name = slash && slash[1] ? slash + 1 : name;
		return perfan_speedscope_write(p, fp, &so);
	}
	struct perfan_pprof_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_pprof_write_opts);
	wo.default_column = perfan_load_nr_columns(l) ? col + 1 : 0;
	/* the recording's facts (command line, build-ids, times, period)
	 * from the reader that read it: a pipe is read once */
	perfan_pprof_opts_from_perfdata(&wo, perfan_load_reader(l));
	return perfan_pprof_write(p, fp, &wo);
}

int cmd_convert(int argc, char **argv)
{
	enum { O_TO = CLI_ARGS_OPT_END };
	static const struct option longopts[] = {
		CLI_ARGS_LONGOPTS,
		{"to", required_argument, NULL, O_TO},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct perfan_load_opts lo;
	cli_args_init(&lo, CMD);
	const char *out = NULL;
	enum format to = F_NONE;
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		int shared = cli_args_option(&lo, opt, optarg, CMD);
		if (shared < 0)
			return 2;
		if (shared)
			continue;
		switch (opt) {
		case O_TO:
			to = !strcmp(optarg, "pprof")        ? F_PPROF
			     : !strcmp(optarg, "folded")     ? F_FOLDED
			     : !strcmp(optarg, "speedscope") ? F_SPEEDSCOPE
							     : F_NONE;
			if (to == F_NONE)
				return cli_usage_error(
					CMD, usage_text,
					"--to: '%s' is not pprof, "
					"speedscope or folded",
					optarg);
			break;
		case 'o': out = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (optind + 1 != argc || !out)
		return cli_usage_error(CMD, usage_text, "%s",
				       !out ? "-o OUT is missing"
					    : "one INPUT is needed");
	const char *path = argv[optind];
	if (to == F_NONE)
		to = format_of_name(out);
	if (to == F_NONE)
		return cli_usage_error(CMD, usage_text,
				       "%s: no format for this name (.pb.gz, "
				       ".pprof, .speedscope.json, .folded): "
				       "say --to",
				       out);
	if (cli_output_guard(CMD, out, &path, 1))
		return 1;

	lo.root = PERFAN_ROOT_PID_TID;
	lo.folded_process_root = 1;
	/* speedscope shows samples in time order: keep them */
	lo.keep_samples = to == F_SPEEDSCOPE;
	perfan_load *l = NULL;
	if (cli_read(&l, path, &lo, CMD)) {
		/* a convert is all or nothing: no half profile goes out */
		perfan_load_free(l);
		return 1;
	}
	struct job j = {to, perfan_load_column(l, NULL, NULL)};
	int status = cli_write(CMD, out, 0, write_out, l, &j);
	perfan_load_free(l);
	return status;
}
