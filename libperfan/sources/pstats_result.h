/* sources/pstats_result.h: a cProfile dump as sources/pstats.c reads it,
 * and as its report (render/pstats_write.c) and flame graph estimate
 * (sources/pstats_profile.c) read it. */
#ifndef PERFAN_SOURCES_PSTATS_RESULT_H
#define PERFAN_SOURCES_PSTATS_RESULT_H

#include <perfan/pstats.h>

#include "util/arena.h"

struct perfan_pstats {
	struct perfan__arena arena;
	struct perfan_pstats_func *funcs;
	size_t nr_funcs;
	struct perfan_pstats_edge *edges; /* by callee, then caller */
	size_t nr_edges;
	size_t *by_caller; /* edge indices by caller, then callee */
	size_t *callees;   /* function i's first entry in by_caller */
	const char **labels;
};

#endif
