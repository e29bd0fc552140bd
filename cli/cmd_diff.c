/* cli/cmd_diff.c: perfan diff: BEFORE and AFTER (one or several runs each)
 * compared function by function, with a significance test across runs and
 * Amdahl's estimate; or as difffolded.pl's three-column folded lines; or
 * as a differential flame graph. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"
#include "runs.h"

#define CMD "diff"

static const char head[] =
	"usage: perfan diff [options] BEFORE AFTER\n"
	"       perfan diff [options] -b BEFORE... -a AFTER...\n"
	"\n"
	"Compare the profiles BEFORE and AFTER (perf.data, `perf script` text,\n"
	"folded stacks, py-spy raw or bpftrace stack maps) function by\n"
	"function: each function's self and total share of its side, the\n"
	"change in percentage points and relative to before, new and vanished\n"
	"functions, sorted so that what shrank most comes first, then what\n"
	"grew most. With two runs or more per side, functions with a mean\n"
	"share of at least 0.5 % are tested (Welch's test on the per-run\n"
	"shares and times per run, floored at sampling noise, and a count\n"
	"test; Benjamini-Hochberg over the functions tested), and only the\n"
	"significant changes are shown; with one run, the change that sampling\n"
	"alone gives is. The last line says what the significant changes\n"
	"(each with its callees that did not change) are worth (Amdahl), in\n"
	"CPU ms per run or samples, beside the whole's measured change. See\n"
	"METHOD in perfan-diff(1).\n"
	"\n";

struct side {
	perfan_load **runs;
	size_t *cols;
	size_t n;
	perfan_load *sum; /* all runs in one column (for --folded, --svg) */
	int counts;       /* every weight is a sample count */
	double *nsamp;    /* samples behind each run's column, 0 unknown */
};

static int load_side(struct side *s, const struct cli_list *files,
		     const struct perfan_load_opts *lo, int need_sum)
{
	s->runs = calloc(files->n, sizeof(*s->runs));
	s->cols = calloc(files->n, sizeof(*s->cols));
	s->nsamp = calloc(files->n, sizeof(*s->nsamp));
	if (!s->runs || !s->cols || !s->nsamp) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	int status = 0;
	s->counts = 1;
	for (size_t i = 0; i < files->n; i++) {
		status |= cli_read(&s->runs[i], files->v[i], lo, CMD);
		if (!s->runs[i])
			return 1;
		s->n++;
		const struct perfan_load_info *in =
			perfan_load_info(s->runs[i]);
		s->counts &= lo->count_samples ||
			     (in->caps & PERFAN_SOURCE_COUNTED);
		s->cols[i] = perfan_load_column(s->runs[i], NULL, NULL);
		s->nsamp[i] = perfan_load_nr_samples(s->runs[i], s->cols[i]);
		if (!perfan_load_total(s->runs[i], s->cols[i]))
			cli_warn(CMD, "no samples in %s", in->name);
	}
	if (need_sum && !status &&
	    perfan_load_sum(&s->sum, s->runs, s->cols, s->n)) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	return status;
}

static void free_side(struct side *s)
{
	for (size_t i = 0; i < s->n; i++)
		perfan_load_free(s->runs[i]);
	free(s->runs);
	free(s->cols);
	free(s->nsamp);
	perfan_load_free(s->sum);
}

struct opts {
	struct perfan_diff_opts dopts;
	struct perfan_flamegraph_opts fo;
	struct perfan_load_opts lo;
	const char *out;
	int json, folded, svg;
	struct cli_list *before, *after;
};

static const char *add_run(void *side, const char *arg)
{
	return cli_list_add(*(struct cli_list **)side, (char *)arg)
		       ? "out of memory"
		       : NULL;
}

#define DIFF(name, arg, help) CLI_SET(name, arg, dopts, cli_set_diff, help)
#define SVG(name, arg, help) CLI_SET(name, arg, fo, cli_set_fg, help)
static const struct cli_opt options[] = {
	{CLI_OPT_(CLI_OPT_CALL, "before", "FILE...",
		  "BEFORE runs: the files after it up to the next\n"
		  "option (-b run-*.data), or comma-separated",
		  offsetof(struct opts, before)),
	 .short_name = 'b', .call = add_run},
	{CLI_OPT_(CLI_OPT_CALL, "after", "FILE...", "AFTER runs, the same way",
		  offsetof(struct opts, after)),
	 .short_name = 'a', .call = add_run},
	DIFF("absolute", NULL,
	     "compare raw counts or periods, not shares of each\n"
	     "run's total (runs of equal length)"),
	DIFF("shares", NULL,
	     "test the shares only, not also the time per run\n"
	     "(sides that did different amounts of work)"),
	DIFF("min-share", "PCT",
	     "test functions with a mean share of at least PCT\n"
	     "percent (default 0.5)"),
	DIFF("sort", "KEY",
	     "self (change of self share, the default), total,\n"
	     "relative, before, after, name"),
	DIFF("limit", "N", "at most N rows per section"),
	DIFF("all", NULL, "show changes that are not significant too"),
	DIFF("alpha", "A", "significance level (default 0.05)"),
	CLI_FLAG("json", json, "print JSON (every function, per-run values)"),
	CLI_FLAG("folded", folded,
		 "print `STACK BEFORE AFTER` lines, as\n"
		 "difffolded.pl, sorted; BEFORE scaled to AFTER's\n"
		 "total exactly unless --absolute"),
	CLI_FLAG("svg", svg,
		 "draw a differential flame graph: both sides'\n"
		 "shapes at once, coloured only where a change is\n"
		 "significant (red grew, blue shrank), a line of\n"
		 "the largest changes, 900 px high at most"),
	SVG("view", "VIEW",
	    "(--svg) the shape it opens with: both (the\n"
	    "default), after or before"),
	SVG("total", NULL,
	    "(--svg) colour by the change of total share, not\nself"),
	SVG("negate", NULL, "(--svg) swap red and blue"),
	SVG("title", "TEXT", "(--svg) the title"),
	SVG("minwidth", "PX|PCT%",
	    "(--svg) merge narrower frames into \"(other)\""),
	SVG("width", "PX", "(--svg) image width (default 1200)"),
	CLI_TABLE(cli_load_table, lo),
	CLI_OUTPUT(out),
	CLI_END,
};

static int usage_error(const char *fmt, const char *arg)
{
	return cli_opt_error(CMD, options, head, fmt, arg);
}

/* The runs of each side, from -b and -a or BEFORE AFTER. -1 to go on, or
 * the exit status of a usage error. */
static int sides(struct opts *o, int argc, char **argv, int sides_given)
{
	struct cli_list *before = o->before, *after = o->after;
	sides_given |= before->n || after->n;
	if (!sides_given && argc - optind == 2) {
		cli_list_add(before, argv[optind]);
		cli_list_add(after, argv[optind + 1]);
	} else if (optind < argc || !before->n || !after->n) {
		const char *what = NULL, *arg = "";
		if (sides_given && optind < argc) {
			what = "%s: a run of neither side: list the runs "
			       "after -b and -a";
			arg = argv[optind];
		} else if (sides_given)
			what = before->n ? "no AFTER run: give -a FILE..."
					 : "no BEFORE run: give -b FILE...";
		else
			what = "give BEFORE AFTER, or -b BEFORE... -a "
			       "AFTER...";
		return usage_error(what, arg);
	}
	struct cli_stdin in = {0};
	if (cli_list_stdin(CMD, &in, "BEFORE", before) ||
	    cli_list_stdin(CMD, &in, "AFTER", after))
		return 2;
	if (cli_output_guard(CMD, o->out, (const char *const *)before->v,
			     before->n) ||
	    cli_output_guard(CMD, o->out, (const char *const *)after->v,
			     after->n))
		return 1;
	if (o->json + o->folded + o->svg > 1)
		return usage_error("%s", "--json, --folded and --svg exclude "
					 "each other");
	return -1;
}

/* ARGV into O. -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	int sides_given = o->before->n || o->after->n;
	int rc = cli_opt_parse(argc, argv, options, o, head, CMD, 0);
	if (rc >= 0)
		return rc;
	return sides(o, argc, argv, sides_given);
}

/* One folded file a side: read together, pruned, in bounded memory, as
 * perfan flamegraph --diff does. -1 when they are not, else the exit
 * status. */
static int folded_svg(struct opts *o)
{
	struct perfan_load_opts pl = o->lo;
	pl.folded_prune = perfan_flamegraph_prune_fraction(&o->fo);
	perfan_load *l = NULL;
	int rc = perfan_load_pair(&l, o->before->v[0], o->after->v[0], &pl,
				  PERFAN_LOAD_PAIR_FOLDED_ONLY);
	if (rc == PERFAN_LOAD_NOT_PAIR)
		return -1;
	if (rc < 0)
		cli_error(CMD, "%s", perfan_error_last());
	o->fo.column = 0;
	o->fo.base_column = 1;
	o->fo.noise_sigmas = 2; /* folded counts are samples */
	int status = rc ? 1
			: cli_write_flamegraph(CMD, perfan_load_profile(l),
					       &o->fo, o->out, 0);
	perfan_load_free(l);
	return status;
}

/* The comparison of the runs of B and A into *D. The exit status. */
static int compare(perfan_diff **d, struct side *b, struct side *a,
		   struct opts *o)
{
	size_t n = b->n + a->n;
	struct perfan_diff_run *runs = calloc(n, sizeof(*runs));
	double *nsamp = calloc(n, sizeof(*nsamp));
	int status = 0;
	if (!runs || !nsamp) {
		cli_error(CMD, "out of memory");
		status = 1;
	}
	for (size_t i = 0; !status && i < n; i++) {
		struct side *s = i < b->n ? b : a;
		size_t k = i < b->n ? i : i - b->n;
		perfan_load_ensure_column(s->runs[k]);
		runs[i] = (struct perfan_diff_run){
			perfan_load_profile(s->runs[k]), s->cols[k],
			(i < b->n ? o->before : o->after)->v[k]};
		nsamp[i] = s->nsamp[k];
	}
	o->dopts.nr_samples = nsamp;
	if (!status &&
	    perfan_diff_new(d, runs, b->n, runs + b->n, a->n, &o->dopts)) {
		cli_error(CMD, "%s", perfan_error_last());
		status = 1;
	}
	free(runs);
	free(nsamp);
	o->dopts.nr_samples = NULL;
	return status;
}

/* The differential flame graph: BEFORE and AFTER summed into one profile,
 * AFTER in column 0. */
static int write_svg(const struct side *b, const struct side *a,
		     const perfan_diff *d, struct perfan_flamegraph_opts *fo,
		     FILE *fp)
{
	/* only real changes are coloured: the diff's significant rows when
	 * there are several runs a side, else what is beyond the sampling
	 * noise of sample counts */
	if (perfan_diff_tested(d))
		fo->diff = d;
	else if (b->counts && a->counts)
		fo->noise_sigmas = 2;
	perfan_load *l;
	int rc = perfan_load_pair_merge(&l, b->sum, 0, a->sum, 0);
	if (!rc) {
		fo->column = 0;
		fo->base_column = 1;
		rc = perfan_flamegraph_write(perfan_load_profile(l), fp, fo);
	}
	perfan_load_free(l);
	return rc;
}

struct job {
	const struct side *b, *a;
	const perfan_diff *d;
	struct opts *o;
};

/* The result O asks for: --folded, --svg, or the comparison's table. */
static int write_job(const void *arg, FILE *fp)
{
	const struct job *j = arg;
	if (j->o->folded)
		return perfan_diff_write_folded(perfan_load_profile(j->b->sum),
						0,
						perfan_load_profile(j->a->sum),
						0, j->o->dopts.absolute, fp);
	if (j->o->svg)
		return write_svg(j->b, j->a, j->d, &j->o->fo, fp);
	struct perfan_diff_write_opts wo = {
		sizeof(wo), j->o->json ? PERFAN_DIFF_JSON : PERFAN_DIFF_TEXT};
	return perfan_diff_write(j->d, fp, &wo);
}

/* perfan diff once the runs of -b and -a are taken out of ARGV. */
static int run(int argc, char **argv, struct cli_list *before,
	       struct cli_list *after)
{
	struct opts o = {.dopts = PERFAN_OPTS_INIT(struct perfan_diff_opts),
			 .fo = PERFAN_FG_OPTS_INIT,
			 .before = before,
			 .after = after};
	cli_args_init(&o.lo, CMD);
	/* functions matter, not which program ran them: two builds named
	 * apart still share their stacks */
	o.lo.root = PERFAN_ROOT_NONE;
	int status = parse(argc, argv, &o);
	if (status >= 0)
		return status;
	if (o.svg && before->n == 1 && after->n == 1 &&
	    (status = folded_svg(&o)) >= 0)
		return status;
	struct side b = {0}, a = {0};
	status = load_side(&b, before, &o.lo, o.folded || o.svg);
	if (!status)
		status |= load_side(&a, after, &o.lo, o.folded || o.svg);
	perfan_diff *d = NULL;
	if (!status && !o.folded)
		status = compare(&d, &b, &a, &o);
	struct job j = {&b, &a, d, &o};
	if (!status)
		status = cli_write_result(CMD, o.out, write_job, &j);
	perfan_diff_free(d);
	free_side(&b);
	free_side(&a);
	return status;
}

int cmd_diff(int argc, char **argv)
{
	return cli_with_runs(CMD, head, argc, argv, options, run);
}
