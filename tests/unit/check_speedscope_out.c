/* check_speedscope_out.c: the speedscope sink on small profiles made with
 * the API, its output compared whole with the file speedscope's format
 * spec gives for them (src/lib/file-format-spec.ts): profiles per process
 * root and one for stacks without, shared frames each once, one sample
 * per stack or, with kept samples, per sample in time order; units;
 * empty profiles, bad options, a failing write. */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "config.h"
#include "testutil.h"

#define HEAD                                                                     \
	"{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\", " \
	"\"exporter\": \"perfan@" PERFAN_VERSION_STRING "\", "

static void add(perfan_profile *p, const perfan_frame_id *f, size_t n,
		size_t col, uint64_t w, uint64_t time)
{
	struct perfan_sample_meta m = {time, 1, 1, 0};
	ck_assert_int_eq(
		perfan_profile_add(p, f, n, col, w, time ? &m : NULL, NULL), 0);
}

/* P's column COL written with NAME. */
static char *ss_write(const perfan_profile *p, size_t col, const char *name)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	struct perfan_speedscope_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_speedscope_write_opts);
	o.column = col;
	o.name = name;
	ck_assert_int_eq(perfan_speedscope_write(p, fp, &o), 0);
	fclose(fp);
	return buf;
}

static void expect(const perfan_profile *p, size_t col, const char *name,
		   const char *want)
{
	char *got = ss_write(p, col, name);
	ck_assert_msg(!strcmp(got, want), "got:\n%s\nwanted:\n%s", got, want);
	free(got);
}

/* Two threads and stacks without a root; no kept samples: one sample per
 * stack, depth first in name order. */
START_TEST(test_threads_by_stack)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "cpu-clock", "period"),
			 0);
	perfan_frame_id a =
		tu_frame(p, "a-1/1", NULL, NULL, 0, PERFAN_FRAME_PROCESS);
	perfan_frame_id b =
		tu_frame(p, "b-2/2", NULL, NULL, 0, PERFAN_FRAME_PROCESS);
	perfan_frame_id m = tu_frame(p, "main", "prog", "prog.c", 3, 0);
	perfan_frame_id f = tu_frame(p, "f", "prog", NULL, 0, 0);
	/* shown as f is (name, file, line): one shared frame */
	perfan_frame_id fi =
		tu_frame(p, "f", "prog", NULL, 0, PERFAN_FRAME_INLINED);
	perfan_frame_id g = tu_frame(p, "g", "libc.so.6", NULL, 0, 0);
	/* not used in column 0: not in the file */
	perfan_frame_id u = tu_frame(p, "unused", NULL, NULL, 0, 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "other", "samples"), 1);
	add(p, (perfan_frame_id[]){a, m, f}, 3, 0, 3, 0);
	add(p, (perfan_frame_id[]){a, m, g}, 3, 0, 2, 0);
	add(p, (perfan_frame_id[]){b, m}, 2, 0, 5, 0);
	add(p, (perfan_frame_id[]){b, m, fi}, 3, 0, 4, 0);
	add(p, (perfan_frame_id[]){m, g}, 2, 0, 1, 0);
	add(p, (perfan_frame_id[]){a, m}, 2, 0, 1, 0);
	add(p, (perfan_frame_id[]){a, u}, 2, 1, 9, 0);
	/* a thread's own weight, no frame below: an empty stack */
	add(p, &b, 1, 0, 2, 0);
	expect(p, 0, "in.data",
	       HEAD "\"name\": \"in.data\", \"activeProfileIndex\": 2, "
		    "\"shared\": {\"frames\": ["
		    "{\"name\": \"main\", \"file\": \"prog.c\", \"line\": 3}, "
		    "{\"name\": \"f\", \"file\": \"prog\"}, "
		    "{\"name\": \"g\", \"file\": \"libc.so.6\"}]}, "
		    "\"profiles\": ["
		    "{\"type\": \"sampled\", \"name\": \"in.data\", \"unit\": "
		    "\"nanoseconds\", \"startValue\": 0, \"endValue\": 1, "
		    "\"samples\": [[0, 2]], \"weights\": [1]}, "
		    "{\"type\": \"sampled\", \"name\": \"a-1/1\", \"unit\": "
		    "\"nanoseconds\", \"startValue\": 0, \"endValue\": 6, "
		    "\"samples\": [[0], [0, 1], [0, 2]], "
		    "\"weights\": [1, 3, 2]}, "
		    "{\"type\": \"sampled\", \"name\": \"b-2/2\", \"unit\": "
		    "\"nanoseconds\", \"startValue\": 0, \"endValue\": 11, "
		    "\"samples\": [[], [0], [0, 1]], "
		    "\"weights\": [2, 5, 4]}]}\n");
	/* column 1: thread a only; no name: "perfan" */
	expect(p, 1, NULL,
	       HEAD "\"name\": \"perfan\", \"activeProfileIndex\": 0, "
		    "\"shared\": {\"frames\": [{\"name\": \"unused\"}]}, "
		    "\"profiles\": ["
		    "{\"type\": \"sampled\", \"name\": \"a-1/1\", \"unit\": "
		    "\"none\", \"startValue\": 0, \"endValue\": 9, "
		    "\"samples\": [[0]], \"weights\": [9]}]}\n");
	perfan_profile_free(p);
}
END_TEST

/* Kept samples with times: per thread in time order (equal times as
 * kept), one per sample; samples of no weight or of another column left
 * out. */
START_TEST(test_time_order)
{
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	po.keep_samples = 1;
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, &po), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "wall", "ns"), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "n", "samples"), 1);
	perfan_frame_id t1 =
		tu_frame(p, "t-1/1", NULL, NULL, 0, PERFAN_FRAME_PROCESS);
	perfan_frame_id t2 =
		tu_frame(p, "t-1/2", NULL, NULL, 0, PERFAN_FRAME_PROCESS);
	perfan_frame_id a = tu_frame(p, "a", NULL, "a.c", 0, 0);
	perfan_frame_id b = tu_frame(p, "b", NULL, NULL, 7, 0);
	add(p, (perfan_frame_id[]){t1, a}, 2, 0, 10, 30);
	add(p, (perfan_frame_id[]){t1, b}, 2, 0, 20, 10);
	add(p, (perfan_frame_id[]){t2, a}, 2, 0, 5, 20);
	add(p, (perfan_frame_id[]){t1, a}, 2, 0, 7, 10);
	add(p, (perfan_frame_id[]){t1, b}, 2, 0, 0, 5);
	add(p, (perfan_frame_id[]){t1, a, b}, 3, 1, 1, 1);
	add(p, (perfan_frame_id[]){t1, b}, 2, 0, 1, 40);
	expect(p, 0, "x",
	       HEAD "\"name\": \"x\", \"activeProfileIndex\": 0, "
		    "\"shared\": {\"frames\": [{\"name\": \"a\", \"file\": "
		    "\"a.c\"}, {\"name\": \"b\", \"line\": 7}]}, "
		    "\"profiles\": ["
		    "{\"type\": \"sampled\", \"name\": \"t-1/1\", \"unit\": "
		    "\"nanoseconds\", \"startValue\": 0, \"endValue\": 38, "
		    "\"samples\": [[1], [0], [0], [1]], "
		    "\"weights\": [20, 7, 10, 1]}, "
		    "{\"type\": \"sampled\", \"name\": \"t-1/2\", \"unit\": "
		    "\"nanoseconds\", \"startValue\": 0, \"endValue\": 5, "
		    "\"samples\": [[0]], \"weights\": [5]}]}\n");
	perfan_profile_free(p);

	/* kept samples without times (folded text): one per stack */
	ck_assert_int_eq(perfan_profile_new(&p, &po), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "n", "samples"), 0);
	a = tu_frame(p, "a", NULL, NULL, 0, 0);
	b = tu_frame(p, "b", NULL, NULL, 0, 0);
	add(p, &b, 1, 0, 1, 0);
	add(p, &a, 1, 0, 2, 0);
	add(p, &b, 1, 0, 3, 0);
	ck_assert_uint_eq(perfan_profile_nr_samples(p), 3);
	expect(p, 0, "f",
	       HEAD "\"name\": \"f\", \"activeProfileIndex\": 0, "
		    "\"shared\": {\"frames\": [{\"name\": \"b\"}, "
		    "{\"name\": \"a\"}]}, \"profiles\": ["
		    "{\"type\": \"sampled\", \"name\": \"f\", \"unit\": "
		    "\"none\", \"startValue\": 0, \"endValue\": 6, "
		    "\"samples\": [[1], [0]], \"weights\": [2, 4]}]}\n");
	perfan_profile_free(p);
}
END_TEST

/* The unit of a column's weights as speedscope names it. */
static void unit_is(const char *name, const char *unit, const char *want)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, name, unit), 0);
	perfan_frame_id a = tu_frame(p, "a", NULL, NULL, 0, 0);
	add(p, &a, 1, 0, 1, 0);
	char *got = ss_write(p, 0, NULL);
	char key[64];
	snprintf(key, sizeof(key), "\"unit\": \"%s\"", want);
	ck_assert_msg(strstr(got, key), "%s/%s: %s", name, unit, got);
	free(got);
	perfan_profile_free(p);
}

START_TEST(test_units)
{
	unit_is("cpu-clock", "period", "nanoseconds");
	unit_is("task-clock", "period", "nanoseconds");
	unit_is("cpu-clock", "samples", "none");
	unit_is("page-faults", "period", "none");
	unit_is("off-cpu", "ns", "nanoseconds");
	unit_is("alloc", "bytes", "bytes");
	unit_is("x", "furlongs", "none");
}
END_TEST

START_TEST(test_empty_and_bad)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	/* no columns: a file with no profile */
	expect(p, 0, "e",
	       HEAD "\"name\": \"e\", \"shared\": {\"frames\": []}, "
		    "\"profiles\": []}\n");
	struct perfan_speedscope_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_speedscope_write_opts);
	o.column = 1;
	ck_assert_int_eq(perfan_speedscope_write(p, stdout, &o), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "column 1 of 0"));
	ck_assert_int_eq(perfan_speedscope_write(NULL, stdout, NULL),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_speedscope_write(p, NULL, NULL), PERFAN_EINVAL);
	/* a write that fails */
	ck_assert_int_eq(perfan_profile_add_column(p, "c", "samples"), 0);
	perfan_frame_id a = tu_frame(p, "a", NULL, NULL, 0, 0);
	for (int i = 0; i < 2000; i++)
		add(p, &a, 1, 0, 1, 0);
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		ck_assert_int_eq(perfan_speedscope_write(p, full, NULL),
				 PERFAN_EIO);
		fclose(full);
	}
	perfan_profile_free(p);
}
END_TEST

static Suite *speedscope_suite(void)
{
	Suite *s = suite_create("speedscope_out");
	TCase *tc = tcase_create("write");
	tcase_add_test(tc, test_threads_by_stack);
	tcase_add_test(tc, test_time_order);
	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_empty_and_bad);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(speedscope_suite)
