/* fuzz_nsight.c: libFuzzer target for the Nsight Systems reader
 * (sources/nsight*.c over sources/sqlite_fd.c). Each input is opened
 * through the registry from a memfd, as a file would be (the reader's
 * SQLite VFS reads that descriptor), then read as a trace whatever was
 * detected, and the promises are checked: 0 or PERFAN_EFORMAT only, a
 * message naming the input; the registry's detection is SQLite's 16-byte
 * header; in a trace read, every event is on a thread of the trace, lasts
 * no less than 0 ns and has a name, GPU work on a stream of its device. */
#define _GNU_SOURCE
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memfd.h"
#include "sources/internal.h"

static void fuzz_nsight_fail(const char *what)
{
	fprintf(stderr, "fuzz_nsight: %s\n", what);
	abort();
}

static void fuzz_nsight_check(const perfan_trace *t)
{
	const struct perfan_trace_info *ti = perfan_trace_info(t);
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (e->thread >= ti->nr_threads)
			fuzz_nsight_fail("an event on no thread");
		if (e->dur < 0)
			fuzz_nsight_fail("an event of negative duration");
		if (!e->name)
			fuzz_nsight_fail("an event without a name");
		const struct perfan_trace_thread *th = &ti->threads[e->thread];
		if ((e->kind == PERFAN_TRACE_KERNEL ||
		     e->kind == PERFAN_TRACE_MEMCPY ||
		     e->kind == PERFAN_TRACE_MEMSET ||
		     e->kind == PERFAN_TRACE_SYNC) &&
		    (th->device != e->device || th->stream != e->stream))
			fuzz_nsight_fail("GPU work off its device's stream");
		if (i && e->ts < ti->events[i - 1].ts)
			fuzz_nsight_fail("events out of time order");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfan_source_opts so =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	perfan_source *s = NULL;
	perfan_trace *t = NULL;
	int fd = fuzz_memfd("fuzz-nsight", data, size);
	if (fd < 0)
		return 0; /* the machine's fault, not the reader's */
	if (perfan_source_open_fd(&s, fd, "fuzz-input", &so))
		fuzz_nsight_fail("a memfd did not open");
	const char *fmt = perfan_source_format(s);
	int sqlite = size >= 16 && !memcmp(data, "SQLite format 3", 16);
	if ((fmt && !strcmp(fmt, "Nsight Systems")) != sqlite)
		fuzz_nsight_fail("detected other than by SQLite's header");
	s->fmt = &perfan__format_nsight; /* read it whatever it is */
	int rc = perfan_source_trace(s, &t);
	perfan_source_free(s);
	close(fd);
	if (rc) {
		if (rc != PERFAN_EFORMAT)
			fuzz_nsight_fail("an error other than EFORMAT");
		if (strncmp(perfan_error_last(), "fuzz-input: ", 12))
			fuzz_nsight_fail("a message without the input's name");
		if (t)
			fuzz_nsight_fail("a trace with an error");
		return 0;
	}
	fuzz_nsight_check(t);
	perfan_trace_free(t);
	return 0;
}
