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

#include "cli.h"
#include "load.h"

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
	"                     that are sample counts)\n" CLI_LOAD_HELP
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help         show this help\n";

static int usage_error(const char *fmt, const char *arg)
{
	return cli_usage_error(CMD, usage_text, fmt, arg);
}

static int find_column(const perfan_profile *p, const char *name)
{
	for (size_t i = 0; i < perfan_profile_nr_columns(p); i++)
		if (!strcmp(perfan_profile_column_name(p, i), name))
			return (int)i;
	return -1;
}

/* --diff: PATHS[0] (before) and PATHS[1] (after) into one new profile
 * *P with the columns after (0) and before (1): two folded files read
 * together, anything else each on its own and merged. *COUNTNAME gets the
 * unit of weights by period (the event's name), to be freed. Returns 0 or
 * 1 (printed); *P is NULL when nothing could be read. */
static int load_diff(perfan_profile **p, char **paths,
		     const struct cli_load_opts *lo, char **countname)
{
	int rc = cli_load_folded_pair(p, paths[0], paths[1], lo, CMD);
	if (rc >= 0)
		return rc;
	/* each side on its own, whole: a side pruned alone could lose what
	 * is wide on the other */
	struct cli_load_opts one = *lo;
	one.folded_prune = 0;
	perfan_profile *side[2] = {NULL, NULL}, *np = NULL;
	int status = 0, read_both = 1;
	size_t col[2] = {0, 0};
	for (int i = 0; i < 2 && read_both; i++) {
		struct cli_load_result res;
		if (perfan_profile_new(&side[i], NULL)) {
			cli_error(CMD, "%s", perfan_error_last());
			status = 1;
			read_both = 0;
			break;
		}
		status |= cli_load(&side[i], paths[i], &one, CMD, &res);
		read_both &= res.format != NULL || !status;
		col[i] = cli_load_pick_column(side[i], lo->filter.event, BEFORE,
					      res.name, CMD);
	}
	/* what was read, after an error in one too; after first: column 0 */
	for (int i = 1; i >= 0 && read_both; i--) {
		int has = perfan_profile_nr_columns(side[i]) > 0;
		const char *unit =
			has ? perfan_profile_column_unit(side[i], col[i])
			    : "samples";
		if ((!np && perfan_profile_new(&np, NULL)) ||
		    perfan_profile_add_column(
			    np, i ? CLI_LOAD_AFTER : CLI_LOAD_BEFORE, unit) <
			    0 ||
		    (has &&
		     perfan_profile_merge(np, i ? 0 : 1, side[i], col[i]))) {
			cli_error(CMD, "%s", perfan_error_last());
			status = 1;
			break;
		}
	}
	/* weights by period read best in the event's own unit */
	if (np && perfan_profile_nr_columns(side[1]) &&
	    !strcmp(perfan_profile_column_unit(side[1], col[1]), "period"))
		*countname =
			strdup(perfan_profile_column_name(side[1], col[1]));
	perfan_profile_free(side[0]);
	perfan_profile_free(side[1]);
	perfan_profile_free(*p);
	*p = np;
	return status;
}

int cmd_flamegraph(int argc, char **argv)
{
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
		CLI_LOAD_LONGOPTS,
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct perfan_flamegraph_opts fo = PERFAN_FG_OPTS_INIT;
	struct cli_load_opts lo;
	cli_load_init(&lo);
	const char *out_path = NULL;
	int opt, diff = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		int shared = cli_load_option(&lo, opt, optarg, CMD);
		if (shared < 0) {
			fprintf(stderr, "\n%s", usage_text);
			return 2;
		}
		if (shared)
			continue;
		switch (opt) {
		case O_TITLE: fo.title = optarg; break;
		case O_SUBTITLE: fo.subtitle = optarg; break;
		case O_WIDTH:
			/* more than the 10 px margins on either side */
			if (cli_parse_positive(optarg, 1e6, &fo.width) ||
			    fo.width <= 20)
				return usage_error("--width: '%s' is not a "
						   "width in pixels",
						   optarg);
			break;
		case O_HEIGHT:
			if (cli_parse_positive(optarg, 1e4, &fo.frame_height))
				return usage_error("--height: '%s' is not a "
						   "height in pixels",
						   optarg);
			/* frames as high as asked: not lowered to fit */
			fo.max_height = -1;
			break;
		case O_VIEW:
			if (cli_parse_view(CMD, usage_text, optarg, &fo))
				return 2;
			break;
		case O_MINWIDTH:
			if (cli_parse_minwidth(optarg, &fo))
				return usage_error("--minwidth: '%s' is not "
						   "pixels or a percentage",
						   optarg);
			break;
		case O_FONTTYPE: fo.fonttype = optarg; break;
		case O_FONTSIZE:
			if (cli_parse_positive(optarg, 1e3, &fo.fontsize))
				return usage_error("--fontsize: '%s' is not a "
						   "size in pixels",
						   optarg);
			break;
		case O_COLORS:
			fo.palette = perfan_fg_palette_parse(optarg);
			if (fo.palette < 0)
				return usage_error("--colors: '%s' is not a "
						   "palette",
						   optarg);
			break;
		case O_HASH: fo.hash = 1; break;
		case O_BGCOLORS: {
			size_t n = strlen(optarg);
			int hex = n == 7 && optarg[0] == '#' &&
				  strspn(optarg + 1,
					 "0123456789abcdefABCDEF") == 6;
			if (!hex && strcmp(optarg, "yellow") &&
			    strcmp(optarg, "blue") && strcmp(optarg, "green") &&
			    strcmp(optarg, "grey") && strcmp(optarg, "gray"))
				return usage_error("--bgcolors: '%s' is none "
						   "of yellow, blue, green, "
						   "grey, #rrggbb",
						   optarg);
			fo.bgcolors = optarg;
			break;
		}
		case O_INVERTED: fo.inverted = 1; break;
		case O_REVERSE: fo.reverse = 1; break;
		case O_FLAMECHART: fo.flamechart = 1; break;
		case O_COUNTNAME: fo.countname = optarg; break;
		case O_NAMETYPE: fo.nametype = optarg; break;
		case O_NOTES: fo.notes = optarg; break;
		case O_NEGATE: fo.negate = 1; break;
		case O_DIFF: diff = 1; break;
		case O_TOTAL: fo.color_total = 1; break;
		case O_NOISE_FLOOR:
		case O_NOISE_SIGMAS: {
			double v;
			if (cli_parse_positive(optarg, 100, &v))
				return usage_error(
					opt == O_NOISE_FLOOR
						? "--noise-floor: '%s' "
						  "is not percentage "
						  "points"
						: "--noise-sigmas: '%s' "
						  "is not a number",
					optarg);
			if (opt == O_NOISE_FLOOR)
				fo.noise_floor = v / 100;
			else
				fo.noise_sigmas = v;
			break;
		}
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	char *dflt[] = {"perf.data"};
	char **paths = optind < argc ? argv + optind : dflt;
	int npaths = optind < argc ? argc - optind : 1;
	if (cli_output_guard(CMD, out_path, (const char *const *)paths,
			     (size_t)npaths))
		return 1;
	if (diff && argc - optind != 2)
		return usage_error("--diff takes two inputs, BEFORE and AFTER, "
				   "not %s",
				   argc - optind < 2 ? "fewer" : "more");
	if (diff && fo.flamechart)
		return usage_error("%s", "--diff cannot make a flame chart "
					 "(--flamechart)");
	/* each input of --diff is one side: one count per folded line */
	lo.before_column = diff ? NULL : BEFORE;
	/* One large sorted folded file, or a --diff pair of them, is read
	 * with bounded memory: what would be narrower than the minimum width
	 * (on both sides) folds into "(other)" as it goes. Not across the
	 * files of one graph (together a stack may be wide), nor for
	 * reversed stacks or flame charts, which need every stack. */
	if (npaths == 1 || diff)
		lo.folded_prune = cli_load_prune_for(&fo);

	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	po.keep_samples = fo.flamechart;
	perfan_profile *p = NULL;
	if (perfan_profile_new(&p, &po)) {
		cli_error(CMD, "%s", perfan_error_last());
		return 1;
	}
	int status = 0, read_any = 0;
	const char *name = paths[0];
	char *countname = NULL;
	if (diff) {
		status = load_diff(&p, paths, &lo, &countname);
		read_any = p && perfan_profile_nr_columns(p) == 2;
		npaths = 0;
		if (!fo.countname)
			fo.countname = countname;
	}
	for (int i = 0; i < npaths; i++) {
		struct cli_load_result res;
		status |= cli_load(&p, paths[i], &lo, CMD, &res);
		read_any |= res.format != NULL;
		if ((res.caps & PERFAN_SOURCE_ESTIMATED) && !fo.subtitle)
			fo.subtitle = "estimated from cProfile's caller "
				      "edges, as flameprof does: an "
				      "approximation";
		name = res.name;
	}
	if (!read_any && (status || diff)) {
		perfan_profile_free(p);
		free(countname);
		return 1;
	}
	if (diff) {
		fo.column = 0; /* after */
		fo.base_column = 1;
		if (!perfan_profile_total(p, 1))
			cli_warn(CMD, "no samples in %s", paths[0]);
		name = paths[1];
	} else
		fo.column = cli_load_pick_column(
			p, lo.filter.event, BEFORE, npaths == 1 ? name : "the input",
			CMD);
	int before = diff ? -1 : find_column(p, BEFORE);
	if (before >= 0 && perfan_profile_total(p, (size_t)before)) {
		if (fo.flamechart) {
			cli_error(CMD, "two-count (differential) input cannot "
				       "make a flame chart");
			perfan_profile_free(p);
			free(countname);
			return 1;
		}
		fo.base_column = (size_t)before;
	}
	if (!perfan_profile_nr_columns(p) ||
	    !perfan_profile_total(p, fo.column))
		cli_warn(CMD, "no samples in %s",
			 npaths == 1 || diff ? name : "the input");

	status = cli_write_flamegraph(CMD, p, &fo, out_path, status);
	perfan_profile_free(p);
	free(countname);
	return status;
}
