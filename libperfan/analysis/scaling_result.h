/* analysis/scaling_result.h: the scaling result as analysis/scaling.c
 * computes it and its sink (render/scaling_write.c) reads it. */
#ifndef PERFAN_ANALYSIS_SCALING_RESULT_H
#define PERFAN_ANALYSIS_SCALING_RESULT_H

#include <perfan/scaling.h>

#include "util/hash.h"

struct perfan_scaling {
	struct perfan_scaling_opts o;
	size_t nr;            /* runs */
	double *size;         /* nr: each run's input size */
	const char **runname; /* nr (borrowed, may be NULL) */
	double *run_total;    /* nr: each run's total weight */
	char *unit;           /* perfan_scaling_unit */
	char *event;          /* the first run's column name */
	char **fname;         /* nf function names (owned) */
	size_t nf, fcap;
	struct perfan__idtab tab;
	double *tw, *sw; /* nf * nr: total and self weight per run */
	struct perfan_scaling_row *rows;
	size_t nrows, nbelow;
	struct perfan_scaling_size *sizes;
	size_t nsizes;
	struct perfan_scaling_fit whole;
};

#endif
