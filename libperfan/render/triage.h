/* render/triage.h: triage's two sinks, which perfan_triage_write
 * (render/triage_write.c) picks between. */
#ifndef PERFAN_RENDER_TRIAGE_H
#define PERFAN_RENDER_TRIAGE_H

#include <stdio.h>

#include "analysis/triage_result.h"

int perfan__triage_write_text(const struct perfan_triage *t, FILE *fp);
int perfan__triage_write_html(const struct perfan_triage *t, FILE *fp);

/* triage_change.c: the q-value of R's significant change into BUF ("-"
 * when untested; "0.02 (total)" when only its total changed
 * significantly). */
void perfan__triage_q(const struct perfan_diff_row *r, char *buf, size_t n);

#endif
