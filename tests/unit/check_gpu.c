/* check_gpu.c: the GPU analysis (perfan/gpu.h) on a trace planted through
 * the trace builder, whose every gap, class, delay and charge is worked
 * out by hand below (times in us):
 *
 *   CPU thread 1/1                          GPU 0 stream 7
 *   ProfilerStep#1 [0, 1000)  (user_annotation)
 *   step   [0, 1000)  python_function
 *    forward [10, 400) python_function
 *     aten::mm [20, 60), cudaLaunchKernel [30, 40) c1   K1 [50, 150)
 *     aten::relu [300, 330), launch [310, 320) c2        K2 [325, 480)
 *    sync [450, 600) python_function
 *     aten::item [460, 590)
 *      cudaStreamSynchronize [470, 580)
 *     cudaLaunchKernel [595, 598) c3                     K3 [600, 700)
 *    cudaLaunchKernel [690, 695) c4                      K4 [705, 708)
 *    cudaLaunchKernel [700, 702) c5                      K5 [850, 900)
 *
 * Gaps of the device: [0, 50) host wait (K1 launched at 30 > 0), [150,
 * 325) host wait (launched at 310 > 150), [480, 600) sync wait (launched
 * at 595 > 480, aten::item and the sync running at 480), [700, 705) kernel
 * wait (launched at 690, 5 < 10 us), [708, 850) other (launched at 700,
 * 142 us), [900, 1000) host wait (nothing launched after). */
#include <perfan/gpu.h>
#include <perfan/trace.h>

#include "testutil.h"
#include "trace/build.h"

#define US 1000

static uint32_t cpu, gpu;

static void ev(perfan_trace *t, uint32_t kind, const char *name, int64_t ts,
	       int64_t end, int64_t corr)
{
	struct perfan_trace_event e;
	perfan__trace_event_init(&e);
	e.ts = ts * US;
	e.dur = (end - ts) * US;
	e.kind = kind;
	e.name = perfan__trace_intern(t, name, strlen(name));
	e.correlation = corr;
	e.thread = kind >= PERFAN_TRACE_KERNEL ? gpu : cpu;
	if (kind >= PERFAN_TRACE_KERNEL) {
		e.device = 0;
		e.stream = 7;
	}
	if (!strcmp(name, "cudaStreamSynchronize"))
		e.sync = PERFAN_TRACE_SYNC_STREAM;
	ck_assert_int_eq(perfan__trace_add(t, &e), 0);
}

static perfan_trace *planted(void)
{
	perfan_trace *t = perfan__trace_new();
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(perfan__trace_thread(t, 1, 1, -1, -1, &cpu), 0);
	ck_assert_int_eq(perfan__trace_thread(t, 0, 7, 0, 7, &gpu), 0);
	ck_assert_int_eq(perfan__trace_thread_name(t, 1, 1, "python"), 0);
	const uint32_t py = PERFAN_TRACE_PYTHON_FUNCTION,
		       op = PERFAN_TRACE_CPU_OP, rt = PERFAN_TRACE_RUNTIME,
		       k = PERFAN_TRACE_KERNEL;
	ev(t, PERFAN_TRACE_USER_ANNOTATION, "ProfilerStep#1", 0, 1000, -1);
	ev(t, py, "train.py(3): step", 0, 1000, -1);
	ev(t, py, "model.py(5): forward", 10, 400, -1);
	ev(t, op, "aten::mm", 20, 60, -1);
	ev(t, rt, "cudaLaunchKernel", 30, 40, 1);
	ev(t, k, "volta_sgemm_128x64_nn", 50, 150, 1);
	ev(t, op, "aten::relu", 300, 330, -1);
	ev(t, rt, "cudaLaunchKernel", 310, 320, 2);
	ev(t, k, "vectorized_elementwise_kernel", 325, 480, 2);
	ev(t, py, "model.py(20): sync", 450, 600, -1);
	ev(t, op, "aten::item", 460, 590, -1);
	ev(t, rt, "cudaStreamSynchronize", 470, 580, -1);
	ev(t, rt, "cudaLaunchKernel", 595, 598, 3);
	ev(t, k, "reduce_kernel", 600, 700, 3);
	ev(t, rt, "cudaLaunchKernel", 690, 695, 4);
	ev(t, k, "tiny_kernel", 705, 708, 4);
	ev(t, rt, "cudaLaunchKernel", 700, 702, 5);
	ev(t, k, "late_kernel", 850, 900, 5);
	ck_assert_int_eq(perfan__trace_describe(t, "planted", NULL, 0, -1), 0);
	ck_assert_int_eq(perfan__trace_finish(t), 0);
	return t;
}

START_TEST(step_figures)
{
	perfan_trace *t = planted();
	perfan_gpu *g;
	ck_assert_int_eq(perfan_gpu_new(&g, t, NULL), 0);
	const struct perfan_gpu_result *r = perfan_gpu_result(g);
	ck_assert_uint_eq(r->nr_steps, 1);
	const struct perfan_gpu_step *s = &r->steps[0];
	ck_assert_str_eq(s->name, "ProfilerStep#1");
	ck_assert_int_eq(s->device, 0);
	ck_assert_int_eq(s->end - s->start, 1000 * US);
	ck_assert_int_eq(s->busy, 408 * US);
	ck_assert_int_eq(s->compute, 408 * US);
	ck_assert_int_eq(s->idle, 592 * US);
	ck_assert_int_eq(s->idle_by[PERFAN_GPU_IDLE_HOST],
			 (50 + 175 + 100) * US);
	ck_assert_int_eq(s->idle_by[PERFAN_GPU_IDLE_SYNC], 120 * US);
	ck_assert_int_eq(s->idle_by[PERFAN_GPU_IDLE_KERNEL], 5 * US);
	ck_assert_int_eq(s->idle_by[PERFAN_GPU_IDLE_OTHER], 142 * US);
	ck_assert_uint_eq(s->nr_gaps[PERFAN_GPU_IDLE_HOST], 3);
	/* the longest first: 175 (host), 142 (other), 120 (sync), 100, 50 */
	ck_assert_uint_eq(s->nr_longest, 5);
	ck_assert_int_eq(s->longest[0].end - s->longest[0].start, 175 * US);
	ck_assert_uint_eq(s->longest[0].cls, PERFAN_GPU_IDLE_HOST);
	ck_assert_str_eq(s->longest[0].function, "model.py(5): forward");
	ck_assert_int_eq(s->longest[1].end - s->longest[1].start, 142 * US);
	ck_assert_uint_eq(s->longest[1].cls, PERFAN_GPU_IDLE_OTHER);
	ck_assert_ptr_null(s->longest[1].function);
	ck_assert_uint_eq(s->longest[2].cls, PERFAN_GPU_IDLE_SYNC);
	ck_assert_str_eq(s->longest[2].function, "model.py(20): sync");
	/* delays 10, 5, 2, 10, 148 */
	ck_assert_uint_eq(s->nr_launches, 5);
	ck_assert_int_eq(s->delay_p50, 10 * US);
	ck_assert_int_eq(s->delay_p90, 148 * US);
	ck_assert_int_eq(s->delay_max, 148 * US);
	ck_assert_uint_eq(s->nr_shorter, 1); /* K4: 3 us, its launch 5 */
	ck_assert_uint_eq(s->queue_max, 2);  /* K3 running, K4 queued */
	ck_assert_uint_eq(s->nr_threads, 1);
	ck_assert_int_eq(s->cpu_time, 1000 * US);
	ck_assert_int_eq(s->cpu_runtime, (10 + 10 + 110 + 3 + 5 + 2) * US);
	ck_assert_int_eq(s->cpu_sync, 130 * US); /* aten::item */
	/* charged: [0, 50): step 10, forward 40; [150, 325): forward 175;
	 * [480, 600): sync 115 until the launch, 5 after */
	ck_assert_uint_eq(s->verdict, PERFAN_GPU_CPU_BOUND);
	ck_assert_str_eq(s->function, "model.py(5): forward");
	ck_assert_int_eq(s->function_ns, 215 * US);
	const perfan_profile *p = perfan_gpu_profile(g);
	ck_assert_uint_eq(perfan_profile_total(p, 0), 345 * US);
	/* the stream: gaps from one kernel's end to the next's start */
	ck_assert_uint_eq(s->nr_streams, 1);
	ck_assert_int_eq(s->streams[0].idle[PERFAN_GPU_IDLE_HOST], 175 * US);
	ck_assert_int_eq(s->streams[0].idle[PERFAN_GPU_IDLE_SYNC], 120 * US);
	/* the whole trace as HTA sees it: first work to last */
	ck_assert_int_eq(r->temporal.total, 850 * US);
	ck_assert_int_eq(r->temporal.idle, 442 * US);
	ck_assert_int_eq(r->temporal.compute, 408 * US);
	ck_assert_int_eq(r->temporal.non_compute, 0);
	ck_assert_uint_eq(r->nr_launches, 5);
	perfan_gpu_free(g);
	perfan_trace_free(t);
}
END_TEST

START_TEST(hta_compat)
{
	perfan_trace *t = planted();
	struct perfan_gpu_opts o = PERFAN_OPTS_INIT(struct perfan_gpu_opts);
	o.hta_compat = 1;
	perfan_gpu *g;
	ck_assert_int_eq(perfan_gpu_new(&g, t, &o), 0);
	const struct perfan_gpu_result *r = perfan_gpu_result(g);
	/* one ProfilerStep: nothing left out; no sync class */
	ck_assert_int_eq(r->last_step_cut, 0);
	ck_assert_int_eq(r->kernel_wait, 30 * US);
	ck_assert_uint_eq(r->nr_streams, 1);
	const struct perfan_gpu_stream *st = &r->streams[0];
	ck_assert_int_eq(st->idle[PERFAN_GPU_IDLE_HOST], 295 * US);
	ck_assert_int_eq(st->idle[PERFAN_GPU_IDLE_SYNC], 0);
	ck_assert_int_eq(st->idle[PERFAN_GPU_IDLE_KERNEL], 5 * US);
	ck_assert_int_eq(st->idle[PERFAN_GPU_IDLE_OTHER], 142 * US);
	perfan_gpu_free(g);
	perfan_trace_free(t);
}
END_TEST

START_TEST(bad_step_expression)
{
	perfan_trace *t = planted();
	struct perfan_gpu_opts o = PERFAN_OPTS_INIT(struct perfan_gpu_opts);
	o.step = "(";
	perfan_gpu *g = (perfan_gpu *)1;
	ck_assert_int_eq(perfan_gpu_new(&g, t, &o), PERFAN_EINVAL);
	ck_assert_ptr_null(g);
	o.step = "^nothing$"; /* no step: the whole trace */
	ck_assert_int_eq(perfan_gpu_new(&g, t, &o), 0);
	ck_assert_uint_eq(perfan_gpu_result(g)->nr_steps, 1);
	ck_assert_ptr_null(perfan_gpu_result(g)->steps[0].name);
	ck_assert_int_eq(perfan_gpu_result(g)->steps[0].end, 1000 * US);
	perfan_gpu_free(g);
	perfan_trace_free(t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gpu");
	TCase *tc = tcase_create("planted");
	tcase_add_test(tc, step_figures);
	tcase_add_test(tc, hta_compat);
	tcase_add_test(tc, bad_step_expression);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(suite)
