/* cli/cmd_annotate.c: perfan annotate: the hot instructions and source
 * lines of the hottest (or named) functions of a perf.data recording. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"

#define CMD "annotate"

static const char usage_text[] =
	"usage: perfan annotate [options] [SYMBOL...] FILE\n"
	"\n"
	"Disassemble the hottest functions of perf.data FILE (or the ones\n"
	"named) with capstone (x86-64, aarch64), from the binaries the\n"
	"recording names (build-id cache, --symfs, debug files), and show\n"
	"where their own time goes: per-instruction samples with the share\n"
	"of the function (local, perf annotate's default) and of the whole\n"
	"profile (global), source lines from DWARF with the functions\n"
	"inlined there and their call sites, jump targets and loops, and a\n"
	"summary of the hottest lines and instructions. One event is\n"
	"counted: the first with samples, or --event NAME.\n"
	"\n"
	"  -n, --top N        the N hottest functions when none is named\n"
	"                     (default 5)\n"
	"  --source           per-source-line costs only, no instructions\n"
	"  --json             print a JSON object instead\n"
	"  -M, --disassembler-style STYLE\n"
	"                     x86 syntax: att (the default, as perf) or intel\n"
	"  --source-dir DIR   look for source files under DIR first (the path\n"
	"                     DWARF recorded, then its basename); may be\n"
	"                     given more than once\n"
	"  --no-demangle      keep C++ and Rust names mangled\n"
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  --event NAME       count samples of event NAME\n"
	"  --pid PID          only samples of process PID\n"
	"  --tid TID          only samples of thread TID\n"
	"  --comm COMM        only samples of threads named COMM\n"
	"  --cpu CPU          only samples taken on CPU\n"
	"  --time START,END   only samples between these times, in seconds\n"
	"                     as perf script prints them\n"
	"  --symfs DIR        look for binaries under DIR\n"
	"  --debug-dir DIR    look for debug files under DIR too\n"
	"  --buildid-dir DIR  perf's build-id cache (default ~/.debug)\n"
	"  --kallsyms FILE    kernel symbols from FILE\n"
	"  --perf-map-dir DIR JIT symbols from DIR/perf-PID.map (default /tmp)\n"
	"  --jitdump-dir DIR  look for jit-PID.dump in DIR first\n" CLI_THREADS_HELP
	"  -h, --help         show this help\n";

enum {
	O_SOURCE = CLI_ARGS_OPT_END + 1,
	O_JSON,
	O_SOURCE_DIR,
	O_NO_DEMANGLE,
};

struct args {
	struct perfan_load_opts load;
	struct perfan_annotate_opts ao;
	const char **dirs;
	size_t ndirs;
	int format, no_demangle;
	const char *out;
};

static int parse(struct args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"top", required_argument, NULL, 'n'},
		{"source", no_argument, NULL, O_SOURCE},
		{"json", no_argument, NULL, O_JSON},
		{"disassembler-style", required_argument, NULL, 'M'},
		{"source-dir", required_argument, NULL, O_SOURCE_DIR},
		{"no-demangle", no_argument, NULL, O_NO_DEMANGLE},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{"event", required_argument, NULL, CLI_ARGS_O_EVENT},
		{"pid", required_argument, NULL, CLI_ARGS_O_PID},
		{"tid", required_argument, NULL, CLI_ARGS_O_TID},
		{"comm", required_argument, NULL, CLI_ARGS_O_COMM},
		{"cpu", required_argument, NULL, CLI_ARGS_O_CPU},
		{"time", required_argument, NULL, CLI_ARGS_O_TIME},
		{"symfs", required_argument, NULL, CLI_ARGS_O_SYMFS},
		{"debug-dir", required_argument, NULL, CLI_ARGS_O_DEBUG_DIR},
		{"buildid-dir", required_argument, NULL,
		 CLI_ARGS_O_BUILDID_DIR},
		{"kallsyms", required_argument, NULL, CLI_ARGS_O_KALLSYMS},
		{"perf-map-dir", required_argument, NULL,
		 CLI_ARGS_O_PERF_MAP_DIR},
		{"jitdump-dir", required_argument, NULL,
		 CLI_ARGS_O_JITDUMP_DIR},
		{"threads", required_argument, NULL, CLI_ARGS_O_THREADS},
		{0},
	};
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "n:M:o:h", longopts, NULL)) !=
	       -1) {
		int shared = cli_args_option(&a->load, opt, optarg, CMD);
		if (shared < 0)
			return 2;
		if (shared)
			continue;
		switch (opt) {
		case 'n':
			if (cli_parse_count(optarg, &a->ao.top) || !a->ao.top)
				return cli_usage_error(CMD, usage_text,
						       "bad --top: %s", optarg);
			break;
		case O_SOURCE: a->format = PERFAN_ANNOTATE_SOURCE; break;
		case O_JSON: a->format = PERFAN_ANNOTATE_JSON; break;
		case 'M':
			if (!strcmp(optarg, "intel"))
				a->ao.flags |= PERFAN_ANNOTATE_INTEL;
			else if (strcmp(optarg, "att"))
				return cli_usage_error(
					CMD, usage_text,
					"bad --disassembler-style: %s "
					"(att or intel)",
					optarg);
			break;
		case O_SOURCE_DIR: a->dirs[a->ndirs++] = optarg; break;
		case O_NO_DEMANGLE: a->no_demangle = 1; break;
		case 'o': a->out = optarg; break;
		case 'h': fputs(usage_text, stdout); return -1;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (optind >= argc)
		return cli_usage_error(CMD, usage_text, "no perf.data%s", "");
	return 0;
}

struct job {
	const perfan_annotate *an;
	int format;
};

static int write_job(const void *arg, FILE *fp)
{
	const struct job *j = arg;
	struct perfan_annotate_write_opts wo = {sizeof(wo), j->format};
	return perfan_annotate_write(j->an, fp, &wo);
}

static void warn_functions(const struct perfan_annotate_result *r)
{
	for (size_t i = 0; i < r->nr_missing; i++)
		cli_warn(CMD, "%s: no samples in a function of that name",
			 r->missing[i]);
	for (size_t i = 0; i < r->nr_functions; i++)
		if (r->functions[i].status)
			cli_warn(CMD, "%s: not annotated: %s",
				 r->functions[i].name,
				 r->functions[i].status_text);
}

int cmd_annotate(int argc, char **argv)
{
	struct args a;
	memset(&a, 0, sizeof(a));
	cli_args_init(&a.load, CMD);
	a.ao = PERFAN_OPTS_INIT(struct perfan_annotate_opts);
	a.dirs = calloc((size_t)argc + 1, sizeof(*a.dirs));
	if (!a.dirs) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	int rc = parse(&a, argc, argv);
	if (rc) {
		free(a.dirs);
		return rc < 0 ? 0 : rc;
	}
	const char *path = argv[argc - 1];
	a.ao.symbols = (const char *const *)(argv + optind);
	a.ao.nr_symbols = (size_t)(argc - 1 - optind);
	a.ao.source_dirs = a.dirs;
	a.ao.nr_source_dirs = a.ndirs;
	const char *in[] = {path};
	if (cli_output_guard(CMD, a.out, in, 1)) {
		free(a.dirs);
		return 1;
	}

	if (a.no_demangle)
		a.ao.flags |= PERFAN_ANNOTATE_NO_DEMANGLE;
	perfan_load *l = NULL;
	perfan_annotate *an = NULL;
	int err = perfan_load_new(&l, &a.load);
	if (!err)
		err = perfan_load_annotate(&an, l, path, &a.ao);
	int status = 0;
	if (err) {
		cli_error(CMD, "%s", perfan_error_last());
		status = 1;
	}
	if (an) {
		const struct perfan_annotate_result *r =
			perfan_annotate_result(an);
		warn_functions(r);
		if (!r->total_samples)
			cli_warn(CMD, "%s has no samples", path);
		else if (!r->nr_functions)
			status = 1;
		struct job j = {an, a.format};
		if (cli_write_result(CMD, a.out, write_job, &j))
			status = 1;
	}
	perfan_annotate_free(an);
	perfan_load_free(l);
	free(a.dirs);
	return status;
}
