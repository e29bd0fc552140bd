/* render/gil_section.h: the short GIL section of report and triage: the
 * threads (a pool's as one row) that waited for the GIL, each one's wait,
 * its share of the threads' lives, and the thread or pool that held it
 * most meanwhile. */
#ifndef PERFAN_RENDER_GIL_SECTION_H
#define PERFAN_RENDER_GIL_SECTION_H

#include <stdio.h>

#include <perfan/gil.h>

#include "render/gil_units.h"

/* One waiting row of the ledger, as the section shows it. */
struct perfan__gil_row {
	const struct perfan__gil_unit *u;
	double share;                       /* of its life */
	const struct perfan__gil_unit *top; /* the top holder, or NULL */
	uint64_t top_ns;
	double top_share; /* of the row's GIL wait */
};

/* Whether G has a thread that waited for the GIL. */
int perfan__gil_section_any(const struct perfan_gil_result *g);
/* Row I of US as the section's; 0 when it did not wait for the GIL. */
int perfan__gil_section_row(const struct perfan__gil_units *us, size_t i,
			    struct perfan__gil_row *row);
/* The section as text, each line starting with PREFIX ("# ", "  "). */
void perfan__gil_section_text(FILE *fp, const struct perfan_gil_result *g,
			      const char *prefix);

#endif
