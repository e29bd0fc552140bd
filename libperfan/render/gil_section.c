/* render/gil_section.c: the short GIL section that report --off-cpu and
 * --wall and triage show for a recording with GIL waits: per thread that
 * waited, its GIL wait, the share of its life, and who held the GIL most
 * meanwhile (the ledger's blame matrix, perfan/gil.h). */
#include "render/gil_section.h"

#include <perfan/text.h>

int perfan__gil_section_any(const struct perfan_gil_result *g)
{
	for (size_t i = 0; g && i < g->nr_threads; i++)
		if (g->threads[i].wait)
			return 1;
	return 0;
}

int perfan__gil_section_row(const struct perfan_gil_result *g, size_t i,
			    struct perfan__gil_row *row)
{
	const struct perfan_gil_thread *t = &g->threads[i];
	if (!t->wait)
		return 0;
	uint64_t life = t->end > t->start ? t->end - t->start : 0;
	*row = (struct perfan__gil_row){t, life ? (double)t->wait / life : 0,
					NULL, 0, 0};
	/* the blame row sums to the wait it was read for (the probes'
	 * where read), the last column the time no holder was seen */
	size_t n = g->nr_threads;
	uint64_t sum = 0;
	for (size_t h = 0; g->blame && h <= n; h++) {
		uint64_t ns = g->blame[i * (n + 1) + h];
		sum += ns;
		if (h < n && h != i && ns > row->top_ns) {
			row->top = &g->threads[h];
			row->top_ns = ns;
		}
	}
	row->top_share = sum ? (double)row->top_ns / (double)sum : 0;
	return 1;
}

void perfan__gil_section_text(FILE *fp, const struct perfan_gil_result *g,
			      const char *prefix)
{
	fprintf(fp,
		"%sGIL: the threads that waited for CPython's GIL (ms, the "
		"share of their life), and the thread that held it most "
		"meanwhile (perfan gil tells more)\n",
		prefix);
	for (size_t i = 0; i < g->nr_threads; i++) {
		struct perfan__gil_row r;
		if (!perfan__gil_section_row(g, i, &r))
			continue;
		fprintf(fp, "%s%10.3f %6.1f%%  ", prefix,
			(double)r.t->wait / 1e6, 100 * r.share);
		perfan_text_escape(fp, r.t->comm ? r.t->comm : "?");
		fprintf(fp, " %d/%d", (int)r.t->pid, (int)r.t->tid);
		if (r.top) {
			fputs("  held by ", fp);
			perfan_text_escape(fp, r.top->comm ? r.top->comm : "?");
			fprintf(fp, " %d/%d %.1f%%", (int)r.top->pid,
				(int)r.top->tid, 100 * r.top_share);
		}
		fputc('\n', fp);
	}
}
