/* check_text.c: text from inputs written validly (perfan/text.h): UTF-8
 * checked as the standard defines it, JSON strings with U+FFFD for what is
 * not, terminal text with control characters escaped; and perfan_stat_read
 * stopping early on what perf stat never prints. */
#define _GNU_SOURCE /* fmemopen, open_memstream */
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "testutil.h"

/* What FN writes of S. */
static char *written(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	fn(fp, s);
	fclose(fp);
	return buf;
}

#define json_of(s) written(perfan_json_string, (s))
#define escaped(s) written(perfan_text_escape, (s))

START_TEST(test_utf8_len)
{
	static const struct {
		const char *s;
		size_t len;
	} cases[] = {
		{"a", 1},
		{"\xc3\xa9", 2},         /* é */
		{"\xe2\x82\xac", 3},     /* € */
		{"\xf0\x9f\x94\xa5", 4}, /* U+1F525 */
		{"\xf4\x8f\xbf\xbf", 4}, /* U+10FFFF, the last */
		{"\x80", 0},             /* a stray continuation byte */
		{"\xc3", 0},             /* cut */
		{"\xe2\x82", 0},         /* cut */
		{"\xc0\x80", 0},         /* overlong NUL */
		{"\xe0\x80\xaf", 0},     /* overlong '/' */
		{"\xed\xa0\x80", 0},     /* a UTF-16 surrogate */
		{"\xf4\x90\x80\x80", 0}, /* past U+10FFFF */
		{"\xff", 0},
		{"\xc3(", 0}, /* not a continuation */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		ck_assert_msg(perfan_utf8_len(cases[i].s, strlen(cases[i].s)) ==
				      cases[i].len,
			      "case %zu", i);
	ck_assert_uint_eq(perfan_utf8_len("\xe2\x82\xac", 2), 0); /* N */
	ck_assert_uint_eq(perfan_utf8_len("a", 0), 0);
}
END_TEST

START_TEST(test_json_string)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"plain", "\"plain\""},
		{"q\"b\\s", "\"q\\\"b\\\\s\""},
		{"\n\t\r\x01\x1b", "\"\\n\\t\\r\\u0001\\u001b\""},
		{"caf\xc3\xa9 \xe2\x82\xac", "\"caf\xc3\xa9 \xe2\x82\xac\""},
		{"b\xff\xfer", "\"b\\ufffd\\ufffdr\""},
		{"s\xed\xa0\x80x", "\"s\\ufffd\\ufffd\\ufffdx\""},
		{"cut\xe2\x82", "\"cut\\ufffd\\ufffd\""},
		{"\xc0\x80", "\"\\ufffd\\ufffd\""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = json_of(cases[i].in);
		ck_assert_str_eq(got, cases[i].out);
		free(got);
	}
	char *got = json_of(NULL);
	ck_assert_str_eq(got, "\"\"");
	free(got);
}
END_TEST

START_TEST(test_text_escape)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"plain caf\xc3\xa9", "plain caf\xc3\xa9"},
		{"\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"},
		{"\x1b]0;title\x07", "\\x1b]0;title\\x07"},
		{"two\nlines\tand\r", "two\\nlines\\tand\\x0d"},
		{"del\x7f", "del\\x7f"},
		{"csi\xc2\x9b"
		 "2J",
		 "csi\\xc2\\x9b2J"},                  /* U+009B, C1 */
		{"nbsp\xc2\xa0ok", "nbsp\xc2\xa0ok"}, /* U+00A0 is text */
		{"bad\xff\xfe", "bad\\xff\\xfe"},
		{"back\\slash", "back\\\\slash"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = escaped(cases[i].in);
		ck_assert_str_eq(got, cases[i].out);
		free(got);
	}
}
END_TEST

/* perfan_stat_read on LEN bytes of TEXT (MAX: opts.max_bytes). */
static int read_text(const char *text, size_t len, size_t max, perfan_stat **s)
{
	FILE *fp = fmemopen((void *)text, len, "r");
	ck_assert_ptr_nonnull(fp);
	struct perfan_stat_parse_opts o =
		PERFAN_OPTS_INIT(struct perfan_stat_parse_opts);
	o.name = "t.txt";
	o.max_bytes = max;
	int rc = perfan_stat_read(s, fp, &o);
	fclose(fp);
	return rc;
}

START_TEST(test_stat_read)
{
	perfan_stat *s = NULL;
	static const char ok[] =
		"\n Performance counter stats for 'true':\n\n"
		"              0.52 msec task-clock           #    0.400 CPUs "
		"utilized\n"
		"         1,234,567      cycles\n"
		"         2,469,134      instructions\n\n"
		"       0.001300000 seconds time elapsed\n";
	ck_assert_int_eq(read_text(ok, strlen(ok), 0, &s), 0);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 3);
	ck_assert(perfan_stat_counter(s, 1)->value == 1234567);
	perfan_stat_free(s);

	/* a NUL byte: binary data, with its offset */
	static const char nul[] = "  1000 cycles\n\0\0\0";
	ck_assert_int_eq(read_text(nul, sizeof(nul) - 1, 0, &s),
			 PERFAN_EFORMAT);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(perfan_error_last(), "t.txt: offset 14: a NUL byte: "
					      "binary data, not perf stat "
					      "output");
	/* more than max_bytes */
	ck_assert_int_eq(read_text(ok, strlen(ok), 64, &s), PERFAN_EFORMAT);
	ck_assert_msg(strstr(perfan_error_last(), "t.txt: more than 64 bytes"),
		      "%s", perfan_error_last());
	/* exactly max_bytes is fine */
	ck_assert_int_eq(read_text(ok, strlen(ok), strlen(ok), &s), 0);
	perfan_stat_free(s);
	/* a line longer than 1 MiB, with its number */
	size_t n = (2u << 20) + 20;
	char *big = malloc(n);
	memcpy(big, "  1000 cycles\n", 14);
	memset(big + 14, 'x', n - 14);
	ck_assert_int_eq(read_text(big, n, 0, &s), PERFAN_EFORMAT);
	ck_assert_msg(strstr(perfan_error_last(),
			     "t.txt:2: a line longer than 1048576 bytes"),
		      "%s", perfan_error_last());
	free(big);
	/* nan and inf where a count stands */
	static const char nan[] = "  1000 cycles\n   nan instructions\n";
	ck_assert_int_eq(read_text(nan, strlen(nan), 0, &s), PERFAN_EFORMAT);
	ck_assert_str_eq(perfan_error_last(),
			 "t.txt:2: count \"nan\" is not a finite number");
	/* perf script's text: refused, not read as "COUNT EVENT" rows */
	static const char script[] =
		"prog 19571   652.551057:    1001001 cpu-clock: \n"
		"\t          401136 hot_a+0x16 (/x/prog)\n"
		"\t          4011e4 work+0x44 (/x/prog)\n";
	ck_assert_int_eq(read_text(script, strlen(script), 0, &s),
			 PERFAN_EFORMAT);
	ck_assert_msg(strstr(perfan_error_last(),
			     "t.txt:1: perf script output (a sample line"),
		      "%s", perfan_error_last());
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_utf8_len);
	tcase_add_test(tc, test_json_string);
	tcase_add_test(tc, test_text_escape);
	tcase_add_test(tc, test_stat_read);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(text_suite)
