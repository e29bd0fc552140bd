/* render/triage_graph.h: a flame graph on the triage's page
 * (render/triage_graph.c), for its sections of a recording and of a
 * trace. */
#ifndef PERFAN_RENDER_TRIAGE_GRAPH_H
#define PERFAN_RENDER_TRIAGE_GRAPH_H

#include <stdio.h>

#include "analysis/triage_result.h"

/* The flame graph of P's COLUMN, drawn as perfan flamegraph draws it
 * (its default title: its mode, event, roots and T's filters), in the
 * frame ID (the page's script draws it there). 0 or PERFAN_ENOMEM. */
int perfan__triage_graph(FILE *fp, const struct perfan_triage *t,
			 const perfan_profile *p, size_t column,
			 const char *id);

#endif
