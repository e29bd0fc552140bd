/* check_header.c: the sinks moved out of the CLI (perfan/header.h): record
 * counts written as `perf report --stats` printed them for the same file
 * (testdata/fp/stats.txt, perf's own output), in JSON with the same
 * figures, and a header in JSON and text. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "testutil.h"

static perfan_perfdata *open_fp(int unordered)
{
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	o.unordered = unordered;
	perfan_perfdata *pd;
	ck_assert_int_eq(
		perfan_perfdata_open(&pd, tu_testdata("fp/perf.data"), &o), 0);
	return pd;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	char *b = calloc(1, 1 << 20);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_gt(fread(b, 1, (1 << 20) - 1, fp), 0);
	fclose(fp);
	return b;
}

/* RS in text is perf's own report --stats of fp/perf.data */
static void check_perf_text(const perfan_recstats *rs)
{
	char *text;
	size_t n;
	FILE *fp = open_memstream(&text, &n);
	ck_assert_int_eq(perfan_recstats_write(rs, fp, NULL), 0);
	fclose(fp);
	char *want = slurp(tu_testdata("fp/stats.txt"));
	ck_assert_str_eq(text, want);
	free(want);
	free(text);
}

START_TEST(test_recstats)
{
	perfan_perfdata *pd = open_fp(1);
	perfan_recstats *rs;
	ck_assert_int_eq(perfan_recstats_new(&rs, pd), 0);
	check_perf_text(rs);
	char *text;
	size_t n;
	FILE *fp;

	struct perfan_recstats_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_recstats_write_opts);
	wo.json = 1;
	fp = open_memstream(&text, &n);
	ck_assert_int_eq(perfan_recstats_write(rs, fp, &wo), 0);
	fclose(fp);
	/* one line, the total as perf counted it */
	ck_assert_ptr_nonnull(strstr(text, "\"total\": 530, \"types\": {"));
	ck_assert_ptr_eq(strchr(text, '\n'), text + n - 1);
	ck_assert_int_eq(text[0], '{');
	ck_assert_int_eq(text[n - 2], '}');
	free(text);
	perfan_recstats_free(rs);
	perfan_perfdata_free(pd);
}
END_TEST

/* perfan_recstats_read: its own reader, the same counts */
START_TEST(test_recstats_read)
{
	perfan_recstats *rs = NULL;
	ck_assert_int_eq(perfan_recstats_read(&rs, tu_testdata("fp/perf.data"),
					      NULL),
			 0);
	check_perf_text(rs);
	perfan_recstats_free(rs);
	ck_assert_int_ne(perfan_recstats_read(&rs, "/nonexistent", NULL), 0);
	ck_assert_ptr_null(rs);
}
END_TEST

START_TEST(test_header)
{
	perfan_header *h = NULL;
	ck_assert_int_eq(
		perfan_header_read(&h, tu_testdata("fp/perf.data"), NULL), 0);
	struct perfan_header_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_header_write_opts);
	wo.json = 1;
	char *text;
	size_t n;
	FILE *fp = open_memstream(&text, &n);
	ck_assert_int_eq(perfan_header_write(h, fp, &wo), 0);
	fclose(fp);
	/* indented, one item a line */
	ck_assert_int_eq(strncmp(text, "{\n  \"file\": ", 12), 0);
	ck_assert_ptr_nonnull(strstr(text, "\n  \"pipe_mode\": false,\n"));
	free(text);

	wo.json = 0;
	fp = open_memstream(&text, &n);
	ck_assert_int_eq(perfan_header_write(h, fp, &wo), 0);
	fclose(fp);
	char *want = slurp(tu_testdata("fp/header.txt"));
	/* perf's own header lines, the first of them (the file's time
	 * comes from the checkout, so not compared) */
	ck_assert_int_eq(strncmp(text, "# ========\n", 11), 0);
	ck_assert_ptr_nonnull(strstr(want, "# header version : 1\n"));
	ck_assert_ptr_nonnull(strstr(text, "# header version : 1\n"));
	free(want);
	free(text);
	perfan_header_free(h);
	ck_assert_int_eq(perfan_header_write(NULL, stdout, NULL),
			 PERFAN_EINVAL);
}
END_TEST

static Suite *header_suite(void)
{
	Suite *s = suite_create("header");
	TCase *tc = tcase_create("sinks");
	tcase_add_test(tc, test_recstats);
	tcase_add_test(tc, test_recstats_read);
	tcase_add_test(tc, test_header);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(header_suite)
