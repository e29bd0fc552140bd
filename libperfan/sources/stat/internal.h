/* sources/stat/internal.h: what the perf stat readers (text.c, csv.c, json.c) share:
 * the parsed result, rows kept with their numbers still as text until the
 * file's decimal point is known, and the helpers of row.c, runs.c and number.c. */
#ifndef PERFAN_STAT_INTERNAL_H
#define PERFAN_STAT_INTERNAL_H

#include <perfan/stat.h>

#include "util/arena.h"
#include "util/htab.h"

/* A piece of the input, not NUL-terminated. */
struct perfan__span {
	const char *p;
	size_t n;
};

/* A counter row; the spans are numbers in the file's locale, converted
 * once the whole input has been seen (n == 0: nothing to convert). */
struct perfan__stat_row {
	struct perfan_stat_counter c;
	struct perfan__span value, interval, aggr_count, variance, running;
};

/* A run as the readers see it (runs.c): its figures still as text. */
struct perfan__stat_runraw {
	struct perfan__span elapsed, user, sys;
	uint32_t elapsed_line, user_line, sys_line;
	const char *command;
	unsigned repeats;
	uint32_t line;
	int closed; /* its "seconds time elapsed" was seen */
	/* -x and -j print no footer: perf's "CPUs utilized" of task-clock
	 * (task-clock / elapsed) tells the elapsed time instead. */
	struct perfan__span cpus;
	size_t cpus_row;
};

struct perfan_stat {
	int format;
	struct perfan__stat_row *rows;
	size_t nrows, cap;
	struct perfan__arena arena;
	struct perfan__stat_runraw *rr; /* the runs while reading */
	size_t nrr, rr_cap;
	struct perfan__htab seen;        /* the current run's counter keys */
	double elapsed_v, user_v, sys_v; /* the first run's */
	unsigned runs;                   /* the first run's repeats */
	const char *name;
	int votes_dot, votes_comma; /* evidence for the decimal point */
	int weak_dot, weak_comma;   /* the same from "1,234" / "1.234" */
	const char **mo_cols;       /* the names of a metric-only text table */
	size_t mo_n;
	int mo_time, mo_aggr;   /* it has a time, an aggregation column */
	const char *metric_pmu; /* the PMU of comment-column metrics */
	size_t metric_first;    /* the first row of their group */
	char **td_cols; /* the header of a perf 4.x --topdown -x table */
	size_t td_n;
	/* a line like "TIME COUNT" without an event: an error if the input
	 * turns out to be interval output, else program output */
	uint32_t suspect_line;
	struct perfan_stat_run *runv; /* perfan_stat_run(), made by finish() */
	size_t nruns;
};

/* One line of the input: without '\n' or a '\r' before it; LAST_OPEN is
 * set on a last line that has no '\n' (it may have been cut). */
struct perfan__stat_line {
	const char *p;
	size_t n;
	uint32_t no;
	int last_open;
};

/* Readers: each returns 0 or a negative error with the message set. */
int perfan__stat_text_line(perfan_stat *s, const struct perfan__stat_line *l);
int perfan__stat_json_line(perfan_stat *s, const struct perfan__stat_line *l);
/* CSV: the separator is found first (NULL when the input is not CSV). */
const char *perfan__stat_csv_sep(perfan_stat *s, const char *text, size_t len);
int perfan__stat_csv_line(perfan_stat *s, const struct perfan__stat_line *l,
			  const char *sep);

/* text_tok.c */
#define PERFAN__STAT_MAXTOK 32
int perfan__stat_is_space(char c);
/* Split P..N on blanks into at most PERFAN__STAT_MAXTOK tokens. */
size_t perfan__stat_tokenize(const char *p, size_t n, struct perfan__span *t);
int perfan__stat_tok_is(const struct perfan__span *t, const char *s);
int perfan__stat_is_int(const struct perfan__span *t);
/* An -A / --per-* prefix: "S0-D0-C1", "CPU3", "N0", "bash-2466". */
int perfan__stat_is_aggr(const struct perfan__span *t);

/* text_metrics.c */
/* A metric-only table's row of names: 1 (kept in S), 0 (not one), or a
 * negative error. */
int perfan__stat_mo_header(perfan_stat *s, const struct perfan__span *t,
			   size_t nt);
/* A row of values under it: 1 (read), 0 (not one), or a negative error. */
int perfan__stat_mo_row(perfan_stat *s, const struct perfan__stat_line *l,
			const struct perfan__span *t, size_t nt);
/* The "# 17.5 %  tma_NAME" metric of a line, if any, as a row: on a counter
 * row (KIND ROW: of its PMU), a group label like "TopdownL1 (cpu_core)"
 * (LABEL), or a line of the comment column only (CONT). 0 or a negative
 * error. */
enum { PERFAN__STAT_ROW, PERFAN__STAT_LABEL, PERFAN__STAT_CONT };
int perfan__stat_comment_metrics(perfan_stat *s,
				 const struct perfan__stat_line *l,
				 const struct perfan__span *t, size_t nt,
				 int kind);

/* metric_row.c */
/* "% tma_retiring", "tma_retiring": 1 and the name, or 0. */
int perfan__stat_tma_unit(const char *p, size_t n, struct perfan__span *name);
/* The metric NAME = VALUE as a row of unit "%", of the counter row ON's
 * PMU, aggregation and time (ON may be NULL). 0 or a negative error. */
int perfan__stat_metric_row(perfan_stat *s, const struct perfan__stat_row *on,
			    uint32_t line, struct perfan__span value,
			    struct perfan__span name);

/* row.c: the rows the readers share */
/* A new row, in the current run (a new run when that one has ended). */
struct perfan__stat_row *perfan__stat_add(perfan_stat *s, uint32_t line);
char *perfan__stat_dup(perfan_stat *s, const char *p, size_t n);
/* Fill event, pmu and modifiers of C from its raw_name; 0 or ENOMEM. */
int perfan__stat_name(perfan_stat *s, struct perfan_stat_counter *c);
/* Set VALUE's span or the <not supported>/<not counted> flags from a
 * value field; 1 if it was one, 0 if not. */
int perfan__stat_value(struct perfan__stat_row *r, const char *p, size_t n);
void perfan__stat_defaults(struct perfan_stat_counter *c);

/* runs.c */
/* The run rows go to now (made at the first call); NULL if out of memory. */
struct perfan__stat_runraw *perfan__stat_cur_run(perfan_stat *s);
/* The run of a new row on LINE: the current one, or a new one when that
 * has ended. *ERR is set when out of memory. */
unsigned perfan__stat_row_run(perfan_stat *s, uint32_t line, int *err);
/* A new run from LINE on (a header, a "# started on" line), unless the
 * current one is still empty. 0 or PERFAN_ENOMEM. */
int perfan__stat_run_begin(perfan_stat *s, uint32_t line);
/* R, just filled, is the newest row: when its counter (name, aggregation,
 * time) is already in the current run, it begins a new run. 0 or
 * PERFAN_ENOMEM. */
int perfan__stat_row_done(perfan_stat *s, struct perfan__stat_row *r);
/* "# started on ...", which perf prints at the top of each run it writes
 * to a file: a run begins. 0 or a negative error. */
int perfan__stat_started_on(perfan_stat *s, const struct perfan__stat_line *l);
/* R (just added) is task-clock and perf printed VALUE "CPUs utilized" with
 * it: note it for the elapsed time of a run without a footer. */
void perfan__stat_cpus_utilized(perfan_stat *s,
				const struct perfan__stat_row *r,
				struct perfan__span value,
				struct perfan__span unit);
/* Read the runs' figures with decimal point DEC into s->runv, dropping
 * runs without counters. 0 or a negative error with the message set. */
int perfan__stat_runs_finish(perfan_stat *s, char dec);

/* number.c */
/* 1 if P..N looks like a number of perf's in some locale. */
int perfan__stat_is_num(const char *p, size_t n);
/* 1 if P..N is "nan", "inf" or "infinity" (any case, signed or not):
 * where a count stands, an error, not a row to skip. */
int perfan__stat_is_nonfinite(const char *p, size_t n);
/* Count the evidence P..N gives for '.' or ',' as decimal point. */
void perfan__stat_vote(perfan_stat *s, const char *p, size_t n);
/* Read P..N with DEC as decimal point and anything else between digits
 * as grouping; 0, or -1 if it is not a number. */
int perfan__stat_num(const char *p, size_t n, char dec, double *out);

#endif
