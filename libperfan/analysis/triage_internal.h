/* analysis/triage_internal.h: the triage result (analysis/triage.c), what
 * to record next (analysis/triage_next.c), and the writers
 * (render/triage_text.c, render/triage_html.c). */
#ifndef PERFAN_ANALYSIS_TRIAGE_INTERNAL_H
#define PERFAN_ANALYSIS_TRIAGE_INTERNAL_H

#include <perfan/triage.h>

struct perfan_triage {
	struct perfan_triage_in in;
	struct perfan_triage_opts o;
	size_t nplateaus;
	struct perfan_triage_site *sites;
	size_t nsites;
	/* strings owned */
	struct perfan_triage_next *next;
	size_t nnext, capnext;
};

/* Fill t->next from t->in. 0 or PERFAN_ENOMEM. */
int perfan__triage_next(struct perfan_triage *t);

int perfan__triage_write_text(const struct perfan_triage *t, FILE *fp);
int perfan__triage_write_html(const struct perfan_triage *t, FILE *fp);

#endif
