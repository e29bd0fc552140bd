/* render/gpu_write.c: perfan_gpu_write: the GPU analysis as text
 * (render/gpu_text.c) or JSON (times in us, with their ns). */
#include <stdio.h>

#include <perfan/gpu.h>

#include "render/gpu_text.h"
#include "render/json.h"
#include "render/sink.h"

static void us(struct perfan__json *j, const char *key, int64_t ns)
{
	perfan__json_f64(j, key, (double)ns / 1e3, 3);
}

static void idle(struct perfan__json *j, const int64_t *v, const uint64_t *n)
{
	static const char *const keys[PERFAN_GPU_NIDLE] = {
		"host_wait", "kernel_wait", "sync_wait", "other"};
	perfan__json_open(j, "idle", '{');
	for (uint32_t c = 0; c < PERFAN_GPU_NIDLE; c++) {
		perfan__json_open(j, keys[c], '{');
		us(j, "us", v[c]);
		perfan__json_u64(j, "gaps", n[c]);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, '}');
}

static void stream(struct perfan__json *j, const struct perfan_gpu_stream *s)
{
	perfan__json_open(j, NULL, '{');
	perfan__json_i64(j, "device", s->device);
	perfan__json_i64(j, "stream", s->stream);
	perfan__json_u64(j, "work", s->nr_work);
	us(j, "busy_us", s->busy);
	idle(j, s->idle, s->nr_gaps);
	perfan__json_close(j, '}');
}

static void step(struct perfan__json *j, const struct perfan_gpu_step *s)
{
	perfan__json_open(j, NULL, '{');
	perfan__json_str(j, "name", s->name);
	perfan__json_i64(j, "device", s->device);
	us(j, "start_us", s->start);
	us(j, "wall_us", s->end - s->start);
	perfan__json_str(j, "verdict", perfan_gpu_verdict_name(s->verdict));
	perfan__json_str(j, "function", s->function);
	us(j, "function_us", s->function_ns);
	us(j, "busy_us", s->busy);
	us(j, "idle_us", s->idle);
	us(j, "compute_us", s->compute);
	us(j, "communication_us", s->communication);
	us(j, "memory_us", s->memory);
	us(j, "sync_us", s->sync);
	idle(j, s->idle_by, s->nr_gaps);
	perfan__json_open(j, "longest_gaps", '[');
	for (size_t i = 0; i < s->nr_longest; i++) {
		perfan__json_open(j, NULL, '{');
		us(j, "start_us", s->longest[i].start);
		us(j, "us", s->longest[i].end - s->longest[i].start);
		perfan__json_str(j, "class",
				 perfan_gpu_idle_name(s->longest[i].cls));
		perfan__json_str(j, "function", s->longest[i].function);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_open(j, "launches", '{');
	perfan__json_u64(j, "count", s->nr_launches);
	us(j, "delay_p50_us", s->delay_p50);
	us(j, "delay_p90_us", s->delay_p90);
	us(j, "delay_p99_us", s->delay_p99);
	us(j, "delay_max_us", s->delay_max);
	perfan__json_u64(j, "shorter_than_launch", s->nr_shorter);
	perfan__json_f64(j, "queue_mean", s->queue_mean, 2);
	perfan__json_u64(j, "queue_max", s->queue_max);
	perfan__json_close(j, '}');
	perfan__json_open(j, "cpu", '{');
	perfan__json_u64(j, "threads", s->nr_threads);
	us(j, "ops_us", s->cpu_time);
	us(j, "runtime_us", s->cpu_runtime);
	us(j, "sync_us", s->cpu_sync);
	perfan__json_close(j, '}');
	perfan__json_open_lines(j, "streams", '[');
	for (size_t i = 0; i < s->nr_streams; i++)
		stream(j, &s->streams[i]);
	perfan__json_close(j, ']');
	perfan__json_close(j, '}');
}

static void write_json(const void *result, FILE *fp)
{
	const struct perfan_gpu_result *r = perfan_gpu_result(result);
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open(&j, "gpu", '{');
	perfan__json_str(&j, "layout", r->layout);
	perfan__json_bool(&j, "hta_compat", r->hta_compat);
	perfan__json_bool(&j, "last_step_cut", r->last_step_cut);
	us(&j, "kernel_wait_us", r->kernel_wait);
	perfan__json_open_lines(&j, "steps", '[');
	for (size_t i = 0; i < r->nr_steps; i++)
		step(&j, &r->steps[i]);
	perfan__json_close(&j, ']');
	perfan__json_open(&j, "temporal", '{');
	us(&j, "total_us", r->temporal.total);
	us(&j, "idle_us", r->temporal.idle);
	us(&j, "compute_us", r->temporal.compute);
	us(&j, "non_compute_us", r->temporal.non_compute);
	perfan__json_close(&j, '}');
	perfan__json_open_lines(&j, "streams", '[');
	for (size_t i = 0; i < r->nr_streams; i++)
		stream(&j, &r->streams[i]);
	perfan__json_close(&j, ']');
	perfan__json_open_lines(&j, "launches", '[');
	for (size_t i = 0; i < r->nr_launches; i++) {
		const struct perfan_gpu_launch *l = &r->launches[i];
		perfan__json_open_tight(&j, NULL, '[');
		perfan__json_i64(&j, NULL, l->correlation);
		us(&j, NULL, l->cpu_dur);
		us(&j, NULL, l->gpu_dur);
		us(&j, NULL, l->delay);
		perfan__json_close(&j, ']');
	}
	perfan__json_close(&j, ']');
	perfan__json_end(&j);
}

static void write_text(const void *result, FILE *fp)
{
	perfan__gpu_text(result, fp);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_GPU_TEXT] = write_text,
	[PERFAN_GPU_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_gpu_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_gpu_write(const perfan_gpu *g, FILE *fp,
		     const struct perfan_gpu_write_opts *opts)
{
	return perfan__sink_write(&sink, g, fp, opts);
}
