/* cli/cmd_annotate.c: perfan annotate: the hot instructions and source
 * lines of the hottest (or named) functions of a perf.data recording. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "analysis.h"
#include "args.h"
#include "cli.h"

#define CMD "annotate"

static const char head[] =
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
	"\n";

struct opts {
	struct perfan_load_opts load;
	struct perfan_annotate_opts ao;
	int format;
	const char *out;
};

static const char *set_top(void *top, const char *arg)
{
	char *end;
	long long n = strtoll(arg, &end, 10);
	if (end == arg || *end || n < 1)
		return "is not a number of functions (1 or more)";
	*(size_t *)top = (size_t)n;
	return NULL;
}

static const char *set_style(void *flags, const char *arg)
{
	if (!strcmp(arg, "intel"))
		*(unsigned *)flags |= PERFAN_ANNOTATE_INTEL;
	else if (strcmp(arg, "att"))
		return "is neither att nor intel";
	return NULL;
}

static const char *no_demangle(void *flags, const char *arg)
{
	(void)arg;
	*(unsigned *)flags |= PERFAN_ANNOTATE_NO_DEMANGLE;
	return NULL;
}

/* --source-dir DIR, repeated: in AO's array (argc slots) */
static const char *add_dir(void *ao, const char *arg)
{
	struct perfan_annotate_opts *o = ao;
	((const char **)o->source_dirs)[o->nr_source_dirs++] = arg;
	return NULL;
}

static const struct cli_opt options[] = {
	{CLI_OPT_(CLI_OPT_CALL, "top", "N",
		  "the N hottest functions when none is named\n(default 5)",
		  offsetof(struct opts, ao.top)),
	 .short_name = 'n', .call = set_top},
	CLI_FLAG_VALUE("source", format, PERFAN_ANNOTATE_SOURCE,
		       "per-source-line costs only, no instructions"),
	CLI_FLAG_VALUE("json", format, PERFAN_ANNOTATE_JSON,
		       "print a JSON object instead"),
	{CLI_OPT_(CLI_OPT_CALL, "disassembler-style", "STYLE",
		  "\nx86 syntax: att (the default, as perf) or intel",
		  offsetof(struct opts, ao.flags)),
	 .short_name = 'M', .call = set_style},
	CLI_CALL("source-dir", "DIR", ao, add_dir,
		 "look for source files under DIR first (the path\n"
		 "DWARF recorded, then its basename); may be\n"
		 "given more than once"),
	CLI_CALL("no-demangle", NULL, ao.flags, no_demangle,
		 "keep C++ and Rust names mangled"),
	CLI_OUTPUT(out),
	CLI_TABLE(cli_filter_table, load),
	CLI_TABLE(cli_symbols_table, load),
	CLI_TABLE(cli_threads_table, load),
	CLI_END,
};

CLI_ANALYSIS_FNS(annotate)

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

/* The files whose samples were not annotated, and why: every one when
 * nothing was (an error), else those that hold most samples (the
 * functions annotated are then a small rest). */
static void unreadable(const struct perfan_annotate_result *r)
{
	for (size_t i = 0; i < r->nr_unresolved; i++) {
		const struct perfan_annotate_unresolved *u = &r->unresolved[i];
		unsigned long long n = u->samples, of = r->total_samples;
		const char *why = u->found ? "no symbol covers them"
				  : u->why ? u->why
					   : "file not found";
		if (!r->nr_functions)
			cli_error(CMD,
				  "%s: %llu of %llu samples not annotated: %s",
				  u->dso_path, n, of, why);
		else if (n * 2 > of)
			cli_warn(CMD,
				 "%s: %llu of %llu samples not annotated: %s "
				 "(the functions annotated hold the rest)",
				 u->dso_path, n, of, why);
	}
}

/* What the annotation says beside it; non-zero: no function annotated. */
static int check(const void *an, const char *path)
{
	const struct perfan_annotate_result *r = perfan_annotate_result(an);
	warn_functions(r);
	if (!r->total_samples)
		cli_warn(CMD, "%s has no samples", path);
	unreadable(r);
	if (r->total_samples && !r->nr_functions && !r->nr_unresolved)
		cli_error(CMD,
			  "%s: no function annotated: no sample is in a "
			  "mapped file",
			  path);
	return r->total_samples && !r->nr_functions;
}

static const struct cli_analysis analysis = {.cmd = CMD,
					     .run = annotate_run,
					     .write = annotate_write,
					     .free = annotate_free,
					     .check = check};

int cmd_annotate(int argc, char **argv)
{
	struct opts o = {.ao = PERFAN_OPTS_INIT(struct perfan_annotate_opts)};
	cli_args_init(&o.load, CMD);
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	if (!dirs) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	o.ao.source_dirs = dirs;
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 0);
	const char *path = argv[argc - 1];
	if (status < 0 && optind >= argc)
		status =
			cli_opt_error(CMD, options, head, "no perf.data%s", "");
	else if (status < 0 && cli_output_guard(CMD, o.out, &path, 1))
		status = 1;
	if (status < 0) {
		o.ao.symbols = (const char *const *)(argv + optind);
		o.ao.nr_symbols = (size_t)(argc - 1 - optind);
		status = cli_analysis_run(&analysis, &o.load, path, &o.ao,
					  o.format, o.out);
	}
	free(dirs);
	return status;
}
