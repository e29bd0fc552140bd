/* analysis/diff_result.h: the diff as analysis/diff.c computes it and its
 * sink (render/diff_write.c) reads it. */
#ifndef PERFAN_ANALYSIS_DIFF_RESULT_H
#define PERFAN_ANALYSIS_DIFF_RESULT_H

#include <perfan/diff.h>

struct perfan_diff {
	struct perfan_diff_opts o;
	size_t nb, na, nr;    /* runs before, after, both */
	const char **runname; /* nr */
	double *run_total;    /* nr: each run's total weight */
	const char **fname;   /* nf function names (borrowed) */
	size_t nf, fcap;
	uint32_t *slot; /* name table: index + 1, 0 empty */
	size_t nslots;
	double *self_w, *total_w; /* nf * nr weights */
	double *self_v, *total_v; /* nf * nr values tested (shares) */
	struct perfan_diff_row *rows;
	size_t nrows;
	int tested;
	double noise;
	double *nsamp;     /* nr: samples behind each run's column, 0 unknown */
	int counts;        /* every run's nsamp is known */
	size_t nr_tested;  /* functions tested (self or total) */
	const char *unit;  /* perfan_diff_unit */
	double unit_scale; /* weights to unit */
	int no_bound;      /* a run's column is no time of one process or
			      thread: Amdahl says nothing (analysis/amdahl.h) */
};

#endif
