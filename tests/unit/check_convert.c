/* check_convert.c: perfan_convert_write and its format by name or by file
 * name: each format writes what its own sink writes, and a profile with
 * no format is an error. */
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

START_TEST(test_format)
{
	ck_assert_int_eq(perfan_convert_format_parse("pprof"),
			 PERFAN_CONVERT_PPROF);
	ck_assert_int_eq(perfan_convert_format_parse("speedscope"),
			 PERFAN_CONVERT_SPEEDSCOPE);
	ck_assert_int_eq(perfan_convert_format_parse("folded"),
			 PERFAN_CONVERT_FOLDED);
	ck_assert_int_eq(perfan_convert_format_parse("svg"), -1);
	ck_assert_int_eq(perfan_convert_format_of_path("a/x.pb.gz"),
			 PERFAN_CONVERT_PPROF);
	ck_assert_int_eq(perfan_convert_format_of_path("x.pprof"),
			 PERFAN_CONVERT_PPROF);
	ck_assert_int_eq(perfan_convert_format_of_path("x.speedscope.json"),
			 PERFAN_CONVERT_SPEEDSCOPE);
	ck_assert_int_eq(perfan_convert_format_of_path("x.folded"),
			 PERFAN_CONVERT_FOLDED);
	ck_assert_int_eq(perfan_convert_format_of_path("x.json"),
			 PERFAN_CONVERT_NONE);
	ck_assert_int_eq(perfan_convert_format_of_path(".gz"),
			 PERFAN_CONVERT_NONE);
}
END_TEST

/* The bytes WRITE gives for P into *OUT (malloc'd), its size returned. */
static size_t written(int format, const perfan_load *l, char **out)
{
	size_t n = 0;
	FILE *fp = open_memstream(out, &n);
	ck_assert_ptr_nonnull(fp);
	struct perfan_convert_write_opts o =
		PERFAN_OPTS_INIT(struct perfan_convert_write_opts);
	o.format = format;
	ck_assert_int_eq(perfan_convert_write(l, fp, &o), 0);
	fclose(fp);
	return n;
}

START_TEST(test_write)
{
	const char *path =
		tu_testdata("script-wild/kernel.kernel.flamegraph.folded");
	perfan_load *l = NULL;
	ck_assert_int_eq(perfan_load_open(&l, path, NULL), 0);
	char *folded = NULL, *want = NULL, *ss = NULL;
	size_t n = written(PERFAN_CONVERT_FOLDED, l, &folded), wn = 0;
	FILE *fp = open_memstream(&want, &wn);
	ck_assert_int_eq(perfan_folded_write(perfan_load_profile(l), fp, NULL),
			 0);
	fclose(fp);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_eq(n, wn);
	ck_assert_int_eq(memcmp(folded, want, n), 0);
	/* speedscope: named after the input's file */
	written(PERFAN_CONVERT_SPEEDSCOPE, l, &ss);
	ck_assert_ptr_nonnull(strstr(ss, "kernel.kernel.flamegraph.folded"));
	ck_assert_ptr_null(strstr(ss, "script-wild/"));
	/* pprof: gzip's magic */
	char *pb = NULL;
	ck_assert_uint_gt(written(PERFAN_CONVERT_PPROF, l, &pb), 2);
	ck_assert_int_eq((unsigned char)pb[0], 0x1f);
	ck_assert_int_eq((unsigned char)pb[1], 0x8b);
	struct perfan_convert_write_opts none =
		PERFAN_OPTS_INIT(struct perfan_convert_write_opts);
	ck_assert_int_eq(perfan_convert_write(l, stdout, &none), PERFAN_EINVAL);
	ck_assert_int_eq(perfan_convert_write(NULL, stdout, NULL),
			 PERFAN_EINVAL);
	free(folded);
	free(want);
	free(ss);
	free(pb);
	perfan_load_free(l);
}
END_TEST

static Suite *convert_suite(void)
{
	Suite *s = suite_create("convert");
	TCase *tc = tcase_create("convert");
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_write);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(convert_suite)
