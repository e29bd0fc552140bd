/* render/internal.h: what the flame graph's layout, colours and SVG writer
 * share: option defaults and the palette functions. */
#ifndef PERFAN_RENDER_INTERNAL_H
#define PERFAN_RENDER_INTERNAL_H

#include <stdint.h>

#include <perfan/flamegraph.h>
#include <perfan/offcpu.h>
#include <perfan/waits.h>

#define PERFAN__FG_XPAD 10.0    /* px left and right of the frames */
#define PERFAN__FG_MINWIDTH 0.1 /* px, flamegraph.pl's default */
/* The union shape's unit: parts of each side's total */
#define PERFAN__FG_UNION 1000000000.0

/* fg_opts.c: *O = OPTS over PERFAN_FG_OPTS_INIT (as far as OPTS->sz reaches), with
 * the defaults filled in where a field is unset (NULL, 0, negative). */
void perfan__fg_opts(struct perfan_flamegraph_opts *o,
		     const struct perfan_flamegraph_opts *opts);

/* fg_title.c: the default title of O's graph of P into BUF (SIZE bytes,
 * cut to fit): its mode (by the column's kind), its event, how threads
 * are drawn (the process frames' root) and O's filters. Returns the
 * length the whole title has. */
size_t perfan__fg_title(char *buf, size_t size, const perfan_profile *p,
			const struct perfan_flamegraph_opts *o);

/* The index of frame I's parent in layout L (built from the trie),
 * SIZE_MAX for the root and in flame charts. */
size_t perfan__fg_layout_parent(const perfan_fg_layout *l, size_t i);

/* fg_opts.c: the image width in px. */
double perfan__fg_width(const struct perfan_flamegraph_opts *o);

struct perfan__rgb {
	uint8_t r, g, b;
};

/* The colour of a frame NAME of KIND (enum perfan_frame_kind) in PALETTE
 * (enum perfan_fg_palette); HASH picks flamegraph.pl's name hash. STATE
 * is an off-CPU leaf's key (perfan__fg_leaf_key), else ignored. */
struct perfan__rgb perfan__fg_color(int palette, int hash, const char *name,
				    uint32_t kind, uint32_t state);

/* The colour of a differential frame: red for growth, blue for shrinking,
 * saturated by the square root of DELTA / MAXDELTA; NEGATE swaps them. */
struct perfan__rgb perfan__fg_diff_color(double delta, double maxdelta,
					 int negate);

/* Kinds the legend of the kind palette shows, with their names. */
#define PERFAN__FG_KINDS 7
const char *perfan__fg_kind_label(uint32_t kind);

/* The colour of off-CPU time in STATE (enum perfan_offcpu_state): one
 * per state, blue and grey (FlameGraph's io and off-CPU convention), so
 * the legend's swatch is the frame's. */
struct perfan__rgb perfan__fg_offcpu_color(int state);

/* What an off-CPU leaf F is drawn and named by in the legend: its state
 * (enum perfan_offcpu_state), or PERFAN__FG_WAIT_KEY + its wait class
 * when it has one; -1 for a leaf of no known state. */
#define PERFAN__FG_WAIT_KEY PERFAN_OFFCPU_NR_STATES
#define PERFAN__FG_LEAF_KEYS (PERFAN_OFFCPU_NR_STATES + PERFAN_WAIT_NR_CLASSES)
int perfan__fg_leaf_key(const struct perfan_frame *f);
/* The legend's words for KEY: "sleep", "GIL", ... */
const char *perfan__fg_leaf_label(int key);

#endif
