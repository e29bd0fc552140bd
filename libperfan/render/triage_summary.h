/* render/triage_summary.h: the triage's first screen as its two sinks
 * (render/triage_text.c, triage_html.c) show it: the answer in a few
 * lines, each from a section's figures, and the thread table's cap. */
#ifndef PERFAN_RENDER_TRIAGE_SUMMARY_H
#define PERFAN_RENDER_TRIAGE_SUMMARY_H

#include <stddef.h>

#include "analysis/triage_result.h"

/* One line of the answer: the section it sums up (its HTML id and
 * number), what it answers, the answer, and the command that records
 * what is missing (NULL: nothing is). */
struct perfan__triage_line {
	const char *section;
	int number;
	const char *label;
	char text[768];
	const char *command;
};

#define PERFAN__TRIAGE_LINES 4

/* The answer's lines into LINES: on CPU or waiting (the busiest
 * thread's shares, as the thread table gives them), the widest plateau
 * and its bound, the CPU's verdict (with --stat), the change since the
 * runs before (with them). Returns how many. */
size_t perfan__triage_summary(const struct perfan_triage *t,
			      struct perfan__triage_line *lines);

/* How many rows of the thread table (threads and pools) are shown. */
size_t perfan__triage_top_rows(const struct perfan_triage *t);

/* "and N more threads" (or "threads and pools (M threads)") that the
 * thread table folds into BUF; 0 when it folds none. */
int perfan__triage_folded(const struct perfan_triage *t, char *buf, size_t n);

#endif
