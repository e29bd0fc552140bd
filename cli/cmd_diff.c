/* cli/cmd_diff.c: perfan diff: BEFORE and AFTER (one or several runs each)
 * compared function by function, with a significance test across runs and
 * Amdahl's estimate; or as difffolded.pl's three-column folded lines; or
 * as a differential flame graph. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "cli.h"
#include "load.h"

#define CMD "diff"

static const char usage_text[] =
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
	"\n"
	"  -b, --before FILE...  BEFORE runs: the files after it up to the next\n"
	"                     option (-b run-*.data), or comma-separated\n"
	"  -a, --after FILE...   AFTER runs, the same way\n"
	"  --absolute         compare raw counts or periods, not shares of each\n"
	"                     run's total (runs of equal length)\n"
	"  --shares           test the shares only, not also the time per run\n"
	"                     (sides that did different amounts of work)\n"
	"  --min-share PCT    test functions with a mean share of at least PCT\n"
	"                     percent (default 0.5)\n"
	"  --sort KEY         self (change of self share, the default), total,\n"
	"                     relative, before, after, name\n"
	"  --limit N          at most N rows per section\n"
	"  --all              show changes that are not significant too\n"
	"  --alpha A          significance level (default 0.05)\n"
	"  --json             print JSON (every function, per-run values)\n"
	"  --folded           print `STACK BEFORE AFTER` lines, as\n"
	"                     difffolded.pl, sorted; BEFORE scaled to AFTER's\n"
	"                     total exactly unless --absolute\n"
	"  --svg              draw a differential flame graph: both sides'\n"
	"                     shapes at once, coloured only where a change is\n"
	"                     significant (red grew, blue shrank), a line of\n"
	"                     the largest changes, 900 px high at most\n"
	"  --view VIEW        (--svg) the shape it opens with: both (the\n"
	"                     default), after or before\n"
	"  --total            (--svg) colour by the change of total share, not\n"
	"                     self\n"
	"  --negate           (--svg) swap red and blue\n"
	"  --title TEXT       (--svg) the title\n"
	"  --minwidth PX|PCT% (--svg) merge narrower frames into \"(other)\"\n"
	"  --width PX         (--svg) image width (default 1200)\n" CLI_LOAD_HELP
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help         show this help\n";

static int usage_error(const char *fmt, const char *arg)
{
	return cli_usage_error(CMD, usage_text, fmt, arg);
}

struct list {
	char **v;
	size_t n, cap;
};

static int list_add(struct list *l, char *arg)
{
	for (char *s = arg; s;) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (*s) {
			if (l->n == l->cap) {
				size_t cap = l->cap ? l->cap * 2 : 8;
				char **v = realloc(l->v, cap * sizeof(*v));
				if (!v)
					return -1;
				l->v = v;
				l->cap = cap;
			}
			l->v[l->n++] = s;
		}
		s = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* The long option ARG (after "--", LEN characters) names: exact, or the
 * one option it is a prefix of, as getopt_long matches; NULL otherwise. */
static const struct option *long_option(const struct option *lo,
					const char *arg, size_t len)
{
	const struct option *found = NULL;
	for (; lo->name; lo++) {
		if (strncmp(lo->name, arg, len))
			continue;
		if (strlen(lo->name) == len)
			return lo;
		if (found)
			return NULL; /* ambiguous: getopt_long says so */
		found = lo;
	}
	return found;
}

/* Take the runs of -b and -a out of ARGV: each takes the files after it up
 * to the next option, as a shell's glob or braces give them (getopt would
 * take only the first); --before=FILE and -bFILE too, and commas. The
 * rest, in order, goes to REST (argc + 1 slots) for getopt_long; options
 * that take an argument keep it, so that "--title -b" stays a title.
 * Returns 0, 2 after a usage error, 1 out of memory. */
static int take_runs(int argc, char **argv, const struct option *longopts,
		     struct list *before, struct list *after, char **rest,
		     int *nrest)
{
	struct list *side = NULL;
	const char *opt = NULL; /* the -b or -a collecting, for errors */
	size_t got = 0;
	int n = 0;
	rest[n++] = argv[0];
	for (int i = 1; i <= argc; i++) {
		char *s = i < argc ? argv[i] : NULL;
		int is_opt = !s || (s[0] == '-' && s[1]);
		if (is_opt && opt && !got)
			return usage_error("%s: no file after it (-b FILE... "
					   "-a FILE...)",
					   opt);
		if (!s)
			break;
		if (!is_opt) {
			if (side) {
				if (list_add(side, s))
					return 1;
				got++;
			} else
				rest[n++] = s;
			continue;
		}
		side = NULL;
		opt = NULL;
		if (!strcmp(s, "--")) {
			while (i < argc)
				rest[n++] = argv[i++];
			break;
		}
		struct list *to = NULL;
		char *val = NULL;
		int skip_next = 0;
		if (s[1] == '-') {
			char *eq = strchr(s, '=');
			size_t len = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
			const struct option *o =
				long_option(longopts, s + 2, len);
			if (o && (o->val == 'b' || o->val == 'a')) {
				to = o->val == 'b' ? before : after;
				val = eq ? eq + 1 : NULL;
			} else
				skip_next = o &&
					    o->has_arg == required_argument &&
					    !eq;
		} else if (s[1] == 'b' || s[1] == 'a') {
			to = s[1] == 'b' ? before : after;
			val = s[2] ? s + 2 : NULL;
		} else {
			/* a cluster of short options: -o takes the rest of
			 * it, or the next argument */
			char *o = strchr(s + 1, 'o');
			skip_next = o && !o[1];
		}
		if (!to) {
			rest[n++] = s;
			if (skip_next && i + 1 < argc)
				rest[n++] = argv[++i];
			continue;
		}
		side = to;
		opt = s;
		got = 0;
		if (val) {
			size_t before_n = to->n;
			if (list_add(to, val))
				return 1;
			got = to->n - before_n;
		}
	}
	*nrest = n;
	return 0;
}

struct side {
	perfan_profile **runs;
	size_t *cols;
	size_t n;
	perfan_profile *sum; /* all runs in one column (for --folded, --svg) */
	int sum_col;
	int counts;    /* every weight is a sample count */
	double *nsamp; /* samples behind each run's column, 0 unknown */
};

/* The samples behind column COL of P as read (RES): known when the column
 * holds periods and is the only one with weight (the reader counts the
 * samples of all events). */
static double samples_behind(const perfan_profile *p, size_t col,
			     const struct cli_load_result *res)
{
	const char *unit = perfan_profile_column_unit(p, col);
	size_t with_weight = 0;
	for (size_t c = 0; c < perfan_profile_nr_columns(p); c++)
		with_weight += perfan_profile_total(p, c) > 0;
	if (!unit || strcmp(unit, "period") || with_weight != 1)
		return 0;
	if (res->rst.samples)
		return (double)(res->rst.samples - res->rst.samples_filtered);
	return (double)res->sst.samples;
}

static int load_side(struct side *s, const struct list *files,
		     const struct cli_load_opts *lo, int need_sum)
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
		if (perfan_profile_new(&s->runs[i], NULL)) {
			cli_error(CMD, "%s", perfan_error_last());
			return 1;
		}
		struct cli_load_result res;
		memset(&res, 0, sizeof(res));
		status |= cli_load(&s->runs[i], files->v[i], lo, CMD, &res);
		s->counts &= lo->samples || (res.caps & PERFAN_SOURCE_COUNTED);
		s->cols[i] = cli_load_pick_column(s->runs[i], lo->filter.event, NULL,
						  res.name, CMD);
		s->nsamp[i] = samples_behind(s->runs[i], s->cols[i], &res);
		s->n++;
		if (perfan_profile_nr_columns(s->runs[i]) == 0 ||
		    !perfan_profile_total(s->runs[i], s->cols[i]))
			cli_warn(CMD, "no samples in %s", res.name);
	}
	if (need_sum && !status) {
		if (perfan_profile_new(&s->sum, NULL) ||
		    (s->sum_col = perfan_profile_add_column(s->sum, "samples",
							    "samples")) < 0) {
			cli_error(CMD, "%s", perfan_error_last());
			return 1;
		}
		for (size_t i = 0; i < s->n; i++)
			if (perfan_profile_nr_columns(s->runs[i]) &&
			    perfan_profile_merge(s->sum, (size_t)s->sum_col,
						 s->runs[i], s->cols[i])) {
				cli_error(CMD, "%s", perfan_error_last());
				return 1;
			}
	}
	return status;
}

static void free_side(struct side *s)
{
	for (size_t i = 0; i < s->n; i++)
		perfan_profile_free(s->runs[i]);
	free(s->runs);
	free(s->cols);
	free(s->nsamp);
	perfan_profile_free(s->sum);
}

/* The differential flame graph: BEFORE and AFTER summed into one profile,
 * AFTER in column 0. */
static int write_svg(struct side *b, struct side *a,
		     struct perfan_flamegraph_opts *fo, FILE *fp)
{
	perfan_profile *p;
	int rc = perfan_profile_new(&p, NULL);
	int ca = rc ? -1 : perfan_profile_add_column(p, "after", "samples");
	int cb = rc ? -1 : perfan_profile_add_column(p, "before", "samples");
	if (!rc && (ca < 0 || cb < 0))
		rc = ca < 0 ? ca : cb;
	if (!rc)
		rc = perfan_profile_merge(p, (size_t)ca, a->sum,
					  (size_t)a->sum_col);
	if (!rc)
		rc = perfan_profile_merge(p, (size_t)cb, b->sum,
					  (size_t)b->sum_col);
	if (!rc) {
		fo->column = (size_t)ca;
		fo->base_column = (size_t)cb;
		rc = perfan_flamegraph_write(p, fp, fo);
	}
	perfan_profile_free(p);
	return rc;
}

enum {
	O_ABSOLUTE = 256,
	O_SORT,
	O_LIMIT,
	O_ALL,
	O_ALPHA,
	O_JSON,
	O_FOLDED,
	O_SVG,
	O_TOTAL,
	O_NEGATE,
	O_TITLE,
	O_MINWIDTH,
	O_WIDTH,
	O_SHARES,
	O_MIN_SHARE,
	O_VIEW,
};
static const struct option longopts[] = {
	{"before", required_argument, NULL, 'b'},
	{"after", required_argument, NULL, 'a'},
	{"absolute", no_argument, NULL, O_ABSOLUTE},
	{"sort", required_argument, NULL, O_SORT},
	{"limit", required_argument, NULL, O_LIMIT},
	{"all", no_argument, NULL, O_ALL},
	{"alpha", required_argument, NULL, O_ALPHA},
	{"json", no_argument, NULL, O_JSON},
	{"folded", no_argument, NULL, O_FOLDED},
	{"svg", no_argument, NULL, O_SVG},
	{"total", no_argument, NULL, O_TOTAL},
	{"negate", no_argument, NULL, O_NEGATE},
	{"title", required_argument, NULL, O_TITLE},
	{"minwidth", required_argument, NULL, O_MINWIDTH},
	{"width", required_argument, NULL, O_WIDTH},
	{"shares", no_argument, NULL, O_SHARES},
	{"min-share", required_argument, NULL, O_MIN_SHARE},
	{"view", required_argument, NULL, O_VIEW},
	CLI_LOAD_LONGOPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};
/* perfan diff once the runs of -b and -a are taken out of ARGV. */
static int run(int argc, char **argv, struct list *before, struct list *after)
{
	struct perfan_diff_opts dopts =
		PERFAN_OPTS_INIT(struct perfan_diff_opts);
	struct perfan_flamegraph_opts fo = PERFAN_FG_OPTS_INIT;
	struct cli_load_opts lo;
	cli_load_init(&lo);
	/* functions matter, not which program ran them: two builds named
	 * apart still share their stacks */
	lo.root = PERFAN_ROOT_NONE;
	const char *out_path = NULL;
	int json = 0, folded = 0, svg = 0, status = 0;
	int opt, sides_given = before->n || after->n;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "b:a:o:h", longopts, NULL)) !=
	       -1) {
		int shared = cli_load_option(&lo, opt, optarg, CMD);
		if (shared < 0) {
			fprintf(stderr, "\n%s", usage_text);
			return 2;
		}
		if (shared)
			continue;
		switch (opt) {
		case 'b':
		case 'a':
			if (list_add(opt == 'b' ? before : after, optarg)) {
				cli_error(CMD, "out of memory");
				return 1;
			}
			break;
		case O_ABSOLUTE: dopts.absolute = 1; break;
		case O_SORT:
			dopts.sort = perfan_diff_sort_parse(optarg);
			if (dopts.sort < 0)
				return usage_error("--sort: '%s' is none of "
						   "self, total, relative, "
						   "before, after, name",
						   optarg);
			break;
		case O_LIMIT:
			if (cli_parse_count(optarg, &dopts.limit))
				return usage_error("--limit: '%s' is not a "
						   "count",
						   optarg);
			break;
		case O_ALL: dopts.all = 1; break;
		case O_SHARES: dopts.shares_only = 1; break;
		case O_MIN_SHARE: {
			char *end;
			double v = strtod(optarg, &end);
			if (end == optarg || *end || !(v > 0) || !(v <= 100))
				return usage_error("--min-share: '%s' is not a "
						   "percentage above 0",
						   optarg);
			dopts.min_share = v / 100;
			break;
		}
		case O_ALPHA: {
			char *end;
			dopts.alpha = strtod(optarg, &end);
			if (end == optarg || *end || !(dopts.alpha > 0) ||
			    !(dopts.alpha < 1))
				return usage_error("--alpha: '%s' is not a "
						   "level between 0 and 1",
						   optarg);
			break;
		}
		case O_JSON: json = 1; break;
		case O_FOLDED: folded = 1; break;
		case O_SVG: svg = 1; break;
		case O_TOTAL: fo.color_total = 1; break;
		case O_NEGATE: fo.negate = 1; break;
		case O_TITLE: fo.title = optarg; break;
		case O_MINWIDTH:
			if (cli_parse_minwidth(optarg, &fo))
				return usage_error("--minwidth: '%s' is not "
						   "pixels or a percentage",
						   optarg);
			break;
		case O_WIDTH:
			/* more than the 10 px margins on either side */
			if (cli_parse_positive(optarg, 1e6, &fo.width) ||
			    fo.width <= 20)
				return usage_error("--width: '%s' is not a "
						   "width in pixels",
						   optarg);
			break;
		case O_VIEW:
			if (cli_parse_view(CMD, usage_text, optarg, &fo))
				return 2;
			break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	sides_given |= before->n || after->n;
	if (!sides_given && argc - optind == 2) {
		list_add(before, argv[optind]);
		list_add(after, argv[optind + 1]);
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
	if (cli_output_guard(CMD, out_path, (const char *const *)before->v,
			     before->n) ||
	    cli_output_guard(CMD, out_path, (const char *const *)after->v,
			     after->n)) {
		return 1;
	}
	if (json + folded + svg > 1) {
		return usage_error("%s", "--json, --folded and --svg exclude "
					 "each other");
	}

	/* one folded file a side: read together, pruned, in bounded
	 * memory, as perfan flamegraph --diff does */
	if (svg && before->n == 1 && after->n == 1) {
		perfan_profile *p = NULL;
		struct cli_load_opts pl = lo;
		pl.folded_prune = cli_load_prune_for(&fo);
		int rc = cli_load_folded_pair(&p, before->v[0], after->v[0],
					      &pl, CMD);
		if (rc >= 0) {
			fo.column = 0;
			fo.base_column = 1;
			fo.noise_sigmas = 2; /* folded counts are samples */
			if (!rc)
				rc = cli_write_flamegraph(CMD, p, &fo, out_path,
							  0);
			perfan_profile_free(p);
			return rc;
		}
	}
	struct side b = {0}, a = {0};
	status |= load_side(&b, before, &lo, folded || svg);
	if (!status)
		status |= load_side(&a, after, &lo, folded || svg);
	perfan_diff *d = NULL;
	if (!status && !folded) {
		struct perfan_diff_run *runs = calloc(b.n + a.n, sizeof(*runs));
		if (!runs) {
			cli_error(CMD, "out of memory");
			status = 1;
		}
		for (size_t i = 0; runs && i < b.n + a.n; i++) {
			struct side *s = i < b.n ? &b : &a;
			size_t k = i < b.n ? i : i - b.n;
			runs[i] = (struct perfan_diff_run){
				s->runs[k], s->cols[k],
				(i < b.n ? before : after)->v[k]};
			if (!perfan_profile_nr_columns(s->runs[k]))
				perfan_profile_add_column(s->runs[k], "samples",
							  "samples");
		}
		double *nsamp = calloc(b.n + a.n, sizeof(*nsamp));
		for (size_t i = 0; nsamp && i < b.n + a.n; i++)
			nsamp[i] = i < b.n ? b.nsamp[i] : a.nsamp[i - b.n];
		dopts.nr_samples = nsamp;
		if (runs && !nsamp) {
			cli_error(CMD, "out of memory");
			status = 1;
		} else if (runs && perfan_diff_new(&d, runs, b.n, runs + b.n,
						   a.n, &dopts)) {
			cli_error(CMD, "%s", perfan_error_last());
			status = 1;
		}
		free(runs);
		free(nsamp);
		dopts.nr_samples = NULL;
	}
	if (!status) {
		struct cli_output out;
		if (cli_output_open(&out, out_path)) {
			cli_error(CMD, "cannot write %s: %s", out_path,
				  strerror(errno));
			status = 1;
		} else {
			int rc;
			if (folded)
				rc = perfan_diff_write_folded(
					b.sum, (size_t)b.sum_col, a.sum,
					(size_t)a.sum_col, dopts.absolute,
					out.fp);
			else if (svg) {
				/* only real changes are coloured: the
				 * diff's significant rows when there are
				 * several runs a side, else what is beyond
				 * the sampling noise of sample counts */
				if (perfan_diff_tested(d))
					fo.diff = d;
				else if (b.counts && a.counts)
					fo.noise_sigmas = 2;
				rc = write_svg(&b, &a, &fo, out.fp);
			} else
				rc = perfan_diff_write(
					d, out.fp,
					&(struct perfan_diff_write_opts){
						sizeof(struct perfan_diff_write_opts),
						json ? PERFAN_DIFF_JSON
						     : PERFAN_DIFF_TEXT});
			if (rc) {
				cli_error(CMD, "%s", perfan_error_last());
				status = 1;
			}
			if (cli_output_close(&out, status == 0) && !status) {
				cli_error(CMD, "cannot write %s",
					  out_path ? out_path
						   : "standard output");
				status = 1;
			}
		}
	}
	perfan_diff_free(d);
	free_side(&b);
	free_side(&a);
	return status;
}

int cmd_diff(int argc, char **argv)
{
	struct list before = {0}, after = {0};
	int nrest = 0, status;
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	status = take_runs(argc, argv, longopts, &before, &after, rest, &nrest);
	if (status == 1)
		cli_error(CMD, "out of memory");
	if (!status)
		status = run(nrest, rest, &before, &after);
	free(rest);
	free(before.v);
	free(after.v);
	return status;
}
