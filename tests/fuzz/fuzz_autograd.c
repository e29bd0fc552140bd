/* fuzz_autograd.c: libFuzzer target for the older autograd profiler's
 * reader (sources/autograd.c, through perfan__autograd_parse, the
 * registry's trace without the file), then key_averages and the trace's
 * profile over what it read; its promises are checked: only a format,
 * truncation or unsupported error, with a message naming the input and an
 * offset in it; no more events than the input has bytes; every event on a
 * thread the trace has, with a duration of 0 or more; the table's counts
 * add up to the events it kept; a trace it reads is one JSON text by the
 * JSON reader's own check. */
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/internal.h"
#include "util/json_read.h"

static void fuzz_autograd_fail(const char *what)
{
	fprintf(stderr, "fuzz_autograd: %s\n", what);
	abort();
}

static void check(const perfan_trace *t, size_t size)
{
	const struct perfan_trace_info *ti = perfan_trace_info(t);
	if (ti->nr_events > size)
		fuzz_autograd_fail("more events than input bytes");
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (e->thread >= ti->nr_threads)
			fuzz_autograd_fail("an event on no thread");
		if (e->dur < 0)
			fuzz_autograd_fail("a negative duration");
		if (i && e->ts < ti->events[i - 1].ts)
			fuzz_autograd_fail("events out of time order");
	}
	perfan_keyavg *k = NULL;
	if (perfan_keyavg_new(&k, t))
		fuzz_autograd_fail("key_averages failed");
	const struct perfan_keyavg_result *r = perfan_keyavg_result(k);
	uint64_t n = 0;
	for (size_t i = 0; i < r->nr_rows; i++) {
		n += r->rows[i].count;
		if (r->rows[i].cpu_total < 0 || r->rows[i].cuda_total < 0)
			fuzz_autograd_fail("a negative total");
	}
	if (n > ti->nr_events)
		fuzz_autograd_fail("more calls than events");
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		struct perfan_keyavg_write_opts wo =
			PERFAN_OPTS_INIT(struct perfan_keyavg_write_opts);
		for (wo.format = 0; wo.format < 2; wo.format++)
			if (perfan_keyavg_write(k, null, &wo))
				fuzz_autograd_fail("the table's write failed");
		fclose(null);
	}
	perfan_keyavg_free(k);
	perfan_profile *p = NULL;
	if (perfan_profile_new(&p, NULL))
		fuzz_autograd_fail("no profile");
	if (perfan_trace_profile(t, p, PERFAN_ROOT_PID_TID))
		fuzz_autograd_fail("the trace's profile failed");
	perfan_profile_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	perfan_trace *t = NULL;
	int rc = perfan__autograd_parse(data, size, "fuzz-input", &t);
	if (rc) {
		const char *msg = perfan_error_last();
		if (rc != PERFAN_EFORMAT && rc != PERFAN_ETRUNCATED &&
		    rc != PERFAN_EUNSUPPORTED)
			fuzz_autograd_fail("an error other than EFORMAT, "
					   "ETRUNCATED, EUNSUPPORTED");
		if (strncmp(msg, "fuzz-input: offset ", 19) ||
		    strtoull(msg + 19, NULL, 10) > size)
			fuzz_autograd_fail("a message without the input's "
					   "name and an offset in it");
		if (t)
			fuzz_autograd_fail("a trace with an error");
		return 0;
	}
	if (perfan__jread_check(data, size, "fuzz-input", 0))
		fuzz_autograd_fail("read a trace that is not JSON");
	check(t, size);
	perfan_trace_free(t);
	return 0;
}
