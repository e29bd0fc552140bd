/* render/triage.h: triage's two sinks, which perfan_triage_write
 * (render/triage_write.c) picks between. */
#ifndef PERFAN_RENDER_TRIAGE_H
#define PERFAN_RENDER_TRIAGE_H

#include <stdio.h>

#include "analysis/triage_result.h"

int perfan__triage_write_text(const struct perfan_triage *t, FILE *fp);
int perfan__triage_write_html(const struct perfan_triage *t, FILE *fp);

/* A GPU profiler's trace (t->in.gpu): the steps whose verdicts the answer
 * lists, and the charged stacks listed. */
#define PERFAN__TRIAGE_STEPS 5
#define PERFAN__TRIAGE_STACKS 10

/* triage_trace_text.c, triage_trace_html.c: a trace's answer, its GPU
 * section and its CPU ops; the sections of the CPU verdict and of the
 * change are the page's own. */
void perfan__triage_trace_text(const struct perfan_triage *t, FILE *fp);
int perfan__triage_trace_html(const struct perfan_triage *t, FILE *fp);

/* triage_change.c: the q-value of R's significant change into BUF ("-"
 * when untested; "0.02 (total)" when only its total changed
 * significantly). */
void perfan__triage_q(const struct perfan_diff_row *r, char *buf, size_t n);

#endif
