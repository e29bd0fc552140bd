/* render/gil_write.c: the GIL ledger as text (ms, a line per thread or
 * pool, then who held the GIL while each waited) and as JSON (ns, a
 * thread each). */
#include <stdio.h>
#include <string.h>

#include <perfan/gil.h>
#include <perfan/text.h>

#include "render/gil_units.h"
#include "render/json.h"
#include "render/sink.h"

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static uint64_t life(const struct perfan_gil_thread *t)
{
	return t->end > t->start ? t->end - t->start : 0;
}

static double frac(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0;
}

static void write_text(const void *result, FILE *fp)
{
	const struct perfan_gil_result *r = perfan_gil_result(result);
	if (!r->nr_threads) {
		fputs("No GIL waits: no thread left the CPU in take_gil or "
		      "drop_gil",
		      fp);
		fputs(r->offcpu && !r->offcpu->switch_stacks
			      ? " (the recording has no switch-out stacks: "
				"record sched:sched_switch with -g or "
				"--call-graph dwarf).\n"
			      : ".\n",
		      fp);
		return;
	}
	struct perfan__gil_units us;
	if (perfan__gil_units(&us, r)) {
		fputs("(out of memory)\n", fp);
		return;
	}
	size_t n = us.n;
	char buf[256];
	int width = 28;
	for (size_t i = 0; i < n; i++) {
		perfan__gil_unit_label(&us.u[i], buf, sizeof(buf));
		if ((int)strlen(buf) > width)
			width = (int)strlen(buf);
	}
	fprintf(fp,
		"GIL ledger, %.3f s, %zu threads; waits from switch-out "
		"stacks (take_gil)%s\n\n",
		(double)(r->end - r->start) / 1e9, r->nr_threads,
		r->probes ? "; holds and waits also from perf probe events"
			  : "");
	fprintf(fp, "%-*s %10s %10s %6s %10s %10s %8s %6s %10s %10s", width,
		"thread", "life ms", "GIL wait", "%", "blocked", "run-queue",
		"handoffs", "forced", "on-CPU", "holding>=");
	if (r->probes)
		fprintf(fp, " %10s %6s %10s", "probe wait", "%", "probe hold");
	fputc('\n', fp);
	for (size_t i = 0; i < n; i++) {
		const struct perfan__gil_unit *u = &us.u[i];
		const struct perfan_gil_thread *t = &u->sum;
		perfan__gil_unit_label(u, buf, sizeof(buf));
		fprintf(fp,
			"%-*s %10.3f %10.3f %5.1f%% %10.3f %10.3f %8u %6u "
			"%10.3f %10.3f",
			width, buf, ms(u->life), ms(t->wait),
			100 * frac(t->wait, u->life), ms(t->wait_blocked),
			ms(t->wait_runq), t->episodes, t->forced, ms(t->on_cpu),
			ms(t->hold_samples));
		if (r->probes)
			fprintf(fp, " %10.3f %5.1f%% %10.3f", ms(t->probe_wait),
				100 * frac(t->probe_wait, u->life),
				ms(t->probe_hold));
		fputc('\n', fp);
	}
	fprintf(fp, "\nWho held the GIL while each thread waited (%s):\n",
		r->probes ? "from the probes"
			  : "estimated: the other threads on the CPU or "
			    "preempted then");
	for (size_t w = 0; w < n; w++) {
		const uint64_t *row = us.blame + w * (n + 1);
		uint64_t total = 0;
		for (size_t h = 0; h <= n; h++)
			total += row[h];
		if (!total)
			continue;
		perfan__gil_unit_label(&us.u[w], buf, sizeof(buf));
		fprintf(fp, "  %s waited %.3f ms:", buf, ms(total));
		const char *sep = " ";
		for (size_t h = 0; h <= n; h++) {
			if (!row[h])
				continue;
			fputs(sep, fp);
			if (h < n) {
				perfan__gil_unit_label(&us.u[h], buf,
						       sizeof(buf));
				fputs(buf, fp);
			} else {
				fputs("no holder seen", fp);
			}
			fprintf(fp, " %.1f%% (%.3f ms)",
				100 * frac(row[h], total), ms(row[h]));
			sep = ", ";
		}
		fputc('\n', fp);
	}
	perfan__gil_units_free(&us);
}

static void json_thread(struct perfan__json *j,
			const struct perfan_gil_thread *t)
{
	perfan__json_str(j, "comm", t->comm);
	perfan__json_i64(j, "pid", t->pid);
	perfan__json_i64(j, "tid", t->tid);
	perfan__json_str(j, "name", t->name);
	perfan__json_str(j, "pool", t->pool);
}

static void write_json(const void *result, FILE *fp)
{
	const struct perfan_gil_result *r = perfan_gil_result(result);
	size_t n = r->nr_threads;
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open(&j, "gil", '{');
	perfan__json_bool(&j, "probes", r->probes);
	perfan__json_bool(&j, "probes_seen", r->probes_seen);
	perfan__json_u64(&j, "start", r->start);
	perfan__json_u64(&j, "end", r->end);
	perfan__json_open_lines(&j, "threads", '[');
	for (size_t i = 0; i < n; i++) {
		const struct perfan_gil_thread *t = &r->threads[i];
		perfan__json_open(&j, NULL, '{');
		json_thread(&j, t);
		perfan__json_str(&j, "role", t->role);
		perfan__json_u64(&j, "start", t->start);
		perfan__json_u64(&j, "end", t->end);
		perfan__json_u64(&j, "life", life(t));
		perfan__json_u64(&j, "wait", t->wait);
		perfan__json_f64(&j, "wait_fraction", frac(t->wait, life(t)),
				 4);
		perfan__json_u64(&j, "wait_blocked", t->wait_blocked);
		perfan__json_u64(&j, "wait_runq", t->wait_runq);
		perfan__json_u64(&j, "episodes", t->episodes);
		/* each episode ends with the GIL handed to the thread */
		perfan__json_u64(&j, "handoffs", t->episodes);
		perfan__json_u64(&j, "forced", t->forced);
		perfan__json_u64(&j, "handoff_wait", t->handoff_wait);
		perfan__json_u64(&j, "on_cpu", t->on_cpu);
		perfan__json_u64(&j, "hold_samples", t->hold_samples);
		perfan__json_u64(&j, "probe_wait", t->probe_wait);
		perfan__json_f64(&j, "probe_wait_fraction",
				 frac(t->probe_wait, life(t)), 4);
		perfan__json_u64(&j, "probe_hold", t->probe_hold);
		perfan__json_u64(&j, "probe_episodes", t->probe_episodes);
		const uint64_t *row = r->blame + i * (n + 1);
		uint64_t total = 0;
		for (size_t h = 0; h <= n; h++)
			total += row[h];
		perfan__json_open(&j, "held_by", '[');
		for (size_t h = 0; h < n; h++) {
			if (!row[h])
				continue;
			perfan__json_open(&j, NULL, '{');
			json_thread(&j, &r->threads[h]);
			perfan__json_u64(&j, "ns", row[h]);
			perfan__json_f64(&j, "fraction", frac(row[h], total),
					 4);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
		perfan__json_u64(&j, "held_by_none", row[n]);
		perfan__json_close(&j, '}');
	}
	perfan__json_end(&j);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_GIL_TEXT] = write_text,
	[PERFAN_GIL_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_gil_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_gil_write(const perfan_gil *g, FILE *fp,
		     const struct perfan_gil_write_opts *opts)
{
	return perfan__sink_write(&sink, g, fp, opts);
}
