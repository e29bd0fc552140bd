/* analysis/triage_result.h: the triage result as analysis/triage.c and
 * triage_next.c make it and its sinks (render/triage_*.c) read it. */
#ifndef PERFAN_ANALYSIS_TRIAGE_RESULT_H
#define PERFAN_ANALYSIS_TRIAGE_RESULT_H

#include <perfan/triage.h>

struct perfan_triage {
	struct perfan_triage_in in;
	struct perfan_triage_opts o;
	size_t nplateaus;
	struct perfan_report_row *plateaus; /* with the thread's bounds */
	/* the diff's rows shown: the largest changes of own time either way
	 * (the significant ones when tested), and the functions new and
	 * vanished (the same), largest first */
	const struct perfan_diff_row **changes, **added, **gone;
	size_t nchanges, nadded, ngone;
	size_t runs_before, runs_after; /* the diff's runs a side */
	struct perfan_triage_site *sites;
	size_t nsites;
	/* strings owned */
	struct perfan_triage_next *next;
	size_t nnext, capnext;
};

#endif
