/* sources/pstats_internal.h: the dump reader's entry for the registry's
 * cProfile source (sources/cprofile.c). */
#ifndef PERFAN_SOURCES_PSTATS_INTERNAL_H
#define PERFAN_SOURCES_PSTATS_INTERNAL_H

#include <stdio.h>

#include "sources/pstats_result.h"

/* A whole dump read from FP (NAME names it in messages), as
 * perfan_pstats_read_path reads a file; for the registry's cProfile
 * entry (sources/cprofile.c). */
int perfan__pstats_read_fp(perfan_pstats **out, FILE *fp, const char *name,
			   const struct perfan_pstats_opts *opts);

#endif
