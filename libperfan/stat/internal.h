/* stat/internal.h: what the perf stat readers (text.c, csv.c, json.c) share:
 * the parsed result, rows kept with their numbers still as text until the
 * file's decimal point is known, and the helpers of parse.c and number.c. */
#ifndef PERFAN_STAT_INTERNAL_H
#define PERFAN_STAT_INTERNAL_H

#include <perfan/stat.h>

#include "util/arena.h"

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

struct perfan_stat {
	int format;
	struct perfan__stat_row *rows;
	size_t nrows, cap;
	struct perfan__arena arena;
	struct perfan__span elapsed, user, sys;
	uint32_t elapsed_line, user_line, sys_line;
	double elapsed_v, user_v, sys_v;
	unsigned runs;
	const char *name;
	int votes_dot, votes_comma; /* evidence for the decimal point */
	int weak_dot, weak_comma;   /* the same from "1,234" / "1.234" */
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

/* parse.c */
struct perfan__stat_row *perfan__stat_add(perfan_stat *s, uint32_t line);
char *perfan__stat_dup(perfan_stat *s, const char *p, size_t n);
/* Fill event, pmu and modifiers of C from its raw_name; 0 or ENOMEM. */
int perfan__stat_name(perfan_stat *s, struct perfan_stat_counter *c);
/* Set VALUE's span or the <not supported>/<not counted> flags from a
 * value field; 1 if it was one, 0 if not. */
int perfan__stat_value(struct perfan__stat_row *r, const char *p, size_t n);
void perfan__stat_defaults(struct perfan_stat_counter *c);

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
