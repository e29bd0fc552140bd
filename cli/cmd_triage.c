/* cli/cmd_triage.c: perfan triage: the first answers from one recording
 * (on CPU or waiting, the wide plateaus and their Amdahl bounds, the
 * perf stat verdict, the change since a run before, what to record next),
 * made from the library's analyses: one self-contained HTML page with the
 * flame graphs, or text for a terminal. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"
#include "gpu_opt.h"
#include "runs.h"

#define CMD "triage"

static const char head[] =
	"usage: perfan triage [options] [FILE]\n"
	"       perfan triage [options] -b BEFORE... -a AFTER...\n"
	"\n"
	"The first answers from the recording FILE (default perf.data): is\n"
	"it on CPU or waiting (CPU against wall time per thread, where the\n"
	"threads blocked), which plateaus are wide and what a fix could give\n"
	"at most (Amdahl), whether the CPU is stalled (--stat), what changed\n"
	"since runs before (-b BEFORE... against FILE, or against the runs\n"
	"-a AFTER..., of which the first is triaged: new and vanished\n"
	"functions, and with two runs a side the significance perfan diff\n"
	"gives), and, for each question the input\n"
	"cannot answer, the perf command that records what is missing. One\n"
	"self-contained HTML page (with -o FILE, or on stdout) that works\n"
	"offline, with the interactive flame graphs of on-CPU and off-CPU\n"
	"time; --text prints the same findings for a terminal.\n"
	"\n"
	"FILE may be a GPU profiler's trace (torch.profiler's JSON or\n"
	".json.gz, the autograd profiler's, an Nsight Systems SQLite\n"
	"export): the page then has, per step and GPU, the verdict perfan\n"
	"gpu gives (CPU-bound: the GPU was idle N % of the step, M % of it\n"
	"waiting for the host, mostly in FUNCTION; or GPU-, sync- or\n"
	"communication-bound), the GPU's busy and idle time, the CPU\n"
	"stacks that starved it, and the CPU ops with the most self time;\n"
	"what applies only to a perf recording is left out.\n"
	"\n";

struct opts {
	struct perfan_load_triage_opts to;
	struct perfan_gpu_opts go;
	struct perfan_load_opts load;
	const char *out;
	int text;
	struct cli_list *before, *after;
};

static const char *add_run(void *side, const char *arg)
{
	return cli_list_add(*(struct cli_list **)side, (char *)arg)
		       ? "out of memory"
		       : NULL;
}

static const struct cli_opt options[] = {
	CLI_STRING("stat", "FILE", to.stat,
		   "perf stat output of the same run ('-': standard\n"
		   "input), for the verdict of perfan classify"),
	{CLI_OPT_(CLI_OPT_CALL, "before", "FILE...",
		  "runs before: what changed, as perfan diff\n"
		  "-b FILE... -a FILE; the files after it up to the\n"
		  "next option (-b run-*.data), or comma-separated",
		  offsetof(struct opts, before)),
	 .short_name = 'b', .call = add_run},
	{CLI_OPT_(CLI_OPT_CALL, "after", "FILE...",
		  "runs after, the same way (default FILE); the\n"
		  "first is triaged when FILE is not given",
		  offsetof(struct opts, after)),
	 .short_name = 'a', .call = add_run},
	CLI_FLAG("all", to.all_threads,
		 "the thread table of a system-wide recording\n"
		 "lists every process, not only the busiest"),
	CLI_FLAG("per-thread", to.per_thread,
		 "both flame graphs with a root per thread, named\n"
		 "as the thread table names it (default: both with\n"
		 "threads merged)"),
	CLI_STRING("step", "REGEX", go.step,
		   "a trace: the steps, annotations this extended\n"
		   "regular expression matches (default\n"
		   "^ProfilerStep#[0-9]+), as perfan gpu takes them"),
	CLI_CALL("device", "N", go, cli_gpu_device, "a trace: only GPU N"),
	CLI_FLAG("text", text,
		 "print the findings for a terminal instead of\n"
		 "the HTML page"),
	CLI_TABLE(cli_load_table, load),
	CLI_OUTPUT(out),
	CLI_END,
};

static int write_triage(const void *t, FILE *fp, const void *wo)
{
	return perfan_triage_write(t, fp, wo);
}

/* The exit status of triage of the options O on PATH. */
static int triage(const struct opts *o, const char *path)
{
	perfan_triage *t = NULL;
	int rc = perfan_load_triage(&t, path, &o->load, &o->to);
	if (rc < 0)
		cli_error(CMD, "%s", perfan_error_last());
	struct perfan_triage_write_opts wo = {
		sizeof(wo), o->text ? PERFAN_TRIAGE_TEXT : PERFAN_TRIAGE_HTML};
	int status = t ? cli_write(CMD, o->out, 0, write_triage, t, &wo) : 1;
	perfan_triage_free(t);
	return status;
}

/* Standard input named by two of O's inputs and FILE (NULL: not given):
 * non-zero after saying so. */
static int stdin_twice(const struct opts *o, const char *file)
{
	struct cli_stdin s = {0};
	return cli_stdin_take(CMD, &s, "--stat", o->to.stat) ||
	       cli_stdin_take(CMD, &s, "FILE", file) ||
	       cli_list_stdin(CMD, &s, "-b", o->before) ||
	       cli_list_stdin(CMD, &s, "-a", o->after);
}

/* perfan triage once the runs of -b and -a are taken out of ARGV. */
static int run(int argc, char **argv, struct cli_list *before,
	       struct cli_list *after)
{
	struct opts o = {.to = PERFAN_OPTS_INIT(struct perfan_load_triage_opts),
			 .go = PERFAN_OPTS_INIT(struct perfan_gpu_opts),
			 .before = before,
			 .after = after};
	o.to.gpu = &o.go;
	cli_args_init(&o.load, CMD);
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 0);
	const char *path = optind < argc ? argv[optind]
			   : after->n    ? after->v[0]
					 : "perf.data";
	if (status < 0 && (optind + 1 < argc || (after->n && !before->n))) {
		if (optind + 1 < argc)
			cli_opt_usage(stderr, options, head);
		else
			fprintf(stderr,
				"perfan %s: -a without -b: give the "
				"runs before too\n",
				CMD);
		status = 2;
	} else if (status < 0 && stdin_twice(&o, optind < argc ? path : NULL)) {
		status = 2;
	} else if (status < 0 && cli_output_guard(CMD, o.out, &path, 1))
		status = 1;
	o.to.before = (const char *const *)before->v;
	o.to.nr_before = before->n;
	o.to.after = (const char *const *)after->v;
	o.to.nr_after = after->n;
	if (status < 0)
		status = triage(&o, path);
	return status;
}

int cmd_triage(int argc, char **argv)
{
	return cli_with_runs(CMD, head, argc, argv, options, run);
}
