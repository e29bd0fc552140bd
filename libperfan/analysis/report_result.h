/* analysis/report_result.h: what report's sink (render/report_write.c)
 * reads of a report besides the public accessors: its profile and options,
 * and the call graph of a row as a tree, which analysis/report.c builds. */
#ifndef PERFAN_ANALYSIS_REPORT_RESULT_H
#define PERFAN_ANALYSIS_REPORT_RESULT_H

#include <perfan/report.h>

#include "util/hash.h"

const perfan_profile *perfan__report_profile(const perfan_report *r);
const struct perfan_report_opts *perfan__report_opts(const perfan_report *r);

/* The module a row or graph line names for F: frames without one are
 * "[unknown]", time off the CPU "[off-cpu]". */
static inline const char *perfan__report_module(const struct perfan_frame *f)
{
	if (f->module)
		return f->module;
	return f->kind == PERFAN_FRAME_OFFCPU ? "[off-cpu]" : "[unknown]";
}

/* perf's thread of a pid-keyed row: its tid, or its pid where the tid is
 * not known (-1: neither). */
static inline int32_t perfan__report_thread(const struct perfan_report_row *row)
{
	return row->tid >= 0 ? row->tid : row->pid;
}

/* A tree of frames merged from the trie's paths; node 0 is a virtual root
 * standing for the row. */
struct perfan__report_graph {
	const perfan_profile *p;
	perfan_frame_id *frame;
	uint64_t *w;
	uint32_t *parent;
	size_t n, cap;
	struct perfan__idtab tab;
	/* children sorted, after perfan__report_graph_build */
	uint32_t *kid_start, *kids;
};

/* The call graph (enum perfan_report_graph MODE) of row I of column COL,
 * children of each node sorted heaviest first. Free G with
 * perfan__report_graph_free even after a failure. */
int perfan__report_graph_build(const perfan_report *r, size_t col, size_t i,
			       int mode, struct perfan__report_graph *g);
void perfan__report_graph_free(struct perfan__report_graph *g);
/* Is node K shown (weight, and not below percent_limit of TOTAL)? */
int perfan__report_graph_visible(const perfan_report *r,
				 const struct perfan__report_graph *g,
				 uint32_t k, uint64_t total);
/* How many children of node N are shown. */
size_t perfan__report_graph_nr_visible(const perfan_report *r,
				       const struct perfan__report_graph *g,
				       uint32_t n, uint64_t total);

#endif
