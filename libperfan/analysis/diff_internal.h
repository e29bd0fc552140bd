/* analysis/diff_internal.h: what analysis/diff.c and diff_amdahl.c share
 * beyond the result's layout. */
#ifndef PERFAN_ANALYSIS_DIFF_INTERNAL_H
#define PERFAN_ANALYSIS_DIFF_INTERNAL_H

#include "analysis/diff_result.h"

/* diff_names.c: the index of the function named NAME into *OUT, added
 * when new (0, or PERFAN_ENOMEM); perfan__diff_lookup: the same without
 * adding, 0 if found, -1 if not. */
int perfan__diff_function(perfan_diff *d, const char *name, uint32_t *out);
int perfan__diff_lookup(const perfan_diff *d, const char *name, uint32_t *out);

/* Whether row W's self change counts for Amdahl: significant, or with
 * one run a side beyond its sampling noise (any change when that is
 * unknown). */
int perfan__diff_amdahl_counts(const perfan_diff *d,
			       const struct perfan_diff_row *w);

/* Once the rows are made: each row's Amdahl weights (see
 * perfan_diff_row.amdahl), from the runs' stacks; MAPS give each run's
 * frame -> function index. Returns 0 or PERFAN_ENOMEM. */
int perfan__diff_attribute(perfan_diff *d, const struct perfan_diff_run *before,
			   const struct perfan_diff_run *after,
			   uint32_t *const *maps);

#endif
