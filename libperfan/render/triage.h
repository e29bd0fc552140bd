/* render/triage.h: triage's two sinks, which perfan_triage_write
 * (render/triage_write.c) picks between. */
#ifndef PERFAN_RENDER_TRIAGE_H
#define PERFAN_RENDER_TRIAGE_H

#include <stdio.h>

#include "analysis/triage_result.h"

int perfan__triage_write_text(const struct perfan_triage *t, FILE *fp);
int perfan__triage_write_html(const struct perfan_triage *t, FILE *fp);

#endif
