/* render/triage_trace_html.c: the triage of a GPU profiler's trace on the
 * triage's HTML page: the answer in a few lines, then per step and device
 * the GPU analysis' verdict with the GPU's busy and idle time, the CPU
 * stacks its idle time is charged to and their flame graph, and the CPU
 * ops with the most self time and theirs. */
#include <stdlib.h>
#include <string.h>

#include <perfan/gpu.h>

#include "render/gpu_stacks.h"
#include "render/gpu_text.h"
#include "render/markup.h"
#include "render/triage.h"
#include "render/triage_graph.h"
#include "util/error.h"
#include "util/log.h"

static void put(FILE *fp, const char *s)
{
	perfan__markup_text(fp, s ? s : "", s ? strlen(s) : 0);
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static double pct(int64_t part, int64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "ProfilerStep#N on GPU D" */
static void step_name(FILE *fp, const struct perfan_gpu_step *s)
{
	put(fp, s->name ? s->name : "The whole trace");
	fprintf(fp, " on GPU %d", (int)s->device);
}

/* What WRITE(FP, A, B) writes, marked up. */
static int put_written(FILE *fp, void (*write)(FILE *, const void *, int64_t),
		       const void *a, int64_t b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return perfan__nomem("triage");
	write(mem, a, b);
	int rc = fclose(mem) ? perfan__nomem("triage") : 0;
	if (!rc)
		perfan__markup_text(fp, buf, len);
	free(buf);
	return rc;
}

static void verdict(FILE *fp, const void *s, int64_t kw)
{
	perfan__gpu_verdict_text(fp, s, kw);
}

static void stack(FILE *fp, const void *p, int64_t n)
{
	perfan__gpu_stack_text(fp, p, (perfan_node_id)n);
}

static int summary(const struct perfan_triage *t, FILE *fp)
{
	const struct perfan_gpu_result *r = perfan_gpu_result(t->in.gpu);
	int rc = 0;
	fputs("<section id=\"summary\"><h2>In short</h2><ul>\n", fp);
	if (!r->nr_steps)
		fputs("<li data-section=\"gpu\"><a href=\"#gpu\">The "
		      "GPU:</a> no GPU work in the trace.</li>\n",
		      fp);
	for (size_t i = 0; i < r->nr_steps && i < PERFAN__TRIAGE_STEPS && !rc;
	     i++) {
		fputs("<li data-section=\"gpu\"><a href=\"#gpu\">", fp);
		step_name(fp, &r->steps[i]);
		fputs(":</a> ", fp);
		rc = put_written(fp, verdict, &r->steps[i], r->kernel_wait);
		fputs(".</li>\n", fp);
	}
	if (r->nr_steps > PERFAN__TRIAGE_STEPS)
		fprintf(fp,
			"<li data-section=\"gpu\"><a href=\"#gpu\">and %zu "
			"step%s more</a>.</li>\n",
			r->nr_steps - PERFAN__TRIAGE_STEPS,
			r->nr_steps - PERFAN__TRIAGE_STEPS > 1 ? "s" : "");
	if (t->nplateaus) {
		const struct perfan_report_row *p = perfan_triage_plateau(t, 0);
		fputs("<li data-section=\"plateaus\"><a href=\"#plateaus\">The "
		      "CPU op with the most self time:</a> ",
		      fp);
		put(fp, p->sym ? p->sym : "?");
		fprintf(fp, ", %.2f%% of the trace's CPU time.</li>\n",
			p->self_percent);
	}
	fputs("</ul></section>\n", fp);
	return rc;
}

static void step_row(FILE *fp, const struct perfan_gpu_step *s, int64_t kw,
		     int *rc)
{
	int64_t wall = s->end - s->start;
	fputs("<tr><td class=\"l\">", fp);
	step_name(fp, s);
	fprintf(fp,
		"</td><td>%.3f</td><td>%.3f</td><td>%.1f%%</td><td>%.3f</td>"
		"<td>%.1f%%</td>",
		ms(wall), ms(s->busy), pct(s->busy, wall), ms(s->idle),
		pct(s->idle, wall));
	for (uint32_t c = 0; c < PERFAN_GPU_NIDLE; c++)
		fprintf(fp, "<td>%.3f</td>", ms(s->idle_by[c]));
	fputs("<td class=\"l\">", fp);
	if (!*rc)
		*rc = put_written(fp, verdict, s, kw);
	fputs("</td></tr>\n", fp);
}

static int stacks(const struct perfan_triage *t, FILE *fp)
{
	const perfan_profile *p = perfan_gpu_profile(t->in.gpu);
	uint64_t total = perfan_profile_total(p, 0);
	struct perfan__gpu_stack v[PERFAN__TRIAGE_STACKS];
	size_t k = perfan__gpu_stacks(p, v, PERFAN__TRIAGE_STACKS);
	if (!total)
		return 0;
	fprintf(fp,
		"<h3>The CPU stacks that starved the GPU</h3><p>The GPU's idle "
		"time in host and sync waits, %.3f ms, charged to what the "
		"thread that launched the work after each gap did until that "
		"launch (torch's own profiler frames left out).</p>\n"
		"<table class=\"stacks\"><tr><th>ms</th><th>share</th>"
		"<th class=\"l\">stack (leaf first)</th></tr>\n",
		ms((int64_t)total));
	int rc = 0;
	for (size_t i = 0; i < k && !rc; i++) {
		fprintf(fp, "<tr><td>%.3f</td><td>%.1f%%</td><td class=\"l\">",
			ms((int64_t)v[i].w),
			pct((int64_t)v[i].w, (int64_t)total));
		rc = put_written(fp, stack, p, (int64_t)v[i].n);
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	return rc ? rc : perfan__triage_graph(fp, t, p, 0, "fg-gpu-idle");
}

static int gpu(const struct perfan_triage *t, FILE *fp)
{
	const struct perfan_gpu_result *r = perfan_gpu_result(t->in.gpu);
	fputs("<section id=\"gpu\"><h2>1. The GPU, per step and "
	      "device</h2>\n<p>A trace of ",
	      fp);
	put(fp, r->layout ? r->layout : "?");
	fputs("; <code>perfan gpu</code> has the evidence (the longest gaps, "
	      "launches, the CPU side, each stream).</p>\n",
	      fp);
	if (!r->nr_steps) {
		fputs("<p>No GPU work in the trace.</p></section>\n", fp);
		return 0;
	}
	fputs("<table class=\"gpu\"><tr><th class=\"l\">step</th>"
	      "<th>wall ms</th><th>GPU busy ms</th><th>busy</th>"
	      "<th>idle ms</th><th>idle</th>",
	      fp);
	for (uint32_t c = 0; c < PERFAN_GPU_NIDLE; c++)
		fprintf(fp, "<th>%s ms</th>", perfan_gpu_idle_name(c));
	fputs("<th class=\"l\">verdict</th></tr>\n", fp);
	int rc = 0;
	for (size_t i = 0; i < r->nr_steps; i++)
		step_row(fp, &r->steps[i], r->kernel_wait, &rc);
	fputs("</table>\n", fp);
	if (!rc)
		rc = stacks(t, fp);
	fputs("</section>\n", fp);
	return rc;
}

static int cpu_ops(const struct perfan_triage *t, FILE *fp)
{
	fputs("<section id=\"plateaus\"><h2>2. The CPU ops with the most "
	      "self time</h2>\n",
	      fp);
	if (!t->nplateaus) {
		fputs("<p>No CPU time in the trace.</p></section>\n", fp);
		return 0;
	}
	fputs("<table class=\"ops\"><tr><th>self ms</th><th>self</th>"
	      "<th class=\"l\">op (or span)</th></tr>\n",
	      fp);
	for (size_t i = 0; i < t->nplateaus; i++) {
		const struct perfan_report_row *r = perfan_triage_plateau(t, i);
		fprintf(fp, "<tr><td>%.3f</td><td>%.2f%%</td><td class=\"l\">",
			ms((int64_t)r->self), r->self_percent);
		put(fp, r->sym ? r->sym : "?");
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	const perfan_profile *cpu = t->in.cpu_graph ? t->in.cpu_graph
						    : t->in.cpu;
	size_t col = t->in.cpu_graph ? t->in.cpu_graph_column : t->in.column;
	int rc = cpu ? perfan__triage_graph(fp, t, cpu, col, "fg-cpu") : 0;
	fputs("</section>\n", fp);
	return rc;
}

int perfan__triage_trace_html(const struct perfan_triage *t, FILE *fp)
{
	int rc = summary(t, fp);
	if (!rc)
		rc = gpu(t, fp);
	if (!rc)
		rc = cpu_ops(t, fp);
	return rc;
}
