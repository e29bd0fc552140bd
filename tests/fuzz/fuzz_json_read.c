/* fuzz_json_read.c: libFuzzer target for the strict JSON reader
 * (util/json_read.c): every value of the input is read by its kind (so
 * that strings are decoded, numbers converted), and the reader's promises
 * are checked: only a format or truncation error, with a message naming
 * the input and an offset within it; a decoded string never longer than
 * the input; the walk and perfan__jread_check agree; the same bytes read
 * as a stream through a small window (grown, moved on between values)
 * give the same result and message (perhaps without its line). */
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_fill.h"
#include "util/json_read.h"

static void fuzz_json_fail(const char *what)
{
	fprintf(stderr, "fuzz_json_read: %s\n", what);
	abort();
}

/* Read the next value as its kind says, depth first. */
static int fuzz_json_walk(struct perfan__jread *j, size_t size)
{
	const char *s;
	size_t n;
	double d;
	int rc, b, k = perfan__jread_peek(j, NULL);
	switch (k) {
	case PERFAN__JREAD_OBJECT:
		if ((rc = perfan__jread_object(j, "an object")))
			return rc;
		while ((rc = perfan__jread_member(j, &s, &n)) == 1) {
			if (n > size || strlen(s) > n)
				fuzz_json_fail("a key longer than the input");
			if ((rc = fuzz_json_walk(j, size)))
				return rc;
		}
		return rc;
	case PERFAN__JREAD_ARRAY:
		if ((rc = perfan__jread_array(j, "an array")))
			return rc;
		while ((rc = perfan__jread_element(j)) == 1)
			if ((rc = fuzz_json_walk(j, size)))
				return rc;
		return rc;
	case PERFAN__JREAD_STRING:
		if ((rc = perfan__jread_string(j, "a string", &s, &n)))
			return rc;
		if (n > size || s[n] != '\0')
			fuzz_json_fail("a string longer than the input");
		return 0;
	case PERFAN__JREAD_NUMBER:
		return perfan__jread_number(j, "a number", &d);
	case PERFAN__JREAD_BOOL: return perfan__jread_bool(j, "a boolean", &b);
	case PERFAN__JREAD_NULL: return perfan__jread_skip(j);
	default: return k;
	}
}

static void fuzz_json_check_error(int rc, size_t size)
{
	const char *msg = perfan_error_last(), *at;
	if (rc != PERFAN_EFORMAT && rc != PERFAN_ETRUNCATED)
		fuzz_json_fail("an error other than EFORMAT or ETRUNCATED");
	if (strncmp(msg, "fuzz-input: offset ", 19))
		fuzz_json_fail("a message without the input's name and offset");
	at = msg + 19;
	if (strtoull(at, NULL, 10) > size)
		fuzz_json_fail("an offset past the input's end");
}

/* The walk of the input as a stream through a first window of WINDOW
 * bytes: the result RC and message MSG the walk in memory gave. */
static void fuzz_json_stream(const uint8_t *data, size_t size, size_t window,
			     int rc, const char *msg)
{
	struct perfan__jread j;
	struct mem_fill m = {data, size, 0};
	perfan__jread_init_stream(&j, mem_fill, &m, "fuzz-input", 0);
	j.window = window;
	int src = fuzz_json_walk(&j, size);
	if (!src)
		src = perfan__jread_end(&j);
	perfan__jread_fini(&j);
	if (src != rc)
		fuzz_json_fail("a stream read otherwise than memory");
	if (!rc)
		return;
	if (!mem_fill_same_message(msg, perfan_error_last()))
		fuzz_json_fail("a stream's message differs from memory's");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfan__jread j;
	int rc, rc2;
	char msg[1024] = "";
	perfan__jread_init(&j, data, size, "fuzz-input", 0);
	rc = fuzz_json_walk(&j, size);
	if (!rc)
		rc = perfan__jread_end(&j);
	perfan__jread_fini(&j);
	if (rc) {
		fuzz_json_check_error(rc, size);
		snprintf(msg, sizeof(msg), "%s", perfan_error_last());
	}
	fuzz_json_stream(data, size, 1 + size % 7, rc, msg);
	fuzz_json_stream(data, size, 0, rc, msg);
	rc2 = perfan__jread_check(data, size, "fuzz-input", 0);
	if ((rc == 0) != (rc2 == 0))
		fuzz_json_fail("the walk and the check disagree");
	/* a shallow bound fails where the deep one did not, never the
	 * other way round */
	if (perfan__jread_check(data, size, "fuzz-input", 3) == 0 && rc2)
		fuzz_json_fail("a shallower bound accepted more");
	return 0;
}
