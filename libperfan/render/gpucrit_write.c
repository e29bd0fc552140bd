/* render/gpucrit_write.c: a trace's critical path as text (what the path
 * is made of, and its events by the time they hold) and as JSON (every
 * event and edge of it). */
#include <stdio.h>
#include <stdlib.h>

#include <perfan/gpucrit.h>
#include <perfan/text.h>

#include "analysis/gpucrit_trace.h"
#include "render/json.h"
#include "render/sink.h"

/* the most events the text lists */
#define TEXT_EVENTS 25

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void where(char *buf, size_t sz, const struct perfan_trace_info *ti,
		  const struct perfan_trace_event *e)
{
	if (ti->threads[e->thread].device >= 0)
		snprintf(buf, sz, "GPU %d stream %lld", (int)e->device,
			 (long long)e->stream);
	else
		snprintf(buf, sz, "thread %lld",
			 (long long)ti->threads[e->thread].tid);
}

static int by_time(const void *pa, const void *pb)
{
	const struct perfan_gpucrit_event *a = pa, *b = pb;
	if (a->time != b->time)
		return a->time > b->time ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void write_text(const void *result, FILE *fp)
{
	const struct perfan_gpucrit_result *r = perfan_gpucrit_result(result);
	const struct perfan_trace_info *ti =
		perfan_trace_info(perfan__gpucrit_trace(result));
	fprintf(fp,
		"Critical path: %.3f ms of the trace's %.3f ms (%.1f%%), %zu "
		"events, %zu edges (graph: %zu nodes, %zu edges)\n",
		(double)r->length / 1e6, (double)(r->end - r->start) / 1e6,
		pct(r->length, r->end - r->start), r->nr_events, r->nr_edges,
		r->nr_nodes, r->nr_graph_edges);
	fputs("\nBy edge type:\n", fp);
	for (int t = 0; t < PERFAN_GPUCRIT_NTYPES; t++)
		fprintf(fp, "  %12.3f ms %5.1f%%  %s\n",
			(double)r->by_type[t] / 1e6,
			pct(r->by_type[t], r->length),
			perfan_gpucrit_edge_name(t));
	fputs("\nBy kind of event:\n", fp);
	for (int k = 0; k < PERFAN_TRACE_NKINDS; k++)
		if (r->by_kind[k])
			fprintf(fp, "  %12.3f ms %5.1f%%  %s\n",
				(double)r->by_kind[k] / 1e6,
				pct(r->by_kind[k], r->length),
				perfan_trace_kind_name(k));
	struct perfan_gpucrit_event *ev =
		malloc((r->nr_events + 1) * sizeof(*ev));
	if (!ev)
		return;
	size_t n = 0;
	for (size_t i = 0; i < r->nr_events; i++)
		if (r->events[i].time > 0)
			ev[n++] = r->events[i];
	qsort(ev, n, sizeof(*ev), by_time);
	fprintf(fp,
		"\nEvents by their time on the path (%zu of %zu hold "
		"some):\n",
		n, r->nr_events);
	fprintf(fp, "  %12s %6s  %-16s %12s %12s  %-20s %s\n", "ms", "%",
		"kind", "start ms", "dur ms", "where", "name");
	for (size_t i = 0; i < n && i < TEXT_EVENTS; i++) {
		const struct perfan_trace_event *e = &ti->events[ev[i].event];
		char at[64];
		where(at, sizeof(at), ti, e);
		fprintf(fp, "  %12.3f %5.1f%%  %-16s %12.3f %12.3f  %-20s ",
			(double)ev[i].time / 1e6, pct(ev[i].time, r->length),
			perfan_trace_kind_name(e->kind),
			(double)(e->ts - r->start) / 1e6, (double)e->dur / 1e6,
			at);
		perfan_text_escape(fp, e->name ? e->name : "?");
		if (!ev[i].on_path)
			fputs(" (holds the path between its children)", fp);
		fputc('\n', fp);
	}
	if (n > TEXT_EVENTS)
		fprintf(fp, "  ... %zu more (--json lists them all)\n",
			n - TEXT_EVENTS);
	free(ev);
}

static void write_json(const void *result, FILE *fp)
{
	const struct perfan_gpucrit_result *r = perfan_gpucrit_result(result);
	const struct perfan_trace_info *ti =
		perfan_trace_info(perfan__gpucrit_trace(result));
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open(&j, "critical", '{');
	perfan__json_i64(&j, "start", r->start);
	perfan__json_i64(&j, "end", r->end);
	perfan__json_i64(&j, "length", r->length);
	perfan__json_open(&j, "by_type", '{');
	for (int t = 0; t < PERFAN_GPUCRIT_NTYPES; t++)
		perfan__json_i64(&j, perfan_gpucrit_edge_name(t),
				 r->by_type[t]);
	perfan__json_close(&j, '}');
	perfan__json_open(&j, "by_kind", '{');
	for (int k = 0; k < PERFAN_TRACE_NKINDS; k++)
		if (r->by_kind[k])
			perfan__json_i64(&j, perfan_trace_kind_name(k),
					 r->by_kind[k]);
	perfan__json_close(&j, '}');
	perfan__json_open_lines(&j, "events", '[');
	for (size_t i = 0; i < r->nr_events; i++) {
		const struct perfan_trace_event *e =
			&ti->events[r->events[i].event];
		const struct perfan_trace_thread *th = &ti->threads[e->thread];
		perfan__json_open(&j, NULL, '{');
		perfan__json_i64(&j, "index", e->index);
		perfan__json_str(&j, "name", e->name);
		perfan__json_str(&j, "kind", perfan_trace_kind_name(e->kind));
		perfan__json_i64(&j, "pid", th->pid);
		perfan__json_i64(&j, "tid", th->tid);
		perfan__json_i64(&j, "device", e->device);
		perfan__json_i64(&j, "stream", e->stream);
		perfan__json_i64(&j, "ts", e->ts);
		perfan__json_i64(&j, "dur", e->dur);
		perfan__json_bool(&j, "on_path", r->events[i].on_path);
		perfan__json_i64(&j, "time", r->events[i].time);
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_open_lines(&j, "edges", '[');
	for (size_t i = 0; i < r->nr_edges; i++) {
		const struct perfan_gpucrit_edge *e = &r->edges[i];
		perfan__json_open(&j, NULL, '{');
		perfan__json_i64(&j, "from", ti->events[e->from].index);
		perfan__json_bool(&j, "from_start", e->from_start);
		perfan__json_i64(&j, "to", ti->events[e->to].index);
		perfan__json_bool(&j, "to_start", e->to_start);
		perfan__json_str(&j, "type", perfan_gpucrit_edge_name(e->type));
		perfan__json_i64(&j, "weight", e->weight);
		perfan__json_close(&j, '}');
	}
	perfan__json_end(&j);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_GPUCRIT_TEXT] = write_text,
	[PERFAN_GPUCRIT_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_gpucrit_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_gpucrit_write(const perfan_gpucrit *c, FILE *fp,
			 const struct perfan_gpucrit_write_opts *opts)
{
	return perfan__sink_write(&sink, c, fp, opts);
}
