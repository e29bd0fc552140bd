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

static const char usage_text[] =
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
	"\n"
	"  --sort KEY         exponent (the default), time (at the largest\n"
	"                     size) or name\n"
	"  --limit N          at most N functions\n"
	"  --min-share PCT    leave out functions below PCT percent of the\n"
	"                     runs' totals on average (default 1; 0: none)\n"
	"  --level L          confidence level of the intervals, between 0\n"
	"                     and 1 (default 0.95)\n"
	"  --json             print JSON (every function, per-run weights)\n" CLI_ARGS_HELP
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help         show this help\n";

static int usage_error(const char *fmt, const char *arg)
{
	return cli_usage_error(CMD, usage_text, fmt, arg);
}

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

enum {
	O_SORT = 256,
	O_LIMIT,
	O_MIN_SHARE,
	O_LEVEL,
	O_JSON,
};
static const struct option longopts[] = {
	{"sort", required_argument, NULL, O_SORT},
	{"limit", required_argument, NULL, O_LIMIT},
	{"min-share", required_argument, NULL, O_MIN_SHARE},
	{"level", required_argument, NULL, O_LEVEL},
	{"json", no_argument, NULL, O_JSON},
	CLI_ARGS_LONGOPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct opts {
	struct perfan_scaling_opts so;
	struct perfan_load_opts lo;
	const char *out;
	int json;
};

/* Scaling's own option OPT: 0, -1 after --help, or an exit status. */
static int option(void *payload, int opt, const char *arg)
{
	struct opts *o = payload;
	double v;
	switch (opt) {
	case O_SORT:
		o->so.sort = perfan_scaling_sort_parse(arg);
		if (o->so.sort < 0)
			return usage_error("--sort: '%s' is none of exponent, "
					   "time, name",
					   arg);
		break;
	case O_LIMIT:
		if (cli_parse_count(arg, &o->so.limit))
			return usage_error("--limit: '%s' is not a count", arg);
		break;
	case O_MIN_SHARE:
		if (!strcmp(arg, "0"))
			o->so.min_share = -1; /* none left out */
		else if (cli_parse_positive(arg, 100, &v))
			return usage_error("--min-share: '%s' is not a "
					   "percentage",
					   arg);
		else
			o->so.min_share = v / 100;
		break;
	case O_LEVEL:
		if (cli_parse_positive(arg, 1, &o->so.level) ||
		    o->so.level >= 1)
			return usage_error("--level: '%s' is not a level "
					   "between 0 and 1",
					   arg);
		break;
	case O_JSON: o->json = 1; break;
	case 'o': o->out = arg; break;
	case 'h': fputs(usage_text, stdout); return -1;
	default: fputs(usage_text, stderr); return 2;
	}
	return 0;
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
	int rc = cli_args_parse(argc, argv, "o:h", longopts, &o->lo, option, o,
				usage_text, CMD);
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
