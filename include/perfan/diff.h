/* perfan/diff.h: profiles compared function by function: BEFORE and AFTER,
 * each one or several runs; each function's self and total share of its
 * side (or raw weight), the change in points and relative to before, new
 * and vanished functions, a significance test across runs (Welch's t-test
 * on the per-run shares, Holm-adjusted), the noise floor, and Amdahl's
 * estimate of what the largest changes are worth; as structs, text or
 * JSON. */
#ifndef PERFAN_DIFF_H
#define PERFAN_DIFF_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_diff perfan_diff;

/* One run: a profile and the column whose weights count. */
struct perfan_diff_run {
	const perfan_profile *profile;
	size_t column;
	const char *name; /* for output (a file name), may be NULL */
};

/* What orders the rows. */
enum perfan_diff_sort {
	PERFAN_DIFF_SORT_SELF = 0, /* change of the self share (default) */
	PERFAN_DIFF_SORT_TOTAL,    /* change of the total share */
	PERFAN_DIFF_SORT_RELATIVE, /* relative change of the total */
	PERFAN_DIFF_SORT_BEFORE,   /* total share before, largest first */
	PERFAN_DIFF_SORT_AFTER,    /* total share after, largest first */
	PERFAN_DIFF_SORT_NAME,     /* by name */
};

/* The sort key named NAME ("self", "total", "relative", "before",
 * "after", "name"), or -1. */
PERFAN_API int perfan_diff_sort_parse(const char *name);

struct perfan_diff_opts {
	size_t sz;
	/* Compare raw weights (counts or periods) instead of shares of each
	 * side's total: for runs of the same length. */
	int absolute;
	double alpha;      /* significance level; 0: 0.05 */
	int sort;          /* enum perfan_diff_sort */
	size_t limit;      /* rows per section in text (0: all) */
	int all;           /* text: show rows that are not significant too */
	size_t amdahl_top; /* changes the Amdahl line sums (0: 5) */
};

/* Compare the runs. Every run's column is read; functions are matched by
 * name. Runs must outlive the diff. Returns 0, PERFAN_EINVAL (no run on a
 * side, a column a profile lacks), PERFAN_ENOMEM. */
PERFAN_API int
perfan_diff_new(perfan_diff **out, const struct perfan_diff_run *before,
		size_t nr_before, const struct perfan_diff_run *after,
		size_t nr_after, const struct perfan_diff_opts *opts);
PERFAN_API void perfan_diff_free(perfan_diff *d);

/* One function. Shares are fractions of each run's total (weights with
 * absolute), averaged over the side's runs. */
struct perfan_diff_row {
	const char *name;
	double before_self, after_self, before_total, after_total;
	double self_change, total_change;     /* after - before */
	double self_relative, total_relative; /* change / before; +inf new */
	int is_new, vanished;
	/* Holm-adjusted p-values of Welch's t-test on the per-run values
	 * (NaN with fewer than two runs on a side), and whether either is
	 * below alpha. */
	double p_self, p_total;
	int significant;
	/* Mean weights per run (whatever absolute says), for Amdahl. */
	double before_self_weight, after_self_weight;
	/* The per-run values the test saw: nr_before then nr_after. */
	const double *runs_self, *runs_total;
};

/* Rows ordered by the sort key: for the change keys the shrinking ones
 * first (largest drop first), then the growing ones (largest growth
 * first), then the unchanged. Borrowed until the diff is freed. */
PERFAN_API size_t perfan_diff_nr_rows(const perfan_diff *d);
PERFAN_API const struct perfan_diff_row *perfan_diff_row(const perfan_diff *d,
							 size_t i);

/* Whether the test could be made (two runs or more per side), and the
 * noise floor: the change of share (or weight) that the median function
 * would need to be significant, as a fraction (or weight); NaN without a
 * test. */
PERFAN_API int perfan_diff_tested(const perfan_diff *d);
PERFAN_API double perfan_diff_noise_floor(const perfan_diff *d);

/* Amdahl: the mean total weight per run of each side, the speed-up that
 * the amdahl_top largest self changes (by weight) account for,
 * before_total / (before_total + their net change), and the whole's
 * before_total / after_total. Meaningful when weights measure time
 * (cpu-clock, or samples at a fixed frequency) for the same work. */
struct perfan_diff_amdahl {
	double before_total, after_total;
	double speedup_top, speedup_whole;
	size_t nr_top;
	const struct perfan_diff_row *top[16];
};
PERFAN_API void perfan_diff_amdahl(const perfan_diff *d,
				   struct perfan_diff_amdahl *out);

enum perfan_diff_format {
	PERFAN_DIFF_TEXT = 0,
	PERFAN_DIFF_JSON = 1,
};

/* Write the table (text: sections Shrank and Grew, significant rows only
 * unless all, how many were hidden, the noise floor, the Amdahl line) or
 * JSON with every row and its per-run values. Returns 0 or PERFAN_EIO. */
PERFAN_API int perfan_diff_write(const perfan_diff *d, FILE *fp, int format);

/* The stacks of both sides as difffolded.pl writes them: one line per
 * stack found on either side, "STACK BEFORE AFTER", in byte order of the
 * line. Frames are written as perfan_folded_write writes them (kernel,
 * JIT and inlined frames with their _[k], _[j], _[i] suffixes). Unless
 * ABSOLUTE, BEFORE's counts are scaled to AFTER's total, exactly: with up
 * to six decimals where the scaled count is not whole, never truncated.
 * Returns 0, PERFAN_EINVAL, PERFAN_ENOMEM, PERFAN_EIO. */
PERFAN_API int perfan_diff_write_folded(const perfan_profile *before,
					size_t before_column,
					const perfan_profile *after,
					size_t after_column, int absolute,
					FILE *fp);

#ifdef __cplusplus
}
#endif
#endif
