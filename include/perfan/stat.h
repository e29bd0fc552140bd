/* perfan/stat.h: what `perf stat` printed, read back: every counter row of
 * any of its output formats (text in any locale, CSV with any separator,
 * JSON; interval, aggregation, repeat, hybrid and topdown modes) as
 * structs, with the noise around it (program output, warnings) skipped. */
#ifndef PERFAN_STAT_H
#define PERFAN_STAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <perfan/common.h>

#ifdef __cplusplus
extern "C" {
#endif

enum perfan_stat_format {
	PERFAN_STAT_TEXT = 1,
	PERFAN_STAT_CSV = 2,
	PERFAN_STAT_JSON = 3,
};

/* One counter row. Strings live as long as the perfan_stat. */
struct perfan_stat_counter {
	const char *event;     /* without PMU and modifiers: "cycles",
				 "instructions", "cache-misses",
				 "task-clock", "topdown-retiring",
				 "r0225", ... */
	const char *raw_name;  /* as printed: "cpu_core/cycles/", "cycles:u" */
	const char *pmu;       /* "cpu_core", "cpu_atom", ... or NULL */
	const char *modifiers; /* "u", "k", "uk", ... or NULL */
	double value;          /* the count; msec for task-clock/cpu-clock */
	const char *unit;      /* "msec", ... or NULL */
	int supported;         /* 0: <not supported> */
	int counted;           /* 0: <not counted> (or not supported) */
	double running_pct;    /* share of the time it ran (multiplexing);
				 100 when not printed */
	double variance_pct;   /* the +- % of -r, or -1 */
	double interval;       /* -I: the row's timestamp in seconds, or -1 */
	const char *aggr;      /* -A/--per-*: "S0-C0", "CPU3", "S0",
				 "ls-1234", ... NULL for the whole */
	double aggr_count;     /* the CPUs (or threads) aggregated, or 0 */
	uint32_t line;         /* in the input, from 1 */
	unsigned run;          /* the run it belongs to (perfan_stat_run) */
};

/* One run of perf stat in the input: a "Performance counter stats for"
 * block of text, or a CSV/JSON stretch ended by a repeated header or the
 * start of another block. A file of one run has one. Its counters are
 * perfan_stat_counter(s, first) .. (s, first + count - 1). */
struct perfan_stat_run {
	const char *command; /* the target it names: "make", "process id
				'4463'", "system wide"... or NULL */
	double elapsed;      /* "N seconds time elapsed", or -1 */
	double user, sys;    /* "N seconds user/sys", or -1 */
	unsigned repeats;    /* "(N runs)" of -r, or 1 */
	uint32_t line;       /* where it starts, from 1 */
	size_t first, count; /* its counters */
};

typedef struct perfan_stat perfan_stat;

struct perfan_stat_parse_opts {
	size_t sz;
	const char *name; /* the input, for messages */
	/* perfan_stat_read: the most bytes it holds (0: 64 MiB) */
	size_t max_bytes;
};

/* Read LEN bytes of perf stat output. The format is told from the
 * content. Lines that are not perf's (program output, warnings, blank)
 * are skipped; a line that looks like a counter row but cannot be read
 * fails with PERFAN_EFORMAT and "NAME:LINE: what is wrong". Returns 0,
 * PERFAN_EFORMAT (nothing perf stat prints in it), PERFAN_ENOMEM. */
PERFAN_API int perfan_stat_parse(perfan_stat **out, const char *text,
				 size_t len,
				 const struct perfan_stat_parse_opts *opts);
/* perfan_stat_parse on what FP gives until its end, read in blocks
 * (FP stays open). Fails early, with PERFAN_EFORMAT and the place, on
 * what is not perf stat output however long it goes on: a NUL byte (the
 * offset), a line longer than 1 MiB (its number), more than max_bytes
 * (64 MiB by default). */
PERFAN_API int perfan_stat_read(perfan_stat **out, FILE *fp,
				const struct perfan_stat_parse_opts *opts);
PERFAN_API void perfan_stat_free(perfan_stat *s);

PERFAN_API int perfan_stat_format(const perfan_stat *s);
PERFAN_API size_t perfan_stat_nr_counters(const perfan_stat *s);
PERFAN_API const struct perfan_stat_counter *
perfan_stat_counter(const perfan_stat *s, size_t i);
/* "N seconds time elapsed" (and user/sys), or -1 when not printed. */
PERFAN_API double perfan_stat_elapsed(const perfan_stat *s);
PERFAN_API double perfan_stat_user(const perfan_stat *s);
PERFAN_API double perfan_stat_sys(const perfan_stat *s);
/* "(N runs)" of -r, or 1. */
PERFAN_API unsigned perfan_stat_runs(const perfan_stat *s);
/* The runs in input order: at least one when there are counters. The
 * four accessors above give the first run's figures. */
PERFAN_API size_t perfan_stat_nr_runs(const perfan_stat *s);
PERFAN_API const struct perfan_stat_run *perfan_stat_run(const perfan_stat *s,
							 size_t i);

#ifdef __cplusplus
}
#endif
#endif
