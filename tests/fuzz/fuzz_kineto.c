/* fuzz_kineto.c: libFuzzer target for the Kineto trace reader
 * (sources/kineto*.c, through perfan__kineto_parse, the registry's trace
 * without the file and its gzip layer), then the trace's profile and the
 * GPU analysis over what it read; its promises are checked: only a format,
 * truncation or unsupported error, with a message naming the input; no
 * more events than the input has bytes; every event on a thread the trace
 * has, with a duration of 0 or more, in time order; a trace it reads is one
 * JSON text by the JSON reader's own check. */
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/kineto_internal.h"
#include "util/json_read.h"

static void fuzz_kineto_fail(const char *what)
{
	fprintf(stderr, "fuzz_kineto: %s\n", what);
	abort();
}

static void check(const perfan_trace *t, size_t size)
{
	const struct perfan_trace_info *ti = perfan_trace_info(t);
	if (ti->nr_events > size)
		fuzz_kineto_fail("more events than input bytes");
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (e->thread >= ti->nr_threads)
			fuzz_kineto_fail("an event on no thread");
		if (e->dur < 0)
			fuzz_kineto_fail("a negative duration");
		if (i && e->ts < ti->events[i - 1].ts)
			fuzz_kineto_fail("events out of time order");
	}
	perfan_profile *p = NULL;
	if (perfan_profile_new(&p, NULL))
		fuzz_kineto_fail("no profile");
	if (perfan_trace_profile(t, p, PERFAN_ROOT_PID_TID))
		fuzz_kineto_fail("the trace's profile failed");
	perfan_profile_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	perfan_trace *t = NULL;
	int rc = perfan__kineto_parse(data, size, "fuzz-input", &t);
	if (rc) {
		const char *msg = perfan_error_last();
		if (rc != PERFAN_EFORMAT && rc != PERFAN_ETRUNCATED &&
		    rc != PERFAN_EUNSUPPORTED)
			fuzz_kineto_fail("an error other than EFORMAT, "
					 "ETRUNCATED, EUNSUPPORTED");
		if (strncmp(msg, "fuzz-input: ", 12))
			fuzz_kineto_fail("a message without the input's name");
		if (t)
			fuzz_kineto_fail("a trace with an error");
		return 0;
	}
	if (perfan__jread_check(data, size, "fuzz-input", 0))
		fuzz_kineto_fail("read a trace that is not JSON");
	check(t, size);
	perfan_trace_free(t);
	return 0;
}
