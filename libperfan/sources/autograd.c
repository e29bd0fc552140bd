/* sources/autograd.c: the older autograd profiler's Chrome trace (torch's
 * EventList.export_chrome_trace without Kineto, as Debian's torch 1.13
 * writes it): a bare JSON array of "X" events on "pid": "CPU functions"
 * (ts and dur in us, tid torch's own thread number), and for CUDA ops a
 * "cpu_to_cuda" flow ("s" on the op, "f" on the kernel) then the kernel's
 * "X" on "pid": "CUDA functions" (tid the device). */
#define _GNU_SOURCE /* memmem */
#include "sources/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/input_all.h"
#include "trace/build.h"
#include "util/error.h"
#include "util/json_read.h"
#include "util/log.h"

/* array > event > args > ...: torch writes "args": {} */
#define AG_DEPTH 16

#define CPU_PID "CPU functions"
#define CUDA_PID "CUDA functions"

/* One event's members as read. */
struct ag_event {
	size_t off; /* where its object starts */
	const char *name;
	char ph[4];
	int has_ts, has_dur, has_tid, has_id;
	double ts, dur, id;
	int64_t tid, node; /* node: a remote event's node_id, else 0 */
	int pid;           /* 0: none or other, 1: CPU, 2: CUDA */
};

struct ag {
	struct perfan__jread j;
	perfan_trace *t;
	/* the last CPU op, added once what follows it is known: its flows
	 * give it an external id */
	struct perfan_trace_event op;
	int have_op;
	int64_t next_ext;
	double flow_id; /* the last "s" flow's id, and the op's id */
	int64_t flow_ext;
	int have_flow;
	int64_t kernel_ext; /* the id of the op whose "f" came last */
	double kernel_ts;
	int have_kernel;
};

/* us (a double as torch printed it) to ns, rounded: torch's times are ns
 * divided by 1000. */
static int to_ns(struct ag *x, size_t off, const char *what, double us,
		 int64_t *out)
{
	double ns = us * 1000.0;
	if (!isfinite(ns) || fabs(ns) > 9.0e18)
		return perfan__jread_err(&x->j, PERFAN_EFORMAT, off,
					 "%s %g us is out of range", what, us);
	*out = llround(ns);
	return 0;
}

/* A remote event's tid: " node_id:N, thread_id:T " */
static int remote_tid(struct ag *x, size_t off, const char *s,
		      struct ag_event *e)
{
	long long node, tid;
	char end;
	if (sscanf(s, " node_id:%lld, thread_id:%lld %c", &node, &tid, &end) !=
	    2)
		return perfan__jread_err(&x->j, PERFAN_EFORMAT, off,
					 "a \"tid\" that is neither a number "
					 "nor \" node_id:N, thread_id:T \"");
	e->node = node;
	e->tid = tid;
	return 0;
}

static int read_member(struct ag *x, const char *key, struct ag_event *e)
{
	struct perfan__jread *j = &x->j;
	size_t off = 0;
	int rc;
	if (!strcmp(key, "name")) {
		const char *s;
		size_t n;
		rc = perfan__jread_string(j, "\"name\" a string", &s, &n);
		if (rc)
			return rc;
		e->name = perfan__trace_intern(x->t, s, n);
		return e->name ? 0 : perfan__nomem(NULL);
	}
	if (!strcmp(key, "ph")) {
		const char *s;
		size_t n;
		rc = perfan__jread_string(j, "\"ph\" a string", &s, &n);
		if (!rc)
			snprintf(e->ph, sizeof(e->ph), "%.*s",
				 (int)(n < 3 ? n : 3), s);
		return rc;
	}
	if (!strcmp(key, "ts")) {
		e->has_ts = 1;
		return perfan__jread_number(j, "\"ts\" a number", &e->ts);
	}
	if (!strcmp(key, "dur")) {
		e->has_dur = 1;
		return perfan__jread_number(j, "\"dur\" a number", &e->dur);
	}
	if (!strcmp(key, "id")) {
		e->has_id = 1;
		return perfan__jread_number(j, "\"id\" a number", &e->id);
	}
	if (!strcmp(key, "pid")) {
		rc = perfan__jread_peek(j, &off);
		if (rc != PERFAN__JREAD_STRING)
			return rc < 0 ? rc : perfan__jread_skip(j);
		const char *s;
		rc = perfan__jread_string(j, "\"pid\"", &s, NULL);
		if (!rc)
			e->pid = !strcmp(s, CPU_PID)    ? 1
				 : !strcmp(s, CUDA_PID) ? 2
							: 0;
		return rc;
	}
	if (!strcmp(key, "tid")) {
		e->has_tid = 1;
		rc = perfan__jread_peek(j, &off);
		if (rc == PERFAN__JREAD_STRING) {
			const char *s;
			rc = perfan__jread_string(j, "\"tid\"", &s, NULL);
			return rc ? rc : remote_tid(x, off, s, e);
		}
		double v;
		rc = perfan__jread_number(j, "\"tid\" a number or a string",
					  &v);
		if (rc)
			return rc;
		if (!(v >= -9.0e18 && v <= 9.0e18) || v != floor(v))
			return perfan__jread_err(j, PERFAN_EFORMAT, off,
						 "\"tid\" %g is not an integer",
						 v);
		e->tid = (int64_t)v;
		return 0;
	}
	return perfan__jread_skip(j); /* args, cat, and what torch adds */
}

static int flush_op(struct ag *x)
{
	if (!x->have_op)
		return 0;
	x->have_op = 0;
	return perfan__trace_add(x->t, &x->op);
}

static int need(struct ag *x, const struct ag_event *e)
{
	const char *miss = !e->name      ? "name"
			   : !e->has_ts  ? "ts"
			   : !e->has_dur ? "dur"
			   : !e->has_tid ? "tid"
					 : NULL;
	if (!miss)
		return 0;
	return perfan__jread_err(&x->j, PERFAN_EFORMAT, e->off,
				 "an \"X\" event without \"%s\"", miss);
}

/* An "X" event: a CPU op (kept until its flows are read) or a kernel. */
static int add_span(struct ag *x, const struct ag_event *e)
{
	int rc = need(x, e);
	if (rc)
		return rc;
	struct perfan_trace_event ev;
	perfan__trace_event_init(&ev);
	ev.name = e->name;
	if ((rc = to_ns(x, e->off, "\"ts\"", e->ts, &ev.ts)) ||
	    (rc = to_ns(x, e->off, "\"dur\"", e->dur, &ev.dur)))
		return rc;
	if (ev.dur < 0)
		return perfan__jread_err(&x->j, PERFAN_EFORMAT, e->off,
					 "a negative \"dur\" (%g)", e->dur);
	if (e->pid == 2) {
		if (e->tid < INT32_MIN || e->tid > INT32_MAX)
			return perfan__jread_err(&x->j, PERFAN_EFORMAT, e->off,
						 "a device %lld out of range",
						 (long long)e->tid);
		ev.kind = PERFAN_TRACE_KERNEL;
		ev.device = (int32_t)e->tid;
		ev.stream = 0;
		if ((rc = perfan__trace_thread(x->t, 0, 0, ev.device, 0,
					       &ev.thread)))
			return rc;
		if (x->have_kernel && x->kernel_ts == e->ts)
			ev.external_id = x->kernel_ext;
		x->have_kernel = 0;
		if ((rc = flush_op(x)))
			return rc;
		return perfan__trace_add(x->t, &ev);
	}
	if ((rc = flush_op(x)))
		return rc;
	ev.kind = !strncmp(ev.name, "ProfilerStep#", 13)
			  ? PERFAN_TRACE_USER_ANNOTATION
			  : PERFAN_TRACE_CPU_OP;
	if ((rc = perfan__trace_thread(x->t, e->node, e->tid, -1, -1,
				       &ev.thread)))
		return rc;
	x->op = ev;
	x->have_op = 1;
	return 0;
}

/* The "s" (on the op, at its start) and "f" (on the kernel) of a
 * cpu_to_cuda flow: the kernel that follows gets the op's external id. */
static int add_flow(struct ag *x, const struct ag_event *e)
{
	if (!e->has_id || !e->has_ts) {
		perfan__trace_skip(x->t);
		return 0;
	}
	if (e->ph[0] == 's') {
		if (!x->have_op || x->op.ts != llround(e->ts * 1000.0)) {
			perfan__trace_skip(x->t);
			return 0;
		}
		if (x->op.external_id < 0)
			x->op.external_id = x->next_ext++;
		x->flow_id = e->id;
		x->flow_ext = x->op.external_id;
		x->have_flow = 1;
		return 0;
	}
	if (!x->have_flow || x->flow_id != e->id) {
		perfan__trace_skip(x->t);
		return 0;
	}
	x->kernel_ext = x->flow_ext;
	x->kernel_ts = e->ts;
	x->have_kernel = 1;
	return 0;
}

static int read_event(struct ag *x)
{
	struct perfan__jread *j = &x->j;
	struct ag_event e = {0};
	const char *key;
	int rc;
	if ((rc = perfan__jread_peek(j, &e.off)) < 0 ||
	    (rc = perfan__jread_object(j, "an event, an object")))
		return rc;
	while ((rc = perfan__jread_member(j, &key, NULL)) == 1)
		if ((rc = read_member(x, key, &e)))
			return rc;
	if (rc)
		return rc;
	if (!e.ph[0])
		return perfan__jread_err(j, PERFAN_EFORMAT, e.off,
					 "an event without \"ph\"");
	if (!strcmp(e.ph, "X") && e.pid)
		return add_span(x, &e);
	if ((!strcmp(e.ph, "s") && e.pid == 1) ||
	    (!strcmp(e.ph, "f") && e.pid == 2))
		return add_flow(x, &e);
	perfan__trace_skip(x->t);
	return 0;
}

int perfan__autograd_parse(const void *buf, size_t len, const char *name,
			   perfan_trace **out)
{
	struct ag x = {.next_ext = 1};
	int rc;
	*out = NULL;
	if (!(x.t = perfan__trace_new()))
		return perfan__nomem(NULL);
	perfan__jread_init(&x.j, buf, len, name, AG_DEPTH);
	rc = perfan__jread_array(&x.j, "the autograd profiler's events, an "
				       "array");
	while (!rc && (rc = perfan__jread_element(&x.j)) == 1)
		rc = read_event(&x);
	if (!rc)
		rc = perfan__jread_end(&x.j);
	if (!rc)
		rc = flush_op(&x);
	if (!rc)
		rc = perfan__trace_describe(x.t, "autograd", NULL, 0, -1);
	if (!rc)
		rc = perfan__trace_finish(x.t);
	perfan__jread_fini(&x.j);
	if (rc) {
		perfan_trace_free(x.t);
		return rc;
	}
	*out = x.t;
	return 0;
}

/* ---- the registry's entry ------------------------------------------------ */

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* A JSON array of objects with "pid": "CPU functions" in the first
 * bytes (torch writes it in the first event). */
static int detect(const void *buf, size_t len)
{
	const char *p = buf, *end = p + len;
	p = skip_ws(p, end);
	if (p >= end || *p++ != '[')
		return 0;
	p = skip_ws(p, end);
	if (p >= end || *p != '{')
		return 0;
	static const char key[] = "\"pid\"", val[] = "\"" CPU_PID "\"";
	for (const char *q = p;
	     (q = memmem(q, (size_t)(end - q), key, sizeof(key) - 1)); q++) {
		const char *v = skip_ws(q + sizeof(key) - 1, end);
		if (v >= end || *v++ != ':')
			continue;
		v = skip_ws(v, end);
		if ((size_t)(end - v) >= sizeof(val) - 1 &&
		    !memcmp(v, val, sizeof(val) - 1))
			return 1;
	}
	return 0;
}

static int trace(perfan_source *s, perfan_trace **out)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = perfan__input_all(s, UINT64_MAX, &buf, &len);
	if (rc)
		return rc;
	rc = perfan__autograd_parse(buf, len, s->name, out);
	free(buf);
	return rc;
}

const struct perfan__format perfan__format_autograd = {
	.name = "autograd profiler",
	.caps = PERFAN__TRACE_CAPS,
	.detect = detect,
	.load = perfan__trace_load,
	.trace = trace,
};
