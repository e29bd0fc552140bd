/* perfan/diff.h: profiles compared function by function: BEFORE and AFTER,
 * each one or several runs; each function's self and total share of its
 * side (or raw weight), the change in points and relative to before, new
 * and vanished functions, a significance test across runs (Welch's t-test
 * on the per-run values with a sampling-noise floor, and a count test,
 * Benjamini-Hochberg-adjusted over the functions above a share floor),
 * the noise floor, and Amdahl's estimate of what the significant changes
 * are worth beside the whole's change; as structs, text or JSON. */
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
	size_t amdahl_top; /* changes the Amdahl line names (0: 5) */
	/* Since 0.2. The number of samples behind each run's column,
	 * nr_before values then nr_after (NULL, or 0 for a run: unknown;
	 * a column whose unit is "samples" needs none). With it each
	 * function's sample count per run is known (weight / (run total /
	 * samples)), so that sampling noise floors the run-to-run variance,
	 * counts are tested too, and one run a side gets a noise interval. */
	const double *nr_samples;
	/* Functions whose self (or total) share reaches this on either side
	 * are tested for a change of self (or total); 0: 0.005. */
	double min_share;
	/* Test the shares only. By default a change must be significant both
	 * as a share of the run and as weight per run, in the same
	 * direction: for sides that did the same work. With absolute, the
	 * weights only. */
	int shares_only;
};

/* D's option NAME as perfan diff's command line spells it, from VALUE
 * (borrowed; NULL for a switch): the switches absolute, all and shares
 * (shares_only); sort (a key of perfan_diff_sort_parse), limit (a count),
 * min-share (percent above 0, up to 100), alpha (between 0 and 1). Since
 * 0.2. Returns 0, or PERFAN_EINVAL with a message naming the option
 * ("--alpha: '2' is not a level between 0 and 1"). */
PERFAN_API int perfan_diff_opts_set(struct perfan_diff_opts *d,
				    const char *name, const char *value);

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
	/* Benjamini-Hochberg-adjusted p-values (q-values) of the test of
	 * self and of total (NaN when not tested: fewer than two runs on a
	 * side, or below min_share), and whether either change is
	 * significant (see self_significant). */
	double p_self, p_total;
	int significant;
	/* Mean weights per run (whatever absolute says), for Amdahl. */
	double before_self_weight, after_self_weight;
	/* The per-run values the test saw: nr_before then nr_after. */
	const double *runs_self, *runs_total;
	/* Since 0.2. Which change is significant: its q-value (of the share
	 * and of the weight per run, unless absolute or shares_only) below
	 * alpha, both in the same direction, and the change at least the
	 * noise floor. */
	int self_significant, total_significant;
	int tested; /* above min_share on either side, with >= 2 runs each */
	/* Half the width of the 95 % interval of the self and total change
	 * that sampling alone would give (values as the row's: shares, or
	 * weights with absolute); NaN when the sample counts are unknown. */
	double self_noise, total_noise;
	/* Since 0.2. Whether the row is one of the changes Amdahl's estimate
	 * sums (a significant change of own time, or significant code that
	 * is new or vanished), and its mean weight per run on each side:
	 * its own time with that of the callees that are not such changes
	 * themselves (each sample counted once, for the innermost of them
	 * on its stack). */
	int amdahl;
	double before_amdahl_weight, after_amdahl_weight;
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
 * the significant changes account for, before_total / (before_total +
 * the net change of the rows' Amdahl weights), and the whole's
 * before_total / after_total; TOP names the amdahl_top largest of them.
 * The changes that count (perfan_diff_row.amdahl) are the significant
 * changes of own time and the significant functions that are new or
 * vanished, each with the time of its callees that did not change
 * significantly themselves: a vanished function takes its whole cost
 * with it, a slower loop the small helpers it calls. With one run a side
 * (no test), changes beyond their sampling noise interval count instead,
 * or every change when the sample counts are unknown.
 * Meaningful when weights measure time (cpu-clock, or samples at a fixed
 * frequency) for the same work: where a run's column is no such time (a
 * tracepoint's counts, wall time summed over threads; see
 * perfan_report_row), both speed-ups are NAN and TOP is empty. */
struct perfan_diff_amdahl {
	double before_total, after_total;
	double speedup_top, speedup_whole;
	size_t nr_top;
	const struct perfan_diff_row *top[16];
};
PERFAN_API void perfan_diff_amdahl(const perfan_diff *d,
				   struct perfan_diff_amdahl *out);

/* Since 0.2. The unit that weights are printed in: "ms" for time (a
 * cpu-clock or task-clock period, or nanoseconds), "samples", or the
 * event's name (a period of cycles: "cycles"); *SCALE (when not NULL)
 * gets the factor from weights to it. Borrowed from the first run's
 * profile. */
PERFAN_API const char *perfan_diff_unit(const perfan_diff *d, double *scale);

enum perfan_diff_format {
	PERFAN_DIFF_TEXT = 0,
	PERFAN_DIFF_JSON = 1,
};

struct perfan_diff_write_opts {
	size_t sz;
	int format; /* enum perfan_diff_format */
};

/* Write the table (text: sections Shrank and Grew, significant rows only
 * unless all, how many were hidden, the noise floor, the Amdahl line) or
 * JSON with every row and its per-run values. Returns 0, PERFAN_EINVAL (a
 * NULL argument, an unknown format) or PERFAN_EIO. OPTS NULL: text. */
PERFAN_API int perfan_diff_write(const perfan_diff *d, FILE *fp,
				 const struct perfan_diff_write_opts *opts);

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
