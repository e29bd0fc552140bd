/* cli/cmd_flamegraph.c: perfan flamegraph: an interactive SVG flame graph
 * of one or more perf.data, perf script or folded inputs, or a
 * differential one of two (--diff), with the options of FlameGraph's
 * flamegraph.pl and the filters of perfan report. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"

#define CMD "flamegraph"
#define BEFORE "before" /* the column of two-count folded lines */

static const char usage_text[] =
	"usage: perfan flamegraph [options] [FILE...] > graph.svg\n"
	"       perfan flamegraph --diff [options] BEFORE AFTER > diff.svg\n"
	"\n"
	"Draw the stacks of the FILEs (default perf.data, '-' for standard\n"
	"input; perf.data, `perf script` text, folded stacks, py-spy raw,\n"
	"speedscope JSON or bpftrace stack maps, told apart by their content,\n"
	"merged) as an interactive SVG flame graph: hover for a frame's weight\n"
	"and share, click to zoom, Ctrl-F or Search for a regular expression;\n"
	"zoom and search are kept in the URL. Colours say what a frame is\n"
	"(kernel, native, Python, JIT, inlined), with a legend. Folded lines\n"
	"with two counts (difffolded.pl's) give a differential graph: it opens\n"
	"on both sides' shapes at once (each frame as wide as its larger\n"
	"share), red where a frame grew, blue where it shrank, outlines where\n"
	"new or vanished code starts, and a line naming the largest changes.\n"
	"\n"
	"  --title TEXT       the title (default Flame Graph, Icicle Graph,\n"
	"                     Flame Chart)\n"
	"  --subtitle TEXT    a second line under the title\n"
	"  --width PX         image width (default 1200)\n"
	"  --height PX        height of each frame (default 16; a differential\n"
	"                     graph's are lowered to fit 900 px unless given)\n"
	"  --minwidth PX|PCT% merge frames narrower than this into one \"(other)\"\n"
	"                     per parent (default 0.1 px)\n"
	"  --fonttype FONT    font family (default Verdana)\n"
	"  --fontsize PX      font size (default 12)\n"
	"  --colors PALETTE   kind (default: by what a frame is), hot, mem, io,\n"
	"                     wakeup, java, js, perl, python, red, green, blue,\n"
	"                     aqua, yellow, purple, orange\n"
	"  --hash             colours by flamegraph.pl's name hash (similar\n"
	"                     names, similar colours)\n"
	"  --bgcolors COLOR   background: yellow, blue, green, grey or #rrggbb\n"
	"  --inverted         an icicle graph: roots at the top\n"
	"  --reverse          stacks reversed: leaf functions at the bottom\n"
	"  --flamechart       x is time: samples in time order (perf.data) or\n"
	"                     input order, not merged by name\n"
	"  --countname NAME   the unit of weights (default samples, or the\n"
	"                     event's name when weighed by period)\n"
	"  --nametype TEXT    what the details line calls a frame (default\n"
	"                     Function:)\n"
	"  --notes TEXT       a note kept in the SVG\n"
	"  --negate           differential: swap red and blue\n"
	"  --diff             a differential graph of two inputs, BEFORE and\n"
	"                     AFTER (each perf.data, perf script text or\n"
	"                     folded), drawn as two-count lines are\n"
	"  --view VIEW        differential: the shape it opens with: both (the\n"
	"                     default), after or before\n"
	"  --total            differential: colour by the change of total\n"
	"                     share, not self\n"
	"  --noise-floor PTS  differential: draw changes under PTS percentage\n"
	"                     points neutral\n"
	"  --noise-sigmas K   differential: draw changes under K standard\n"
	"                     deviations of sampling noise neutral (weights\n"
	"                     that are sample counts)\n" CLI_ARGS_HELP
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help         show this help\n";

static int usage_error(const char *fmt, const char *arg)
{
	return cli_usage_error(CMD, usage_text, fmt, arg);
}

struct opts {
	struct perfan_flamegraph_opts fo;
	struct perfan_load_opts lo;
	const char *out;
	int diff;
};

enum {
	O_TITLE = 256,
	O_SUBTITLE,
	O_WIDTH,
	O_HEIGHT,
	O_MINWIDTH,
	O_FONTTYPE,
	O_FONTSIZE,
	O_COLORS,
	O_HASH,
	O_BGCOLORS,
	O_INVERTED,
	O_REVERSE,
	O_FLAMECHART,
	O_COUNTNAME,
	O_NAMETYPE,
	O_NOTES,
	O_NEGATE,
	O_DIFF,
	O_TOTAL,
	O_NOISE_FLOOR,
	O_NOISE_SIGMAS,
	O_VIEW,
};
static const struct option longopts[] = {
	{"title", required_argument, NULL, O_TITLE},
	{"subtitle", required_argument, NULL, O_SUBTITLE},
	{"width", required_argument, NULL, O_WIDTH},
	{"height", required_argument, NULL, O_HEIGHT},
	{"minwidth", required_argument, NULL, O_MINWIDTH},
	{"fonttype", required_argument, NULL, O_FONTTYPE},
	{"fontsize", required_argument, NULL, O_FONTSIZE},
	{"colors", required_argument, NULL, O_COLORS},
	{"color", required_argument, NULL, O_COLORS},
	{"hash", no_argument, NULL, O_HASH},
	{"bgcolors", required_argument, NULL, O_BGCOLORS},
	{"inverted", no_argument, NULL, O_INVERTED},
	{"reverse", no_argument, NULL, O_REVERSE},
	{"flamechart", no_argument, NULL, O_FLAMECHART},
	{"countname", required_argument, NULL, O_COUNTNAME},
	{"nametype", required_argument, NULL, O_NAMETYPE},
	{"notes", required_argument, NULL, O_NOTES},
	{"negate", no_argument, NULL, O_NEGATE},
	{"diff", no_argument, NULL, O_DIFF},
	{"total", no_argument, NULL, O_TOTAL},
	{"noise-floor", required_argument, NULL, O_NOISE_FLOOR},
	{"noise-sigmas", required_argument, NULL, O_NOISE_SIGMAS},
	{"view", required_argument, NULL, O_VIEW},
	CLI_ARGS_LONGOPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* The options with a number or a choice for a value. 0, -1 when OPT is
 * none of them, or the exit status of a usage error. */
static int value_option(struct perfan_flamegraph_opts *fo, int opt,
			const char *arg)
{
	double v;
	switch (opt) {
	case O_WIDTH:
		/* more than the 10 px margins on either side */
		if (cli_parse_positive(arg, 1e6, &fo->width) || fo->width <= 20)
			return usage_error("--width: '%s' is not a width in "
					   "pixels",
					   arg);
		return 0;
	case O_HEIGHT:
		if (cli_parse_positive(arg, 1e4, &fo->frame_height))
			return usage_error("--height: '%s' is not a height in "
					   "pixels",
					   arg);
		fo->max_height = -1; /* as high as asked: not lowered to fit */
		return 0;
	case O_VIEW: return cli_parse_view(CMD, usage_text, arg, fo) ? 2 : 0;
	case O_MINWIDTH:
		return cli_parse_minwidth(arg, fo)
			       ? usage_error("--minwidth: '%s' is not pixels "
					     "or a percentage",
					     arg)
			       : 0;
	case O_FONTSIZE:
		return cli_parse_positive(arg, 1e3, &fo->fontsize)
			       ? usage_error("--fontsize: '%s' is not a size "
					     "in pixels",
					     arg)
			       : 0;
	case O_COLORS:
		fo->palette = perfan_fg_palette_parse(arg);
		return fo->palette < 0 ? usage_error("--colors: '%s' is not a "
						     "palette",
						     arg)
				       : 0;
	case O_NOISE_FLOOR:
	case O_NOISE_SIGMAS:
		if (cli_parse_positive(arg, 100, &v))
			return usage_error(opt == O_NOISE_FLOOR
						   ? "--noise-floor: '%s' is "
						     "not percentage points"
						   : "--noise-sigmas: '%s' is "
						     "not a number",
					   arg);
		if (opt == O_NOISE_FLOOR)
			fo->noise_floor = v / 100;
		else
			fo->noise_sigmas = v;
		return 0;
	}
	return -1;
}

static int bgcolors(struct perfan_flamegraph_opts *fo, const char *arg)
{
	size_t n = strlen(arg);
	int hex = n == 7 && arg[0] == '#' &&
		  strspn(arg + 1, "0123456789abcdefABCDEF") == 6;
	if (!hex && strcmp(arg, "yellow") && strcmp(arg, "blue") &&
	    strcmp(arg, "green") && strcmp(arg, "grey") && strcmp(arg, "gray"))
		return usage_error("--bgcolors: '%s' is none of yellow, blue, "
				   "green, grey, #rrggbb",
				   arg);
	fo->bgcolors = arg;
	return 0;
}

/* Option OPT of the graph: 0, -1 after --help, or the exit status of a
 * usage error. */
static int option(void *payload, int opt, const char *arg)
{
	struct opts *o = payload;
	struct perfan_flamegraph_opts *fo = &o->fo;
	int rc = value_option(fo, opt, arg);
	if (rc >= 0)
		return rc;
	switch (opt) {
	case O_TITLE: fo->title = arg; break;
	case O_SUBTITLE: fo->subtitle = arg; break;
	case O_FONTTYPE: fo->fonttype = arg; break;
	case O_HASH: fo->hash = 1; break;
	case O_BGCOLORS: return bgcolors(fo, arg);
	case O_INVERTED: fo->inverted = 1; break;
	case O_REVERSE: fo->reverse = 1; break;
	case O_FLAMECHART: fo->flamechart = 1; break;
	case O_COUNTNAME: fo->countname = arg; break;
	case O_NAMETYPE: fo->nametype = arg; break;
	case O_NOTES: fo->notes = arg; break;
	case O_NEGATE: fo->negate = 1; break;
	case O_DIFF: o->diff = 1; break;
	case O_TOTAL: fo->color_total = 1; break;
	case 'o': o->out = arg; break;
	case 'h': fputs(usage_text, stdout); return -1;
	default: fputs(usage_text, stderr); return 2;
	}
	return 0;
}

/* ARGV into O. -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	return cli_args_parse(argc, argv, "o:h", longopts, &o->lo, option, o,
			      usage_text, CMD);
}

/* What --diff needs: two inputs, and no flame chart. -1 or 2. */
static int check_diff(const struct opts *o, int ninputs)
{
	if (o->diff && ninputs != 2)
		return usage_error("--diff takes two inputs, BEFORE and AFTER, "
				   "not %s",
				   ninputs < 2 ? "fewer" : "more");
	if (o->diff && o->fo.flamechart)
		return usage_error("%s", "--diff cannot make a flame chart "
					 "(--flamechart)");
	return -1;
}

/* --diff: PATHS[0] (before) and PATHS[1] (after) as one profile with the
 * columns after (0) and before (1). The exit status so far; *L is NULL
 * when nothing could be read. */
static int load_diff(perfan_load **l, char **paths, struct opts *o)
{
	int rc = perfan_load_pair(l, paths[0], paths[1], &o->lo, 0);
	if (rc < 0)
		cli_error(CMD, "%s", perfan_error_last());
	if (*l && !o->fo.countname) /* weights by period: the event's unit */
		o->fo.countname = perfan_load_info(*l)->period_event;
	if (*l) {
		o->fo.column = 0; /* after */
		o->fo.base_column = 1;
		if (!perfan_load_total(*l, 1))
			cli_warn(CMD, "no samples in %s", paths[0]);
	}
	return rc ? 1 : 0;
}

/* The NPATHS PATHS into one profile. The exit status so far; *L is NULL
 * when nothing could be read. */
static int load_all(perfan_load **l, char **paths, int npaths, struct opts *o)
{
	if (perfan_load_new(l, &o->lo)) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	int status = 0, read_any = 0;
	for (int i = 0; i < npaths; i++) {
		status |= cli_read_more(*l, paths[i], CMD);
		const struct perfan_load_info *in = perfan_load_info(*l);
		read_any |= in->format != NULL;
		if ((in->caps & PERFAN_SOURCE_ESTIMATED) && !o->fo.subtitle)
			o->fo.subtitle = "estimated from cProfile's caller "
					 "edges, as flameprof does: an "
					 "approximation";
	}
	if (!read_any && status) {
		perfan_load_free(*l);
		*l = NULL;
		return 1;
	}
	const char *name = npaths == 1 ? perfan_load_info(*l)->name
				       : "the input";
	o->fo.column = perfan_load_column(*l, BEFORE, name);
	int before = perfan_load_base_column(*l);
	if (before >= 0 && o->fo.flamechart) {
		cli_error(CMD, "two-count (differential) input cannot make a "
			       "flame chart");
		perfan_load_free(*l);
		*l = NULL;
		return 1;
	}
	if (before >= 0)
		o->fo.base_column = (size_t)before;
	return status;
}

int cmd_flamegraph(int argc, char **argv)
{
	struct opts o = {.fo = PERFAN_FG_OPTS_INIT};
	cli_args_init(&o.lo, CMD);
	int status = parse(argc, argv, &o);
	if (status >= 0)
		return status;
	char *dflt[] = {"perf.data"};
	char **paths = optind < argc ? argv + optind : dflt;
	int npaths = optind < argc ? argc - optind : 1;
	if (cli_output_guard(CMD, o.out, (const char *const *)paths,
			     (size_t)npaths))
		return 1;
	if ((status = check_diff(&o, argc - optind)) >= 0)
		return status;
	/* each input of --diff is one side: one count per folded line */
	o.lo.before_column = o.diff ? NULL : BEFORE;
	/* One large sorted folded file, or a --diff pair of them, is read
	 * with bounded memory: what would be narrower than the minimum width
	 * (on both sides) folds into "(other)" as it goes. Not across the
	 * files of one graph (together a stack may be wide). */
	if (npaths == 1 || o.diff)
		o.lo.folded_prune = perfan_flamegraph_prune_fraction(&o.fo);
	o.lo.keep_samples = o.fo.flamechart;
	perfan_load *l = NULL;
	status = o.diff ? load_diff(&l, paths, &o)
			: load_all(&l, paths, npaths, &o);
	if (!l)
		return 1;
	const char *name = o.diff        ? paths[1]
			   : npaths == 1 ? perfan_load_info(l)->name
					 : "the input";
	if (!perfan_load_total(l, o.fo.column))
		cli_warn(CMD, "no samples in %s", name);
	status = cli_write_flamegraph(CMD, perfan_load_profile(l), &o.fo, o.out,
				      status);
	perfan_load_free(l);
	return status;
}
