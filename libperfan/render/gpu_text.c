/* render/gpu_text.c: the GPU analysis as text: per step and device its
 * verdict in one line and the evidence under it; then the whole trace as
 * HTA breaks it down, and the CPU stacks the GPU's idle time is charged
 * to. */
#include <stdio.h>

#include <perfan/gpu.h>
#include <perfan/text.h>

#include "render/gpu_stacks.h"
#include "render/gpu_text.h"

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static double pct(int64_t part, int64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *fn(const char *f)
{
	return f ? f : "(no CPU stack recorded)";
}

void perfan__gpu_verdict_text(FILE *fp, const struct perfan_gpu_step *s,
			      int64_t kw)
{
	int64_t wall = s->end - s->start;
	const char *name = perfan_gpu_verdict_name(s->verdict);
	switch (s->verdict) {
	case PERFAN_GPU_CPU_BOUND:
		fprintf(fp,
			"%s: the GPU was idle %.1f %% of the step, %.1f %% of "
			"it waiting for the host, mostly in ",
			name, pct(s->idle, wall),
			pct(s->idle_by[PERFAN_GPU_IDLE_HOST], s->idle));
		perfan_text_escape(fp, fn(s->function));
		break;
	case PERFAN_GPU_SYNC_BOUND:
		fprintf(fp,
			"%s: the GPU was idle %.1f %% of the step, %.1f %% of "
			"it while the host waited in a sync, mostly in ",
			name, pct(s->idle, wall),
			pct(s->idle_by[PERFAN_GPU_IDLE_SYNC], s->idle));
		perfan_text_escape(fp, fn(s->function));
		break;
	case PERFAN_GPU_GPU_BOUND:
		fprintf(fp,
			"%s: the GPU was busy %.1f %% of the step (compute "
			"%.1f %%), its launch queue up to %llu",
			name, pct(s->busy, wall), pct(s->compute, wall),
			(unsigned long long)s->queue_max);
		break;
	case PERFAN_GPU_COMM_BOUND:
		fprintf(fp,
			"%s: communication took %.1f %% of the GPU's busy "
			"time (%.1f %% of the step), the GPU idle %.1f %%",
			name, pct(s->communication, s->busy),
			pct(s->communication, wall), pct(s->idle, wall));
		break;
	case PERFAN_GPU_LAUNCH_BOUND:
		fprintf(fp,
			"%s: the GPU was idle %.1f %% of the step, %.1f %% of "
			"it in back-to-back gaps under %.0f us",
			name, pct(s->idle, wall),
			pct(s->idle_by[PERFAN_GPU_IDLE_KERNEL], s->idle),
			(double)kw / 1e3);
		break;
	case PERFAN_GPU_STALLED:
		fprintf(fp,
			"%s: the GPU was idle %.1f %% of the step, %.1f %% of "
			"it with its next work already queued",
			name, pct(s->idle, wall),
			pct(s->idle_by[PERFAN_GPU_IDLE_OTHER], s->idle));
		break;
	default: fputs("no GPU work in the step", fp);
	}
}

void perfan__gpu_idle_text(FILE *fp, const int64_t *idle, const uint64_t *n,
			   int64_t total)
{
	for (uint32_t c = 0; c < PERFAN_GPU_NIDLE; c++)
		fprintf(fp, "%s%s %.3f ms (%.1f %%, %llu gaps)", c ? ", " : "",
			perfan_gpu_idle_name(c), ms(idle[c]),
			pct(idle[c], total), (unsigned long long)n[c]);
}

static void step(FILE *fp, const struct perfan_gpu_step *s, int64_t kw)
{
	int64_t wall = s->end - s->start;
	fputc('\n', fp);
	if (s->name)
		perfan_text_escape(fp, s->name);
	else
		fputs("The whole trace", fp);
	fprintf(fp, " on GPU %d: ", (int)s->device);
	perfan__gpu_verdict_text(fp, s, kw);
	fputc('\n', fp);
	fprintf(fp,
		"  wall %.3f ms; GPU busy %.3f ms (%.1f %%): compute %.3f ms "
		"(%.1f %%), communication %.3f ms (%.1f %%), copies and sets "
		"%.3f ms (%.1f %%); streams waiting in syncs %.3f ms\n",
		ms(wall), ms(s->busy), pct(s->busy, wall), ms(s->compute),
		pct(s->compute, wall), ms(s->communication),
		pct(s->communication, wall), ms(s->memory),
		pct(s->memory, wall), ms(s->sync));
	fprintf(fp, "  idle %.3f ms (%.1f %%): ", ms(s->idle),
		pct(s->idle, wall));
	perfan__gpu_idle_text(fp, s->idle_by, s->nr_gaps, s->idle);
	fputc('\n', fp);
	for (size_t i = 0; i < s->nr_longest; i++) {
		const struct perfan_gpu_gap *g = &s->longest[i];
		fprintf(fp, "%s%.3f ms %s at +%.3f ms",
			i ? "; " : "  longest gaps: ", ms(g->end - g->start),
			perfan_gpu_idle_name(g->cls), ms(g->start - s->start));
		if (g->function) {
			fputs(" (", fp);
			perfan_text_escape(fp, g->function);
			fputc(')', fp);
		}
		if (i + 1 == s->nr_longest)
			fputc('\n', fp);
	}
	fprintf(fp,
		"  launches: %llu, delay p50 %.1f us, p90 %.1f us, p99 %.1f "
		"us, max %.1f us; %llu ran shorter than their launch call; "
		"launch queue mean %.1f, max %llu\n",
		(unsigned long long)s->nr_launches, (double)s->delay_p50 / 1e3,
		(double)s->delay_p90 / 1e3, (double)s->delay_p99 / 1e3,
		(double)s->delay_max / 1e3, (unsigned long long)s->nr_shorter,
		s->queue_mean, (unsigned long long)s->queue_max);
	/* shares of the launching threads' wall time together */
	int64_t twall = wall * (int64_t)(s->nr_threads ? s->nr_threads : 1);
	fprintf(fp,
		"  CPU: %u launching thread%s: in ops %.3f ms (%.1f %% of "
		"%s wall time), in CUDA runtime and driver calls %.3f ms "
		"(%.1f %%), in syncs %.3f ms (%.1f %%)\n",
		(unsigned)s->nr_threads, s->nr_threads == 1 ? "" : "s",
		ms(s->cpu_time), pct(s->cpu_time, twall),
		s->nr_threads > 1 ? "their" : "its", ms(s->cpu_runtime),
		pct(s->cpu_runtime, twall), ms(s->cpu_sync),
		pct(s->cpu_sync, twall));
	for (size_t i = 0; i < s->nr_streams; i++) {
		const struct perfan_gpu_stream *st = &s->streams[i];
		int64_t idle = 0;
		for (uint32_t c = 0; c < PERFAN_GPU_NIDLE; c++)
			idle += st->idle[c];
		fprintf(fp,
			"  stream %lld: %llu pieces of work, busy %.3f ms, "
			"gaps: ",
			(long long)st->stream, (unsigned long long)st->nr_work,
			ms(st->busy));
		perfan__gpu_idle_text(fp, st->idle, st->nr_gaps, idle);
		fputc('\n', fp);
	}
}

static void whole(FILE *fp, const struct perfan_gpu_result *r)
{
	const struct perfan_gpu_temporal *t = &r->temporal;
	fprintf(fp,
		"\nThe whole trace, as HTA breaks it down: GPU time %.3f ms "
		"(first work to last): idle %.3f ms (%.2f %%), compute %.3f "
		"ms (%.2f %%), non-compute %.3f ms (%.2f %%)\n",
		ms(t->total), ms(t->idle), pct(t->idle, t->total),
		ms(t->compute), pct(t->compute, t->total), ms(t->non_compute),
		pct(t->non_compute, t->total));
	for (size_t i = 0; i < r->nr_streams; i++) {
		const struct perfan_gpu_stream *st = &r->streams[i];
		int64_t idle = 0;
		for (uint32_t c = 0; c < PERFAN_GPU_NIDLE; c++)
			idle += st->idle[c];
		fprintf(fp,
			"  GPU %d stream %lld idle %.3f ms: ", (int)st->device,
			(long long)st->stream, ms(idle));
		perfan__gpu_idle_text(fp, st->idle, st->nr_gaps, idle);
		fputc('\n', fp);
	}
	fprintf(fp,
		"  %zu launch rows (correlation, CPU and GPU duration, "
		"delay: --json)\n",
		r->nr_launches);
}

/* The costliest stacks of P's column 0, leaf first. */
static void stacks(FILE *fp, const perfan_profile *p)
{
	uint64_t total = perfan_profile_total(p, 0);
	if (!total)
		return;
	fprintf(fp,
		"\nGPU idle time by CPU stack (host and sync waits of the "
		"steps, %.3f ms; -o FILE.svg draws them):\n",
		ms((int64_t)total));
	perfan__gpu_stack_rows(fp, p, 10);
}

void perfan__gpu_text(const perfan_gpu *g, FILE *fp)
{
	const struct perfan_gpu_result *r = perfan_gpu_result(g);
	fprintf(fp, "GPU trace (%s); times %s\n", r->layout ? r->layout : "?",
		r->hta_compat ? "as HTA rounds them (us), the last step left "
				"out"
			      : "exact (ns)");
	if (!r->nr_steps)
		fputs("\nNo GPU work in the trace.\n", fp);
	for (size_t i = 0; i < r->nr_steps; i++)
		step(fp, &r->steps[i], r->kernel_wait);
	whole(fp, r);
	stacks(fp, perfan_gpu_profile(g));
}
