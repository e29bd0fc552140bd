/* check_autograd.c: the older autograd profiler's layout as an input
 * (sources/autograd.c) on Debian's torch 1.13's own exports
 * (testdata/torch): detection by content, every event read (the count of
 * "ph": "X" events python3's json module would find is checked by
 * tests/cli/key_averages.sh through torch's own table), every prefix an
 * error naming an offset, and damaged copies through the fuzz target. */
#define _GNU_SOURCE
#include "../fuzz/fuzz_autograd.c"

#include "testutil.h"

static const char *const real[] = {"torch/threads.json", "torch/mlp.json",
				   "torch/decode.json"};
#define NR_REAL (sizeof(real) / sizeof(real[0]))

/* What torch wrote is detected as this format, by content. */
START_TEST(test_detect)
{
	size_t len;
	char *d = tu_slurp(tu_testdata(real[_i]), &len);
	const char *f = perfan_source_detect(d, len);
	ck_assert_msg(f && !strcmp(f, "autograd profiler"), "%s: %s", real[_i],
		      f ? f : "(none)");
	perfan_trace *t = NULL;
	ck_assert_int_eq(perfan__autograd_parse(d, len, "t", &t), 0);
	const struct perfan_trace_info *ti = perfan_trace_info(t);
	ck_assert_str_eq(ti->layout, "autograd");
	/* every "ph": "X" of the file is an event (torch writes no other) */
	size_t nx = 0;
	for (const char *p = d; (p = strstr(p, "\"ph\": \"X\"")); p++)
		nx++;
	ck_assert_uint_eq(ti->nr_events, nx);
	ck_assert_uint_eq(ti->skipped, 0);
	perfan_trace_free(t);
	free(d);
}
END_TEST

/* An op and the kernel its cpu_to_cuda flow links it to, as older
 * exporters wrote them (planted: 1.13 writes no kernel): torch charges the
 * kernel's 3 us to the op (self and total CUDA), and the kernel is a GPU
 * row of its own with 3 us. */
START_TEST(test_kernel_flow)
{
	size_t len;
	char *d = tu_slurp(tu_testdata("../tests/fuzz/autograd-inputs/"
				       "kernel.json"),
			   &len);
	perfan_trace *t = NULL;
	perfan_keyavg *k = NULL;
	ck_assert_int_eq(perfan__autograd_parse(d, len, "k", &t), 0);
	ck_assert_int_eq(perfan_keyavg_new(&k, t), 0);
	const struct perfan_keyavg_result *r = perfan_keyavg_result(k);
	ck_assert_uint_eq(r->nr_rows, 2);
	ck_assert_str_eq(r->rows[0].key, "op");
	ck_assert_int_eq(r->rows[0].gpu, 0);
	ck_assert_int_eq(r->rows[0].self_cpu, 5000);
	ck_assert_int_eq(r->rows[0].self_cuda, 3000);
	ck_assert_int_eq(r->rows[0].cuda_total, 3000);
	ck_assert_str_eq(r->rows[1].key, "k");
	ck_assert_int_eq(r->rows[1].gpu, 1);
	ck_assert_int_eq(r->rows[1].cuda_total, 3000);
	ck_assert_int_eq(r->rows[1].cpu_total, 0);
	perfan_keyavg_free(k);
	perfan_trace_free(t);
	free(d);
}
END_TEST

/* Cut anywhere, a file is an error naming the offset. */
START_TEST(test_every_prefix)
{
	size_t len;
	char *d = tu_slurp(tu_testdata(real[_i]), &len);
	size_t step = !_i ? 1 : 13;
	for (size_t n = 0; n < len; n += step) {
		perfan_trace *t = NULL;
		int rc = perfan__autograd_parse(d, n, "cut", &t);
		ck_assert_msg(rc == PERFAN_ETRUNCATED, "%s cut at %zu: %d %s",
			      real[_i], n, rc, perfan_error_last());
		ck_assert_msg(!strncmp(perfan_error_last(), "cut: offset ", 12),
			      "message '%s'", perfan_error_last());
		ck_assert_ptr_null(t);
		if (n % 8 == 0) /* the target's checks, on some of them */
			LLVMFuzzerTestOneInput((const uint8_t *)d, n);
	}
	LLVMFuzzerTestOneInput((const uint8_t *)d, len);
	free(d);
}
END_TEST

/* Each byte of the first 30 events of a trace (closed) changed three
 * ways, through the fuzz target's checks. */
START_TEST(test_every_byte_damaged)
{
	size_t len;
	char *d = tu_slurp(tu_testdata(real[0]), &len);
	char *p = d;
	for (int i = 0; i < 30; i++) {
		p = strstr(p, "}}, ");
		ck_assert_ptr_nonnull(p);
		p += 2;
	}
	*p = ']';
	len = (size_t)(p - d) + 1;
	LLVMFuzzerTestOneInput((const uint8_t *)d, len);
	tu_damage_each_byte(d, len, LLVMFuzzerTestOneInput);
	free(d);
}
END_TEST

static Suite *autograd_suite(void)
{
	Suite *s = suite_create("autograd");
	TCase *tc = tcase_create("torch");
	tcase_set_timeout(tc, 240);
	tcase_add_loop_test(tc, test_detect, 0, (int)NR_REAL);
	tcase_add_test(tc, test_kernel_flow);
	tcase_add_loop_test(tc, test_every_prefix, 0, (int)NR_REAL);
	tcase_add_test(tc, test_every_byte_damaged);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(autograd_suite)
