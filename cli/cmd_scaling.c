/* cli/cmd_scaling.c: perfan scaling: runs recorded at several input sizes,
 * and per function the exponent k of time ~ n^k with its interval, the
 * whole program's time per size and per doubling. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"

#define CMD "scaling"

static const char head[] =
	"usage: perfan scaling [options] SIZE:FILE SIZE:FILE...\n"
	"\n"
	"Show how the time grows with the input: each FILE is a profile of\n"
	"the same program run on an input of SIZE (a count such as the\n"
	"number of events; a size may repeat, for repeated runs), in any\n"
	"format perfan reads. First the whole program's time per size and\n"
	"its ratio per doubling of the size, then per function (matched by\n"
	"name) the exponent k of time ~ n^k: least squares on log-log over\n"
	"all runs, of its total (with what it calls) and of its self time,\n"
	"with a t-based confidence interval from the scatter of the runs\n"
	"around the fit. Functions with k >= 1.5 grow faster than linear\n"
	"(look for a scan inside a loop) and are marked *. Weights are time\n"
	"for cpu-clock and task-clock (the period, in ns) and for --off-cpu\n"
	"and --wall; otherwise samples or the event's count.\n"
	"\n";

static int usage_error(const char *fmt, const char *arg);

/* "SIZE:FILE" into *SIZE and *FILE (pointing into ARG); a usage error's
 * exit status (printed), or 0. */
static int parse_run(char *arg, double *size, const char **file)
{
	char *colon = strchr(arg, ':');
	if (!colon || colon == arg || !colon[1])
		return usage_error("'%s' is not SIZE:FILE", arg);
	*colon = '\0';
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	int bad = errno || end == arg || *end || strpbrk(arg, "xXnNiI");
	*colon = ':';
	if (bad)
		return usage_error("'%s': the size before ':' is not a number",
				   arg);
	if (!(v > 0))
		return usage_error("'%s': the size must be positive", arg);
	*size = v;
	*file = colon + 1;
	return 0;
}

static int parse_args(int argc, char **argv, struct perfan_scaling_run *runs,
		      const char **files)
{
	for (int i = 0; i < argc; i++) {
		int rc = parse_run(argv[i], &runs[i].size, &files[i]);
		if (rc)
			return rc;
		runs[i].name = files[i];
	}
	for (int i = 1; i < argc; i++)
		if (runs[i].size != runs[0].size)
			return 0;
	if (argc == 1)
		return usage_error("one run (%s): give runs at two sizes or "
				   "more",
				   argv[0]);
	char size[32];
	snprintf(size, sizeof(size), "%g", runs[0].size);
	return usage_error("all runs are at size %s: give runs at two sizes "
			   "or more",
			   size);
}

struct result {
	const perfan_scaling *sc;
	int json;
};

static int write_result(const void *arg, FILE *fp)
{
	const struct result *r = arg;
	struct perfan_scaling_write_opts wo = {sizeof(wo),
					       r->json ? PERFAN_SCALING_JSON
						       : PERFAN_SCALING_TEXT};
	return perfan_scaling_write(r->sc, fp, &wo);
}

struct opts {
	struct perfan_scaling_opts so;
	struct perfan_load_opts lo;
	const char *out;
	int json;
};

#define SCALING(name, arg, help) CLI_SET(name, arg, so, cli_set_scaling, help)
static const struct cli_opt options[] = {
	SCALING("sort", "KEY",
		"exponent (the default), time (at the largest\n"
		"size) or name"),
	SCALING("limit", "N", "at most N functions"),
	SCALING("min-share", "PCT",
		"leave out functions below PCT percent of the\n"
		"runs' totals on average (default 1; 0: none)"),
	SCALING("level", "L",
		"confidence level of the intervals, between 0\n"
		"and 1 (default 0.95)"),
	CLI_FLAG("json", json, "print JSON (every function, per-run weights)"),
	CLI_TABLE(cli_load_table, lo),
	CLI_OUTPUT(out),
	CLI_END,
};

static int usage_error(const char *fmt, const char *arg)
{
	return cli_opt_error(CMD, options, head, fmt, arg);
}

/* ARGV into O. -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	/* getopt would take "-5:FILE" for options: say what is wrong */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (argv[i][0] == '-' && strchr("0123456789.", argv[i][1]) &&
		    argv[i][1] && strchr(argv[i], ':'))
			return usage_error("'%s': the size must be positive",
					   argv[i]);
	int rc = cli_opt_parse(argc, argv, options, o, head, CMD, 0);
	if (rc >= 0)
		return rc;
	if (argc - optind < 1)
		return usage_error("%s", "give SIZE:FILE runs at two sizes or "
					 "more");
	return -1;
}

/* The N FILES into LOADS, for RUNS. The exit status. */
static int load_runs(struct perfan_scaling_run *runs, const char **files,
		     perfan_load **loads, int n, const struct opts *o)
{
	for (int i = 0; i < n; i++) {
		int status = cli_read(&loads[i], files[i], &o->lo, CMD);
		const char *name = loads[i] ? perfan_load_info(loads[i])->name
					    : files[i];
		if (!status && !perfan_load_nr_columns(loads[i])) {
			cli_error(CMD, "no samples in %s", name);
			status = 1;
		}
		if (status)
			return status;
		runs[i].profile = perfan_load_profile(loads[i]);
		runs[i].column = perfan_load_column(loads[i], NULL, NULL);
	}
	return 0;
}

int cmd_scaling(int argc, char **argv)
{
	struct opts o = {.so = PERFAN_OPTS_INIT(struct perfan_scaling_opts)};
	cli_args_init(&o.lo, CMD);
	o.lo.root = PERFAN_ROOT_NONE; /* functions matter, not processes */
	int status = parse(argc, argv, &o), n = argc - optind;
	if (status >= 0)
		return status;
	struct perfan_scaling_run *runs = calloc((size_t)n, sizeof(*runs));
	const char **files = calloc((size_t)n, sizeof(*files));
	perfan_load **loads = calloc((size_t)n, sizeof(*loads));
	if (!runs || !files || !loads) {
		cli_error(CMD, "out of memory");
		status = 1;
	} else {
		status = parse_args(n, argv + optind, runs, files);
	}
	struct cli_stdin in = {0};
	for (int i = 0; !status && i < n; i++)
		if (cli_stdin_take(CMD, &in, "SIZE:FILE", files[i]))
			status = 2;
	if (!status &&
	    cli_output_guard(CMD, o.out, (const char *const *)files, (size_t)n))
		status = 1;
	if (!status)
		status = load_runs(runs, files, loads, n, &o);
	perfan_scaling *sc = NULL;
	if (!status && perfan_scaling_new(&sc, runs, (size_t)n, &o.so)) {
		cli_error(CMD, "%s", perfan_error_last());
		status = 1;
	}
	if (!status) {
		struct result res = {sc, o.json};
		status = cli_write_result(CMD, o.out, write_result, &res);
	}
	perfan_scaling_free(sc);
	for (int i = 0; loads && i < n; i++)
		perfan_load_free(loads[i]);
	free(loads);
	free(runs);
	free(files);
	return status;
}
