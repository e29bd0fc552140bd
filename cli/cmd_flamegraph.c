/* cli/cmd_flamegraph.c: perfan flamegraph: an interactive SVG flame graph
 * of one or more perf.data, perf script or folded inputs, or a
 * differential one of two (--diff), with the options of FlameGraph's
 * flamegraph.pl and the filters of perfan report. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <perfan/perfan.h>

#include "args.h"
#include "cli.h"

#define CMD "flamegraph"
#define BEFORE "before" /* the column of two-count folded lines */

static const char head[] =
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
	"\n";

struct opts {
	struct perfan_flamegraph_opts fo;
	struct perfan_load_opts lo;
	const char *out;
	int diff;
	int per_thread;
};

#define FG(name, arg, help) CLI_SET(name, arg, fo, cli_set_fg, help)
static const struct cli_opt options[] = {
	FG("title", "TEXT",
	   "the title (default: the mode, event and filters,\n"
	   "\"On-CPU: cpu-clock, threads merged\"; Flame Graph,\n"
	   "Icicle Graph, Flame Chart for folded stacks)"),
	FG("subtitle", "TEXT", "a second line under the title"),
	FG("width", "PX", "image width (default 1200)"),
	FG("height", "PX",
	   "height of each frame (default 16; a differential\n"
	   "graph's are lowered to fit 900 px unless given)"),
	FG("minwidth", "PX|PCT%",
	   "merge frames narrower than this into one \"(other)\"\n"
	   "per parent (default 0.1 px)"),
	FG("fit", "PX",
	   "fit the height to the content: the depth of the\n"
	   "deepest frame PX wide; thinner towers above it\n"
	   "cut, their callers outlined (default: all drawn)"),
	FG("fonttype", "FONT", "font family (default Verdana)"),
	FG("fontsize", "PX", "font size (default 12)"),
	FG("colors", "PALETTE",
	   "kind (default: by what a frame is), hot, mem, io,\n"
	   "wakeup, java, js, perl, python, red, green, blue,\n"
	   "aqua, yellow, purple, orange"),
	FG("color", "PALETTE", NULL),
	FG("hash", NULL,
	   "colours by flamegraph.pl's name hash (similar\n"
	   "names, similar colours)"),
	FG("bgcolors", "COLOR",
	   "background: yellow, blue, green, grey or #rrggbb"),
	FG("inverted", NULL, "an icicle graph: roots at the top"),
	FG("reverse", NULL, "stacks reversed: leaf functions at the bottom"),
	FG("flamechart", NULL,
	   "x is time: samples in time order (perf.data) or\n"
	   "input order, not merged by name"),
	FG("countname", "NAME",
	   "the unit of weights (default samples, or the\n"
	   "event's name when weighed by period)"),
	FG("nametype", "TEXT",
	   "what the details line calls a frame (default\nFunction:)"),
	FG("notes", "TEXT", "a note kept in the SVG"),
	FG("negate", NULL, "differential: swap red and blue"),
	CLI_FLAG("diff", diff,
		 "a differential graph of two inputs, BEFORE and\n"
		 "AFTER (each perf.data, perf script text or\n"
		 "folded), drawn as two-count lines are"),
	FG("view", "VIEW",
	   "differential: the shape it opens with: both (the\n"
	   "default), after or before"),
	FG("total", NULL,
	   "differential: colour by the change of total\nshare, not self"),
	FG("noise-floor", "PTS",
	   "differential: draw changes under PTS percentage\n"
	   "points neutral"),
	FG("noise-sigmas", "K",
	   "differential: draw changes under K standard\n"
	   "deviations of sampling noise neutral (weights\n"
	   "that are sample counts)"),
	CLI_FLAG("per-thread", per_thread,
		 "(perf.data, perf script) a root per thread, named\n"
		 "as the thread tables name it (default: threads\n"
		 "merged, a root per command)"),
	CLI_TABLE(cli_load_table, lo),
	CLI_OUTPUT(out),
	CLI_END,
};

static int usage_error(const char *fmt, const char *arg)
{
	return cli_opt_error(CMD, options, head, fmt, arg);
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
	int status = cli_opt_parse(argc, argv, options, &o, head, CMD, 0);
	if (status >= 0)
		return status;
	char *dflt[] = {"perf.data"};
	char **paths = optind < argc ? argv + optind : dflt;
	int npaths = optind < argc ? argc - optind : 1;
	struct cli_stdin in = {0};
	for (int i = 0; i < npaths; i++)
		if (cli_stdin_take(CMD, &in, "FILE", paths[i]))
			return 2;
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
	if (o.per_thread)
		o.lo.root = PERFAN_ROOT_PID_TID;
	o.fo.filter = &o.lo.filter; /* named in the default title */
	perfan_load *l = NULL;
	status = o.diff ? load_diff(&l, paths, &o)
			: load_all(&l, paths, npaths, &o);
	if (!l)
		return 1;
	const char *name = o.diff        ? paths[1]
			   : npaths == 1 ? perfan_load_info(l)->name
					 : "the input";
	o.fo.names = perfan_load_thread_names(l);
	if (!perfan_load_total(l, o.fo.column))
		cli_warn(CMD, "no samples in %s", name);
	status = cli_write_flamegraph(CMD, perfan_load_profile(l), &o.fo, o.out,
				      status);
	perfan_load_free(l);
	return status;
}
