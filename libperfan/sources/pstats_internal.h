/* sources/pstats_internal.h: the pstats handle, shared by its reader
 * (sources/pstats.c), report (render/pstats_write.c) and flame graph
 * estimate (sources/pstats_profile.c). */
#ifndef PERFAN_SOURCES_PSTATS_INTERNAL_H
#define PERFAN_SOURCES_PSTATS_INTERNAL_H

#include <stdio.h>

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

/* A whole dump read from FP (NAME names it in messages), as
 * perfan_pstats_read_path reads a file; for the registry's cProfile
 * entry (sources/cprofile.c). */
int perfan__pstats_read_fp(perfan_pstats **out, FILE *fp, const char *name,
			   const struct perfan_pstats_opts *opts);

#endif
