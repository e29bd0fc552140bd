/* render/triage_trace_text.c: the triage of a GPU profiler's trace for a
 * terminal: the answer in a few lines, then per step and device the GPU
 * analysis' verdict with the GPU's busy and idle time and the CPU stacks
 * its idle time is charged to, and the CPU ops with the most self time. */
#include <stdio.h>

#include <perfan/gpu.h>
#include <perfan/text.h>

#include "render/gpu_stacks.h"
#include "render/gpu_text.h"
#include "render/triage.h"

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static double pct(int64_t part, int64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "ProfilerStep#N on GPU D: " */
static void step_name(FILE *fp, const struct perfan_gpu_step *s)
{
	if (s->name)
		perfan_text_escape(fp, s->name);
	else
		fputs("The whole trace", fp);
	fprintf(fp, " on GPU %d: ", (int)s->device);
}

static void summary(const struct perfan_triage *t, FILE *fp)
{
	const struct perfan_gpu_result *r = perfan_gpu_result(t->in.gpu);
	fputs("\nIn short\n", fp);
	if (!r->nr_steps)
		fputs("  [1] The GPU: no GPU work in the trace.\n", fp);
	for (size_t i = 0; i < r->nr_steps && i < PERFAN__TRIAGE_STEPS; i++) {
		fputs("  [1] ", fp);
		step_name(fp, &r->steps[i]);
		perfan__gpu_verdict_text(fp, &r->steps[i], r->kernel_wait);
		fputs(".\n", fp);
	}
	if (r->nr_steps > PERFAN__TRIAGE_STEPS)
		fprintf(fp, "  [1] and %zu step%s more.\n",
			r->nr_steps - PERFAN__TRIAGE_STEPS,
			r->nr_steps - PERFAN__TRIAGE_STEPS > 1 ? "s" : "");
	if (t->nplateaus) {
		const struct perfan_report_row *p = perfan_triage_plateau(t, 0);
		fputs("  [2] The CPU op with the most self time: ", fp);
		perfan_text_escape(fp, p->sym ? p->sym : "?");
		fprintf(fp, ", %.2f%% of the trace's CPU time.\n",
			p->self_percent);
	}
}

static void gpu(const struct perfan_triage *t, FILE *fp)
{
	const struct perfan_gpu_result *r = perfan_gpu_result(t->in.gpu);
	fprintf(fp,
		"\n1. The GPU, per step and device (a trace of %s; perfan "
		"gpu has the evidence)\n",
		r->layout ? r->layout : "?");
	if (!r->nr_steps)
		fputs("  no GPU work in the trace\n", fp);
	for (size_t i = 0; i < r->nr_steps; i++) {
		const struct perfan_gpu_step *s = &r->steps[i];
		int64_t wall = s->end - s->start;
		fputs("  ", fp);
		step_name(fp, s);
		perfan__gpu_verdict_text(fp, s, r->kernel_wait);
		fprintf(fp,
			"\n    wall %.3f ms; GPU busy %.3f ms (%.1f %%), idle "
			"%.3f ms (%.1f %%): ",
			ms(wall), ms(s->busy), pct(s->busy, wall), ms(s->idle),
			pct(s->idle, wall));
		perfan__gpu_idle_text(fp, s->idle_by, s->nr_gaps, s->idle);
		fputc('\n', fp);
	}
	const perfan_profile *p = perfan_gpu_profile(t->in.gpu);
	uint64_t total = perfan_profile_total(p, 0);
	if (!total)
		return;
	fprintf(fp,
		"  The CPU stacks that starved the GPU (its idle time in host "
		"and sync waits, %.3f ms, charged to them):\n",
		ms((int64_t)total));
	perfan__gpu_stack_rows(fp, p, PERFAN__TRIAGE_STACKS);
}

static void cpu_ops(const struct perfan_triage *t, FILE *fp)
{
	fputs("\n2. The CPU ops with the most self time\n", fp);
	if (!t->nplateaus) {
		fputs("  no CPU time in the trace\n", fp);
		return;
	}
	fprintf(fp, "  %10s %7s  %s\n", "self ms", "self", "op (or span)");
	for (size_t i = 0; i < t->nplateaus; i++) {
		const struct perfan_report_row *r = perfan_triage_plateau(t, i);
		fprintf(fp, "  %10.3f %6.2f%%  ", ms((int64_t)r->self),
			r->self_percent);
		perfan_text_escape(fp, r->sym ? r->sym : "?");
		fputc('\n', fp);
	}
}

void perfan__triage_trace_text(const struct perfan_triage *t, FILE *fp)
{
	summary(t, fp);
	gpu(t, fp);
	cpu_ops(t, fp);
}
