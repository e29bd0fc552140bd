/* render/critical_write.c: the critical path as text (the table of rows,
 * the chain, the Amdahl bounds, the segments; ms) and as JSON (ns). */
#include <stdio.h>
#include <string.h>

#include <perfan/critical.h>
#include <perfan/python.h>
#include <perfan/waits.h>

#include "render/json.h"
#include "render/sink.h"

/* A function's name as the user wrote it: a trampoline's py::QUALNAME:FILE
 * as QUALNAME (FILE). */
static void put_function(FILE *fp, const char *name)
{
	const char *q, *file;
	size_t ql;
	if (!name)
		fputs("-", fp);
	else if (perfan_python_frame_split(name, &q, &ql, &file))
		fprintf(fp, "%.*s (%s)", (int)ql, q, file ? file : "?");
	else
		fputs(name, fp);
}

static const char *class_of(uint32_t state, uint32_t wait)
{
	const char *w = perfan_wait_class_name(wait);
	return w ? w : state == PERFAN_CRIT_BLOCKED ? "unclassified" : "-";
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* A thread as the text names it: "NAME PID/TID", into BUF (N bytes). */
static const char *label(char *buf, size_t n, const char *name, int32_t pid,
			 int32_t tid)
{
	snprintf(buf, n, "%s %d/%d", name ? name : "?", (int)pid, (int)tid);
	return buf;
}

/* Thread TID's name on R's path, from its first segment (NULL: none). */
static const char *name_of(const struct perfan_critical_result *r, int32_t tid)
{
	for (size_t i = 0; i < r->nr_segments; i++)
		if (r->segments[i].tid == tid)
			return r->segments[i].name;
	return NULL;
}

static void write_text(const void *result, FILE *fp)
{
	const struct perfan_critical_result *r = perfan_critical_result(result);
	uint64_t len = r->end - r->start;
	char th[256];
	fprintf(fp, "Critical path of %s over %.3f ms (%llu to %llu ns)\n\n",
		label(th, sizeof(th), r->name, r->pid, r->tid),
		(double)len / 1e6, (unsigned long long)r->start,
		(unsigned long long)r->end);
	int width = 24;
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct perfan_critical_row *w = &r->rows[i];
		int l = (int)strlen(
			label(th, sizeof(th), w->name, w->pid, w->tid));
		if (l > width)
			width = l;
	}
	fprintf(fp, "%10s %7s  %-9s %-13s %-*s %s\n", "ms", "%", "state",
		"class", width, "thread", "function");
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct perfan_critical_row *w = &r->rows[i];
		fprintf(fp, "%10.3f %6.2f%%  %-9s %-13s %-*s ",
			(double)w->time / 1e6, pct(w->time, len),
			perfan_critical_state_name(w->state),
			class_of(w->state, w->wait), width,
			label(th, sizeof(th), w->name, w->pid, w->tid));
		put_function(fp, w->function);
		fputc('\n', fp);
	}
	fputs("\nChain of threads:", fp);
	for (size_t i = 0; i < r->nr_chain; i++) {
		const char *name = name_of(r, r->chain[i]);
		fprintf(fp, "%s%s%s%d", i ? " <- " : " ", name ? name : "",
			name ? " " : "", (int)r->chain[i]);
	}
	fputc('\n', fp);
	if (r->unknown)
		fprintf(fp,
			"Blocked with no recorded waker (unknown): %.3f ms\n",
			(double)r->unknown / 1e6);
	if (r->nr_bounds) {
		fputs("\nAmdahl bounds on this interval:\n", fp);
		for (size_t i = 0; i < r->nr_bounds && i < 10; i++) {
			fputs("  making ", fp);
			put_function(fp, r->bounds[i].function);
			fprintf(fp,
				" free shortens it by at most %.3f ms "
				"(%.1f%%)\n",
				(double)r->bounds[i].time / 1e6,
				pct(r->bounds[i].time, len));
		}
	}
	fputs("\nSegments (ms from the start, depth: 0 the thread, 1 its "
	      "waker, ...):\n",
	      fp);
	for (size_t i = 0; i < r->nr_segments; i++) {
		const struct perfan_critical_segment *s = &r->segments[i];
		fprintf(fp, "  %10.3f %10.3f  %*s%s %d/%d %s",
			(double)(s->start - r->start) / 1e6,
			(double)(s->end - s->start) / 1e6, (int)(2 * s->depth),
			"", s->name ? s->name : "?", (int)s->pid, (int)s->tid,
			perfan_critical_state_name(s->state));
		if (s->state != PERFAN_CRIT_RUNNING)
			fprintf(fp, " (%s%s%s)", class_of(s->state, s->wait),
				s->state == PERFAN_CRIT_BLOCKED ? ", woken by "
								: "",
				s->state == PERFAN_CRIT_BLOCKED
					? (s->wake_source
						   ? perfan_wake_source_name(
							     s->wake_source)
						   : "unknown")
					: "");
		fputs(" ", fp);
		put_function(fp, s->function);
		if (s->cpu_taken_by > 0)
			fprintf(fp, " [CPU taken by %d]", (int)s->cpu_taken_by);
		fputc('\n', fp);
	}
}

static void json_thread(struct perfan__json *j, const char *comm, int32_t pid,
			int32_t tid, const char *name, const char *pool)
{
	perfan__json_str(j, "comm", comm);
	perfan__json_i64(j, "pid", pid);
	perfan__json_i64(j, "tid", tid);
	perfan__json_str(j, "name", name);
	perfan__json_str(j, "pool", pool);
}

static void write_json(const void *result, FILE *fp)
{
	const struct perfan_critical_result *r = perfan_critical_result(result);
	uint64_t len = r->end - r->start;
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open(&j, "critical", '{');
	json_thread(&j, r->comm, r->pid, r->tid, r->name, r->pool);
	perfan__json_u64(&j, "start", r->start);
	perfan__json_u64(&j, "end", r->end);
	perfan__json_u64(&j, "unknown", r->unknown);
	perfan__json_open(&j, "chain", '[');
	for (size_t i = 0; i < r->nr_chain; i++)
		perfan__json_i64(&j, NULL, r->chain[i]);
	perfan__json_close(&j, ']');
	perfan__json_open_lines(&j, "rows", '[');
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct perfan_critical_row *w = &r->rows[i];
		perfan__json_open(&j, NULL, '{');
		json_thread(&j, w->comm, w->pid, w->tid, w->name, w->pool);
		perfan__json_str(&j, "state",
				 perfan_critical_state_name(w->state));
		perfan__json_str(&j, "class", perfan_wait_class_name(w->wait));
		perfan__json_str(&j, "function", w->function);
		perfan__json_u64(&j, "ns", w->time);
		perfan__json_f64(&j, "fraction", pct(w->time, len) / 100, 6);
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_open_lines(&j, "bounds", '[');
	for (size_t i = 0; i < r->nr_bounds; i++) {
		perfan__json_open(&j, NULL, '{');
		perfan__json_str(&j, "function", r->bounds[i].function);
		perfan__json_u64(&j, "ns", r->bounds[i].time);
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_open_lines(&j, "segments", '[');
	for (size_t i = 0; i < r->nr_segments; i++) {
		const struct perfan_critical_segment *s = &r->segments[i];
		perfan__json_open(&j, NULL, '{');
		json_thread(&j, s->comm, s->pid, s->tid, s->name, s->pool);
		perfan__json_u64(&j, "depth", s->depth);
		perfan__json_str(&j, "state",
				 perfan_critical_state_name(s->state));
		perfan__json_str(&j, "class", perfan_wait_class_name(s->wait));
		perfan__json_str(
			&j, "wake",
			s->state == PERFAN_CRIT_BLOCKED
				? perfan_wake_source_name(s->wake_source)
				: NULL);
		perfan__json_str(&j, "function", s->function);
		perfan__json_i64(&j, "cpu_taken_by", s->cpu_taken_by);
		perfan__json_u64(&j, "start", s->start);
		perfan__json_u64(&j, "end", s->end);
		perfan__json_close(&j, '}');
	}
	perfan__json_end(&j);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_CRITICAL_TEXT] = write_text,
	[PERFAN_CRITICAL_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_critical_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_critical_write(const perfan_critical *c, FILE *fp,
			  const struct perfan_critical_write_opts *opts)
{
	return perfan__sink_write(&sink, c, fp, opts);
}
