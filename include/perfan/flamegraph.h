/* perfan/flamegraph.h: flame graphs of a profile as self-contained,
 * interactive SVG (tooltips, click to zoom, regular-expression search, the
 * view kept in the URL), with the options of FlameGraph's flamegraph.pl,
 * differential graphs of two columns (after against before) that open on
 * the union of both runs' shapes and switch to either, and the frame
 * layout behind them as a struct API. */
#ifndef PERFAN_FLAMEGRAPH_H
#define PERFAN_FLAMEGRAPH_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/diff.h>
#include <perfan/filter.h>
#include <perfan/profile.h>
#include <perfan/threadnames.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Colour schemes. PERFAN_FG_KIND, the default, colours by what a frame is
 * (kernel, native, Python, JIT, inlined) and draws a legend; the others are
 * flamegraph.pl's --colors palettes. */
enum perfan_fg_palette {
	PERFAN_FG_KIND = 0,
	PERFAN_FG_HOT,
	PERFAN_FG_MEM,
	PERFAN_FG_IO,
	PERFAN_FG_WAKEUP,
	PERFAN_FG_JAVA,
	PERFAN_FG_JS,
	PERFAN_FG_PERL,
	PERFAN_FG_PYTHON,
	PERFAN_FG_RED,
	PERFAN_FG_GREEN,
	PERFAN_FG_BLUE,
	PERFAN_FG_AQUA,
	PERFAN_FG_YELLOW,
	PERFAN_FG_PURPLE,
	PERFAN_FG_ORANGE,
};

/* The palette named NAME ("hot", "python", ..., or "kind"), or -1. */
PERFAN_API int perfan_fg_palette_parse(const char *name);

/* No base column: colour as a plain flame graph. */
#define PERFAN_FG_NO_BASE ((size_t)-1)

struct perfan_flamegraph_opts {
	size_t sz;
	size_t column; /* the weights that make widths: AFTER */
	/* A differential graph of COLUMN (after) against BASE_COLUMN
	 * (before), as two-count folded input gives: the union of both
	 * sides' stacks laid out in each side's own weight (a frame that
	 * vanished has width 0 after and keeps its width before; the SVG
	 * switches between the two shapes), each frame red where its share
	 * grew, blue where it shrank, the more saturated the larger the
	 * change against the largest (color_total and the noise thresholds
	 * below say which change). PERFAN_FG_NO_BASE (what
	 * PERFAN_FG_OPTS_INIT sets) for a plain graph. */
	size_t base_column;
	int negate; /* swap red and blue of differential colouring */

	/* Text. NULL takes the default: for a perf.data event's column or a
	 * time view, what the graph shows: its mode, its event, how threads
	 * are drawn and the filters in force ("On-CPU: cpu-clock, threads
	 * merged", "Off-CPU time (ns), a root per thread, --pid 12",
	 * "On-CPU (icicle): cycles, threads merged, 1.200-3.400 s"); for
	 * other columns (folded stacks, differential graphs) "Flame Graph"
	 * ("Icicle Graph" inverted, "Flame Chart" with flamechart) and the
	 * filters; no subtitle, the
	 * column's unit ("samples"; for weights by period the event's name,
	 * "cycles"), "Function:", no notes. */
	const char *title, *subtitle, *countname, *nametype, *notes;
	const char *fonttype; /* CSS font family, default "Verdana" */
	double fontsize;      /* px, default 12 */
	double width;         /* of the image in px, default 1200 */
	double frame_height;  /* px, default 16 */
	/* Frames narrower than this many px (or, with minwidth_percent,
	 * percent of the total) are merged into one "(other)" frame per
	 * parent. Negative: the default, 0.1 px. */
	double minwidth;
	int minwidth_percent;

	int palette; /* enum perfan_fg_palette */
	/* Colours vary with each name's hash; with HASH they follow
	 * flamegraph.pl's --hash, which weighs a name's first characters, so
	 * that similar names get similar colours. */
	int hash;
	/* Background: "yellow", "blue", "green", "grey" (gradients) or a
	 * "#rrggbb" flat colour. NULL: yellow, blue for the mem, io and
	 * wakeup palettes, grey for differential graphs. */
	const char *bgcolors;

	int inverted;   /* an icicle graph: roots at the top */
	int reverse;    /* stacks reversed: leaves at the root */
	int flamechart; /* x is time: samples in the order the profile kept
			   them (keep_samples), adjacent equal frames merged,
			   no sorting */

	/* Differential colouring. A frame's change is that of its self
	 * share (self weight / its side's total, after minus before) or,
	 * with COLOR_TOTAL, of its total (inclusive) share. DIFF, when set,
	 * decides which changes are real; else the noise thresholds do. */
	int color_total;
	/* Changes of a share smaller than NOISE_FLOOR (a fraction of the
	 * total: 0.001 is 0.1 percentage points) are drawn neutral. 0 (or
	 * less): none. */
	double noise_floor;
	/* With NOISE_SIGMAS > 0 a change is also neutral when
	 * |pa - pb| < NOISE_SIGMAS * sqrt(pa(1-pa)/Na + pb(1-pb)/Nb), pa and
	 * pb the frame's shares after and before, Na and Nb the sides'
	 * totals: the binomial noise of sampling one run, which assumes the
	 * weights count independent samples (with weights by period, the
	 * totals are far larger than the sample counts and the test far too
	 * strict; draw such graphs from sample counts). 0: off. */
	double noise_sigmas;

	/* Since 0.2. The shape a differential graph opens with; its buttons
	 * (and the key b) switch between the three. */
	int view; /* enum perfan_fg_view */
	/* The comparison of the runs behind a differential graph
	 * (perfan_diff_new over the same runs, several a side): when set
	 * and tested (perfan_diff_tested), a frame is coloured only where
	 * its function's row (matched by name) is significant, and the
	 * noise thresholds are not used. Borrowed during the call. */
	const perfan_diff *diff;
	/* The image's height in px at most: frames get lower (down to 6 px,
	 * names in a smaller font) so that the root row shows in a window
	 * this high. 0: 900 for differential graphs, no limit for plain
	 * ones; negative: no limit. */
	double max_height;
	/* Since 0.2. The filters the profile was read with (perfan/
	 * filter.h; NULL: none), named in the default title. Borrowed
	 * during the call. */
	const struct perfan_filter *filter;
	/* Since 0.2. The names of the threads (perfan/threadnames.h) whose
	 * process frames, one per thread (PERFAN_ROOT_PID_TID), are drawn
	 * as "NAME PID/TID", as the thread tables name them; NULL: as the
	 * frames are named. Borrowed during the call. */
	const perfan_thread_names *names;
	/* Since 0.2. The graph's height fit to its content: its depth is
	 * that of the deepest frame at least FIT_WIDTH px wide; frames
	 * above it (thin towers, narrower than FIT_WIDTH) are left out and
	 * the callers they stood on outlined (dashed; class "cut"), so that
	 * no empty band stands above thin spikes. 0: every frame drawn, as
	 * flamegraph.pl draws them. Plain graphs only (not flame charts or
	 * differential graphs). */
	double fit_width;
};

/* The shapes of a differential graph. */
enum perfan_fg_view {
	/* Both sides at once: each frame as wide as the larger of its two
	 * shares (its self share's larger side plus its children's union
	 * widths, so that children fit inside), so that what vanished and
	 * what is new are both drawn. The default. */
	PERFAN_FG_VIEW_UNION = 0,
	PERFAN_FG_VIEW_AFTER,  /* the after side's shape */
	PERFAN_FG_VIEW_BEFORE, /* the before side's shape */
};

/* The view named NAME ("both", "after", "before"), or -1. Since 0.2. */
PERFAN_API int perfan_fg_view_parse(const char *name);

#define PERFAN_FG_OPTS_INIT                                                    \
	((struct perfan_flamegraph_opts){                                      \
		.sz = sizeof(struct perfan_flamegraph_opts),                   \
		.base_column = PERFAN_FG_NO_BASE,                              \
		.minwidth = -1,                                                \
	})

/* One frame of the graph. Widths and offsets are in the column's weight
 * (samples or period), exact: a frame's width is the sum of its children's
 * widths and its self weight. With a base column the same holds for
 * base_offset and base_width in the base column's weight: both sides are
 * laid out with the same frames in the same order, so a frame of one side
 * only has width 0 on the other (and the offset where it would start);
 * and for union_offset and union_width, the union shape (enum
 * perfan_fg_view) in billionths of each side's total: a frame's union
 * width is the larger of its two self shares plus its children's union
 * widths, never 0. */
#define PERFAN_FG_OTHER ((perfan_frame_id)-1) /* the merged "(other)" */
#define PERFAN_FG_ALL ((perfan_frame_id)-2)   /* the root, "all" */
struct perfan_fg_frame {
	perfan_frame_id frame; /* or PERFAN_FG_OTHER / PERFAN_FG_ALL */
	uint32_t depth;        /* 0 for "all" */
	uint64_t offset, width;
	/* with a base column: this frame's self weight there and here */
	uint64_t base_self, self;
	/* with a base column: its place in the base column's weight; 0
	 * without */
	uint64_t base_offset, base_width;
	/* since 0.2, with a base column: its place in the union shape; 0
	 * without */
	uint64_t union_offset, union_width;
};

typedef struct perfan_fg_layout perfan_fg_layout;

/* Lay out the frames of P as OPTS asks (column, base_column, minwidth,
 * reverse, flamechart), parents before children, children left to right
 * by name. Frames narrower than the minimum width (on both sides, each
 * against its own total, with a base column) join one "(other)" per
 * parent, as do frames of kind PERFAN_FRAME_OTHER (a pruned read)
 * whatever their width. P must outlive the layout. Returns 0,
 * PERFAN_EINVAL for a column P lacks, a flame chart of a profile without
 * kept samples or with a base column, PERFAN_ENOMEM. */
PERFAN_API int perfan_fg_layout_new(perfan_fg_layout **out,
				    const perfan_profile *p,
				    const struct perfan_flamegraph_opts *opts);
PERFAN_API void perfan_fg_layout_free(perfan_fg_layout *l);
PERFAN_API size_t perfan_fg_layout_nr_frames(const perfan_fg_layout *l);
/* Frame I, borrowed until the layout is freed. */
PERFAN_API const struct perfan_fg_frame *
perfan_fg_layout_frame(const perfan_fg_layout *l, size_t i);
PERFAN_API uint64_t perfan_fg_layout_total(const perfan_fg_layout *l);
/* The base column's total (the before side), 0 without a base column. */
PERFAN_API uint64_t perfan_fg_layout_base_total(const perfan_fg_layout *l);
/* The union shape's total (the root's union width, between 10^9 and
 * 2 * 10^9 when both sides have weight), 0 without a base column. Since
 * 0.2. */
PERFAN_API uint64_t perfan_fg_layout_union_total(const perfan_fg_layout *l);
/* The profile whose frame ids the layout holds: P, or with reverse a
 * profile of its own. */
PERFAN_API const perfan_profile *
perfan_fg_layout_profile(const perfan_fg_layout *l);

/* Write the flame graph of P to FP as one SVG document with its script
 * and styles inside: byte for byte the same for the same profile and
 * options. Each frame is a <g> with data-o, data-w (offset and width in
 * the column's weight) and data-d (depth); "(other)" has data-m="1".
 * With a base column it also has data-s and data-b (self weight after and
 * before), data-bo and data-bw (offset and width before) and data-uo and
 * data-uw (in the union shape), class "new" or "vanished" where a subtree
 * of one side whose change is real starts (outlined) and "hide" while it
 * has no width in the shape shown; a line (id "summary") names the
 * largest real changes; buttons (ids "view-u", "view-b", "view-a", or the
 * key b) switch between the union, before and after shapes, kept in the
 * URL as v=b or v=a when not the first one (opts.view); the frames get
 * lower to fit max_height. Returns 0, the errors of perfan_fg_layout_new,
 * PERFAN_ENOMEM, PERFAN_EIO when writing fails. */
PERFAN_API int
perfan_flamegraph_write(const perfan_profile *p, FILE *fp,
			const struct perfan_flamegraph_opts *opts);

/* The share of a column's total below which the graph of OPTS merges a
 * frame into "(other)" (its minimum width over the width of the frames),
 * so that a reader may fold such stacks as it reads and draw the same
 * graph (perfan_load_opts.folded_prune); 0 for reversed stacks and flame
 * charts, which need every stack. */
PERFAN_API double
perfan_flamegraph_prune_fraction(const struct perfan_flamegraph_opts *opts);

/* FO's option NAME as flamegraph.pl's command line spells it, from VALUE
 * (borrowed; NULL for a switch): the switches hash, inverted, reverse,
 * flamechart, negate and total (colour by total share); the texts title,
 * subtitle, countname, nametype, notes and fonttype; width, height,
 * fontsize and fit (fit_width) in px; minwidth "PX" or "PCT%"; colors
 * (or color) a palette name; bgcolors yellow, blue, green, grey or #rrggbb; view both, after
 * or before; noise-floor in percentage points; noise-sigmas. Since 0.2.
 * Returns 0, or PERFAN_EINVAL with a message naming the option
 * ("--width: 'x' is not a width in pixels"). */
PERFAN_API int perfan_flamegraph_opts_set(struct perfan_flamegraph_opts *fo,
					  const char *name, const char *value);

#ifdef __cplusplus
}
#endif
#endif
