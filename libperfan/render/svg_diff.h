/* render/svg_diff.h: the decisions of a differential flame graph
 * (render/svg_diff.c) that its SVG writer (render/svg.c) draws. */
#ifndef PERFAN_RENDER_SVG_DIFF_H
#define PERFAN_RENDER_SVG_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/diff.h>
#include <perfan/flamegraph.h>

#include "render/internal.h"

struct perfan__fg_diff {
	const struct perfan_flamegraph_opts *op;
	const perfan_profile *p;    /* the layout's */
	uint64_t total, base_total; /* after, before */
	/* the tested diff's rows by name, or NULL: the noise options
	 * decide */
	const struct perfan_diff_row **rows;
	size_t nrows;
	double maxdelta; /* the largest change drawn */
	/* per layout frame: 1 a new frame outlined, -1 a vanished one */
	signed char *mark;
	char *below;            /* per layout frame: under an outlined one */
	size_t nnew, nvanished; /* frames outlined */
	char summary[1024];     /* the line of the largest real changes */
	size_t nsummary;        /* changes it names */
};

/* Decide for layout L drawn with OP; ROOM: the characters the summary
 * line may take. Returns 0 or PERFAN_ENOMEM. */
int perfan__fg_diff_init(struct perfan__fg_diff *d, const perfan_fg_layout *l,
			 const struct perfan_flamegraph_opts *op, double room);
void perfan__fg_diff_fini(struct perfan__fg_diff *d);

/* The change frame F is coloured by (after minus before, of its self
 * share or with color_total its total share), 0 where it is not real. */
double perfan__fg_diff_change(const struct perfan__fg_diff *d,
			      const struct perfan_fg_frame *f);

/* A frame of one side only ("(other)" and "all" are none): 1 new, -1
 * vanished, 0 neither. */
int perfan__fg_one_side(const struct perfan_fg_frame *f);

#endif
