/* perfan/flamegraph.h: flame graphs of a profile as self-contained,
 * interactive SVG (tooltips, click to zoom, regular-expression search, the
 * view kept in the URL), with the options of FlameGraph's flamegraph.pl,
 * and the frame layout behind them as a struct API. */
#ifndef PERFAN_FLAMEGRAPH_H
#define PERFAN_FLAMEGRAPH_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/profile.h>

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
	size_t column; /* the weights that make widths */
	/* Differential colouring, as flamegraph.pl draws two-count folded
	 * input: each frame red where its self weight in COLUMN grew over
	 * its self weight in BASE_COLUMN, blue where it shrank, the deeper
	 * the larger the change. PERFAN_FG_NO_BASE (what PERFAN_FG_OPTS_INIT
	 * sets) for none. */
	size_t base_column;
	int negate; /* swap red and blue of differential colouring */

	/* Text. NULL takes the default: "Flame Graph" ("Icicle Graph"
	 * inverted, "Flame Chart" with flamechart), no subtitle, the
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
};

#define PERFAN_FG_OPTS_INIT                                                    \
	((struct perfan_flamegraph_opts){                                      \
		.sz = sizeof(struct perfan_flamegraph_opts),                   \
		.base_column = PERFAN_FG_NO_BASE,                              \
		.minwidth = -1,                                                \
	})

/* One frame of the graph. Widths and offsets are in the column's weight
 * (samples or period), exact: a frame's width is the sum of its children's
 * widths and its self weight. */
#define PERFAN_FG_OTHER ((perfan_frame_id)-1) /* the merged "(other)" */
#define PERFAN_FG_ALL ((perfan_frame_id)-2)   /* the root, "all" */
struct perfan_fg_frame {
	perfan_frame_id frame; /* or PERFAN_FG_OTHER / PERFAN_FG_ALL */
	uint32_t depth;        /* 0 for "all" */
	uint64_t offset, width;
	/* with a base column: this frame's self weight there and here */
	uint64_t base_self, self;
};

typedef struct perfan_fg_layout perfan_fg_layout;

/* Lay out the frames of P as OPTS asks (column, minwidth, reverse,
 * flamechart), parents before children, children left to right. Frames
 * of kind PERFAN_FRAME_OTHER (a pruned read) join the "(other)" of their
 * parent whatever their width. P must
 * outlive the layout. Returns 0, PERFAN_EINVAL for a column P lacks or a
 * flame chart of a profile without kept samples, PERFAN_ENOMEM. */
PERFAN_API int perfan_fg_layout_new(perfan_fg_layout **out,
				    const perfan_profile *p,
				    const struct perfan_flamegraph_opts *opts);
PERFAN_API void perfan_fg_layout_free(perfan_fg_layout *l);
PERFAN_API size_t perfan_fg_layout_nr_frames(const perfan_fg_layout *l);
/* Frame I, borrowed until the layout is freed. */
PERFAN_API const struct perfan_fg_frame *
perfan_fg_layout_frame(const perfan_fg_layout *l, size_t i);
PERFAN_API uint64_t perfan_fg_layout_total(const perfan_fg_layout *l);
/* The profile whose frame ids the layout holds: P, or with reverse a
 * profile of its own. */
PERFAN_API const perfan_profile *
perfan_fg_layout_profile(const perfan_fg_layout *l);

/* Write the flame graph of P to FP as one SVG document with its script
 * and styles inside: byte for byte the same for the same profile and
 * options. Returns 0, the errors of perfan_fg_layout_new, PERFAN_EIO when
 * writing fails. */
PERFAN_API int
perfan_flamegraph_write(const perfan_profile *p, FILE *fp,
			const struct perfan_flamegraph_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
