/* analysis/diff_internal.h: the diff as diff.c computes it and
 * diff_write.c prints it. */
#ifndef PERFAN_ANALYSIS_DIFF_INTERNAL_H
#define PERFAN_ANALYSIS_DIFF_INTERNAL_H

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
};

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
