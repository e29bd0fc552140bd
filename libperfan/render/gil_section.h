/* render/gil_section.h: the short GIL section of report and triage: the
 * threads that waited for the GIL, each one's wait, its share of the
 * thread's life, and the thread that held it most meanwhile. */
#ifndef PERFAN_RENDER_GIL_SECTION_H
#define PERFAN_RENDER_GIL_SECTION_H

#include <stdio.h>

#include <perfan/gil.h>

/* One waiting thread of G, as the section shows it. */
struct perfan__gil_row {
	const struct perfan_gil_thread *t;
	double share;                        /* of its life */
	const struct perfan_gil_thread *top; /* the top holder, or NULL */
	uint64_t top_ns;
	double top_share; /* of the thread's GIL wait */
};

/* Whether G has a thread that waited for the GIL. */
int perfan__gil_section_any(const struct perfan_gil_result *g);
/* Thread I of G as a row; 0 when it did not wait for the GIL. */
int perfan__gil_section_row(const struct perfan_gil_result *g, size_t i,
			    struct perfan__gil_row *row);
/* The section as text, each line starting with PREFIX ("# ", "  "). */
void perfan__gil_section_text(FILE *fp, const struct perfan_gil_result *g,
			      const char *prefix);

#endif
