/* render/gil_section.c: the short GIL section that report --off-cpu and
 * --wall and triage show for a recording with GIL waits: per thread or
 * pool that waited, its GIL wait, the share of its life, and who held the
 * GIL most meanwhile (the ledger's blame matrix, perfan/gil.h). */
#include "render/gil_section.h"

#include <perfan/text.h>

int perfan__gil_section_any(const struct perfan_gil_result *g)
{
	for (size_t i = 0; g && i < g->nr_threads; i++)
		if (g->threads[i].wait)
			return 1;
	return 0;
}

int perfan__gil_section_row(const struct perfan__gil_units *us, size_t i,
			    struct perfan__gil_row *row)
{
	const struct perfan__gil_unit *u = &us->u[i];
	if (!u->sum.wait)
		return 0;
	*row = (struct perfan__gil_row){
		u, u->life ? (double)u->sum.wait / u->life : 0, NULL, 0, 0};
	/* the blame row sums to the wait it was read for (the probes'
	 * where read), the last column the time no holder was seen */
	size_t n = us->n;
	uint64_t sum = 0;
	for (size_t h = 0; h <= n; h++) {
		uint64_t ns = us->blame[i * (n + 1) + h];
		sum += ns;
		if (h < n && ns > row->top_ns) {
			row->top = &us->u[h];
			row->top_ns = ns;
		}
	}
	row->top_share = sum ? (double)row->top_ns / (double)sum : 0;
	return 1;
}

void perfan__gil_section_text(FILE *fp, const struct perfan_gil_result *g,
			      const char *prefix)
{
	struct perfan__gil_units us;
	if (perfan__gil_units(&us, g))
		return;
	fprintf(fp,
		"%sGIL: the threads that waited for CPython's GIL (ms, the "
		"share of their life), and the thread that held it most "
		"meanwhile (perfan gil tells more)\n",
		prefix);
	char buf[256];
	for (size_t i = 0; i < us.n; i++) {
		struct perfan__gil_row r;
		if (!perfan__gil_section_row(&us, i, &r))
			continue;
		fprintf(fp, "%s%10.3f %6.1f%%  ", prefix,
			(double)r.u->sum.wait / 1e6, 100 * r.share);
		perfan__gil_unit_label(r.u, buf, sizeof(buf));
		perfan_text_escape(fp, buf);
		if (r.top) {
			fputs("  held by ", fp);
			perfan__gil_unit_label(r.top, buf, sizeof(buf));
			perfan_text_escape(fp, buf);
			fprintf(fp, " %.1f%%", 100 * r.top_share);
		}
		fputc('\n', fp);
	}
	perfan__gil_units_free(&us);
}
