/* fuzz_kineto.c: libFuzzer target for the Kineto trace reader
 * (sources/kineto*.c, through perfan__kineto_parse, the registry's trace
 * without the file and its gzip layer), then the trace's profile and the
 * GPU analysis over what it read; its promises are checked: only a format,
 * truncation or unsupported error, with a message naming the input; no
 * more events than the input has bytes; every event on a thread the trace
 * has, with a duration of 0 or more, in time order; a trace it reads is one
 * JSON text by the JSON reader's own check; the same bytes read as a
 * stream through a small window give the same trace, or the same error. */
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_fill.h"
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

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether A and B hold the same events, threads and facts. */
static int same_trace(const perfan_trace *a, const perfan_trace *b)
{
	const struct perfan_trace_info *x = perfan_trace_info(a),
				       *y = perfan_trace_info(b);
	if (x->nr_events != y->nr_events || x->nr_threads != y->nr_threads ||
	    x->base_ns != y->base_ns || x->rank != y->rank ||
	    x->skipped != y->skipped || !same_str(x->layout, y->layout) ||
	    !same_str(x->schema, y->schema))
		return 0;
	for (size_t i = 0; i < x->nr_events; i++) {
		const struct perfan_trace_event *e = &x->events[i],
						*f = &y->events[i];
		if (e->ts != f->ts || e->dur != f->dur || e->kind != f->kind ||
		    e->thread != f->thread || !same_str(e->name, f->name) ||
		    e->correlation != f->correlation ||
		    e->external_id != f->external_id ||
		    e->python_id != f->python_id ||
		    e->python_parent != f->python_parent || e->seq != f->seq ||
		    !same_str(e->call_stack, f->call_stack) ||
		    e->device != f->device || e->stream != f->stream ||
		    e->bytes != f->bytes || e->sync != f->sync ||
		    e->wait_stream != f->wait_stream ||
		    e->event_record != f->event_record || e->index != f->index)
			return 0;
	}
	for (size_t i = 0; i < x->nr_threads; i++) {
		const struct perfan_trace_thread *p = &x->threads[i],
						 *q = &y->threads[i];
		if (p->pid != q->pid || p->tid != q->tid ||
		    p->device != q->device || p->stream != q->stream ||
		    !same_str(p->name, q->name) ||
		    !same_str(p->process, q->process))
			return 0;
	}
	return 1;
}

/* The input read as a stream through a first window of WINDOW bytes: the
 * trace T or the error RC (message MSG) that memory gave. */
static void stream(const uint8_t *data, size_t size, size_t window,
		   const perfan_trace *t, int rc, const char *msg)
{
	struct mem_fill m = {data, size, 0};
	perfan_trace *u = NULL;
	int src = perfan__kineto_stream(mem_fill, &m, "fuzz-input", window, &u);
	if (src != rc)
		fuzz_kineto_fail("a stream read otherwise than memory");
	if (!rc) {
		if (!same_trace(t, u))
			fuzz_kineto_fail("a stream gave another trace");
		perfan_trace_free(u);
		return;
	}
	if (!mem_fill_same_message(msg, perfan_error_last()))
		fuzz_kineto_fail("a stream's message differs from memory's");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	perfan_trace *t = NULL;
	char msg[1024] = "";
	int rc = perfan__kineto_parse(data, size, "fuzz-input", &t);
	if (rc)
		snprintf(msg, sizeof(msg), "%s", perfan_error_last());
	stream(data, size, 1 + size % 13, t, rc, msg);
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
