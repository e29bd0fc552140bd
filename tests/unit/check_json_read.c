/* check_json_read.c: the strict JSON reader (util/json_read.c): values of
 * every kind decoded (escapes, surrogate pairs to UTF-8, numbers), the
 * cases RFC 8259 rejects each rejected with the right error and offset,
 * the depth bound, marks and forks, and the reader run through its fuzz
 * target on every prefix and on damaged copies of speedscope's real
 * exports (testdata/speedscope). */
#define _GNU_SOURCE
#include "../fuzz/fuzz_json_read.c"

#include "testutil.h"

#define INIT(j, text) perfan__jread_init(&(j), text, strlen(text), "t", 0)

START_TEST(test_values)
{
	static const char doc[] =
		" {\"s\": \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u0041\\u00e9"
		"\\u20AC\\ud83d\\ude00\xc3\xa9\", \"n\": [0, -0, 1.5e3, "
		"-2E-2, 123456789012, 0.25], \"t\": true, \"f\": false, "
		"\"z\": null, \"e\": {}, \"a\": [[]], \"\\u0000k\": 1}\r\n";
	struct perfan__jread j;
	const char *k, *s;
	size_t n;
	double d;
	int b;
	perfan__jread_init(&j, doc, sizeof(doc) - 1, "t", 0);
	ck_assert_int_eq(perfan__jread_object(&j, "doc"), 0);
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
	ck_assert_str_eq(k, "s");
	ck_assert_int_eq(perfan__jread_string(&j, "s", &s, &n), 0);
	ck_assert_str_eq(s, "a\"b\\c/d\b\f\n\r\tA\xc3\xa9\xe2\x82\xac"
			    "\xf0\x9f\x98\x80\xc3\xa9");
	ck_assert_uint_eq(n, strlen(s));
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
	ck_assert_str_eq(k, "n");
	static const double want[] = {0, -0.0, 1500, -0.02, 123456789012, 0.25};
	ck_assert_int_eq(perfan__jread_array(&j, "n"), 0);
	for (size_t i = 0; i < 6; i++) {
		ck_assert_int_eq(perfan__jread_element(&j), 1);
		ck_assert_int_eq(perfan__jread_number(&j, "x", &d), 0);
		ck_assert_double_eq(d, want[i]);
	}
	ck_assert_int_eq(perfan__jread_element(&j), 0);
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
	ck_assert_int_eq(perfan__jread_bool(&j, "t", &b), 0);
	ck_assert_int_eq(b, 1);
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
	ck_assert_int_eq(perfan__jread_bool(&j, "f", &b), 0);
	ck_assert_int_eq(b, 0);
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
	ck_assert_int_eq(perfan__jread_peek(&j, NULL), PERFAN__JREAD_NULL);
	ck_assert_int_eq(perfan__jread_skip(&j), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
		ck_assert_int_eq(perfan__jread_skip(&j), 0);
	}
	/* a key with a NUL: its length says so */
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(k[0], '\0');
	ck_assert_int_eq(k[1], 'k');
	ck_assert_int_eq(perfan__jread_skip(&j), 0);
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 0);
	ck_assert_int_eq(perfan__jread_end(&j), 0);
	perfan__jread_fini(&j);
	/* a byte order mark is skipped; a type mismatch names what it wanted */
	INIT(j, "\xef\xbb\xbf\"x\"");
	ck_assert_int_eq(perfan__jread_number(&j, "the count", &d),
			 PERFAN_EFORMAT);
	ck_assert_str_eq(perfan_error_last(), "t: offset 3 (line 1): the count "
					      "should be a number, not a "
					      "string");
	perfan__jread_fini(&j);
}
END_TEST

static const struct {
	const char *text;
	int rc;
	const char *msg; /* the message's end, after "t: " */
} bad[] = {
	{"", PERFAN_ETRUNCATED,
	 "offset 0 (line 1): the input ends where a "
	 "value should be"},
	{"  \n ", PERFAN_ETRUNCATED, "offset 4 (line 2): the input ends"},
	{"01", PERFAN_EFORMAT, "offset 0 (line 1): a malformed number"},
	{"1.", PERFAN_ETRUNCATED, "number starting here is cut"},
	{"[1.]", PERFAN_EFORMAT, "offset 3 (line 1): a digit should be here"},
	{".5", PERFAN_EFORMAT, "'.' cannot start a value"},
	{"+1", PERFAN_EFORMAT, "'+' cannot start a value"},
	{"[1e]", PERFAN_EFORMAT, "a digit should be here"},
	{"-", PERFAN_ETRUNCATED, "cut by the input's end"},
	{"[-x]", PERFAN_EFORMAT, "offset 2 (line 1): a digit"},
	{"1e999", PERFAN_EFORMAT, "out of range"},
	{"NaN", PERFAN_EFORMAT, "'N' cannot start a value"},
	{"Infinity", PERFAN_EFORMAT, "'I' cannot start"},
	{"[1,]", PERFAN_EFORMAT, "offset 3 (line 1): ']' after a ','"},
	{"[1 2]", PERFAN_EFORMAT, "'2' where ',' or ']' should follow"},
	{"{\"a\":1,}", PERFAN_EFORMAT, "offset 7 (line 1): '}' after a ','"},
	{"{\"a\" 1}", PERFAN_EFORMAT, "'1' where ':' should follow the key"},
	{"{'a':1}", PERFAN_EFORMAT, "''' where a member's key"},
	{"{a:1}", PERFAN_EFORMAT, "'a' where a member's key"},
	{"{\"a\":1 \"b\":2}", PERFAN_EFORMAT, "'\"' where ',' or '}'"},
	{"[", PERFAN_ETRUNCATED,
	 "offset 1 (line 1): the input ends inside an "
	 "array"},
	{"{\"a\":", PERFAN_ETRUNCATED, "where a value should be"},
	{"\"abc", PERFAN_ETRUNCATED,
	 "offset 0 (line 1): the string starting "
	 "here is not closed"},
	{"\"a\tb\"", PERFAN_EFORMAT,
	 "offset 2 (line 1): a control character "
	 "(0x09)"},
	{"\"a\\x\"", PERFAN_EFORMAT,
	 "offset 2 (line 1): \\'x' is not an "
	 "escape"},
	{"\"\\u12\"", PERFAN_EFORMAT, "four hex digits"},
	{"\"\\u12", PERFAN_ETRUNCATED, "inside a \\u escape"},
	{"\"\\ud800\"", PERFAN_EFORMAT,
	 "a high surrogate \\uD800 without a "
	 "low one"},
	{"\"\\ud800\\u0041\"", PERFAN_EFORMAT,
	 "followed by \\u0041, not a "
	 "low one"},
	{"\"\\udc00\"", PERFAN_EFORMAT, "a low surrogate \\uDC00 without"},
	{"\"\xc0\x80\"", PERFAN_EFORMAT, "not UTF-8 (byte 0xc0)"},
	{"\"\xed\xa0\x80\"", PERFAN_EFORMAT, "not UTF-8 (byte 0xed)"},
	{"\"\xf5\x80\x80\x80\"", PERFAN_EFORMAT, "not UTF-8 (byte 0xf5)"},
	{"\"\xe2\x82\"", PERFAN_EFORMAT, "not UTF-8"},
	{"\"\xe2\x82", PERFAN_ETRUNCATED, "inside a UTF-8 sequence"},
	{"tru", PERFAN_ETRUNCATED, "inside true, false or null"},
	{"truex", PERFAN_EFORMAT, "neither true, false nor null"},
	{"nul", PERFAN_ETRUNCATED, "inside true"},
	{"nulL", PERFAN_EFORMAT, "neither true"},
	{"{} x", PERFAN_EFORMAT,
	 "offset 3 (line 1): 'x' after the end of the "
	 "JSON value"},
	{"1 2", PERFAN_EFORMAT, "'2' after the end"},
	{"[1]\n\n]", PERFAN_EFORMAT, "offset 5 (line 3): ']' after the end"},
};

START_TEST(test_rejected)
{
	const char *t = bad[_i].text;
	int rc = perfan__jread_check(t, strlen(t), "t", 0);
	ck_assert_msg(rc == bad[_i].rc, "'%s': %d (%s)", t, rc,
		      perfan_error_last());
	ck_assert_msg(!strncmp(perfan_error_last(), "t: offset ", 10) &&
			      strstr(perfan_error_last(), bad[_i].msg),
		      "'%s': message '%s', wanted '%s'", t, perfan_error_last(),
		      bad[_i].msg);
	LLVMFuzzerTestOneInput((const uint8_t *)t, strlen(t));
}
END_TEST

/* A byte order mark, and the starts of one, read as a stream through first
 * windows of 1 to 5 bytes: as in memory. */
START_TEST(test_stream_bom)
{
	static const char *const docs[] = {"\xef\xbb\xbf [1]", "\xef\xbb\xbf",
					   "\xef\xbb", "\xef", "\xef\xbb\xbf!"};
	for (size_t d = 0; d < sizeof(docs) / sizeof(docs[0]); d++) {
		const uint8_t *t = (const uint8_t *)docs[d];
		size_t n = strlen(docs[d]);
		struct perfan__jread j;
		perfan__jread_init(&j, t, n, "fuzz-input", 0);
		int rc = fuzz_json_walk(&j, n);
		if (!rc)
			rc = perfan__jread_end(&j);
		perfan__jread_fini(&j);
		ck_assert_int_eq(rc == 0, d == 0);
		char msg[1024];
		snprintf(msg, sizeof(msg), "%s", perfan_error_last());
		for (size_t w = 1; w <= 5; w++)
			fuzz_json_stream(t, n, w, rc, msg);
	}
}
END_TEST

/* The depth bound: as deep as allowed reads, one more does not. */
START_TEST(test_depth)
{
	char buf[2 * PERFAN__JREAD_MAX_DEPTH + 3];
	for (int depth = 1; depth <= PERFAN__JREAD_MAX_DEPTH + 1; depth++) {
		memset(buf, '[', (size_t)depth);
		memset(buf + depth, ']', (size_t)depth);
		int rc = perfan__jread_check(buf, 2 * (size_t)depth, "t", 0);
		ck_assert_int_eq(rc, depth <= PERFAN__JREAD_MAX_DEPTH
					     ? 0
					     : PERFAN_EFORMAT);
		rc = perfan__jread_check(buf, 2 * (size_t)depth, "t", 4);
		ck_assert_int_eq(rc, depth <= 4 ? 0 : PERFAN_EFORMAT);
		if (depth == 5)
			ck_assert_str_eq(perfan_error_last(),
					 "t: offset 4 (line 1): nested deeper "
					 "than 4 levels");
	}
}
END_TEST

/* A mark read again after a skip, and a fork reading a second array side
 * by side with the first. */
START_TEST(test_mark_fork)
{
	static const char doc[] = "{\"b\": [4, 5], \"a\": [1, 2], \"c\": 3}";
	struct perfan__jread j, f;
	struct perfan__jread_mark mb, ma;
	const char *k;
	size_t n;
	double x, y;
	INIT(j, doc);
	ck_assert_int_eq(perfan__jread_object(&j, "doc"), 0);
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
	perfan__jread_mark(&j, &mb);
	ck_assert_int_eq(perfan__jread_skip(&j), 0);
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
	ck_assert_str_eq(k, "a");
	perfan__jread_mark(&j, &ma);
	perfan__jread_fork(&f, &j, &mb);
	ck_assert_int_eq(perfan__jread_array(&j, "a"), 0);
	ck_assert_int_eq(perfan__jread_array(&f, "b"), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(perfan__jread_element(&j), 1);
		ck_assert_int_eq(perfan__jread_element(&f), 1);
		ck_assert_int_eq(perfan__jread_number(&j, "a", &x), 0);
		ck_assert_int_eq(perfan__jread_number(&f, "b", &y), 0);
		ck_assert_double_eq(y - x, 3);
	}
	ck_assert_int_eq(perfan__jread_element(&j), 0);
	ck_assert_int_eq(perfan__jread_element(&f), 0);
	perfan__jread_fini(&f);
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 1);
	ck_assert_str_eq(k, "c");
	ck_assert_int_eq(perfan__jread_skip(&j), 0);
	ck_assert_int_eq(perfan__jread_member(&j, &k, &n), 0);
	ck_assert_int_eq(perfan__jread_end(&j), 0);
	/* back to "a", read again */
	perfan__jread_seek(&j, &ma);
	ck_assert_int_eq(perfan__jread_array(&j, "a"), 0);
	ck_assert_int_eq(perfan__jread_element(&j), 1);
	ck_assert_int_eq(perfan__jread_number(&j, "a", &x), 0);
	ck_assert_double_eq(x, 1);
	perfan__jread_fini(&j);
}
END_TEST

static const char *const real[] = {
	"speedscope/mtfork.script.speedscope.json",
	"speedscope/node.trace.speedscope.json",
	"speedscope/kernel.folded.speedscope.json",
	"speedscope/node.heapprofile.speedscope.json",
	"speedscope/fp.script.speedscope.json",
	"speedscope/node.cpuprofile.speedscope.json",
};
#define NR_SMALL                                                               \
	3 /* every prefix of the first; every 7th of these, every
		      29th of the others */

START_TEST(test_every_prefix)
{
	size_t len;
	char *data = tu_slurp(tu_testdata(real[_i]), &len);
	size_t step = !_i ? 1 : _i < NR_SMALL ? 7 : 29;
	ck_assert_int_eq(perfan__jread_check(data, len, "cut", 0), 0);
	for (size_t n = 0; n < len; n += step) {
		int rc = perfan__jread_check(data, n, "cut", 0);
		ck_assert_msg(rc == PERFAN_ETRUNCATED, "%s cut at %zu: %d %s",
			      real[_i], n, rc, perfan_error_last());
		ck_assert_msg(!strncmp(perfan_error_last(), "cut: offset ", 12),
			      "message '%s'", perfan_error_last());
		if (n % 4 == 0) /* the target's checks, on a quarter of them */
			LLVMFuzzerTestOneInput((const uint8_t *)data, n);
	}
	free(data);
}
END_TEST

START_TEST(test_every_byte_damaged)
{
	size_t len;
	char *data = tu_slurp(tu_testdata(real[_i]), &len);
	tu_damage_each_byte(data, len, LLVMFuzzerTestOneInput);
	free(data);
}
END_TEST

static Suite *json_read_suite(void)
{
	Suite *s = suite_create("json_read");
	TCase *tc = tcase_create("reader");
	tcase_add_test(tc, test_values);
	tcase_add_loop_test(tc, test_rejected, 0,
			    (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_stream_bom);
	tcase_add_test(tc, test_mark_fork);
	suite_add_tcase(s, tc);
	tc = tcase_create("robust");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_every_prefix, 0,
			    (int)(sizeof(real) / sizeof(real[0])));
	tcase_add_loop_test(tc, test_every_byte_damaged, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(json_read_suite)
