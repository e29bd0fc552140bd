/* analysis/triage_internal.h: what analysis/triage.c asks of
 * analysis/triage_next.c: what to record next. */
#ifndef PERFAN_ANALYSIS_TRIAGE_INTERNAL_H
#define PERFAN_ANALYSIS_TRIAGE_INTERNAL_H

#include "analysis/triage_result.h"

/* Fill t->next from t->in. 0 or PERFAN_ENOMEM. */
int perfan__triage_next(struct perfan_triage *t);

#endif
