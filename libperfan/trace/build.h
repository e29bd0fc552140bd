/* trace/build.h: how a reader fills a perfan_trace (perfan/trace.h): strings
 * interned, threads and streams numbered, events appended in input order,
 * then finished (sorted by time). */
#ifndef PERFAN_TRACE_BUILD_H
#define PERFAN_TRACE_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/trace.h>

/* An empty trace, or NULL when out of memory. */
perfan_trace *perfan__trace_new(void);

/* The interned copy of the N bytes at S (equal strings: one pointer), or
 * NULL when out of memory. */
const char *perfan__trace_intern(perfan_trace *t, const char *s, size_t n);

/* The index of the thread (DEVICE -1) or GPU stream (DEVICE >= 0) with
 * these ids, added when new, in *IDX. Returns 0 or PERFAN_ENOMEM. */
int perfan__trace_thread(perfan_trace *t, int64_t pid, int64_t tid,
			 int32_t device, int64_t stream, uint32_t *idx);

/* Names from the trace's metadata: a thread's (every thread of PID and TID),
 * a process's (every thread of PID, also those added later), a device's.
 * NAME is copied. Returns 0 or PERFAN_ENOMEM. */
int perfan__trace_thread_name(perfan_trace *t, int64_t pid, int64_t tid,
			      const char *name);
int perfan__trace_process_name(perfan_trace *t, int64_t pid, const char *name);
int perfan__trace_device_name(perfan_trace *t, int32_t device,
			      const char *name);

/* An event with every id field -1 and the rest 0, to fill. */
void perfan__trace_event_init(struct perfan_trace_event *e);

/* Append E (its strings interned by the caller; its index set here, in
 * the order of appends). Returns 0 or PERFAN_ENOMEM. */
int perfan__trace_add(perfan_trace *t, const struct perfan_trace_event *e);

/* The events appended so far, in input order, *N of them, for the reader
 * to amend before perfan__trace_finish (times moved by a base time read
 * after them, ids resolved from flows); valid until the next add. */
struct perfan_trace_event *perfan__trace_events(perfan_trace *t, size_t *n);

/* What the reader met and left out, one more. */
void perfan__trace_skip(perfan_trace *t);

/* The trace's layout and schema (copied; NULL: none), its base time and
 * rank (-1: none). */
int perfan__trace_describe(perfan_trace *t, const char *layout,
			   const char *schema, int64_t base_ns, int32_t rank);

/* Sort the events by time (ties in input order) and make the info.
 * Returns 0 or PERFAN_ENOMEM. */
int perfan__trace_finish(perfan_trace *t);

#endif
