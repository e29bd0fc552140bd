/* render/dump_write.c: every thread at a moment as text (py-spy dump's
 * layout: a line per thread, then its stack) and as JSON. */
#include <stdio.h>

#include <perfan/dump.h>
#include <perfan/offcpu.h>
#include <perfan/python.h>
#include <perfan/text.h>
#include <perfan/waits.h>

#include "render/json.h"
#include "render/sink.h"

static const char *state_of(const struct perfan_dump_thread *t)
{
	return t->running ? "running" : perfan_offcpu_state_name(t->state);
}

static void write_text(const void *result, FILE *fp)
{
	const struct perfan_dump_result *r = perfan_dump_result(result);
	fprintf(fp,
		"Threads at %llu.%09llu (the recording: %llu.%09llu to "
		"%llu.%09llu), %zu alive\n",
		(unsigned long long)(r->at / 1000000000),
		(unsigned long long)(r->at % 1000000000),
		(unsigned long long)(r->start / 1000000000),
		(unsigned long long)(r->start % 1000000000),
		(unsigned long long)(r->end / 1000000000),
		(unsigned long long)(r->end % 1000000000), r->nr_threads);
	for (size_t i = 0; i < r->nr_threads; i++) {
		const struct perfan_dump_thread *t = &r->threads[i];
		double ms = (double)(r->at - t->since) / 1e6;
		fputc('\n', fp);
		perfan_text_escape(fp, t->name ? t->name : "?");
		if (t->pool) {
			fputs(" (pool ", fp);
			perfan_text_escape(fp, t->pool);
			fputc(')', fp);
		}
		fprintf(fp, " %d/%d: ", (int)t->pid, (int)t->tid);
		if (t->running)
			fprintf(fp, "running for %.3f ms", ms);
		else if (t->wait)
			fprintf(fp, "off-CPU (%s) for %.3f ms",
				perfan_wait_class_name(t->wait), ms);
		else
			fprintf(fp, "off-CPU (%s) for %.3f ms", state_of(t),
				ms);
		if (t->woken)
			fprintf(fp, ", woken %.3f ms ago",
				(double)(r->at - t->woken_at) / 1e6);
		if (t->running && t->nr_frames)
			fprintf(fp, " (its last sample %.3f ms before)",
				(double)(r->at - t->stack_time) / 1e6);
		fputc('\n', fp);
		for (size_t f = 0; f < t->nr_frames; f++) {
			const struct perfan_dump_frame *fr = &t->frames[f];
			const char *q, *file;
			size_t ql;
			if (perfan_python_frame_split(fr->name, &q, &ql, &file))
				fprintf(fp, "    %.*s (%s)\n", (int)ql, q,
					file ? file : "?");
			else
				fprintf(fp, "    %s (%s)\n", fr->name,
					fr->module ? fr->module : "?");
		}
	}
}

static void write_json(const void *result, FILE *fp)
{
	const struct perfan_dump_result *r = perfan_dump_result(result);
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open(&j, "dump", '{');
	perfan__json_u64(&j, "at", r->at);
	perfan__json_u64(&j, "start", r->start);
	perfan__json_u64(&j, "end", r->end);
	perfan__json_open_lines(&j, "threads", '[');
	for (size_t i = 0; i < r->nr_threads; i++) {
		const struct perfan_dump_thread *t = &r->threads[i];
		perfan__json_open(&j, NULL, '{');
		perfan__json_str(&j, "comm", t->comm);
		perfan__json_i64(&j, "pid", t->pid);
		perfan__json_i64(&j, "tid", t->tid);
		perfan__json_str(&j, "name", t->name);
		perfan__json_str(&j, "role", t->role);
		perfan__json_str(&j, "pool", t->pool);
		perfan__json_str(&j, "state", state_of(t));
		perfan__json_str(&j, "class", perfan_wait_class_name(t->wait));
		if (t->woken)
			perfan__json_u64(&j, "woken_at", t->woken_at);
		perfan__json_u64(&j, "since", t->since);
		perfan__json_u64(&j, "stack_time", t->stack_time);
		perfan__json_open(&j, "frames", '[');
		for (size_t f = 0; f < t->nr_frames; f++) {
			perfan__json_open(&j, NULL, '{');
			perfan__json_str(&j, "name", t->frames[f].name);
			perfan__json_str(&j, "module", t->frames[f].module);
			perfan__json_u64(&j, "addr", t->frames[f].addr);
			perfan__json_close(&j, '}');
		}
		perfan__json_close(&j, ']');
		perfan__json_close(&j, '}');
	}
	perfan__json_end(&j);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_DUMP_TEXT] = write_text,
	[PERFAN_DUMP_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_dump_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_dump_write(const perfan_dump *d, FILE *fp,
		      const struct perfan_dump_write_opts *opts)
{
	return perfan__sink_write(&sink, d, fp, opts);
}
