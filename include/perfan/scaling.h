/* perfan/scaling.h: how time grows with the input: profiles recorded at
 * input sizes n1, n2, ... (a size may repeat), and per function the
 * exponent k of time ~ n^k fitted by least squares on log-log with a
 * confidence interval, the whole program's time per size and its ratio per
 * doubling; as structs, text or JSON. */
#ifndef PERFAN_SCALING_H
#define PERFAN_SCALING_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_scaling perfan_scaling;

/* One run: the input size it was recorded at, a profile and the column
 * whose weights count. */
struct perfan_scaling_run {
	double size; /* > 0 */
	const perfan_profile *profile;
	size_t column;
	const char *name; /* for output (a file name), may be NULL */
};

/* What orders the functions. */
enum perfan_scaling_sort {
	PERFAN_SCALING_SORT_EXPONENT = 0, /* largest exponent first */
	PERFAN_SCALING_SORT_TIME,         /* most time at the largest size */
	PERFAN_SCALING_SORT_NAME,         /* by name */
};

/* The sort key named NAME ("exponent", "time", "name"), or -1. */
PERFAN_API int perfan_scaling_sort_parse(const char *name);

struct perfan_scaling_opts {
	size_t sz;
	/* Confidence level of the intervals, in (0, 1); 0: 0.95. */
	double level;
	/* Functions whose total share of each run's total, averaged over
	 * the runs, is below this fraction are left out (counted only); 0:
	 * 0.01, a negative value: none. */
	double min_share;
	/* Flag functions whose exponent is at least this; 0: 1.5. */
	double flag;
	int sort;     /* enum perfan_scaling_sort */
	size_t limit; /* text: at most this many functions (0: all) */
};

/* O's option NAME as perfan scaling's command line spells it, from VALUE
 * (borrowed): sort (exponent, time or name), limit (a count), min-share
 * (percent of the runs' totals; "0": none left out), level (between 0 and
 * 1). Since 0.2. Returns 0, or PERFAN_EINVAL with a message naming the
 * option ("--level: '2' is not a level between 0 and 1"). */
PERFAN_API int perfan_scaling_opts_set(struct perfan_scaling_opts *o,
				       const char *name, const char *value);

/* A fit of log(weight) = log(c) + k log(size) over the runs. */
struct perfan_scaling_fit {
	double exponent; /* k; NaN when not fitted */
	/* The t-based confidence interval of k at the level asked, from the
	 * residuals of the fit (repeats and departures from a power law);
	 * NaN without degrees of freedom (two runs only). */
	double lo, hi;
	double se; /* standard error of k (NaN as lo, hi) */
	size_t df; /* degrees of freedom: runs - 2 */
};

/* One function, matched by name across runs. Weights are its total (with
 * what it calls; a recursive function counted once per stack) and self
 * weights, in the unit of perfan_scaling_unit. */
struct perfan_scaling_row {
	const char *name;
	/* Fitted only when the function has weight in every run (fitted);
	 * self only when it also has self weight in every run. */
	struct perfan_scaling_fit total, self;
	int fitted;
	size_t nr_absent;   /* runs where it has no weight */
	int flagged;        /* total.exponent >= the flag exponent */
	double at_smallest; /* mean total weight over the smallest size's runs */
	double at_largest;  /* and over the largest size's */
	double share_at_largest; /* at_largest over the mean run total there */
	/* Per run, in the order given: total and self weights. */
	const double *runs_total, *runs_self;
};

/* One input size: its runs' total weights. */
struct perfan_scaling_size {
	double size;
	size_t nr_runs;
	double mean, min, max;
	/* (mean / the previous size's mean) ^ (1 / log2(size / previous)):
	 * the factor per doubling of the size; NaN for the smallest size. */
	double per_doubling;
	double exponent; /* log2(per_doubling): the local exponent */
};

/* Fit the runs (at least two distinct sizes). The runs' names are
 * borrowed and must outlive the result; the profiles are read only here. Returns 0; PERFAN_EINVAL for fewer than two sizes, a size that
 * is not positive, a column a profile lacks, a run without weight, or runs
 * weighed in different units (the message says which); PERFAN_ENOMEM.
 * Free with perfan_scaling_free. */
PERFAN_API int perfan_scaling_new(perfan_scaling **out,
				  const struct perfan_scaling_run *runs,
				  size_t nr,
				  const struct perfan_scaling_opts *opts);
PERFAN_API void perfan_scaling_free(perfan_scaling *s);

/* The weights' unit: "ns" when they are time (a cpu-clock or task-clock
 * period, off-CPU or wall time, as perfan_pprof_unit tells), else the
 * column's unit ("samples", or "period" for an event's count). */
PERFAN_API const char *perfan_scaling_unit(const perfan_scaling *s);

/* Sizes, smallest first. Borrowed until the result is freed. */
PERFAN_API size_t perfan_scaling_nr_sizes(const perfan_scaling *s);
PERFAN_API const struct perfan_scaling_size *
perfan_scaling_size(const perfan_scaling *s, size_t i);

/* The whole program: the fit of each run's total weight. */
PERFAN_API const struct perfan_scaling_fit *
perfan_scaling_whole(const perfan_scaling *s);

/* Functions above the share floor: the fitted ones in the sort order,
 * then those absent at some size (most time at the largest size first).
 * Borrowed until the result is freed. */
PERFAN_API size_t perfan_scaling_nr_rows(const perfan_scaling *s);
PERFAN_API const struct perfan_scaling_row *
perfan_scaling_row(const perfan_scaling *s, size_t i);
/* How many functions the share floor left out. */
PERFAN_API size_t perfan_scaling_nr_below(const perfan_scaling *s);

enum perfan_scaling_format {
	PERFAN_SCALING_TEXT = 0,
	PERFAN_SCALING_JSON = 1,
};

struct perfan_scaling_write_opts {
	size_t sz;
	int format; /* enum perfan_scaling_format */
};

/* Write the result: text (the runs, the whole program's time per size and
 * per doubling, its exponent, then the functions by the sort key) or JSON
 * {"unit", "event", "level", "flag", "min_share", "runs": [{"size", "name",
 * "total"}], "whole": {"exponent", "interval", "se", "df", "sizes":
 * [{"size", "runs", "mean", "min", "max", "per_doubling",
 * "exponent"}]}, "functions": [{"name", "fitted", "exponent",
 * "interval", "se", "self_exponent", "self_interval", "flagged",
 * "absent_runs", "at_smallest", "at_largest", "share_at_largest",
 * "runs_total", "runs_self"}], "below_share"}, with null for what is not
 * known. Returns 0, PERFAN_EINVAL, or PERFAN_EIO when writing fails. OPTS NULL:
 * text. */
PERFAN_API int
perfan_scaling_write(const perfan_scaling *s, FILE *fp,
		     const struct perfan_scaling_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
