/* sources/kineto_internal.h: what the Kineto trace reader's files share:
 * one element of traceEvents as it was written, before it becomes an
 * event of the model. */
#ifndef PERFAN_SOURCES_KINETO_INTERNAL_H
#define PERFAN_SOURCES_KINETO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/trace.h>

#include "util/json_read.h"

/* A string member's decoded copy, its buffer reused from event to event. */
struct perfan__kin_str {
	char *s; /* NULL until a value was read; then NUL-terminated */
	size_t n, cap;
	int have;
};

/* Ids a string or number may give: "pid": 25738, "tid": "25738",
 * "tid": "stream 7" (2021's GPU rows, 7). */
struct perfan__kin_id {
	int64_t v;
	int have; /* 1: a number, or a string of one; 0: absent or a name */
};

/* Numbers read from args, -1 and HAVE 0 when absent. */
enum perfan__kin_arg {
	KIN_DEVICE,
	KIN_STREAM,
	KIN_CORRELATION,
	KIN_EXTERNAL, /* "External id", 2021's Runtime/Kernel "external id" */
	KIN_PYTHON_ID,
	KIN_PYTHON_PARENT,
	KIN_SEQ,
	KIN_BYTES,
	KIN_WAIT_STREAM,
	KIN_EVENT_RECORD, /* wait_on_cuda_event_record_corr_id */
	KIN_NARGS
};

struct perfan__kin_ev {
	size_t off; /* where the element starts in the input */
	char ph;    /* its phase's first byte, 0 when absent */
	struct perfan__kin_id pid, tid, id; /* id: a flow's */
	int have_ts, have_dur;
	int64_t ts, dur; /* ns as written (relative to a base time) */
	size_t ts_off;   /* where ts's value starts, for messages */
	struct perfan__kin_str name, cat, call_stack, sync_kind;
	struct perfan__kin_str mname; /* M events: args.name */
	int64_t arg[KIN_NARGS];
	int have[KIN_NARGS];
};

/* Read the next element of traceEvents, an object, into E (its strings'
 * buffers kept). Returns 0 or the reader's error. */
int perfan__kin_event(struct perfan__jread *j, struct perfan__kin_ev *e);

/* The number that comes next, in microseconds, as exact ns; WHAT names it
 * in messages. */
int perfan__kin_us(struct perfan__jread *j, const char *what, int64_t *ns,
		   size_t *off);

void perfan__kin_ev_free(struct perfan__kin_ev *e);

/* The Kineto trace in the LEN bytes at BUF (JSON text), named NAME in
 * messages, into *OUT (kineto.c; the fuzz target's entry). */
int perfan__kineto_parse(const void *buf, size_t len, const char *name,
			 perfan_trace **out);

/* The same from the stream FILL gives (called with CTX), read through a
 * window of WINDOW bytes at first (0: the reader's own). */
int perfan__kineto_stream(perfan__jread_fill fill, void *ctx, const char *name,
			  size_t window, perfan_trace **out);

#endif
