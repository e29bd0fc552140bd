/* render/trace_header_json.c: what a trace holds as one JSON object. */
#include "render/trace_header.h"

#include "render/json.h"

static void threads(struct perfan__json *j, const struct perfan__trace_facts *f,
		    int gpu)
{
	const struct perfan_trace_info *ti = f->ti;
	perfan__json_open(j, gpu ? "streams" : "threads", '[');
	for (size_t i = 0; i < ti->nr_threads; i++) {
		const struct perfan_trace_thread *th = &ti->threads[i];
		if ((th->device >= 0) != gpu)
			continue;
		perfan__json_open(j, NULL, '{');
		perfan__json_i64(j, "pid", th->pid);
		perfan__json_i64(j, "tid", th->tid);
		if (gpu) {
			perfan__json_i64(j, "device", th->device);
			perfan__json_i64(j, "stream", th->stream);
		}
		perfan__json_str(j, "name", th->name);
		perfan__json_str(j, "process", th->process);
		perfan__json_u64(j, "events", f->per_thread[i]);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
}

void perfan__trace_header_json(FILE *fp, const struct perfan__trace_facts *f,
			       const char *format)
{
	const struct perfan_trace_info *ti = f->ti;
	struct perfan__json j;
	perfan__json_init(&j, fp, 1);
	perfan__json_open(&j, NULL, '{');
	perfan__json_str(&j, "format", format);
	perfan__json_str(&j, "layout", ti->layout);
	perfan__json_str(&j, "schema", ti->schema);
	perfan__json_i64(&j, "base_ns", ti->base_ns);
	if (ti->rank >= 0)
		perfan__json_i64(&j, "rank", ti->rank);
	else
		perfan__json_str(&j, "rank", NULL);
	if (f->have_time) {
		perfan__json_i64(&j, "first_ns", f->first);
		perfan__json_i64(&j, "last_end_ns", f->last_end);
	}
	perfan__json_open(&j, "devices", '[');
	for (int32_t d = 0; d <= f->last_device; d++) {
		perfan__json_open(&j, NULL, '{');
		perfan__json_i64(&j, "device", d);
		perfan__json_str(&j, "name", perfan_trace_device_name(f->t, d));
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_u64(&j, "nr_events", ti->nr_events);
	perfan__json_open(&j, "events", '{');
	for (int k = 0; k < PERFAN_TRACE_NKINDS; k++)
		if (f->kinds[k])
			perfan__json_u64(&j,
					 perfan_trace_kind_name(
						 (enum perfan_trace_kind)k),
					 f->kinds[k]);
	perfan__json_close(&j, '}');
	perfan__json_u64(&j, "gpu_work", f->gpu_work);
	perfan__json_u64(&j, "gpu_work_linked", f->linked);
	threads(&j, f, 0);
	threads(&j, f, 1);
	perfan__json_u64(&j, "skipped", ti->skipped);
	perfan__json_end(&j);
}
