/* sources/kineto.c: torch.profiler's Kineto Chrome traces (.json, .json.gz)
 * into the trace model: the document's metadata, each event's kind,
 * thread or GPU stream and ids, flows giving correlations a launch lacks,
 * times moved by baseTimeNanoseconds. */
#define _GNU_SOURCE /* memmem */
#include "sources/internal.h"

#include <stdlib.h>
#include <string.h>

#include "sources/kineto_internal.h"
#include "sources/text_in.h"
#include "trace/build.h"
#include "util/decimal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"
#include "util/read_ahead.h"

#define KIN_DEPTH 64
/* The largest JSON text read (inflated): 8 GiB. */
#define KIN_MAX ((uint64_t)8 << 30)
/* Inflated ahead in pieces of this size. */
#define KIN_PIECE (64 * 1024)

/* A flow's end ("s" on the launch, "f" on the GPU work): the event at its
 * thread and time takes its id as correlation when it has none. */
struct flow {
	int64_t pid, tid, ts, id;
};

/* An event without a correlation, to look up among the flows. */
struct lack {
	int64_t pid, tid, ts;
	size_t event;
};

/* A thread_name, applied once every event is in: only to threads that
 * have events (metadata before them would make threads of none). */
struct tname {
	int64_t pid, tid;
	char *name;
};

struct kin {
	perfan_trace *t;
	struct perfan__jread j;
	struct perfan__kin_ev e;
	int64_t base;
	int32_t rank;
	int old;      /* 2021's capitalised categories met */
	int events;   /* traceEvents met */
	char *schema; /* schemaVersion's text */
	struct flow *flows;
	size_t nflows, capflows;
	struct lack *lacks;
	size_t nlacks, caplacks;
	size_t nevents; /* appended */
	struct tname *names;
	size_t nnames, capnames;
	struct perfan__htab threads; /* pid and tid hashed -> 1 */
};

static uint64_t place(int64_t pid, int64_t tid)
{
	return (uint64_t)pid * 0x9e3779b97f4a7c15ull ^ (uint64_t)tid;
}

/* A literal and its length. */
#define LIT(s) s, sizeof(s) - 1

static const struct {
	const char *cat;
	size_t n;
	enum perfan_trace_kind kind;
	int old; /* a 2021 name */
} cats[] = {
	{LIT("cpu_op"), PERFAN_TRACE_CPU_OP, 0},
	{LIT("Operator"), PERFAN_TRACE_CPU_OP, 1},
	{LIT("user_annotation"), PERFAN_TRACE_USER_ANNOTATION, 0},
	{LIT("python_function"), PERFAN_TRACE_PYTHON_FUNCTION, 0},
	{LIT("cuda_runtime"), PERFAN_TRACE_RUNTIME, 0},
	{LIT("Runtime"), PERFAN_TRACE_RUNTIME, 1},
	{LIT("cuda_driver"), PERFAN_TRACE_DRIVER, 0},
	{LIT("kernel"), PERFAN_TRACE_KERNEL, 0},
	{LIT("Kernel"), PERFAN_TRACE_KERNEL, 1},
	{LIT("gpu_memcpy"), PERFAN_TRACE_MEMCPY, 0},
	{LIT("Memcpy"), PERFAN_TRACE_MEMCPY, 1},
	{LIT("gpu_memset"), PERFAN_TRACE_MEMSET, 0},
	{LIT("Memset"), PERFAN_TRACE_MEMSET, 1},
	{LIT("cuda_sync"), PERFAN_TRACE_SYNC, 0},
	{LIT("gpu_user_annotation"), PERFAN_TRACE_GPU_ANNOTATION, 0},
};

static enum perfan_trace_kind kind_of(struct kin *x,
				      const struct perfan__kin_str *cat)
{
	for (size_t i = 0; cat->have && i < sizeof(cats) / sizeof(cats[0]); i++)
		if (cat->n == cats[i].n &&
		    !memcmp(cat->s, cats[i].cat, cat->n)) {
			x->old |= cats[i].old;
			return cats[i].kind;
		}
	return PERFAN_TRACE_OTHER;
}

static int on_gpu(enum perfan_trace_kind k)
{
	return k == PERFAN_TRACE_KERNEL || k == PERFAN_TRACE_MEMCPY ||
	       k == PERFAN_TRACE_MEMSET || k == PERFAN_TRACE_SYNC ||
	       k == PERFAN_TRACE_GPU_ANNOTATION;
}

/* The sync a cuda_sync_kind or a runtime call's name says. */
static uint32_t sync_of(const struct perfan__kin_str *s)
{
	static const struct {
		const char *name;
		size_t n;
		enum perfan_trace_sync sync;
	} syncs[] = {
		{LIT("Event Sync"), PERFAN_TRACE_SYNC_EVENT},
		{LIT("Stream Sync"), PERFAN_TRACE_SYNC_STREAM},
		{LIT("Context Sync"), PERFAN_TRACE_SYNC_CONTEXT},
		{LIT("Stream Wait Event"), PERFAN_TRACE_SYNC_WAIT},
		{LIT("cudaEventSynchronize"), PERFAN_TRACE_SYNC_EVENT},
		{LIT("cudaStreamSynchronize"), PERFAN_TRACE_SYNC_STREAM},
		{LIT("cudaDeviceSynchronize"), PERFAN_TRACE_SYNC_CONTEXT},
		{LIT("cudaStreamWaitEvent"), PERFAN_TRACE_SYNC_WAIT},
		{LIT("hipEventSynchronize"), PERFAN_TRACE_SYNC_EVENT},
		{LIT("hipStreamSynchronize"), PERFAN_TRACE_SYNC_STREAM},
		{LIT("hipDeviceSynchronize"), PERFAN_TRACE_SYNC_CONTEXT},
		{LIT("hipStreamWaitEvent"), PERFAN_TRACE_SYNC_WAIT},
	};
	for (size_t i = 0; s->have && i < sizeof(syncs) / sizeof(syncs[0]); i++)
		if (s->n == syncs[i].n && !memcmp(s->s, syncs[i].name, s->n))
			return syncs[i].sync;
	return PERFAN_TRACE_SYNC_NONE;
}

/* A flow event: kept when it links a launch to its GPU work. */
static int flow(struct kin *x)
{
	const struct perfan__kin_ev *e = &x->e;
	const char *c = e->cat.have ? e->cat.s : "";
	perfan__trace_skip(x->t);
	if ((e->ph != 's' && e->ph != 'f') || !e->id.have || !e->pid.have ||
	    !e->tid.have || !e->have_ts ||
	    (strcmp(c, "ac2g") && strcmp(c, "async_cpu_to_gpu") &&
	     strcmp(c, "async")))
		return 0;
	if (perfan__grow((void **)&x->flows, &x->capflows, x->nflows + 1,
			 sizeof(*x->flows)))
		return perfan__nomem(x->j.name);
	x->flows[x->nflows++] =
		(struct flow){e->pid.v, e->tid.v, e->ts, e->id.v};
	return 0;
}

/* Metadata: thread and process names. */
static int meta(struct kin *x)
{
	const struct perfan__kin_ev *e = &x->e;
	const char *n = e->name.have ? e->name.s : "";
	if (e->mname.have && e->pid.have && !strcmp(n, "process_name"))
		return perfan__trace_process_name(x->t, e->pid.v, e->mname.s);
	if (e->mname.have && e->pid.have && e->tid.have &&
	    !strcmp(n, "thread_name")) {
		if (perfan__grow((void **)&x->names, &x->capnames,
				 x->nnames + 1, sizeof(*x->names)))
			return perfan__nomem(x->j.name);
		struct tname *t = &x->names[x->nnames];
		if (!(t->name = strdup(e->mname.s)))
			return perfan__nomem(x->j.name);
		t->pid = e->pid.v;
		t->tid = e->tid.v;
		x->nnames++;
		return 0;
	}
	perfan__trace_skip(x->t);
	return 0;
}

/* The thread names of threads with events; the others skipped. */
static int name_threads(struct kin *x)
{
	for (size_t i = 0; i < x->nnames; i++) {
		const struct tname *t = &x->names[i];
		if (!perfan__htab_get(&x->threads, place(t->pid, t->tid)))
			perfan__trace_skip(x->t);
		else if (perfan__trace_thread_name(x->t, t->pid, t->tid,
						   t->name))
			return perfan__nomem(x->j.name);
	}
	return 0;
}

static const char *intern(struct kin *x, const struct perfan__kin_str *s)
{
	return s->have ? perfan__trace_intern(x->t, s->s, s->n) : NULL;
}

/* A complete event ("X") into the model. */
static int span(struct kin *x)
{
	const struct perfan__kin_ev *e = &x->e;
	if (!e->pid.have || !e->tid.have) {
		perfan__trace_skip(x->t); /* "Traces", "Spans": not a thread */
		return 0;
	}
	if (!e->have_ts)
		return perfan__jread_err(&x->j, PERFAN_EFORMAT, e->off,
					 "a complete event (\"X\") without ts");
	struct perfan_trace_event ev;
	perfan__trace_event_init(&ev);
	enum perfan_trace_kind k = kind_of(x, &e->cat);
	ev.kind = k;
	ev.ts = e->ts;
	ev.dur = e->dur;
	ev.name = intern(x, &e->name);
	if (!ev.name && !(ev.name = perfan__trace_intern(x->t, "", 0)))
		return perfan__nomem(x->j.name);
	if (e->name.have && !ev.name)
		return perfan__nomem(x->j.name);
	ev.correlation = e->arg[KIN_CORRELATION];
	ev.external_id = e->arg[KIN_EXTERNAL];
	ev.python_id = e->arg[KIN_PYTHON_ID];
	ev.python_parent = e->arg[KIN_PYTHON_PARENT];
	ev.seq = e->arg[KIN_SEQ];
	ev.call_stack = intern(x, &e->call_stack);
	if (e->call_stack.have && !ev.call_stack)
		return perfan__nomem(x->j.name);
	ev.bytes = e->have[KIN_BYTES] && e->arg[KIN_BYTES] > 0
			   ? (uint64_t)e->arg[KIN_BYTES]
			   : 0;
	ev.wait_stream = e->arg[KIN_WAIT_STREAM];
	ev.event_record = e->arg[KIN_EVENT_RECORD];
	if (k == PERFAN_TRACE_SYNC)
		ev.sync = sync_of(e->sync_kind.have ? &e->sync_kind : &e->name);
	else if (k == PERFAN_TRACE_RUNTIME)
		ev.sync = sync_of(&e->name);
	int32_t dev = -1;
	int64_t stream = -1;
	if (on_gpu(k)) {
		int64_t d = e->have[KIN_DEVICE] ? e->arg[KIN_DEVICE] : e->pid.v;
		dev = d >= 0 && d <= INT32_MAX ? (int32_t)d : 0;
		stream = e->have[KIN_STREAM] ? e->arg[KIN_STREAM] : e->tid.v;
		ev.device = dev;
		ev.stream = stream;
	} else if (e->have[KIN_STREAM]) {
		/* a CPU event's stream argument (Triton's launcher op), kept
		 * as the trace says it: HTA counts such an event as GPU time */
		ev.stream = e->arg[KIN_STREAM];
	}
	int rc = perfan__trace_thread(x->t, e->pid.v, e->tid.v, dev, stream,
				      &ev.thread);
	if (!rc)
		rc = perfan__htab_put(&x->threads, place(e->pid.v, e->tid.v),
				      1);
	if (!rc && ev.correlation < 0 &&
	    (on_gpu(k) || k == PERFAN_TRACE_RUNTIME ||
	     k == PERFAN_TRACE_DRIVER)) {
		if (perfan__grow((void **)&x->lacks, &x->caplacks,
				 x->nlacks + 1, sizeof(*x->lacks)))
			return perfan__nomem(x->j.name);
		x->lacks[x->nlacks++] =
			(struct lack){e->pid.v, e->tid.v, e->ts, x->nevents};
	}
	if (!rc)
		rc = perfan__trace_add(x->t, &ev);
	if (rc)
		return perfan__nomem(x->j.name);
	x->nevents++;
	return 0;
}

static int events(struct kin *x)
{
	int rc = perfan__jread_array(&x->j, "traceEvents, an array");
	x->events = 1;
	while (!rc && (rc = perfan__jread_element(&x->j)) == 1) {
		if ((rc = perfan__kin_event(&x->j, &x->e)))
			break;
		switch (x->e.ph) {
		case 'X': rc = span(x); break;
		case 'M': rc = meta(x); break;
		case 's':
		case 'f': rc = flow(x); break;
		default: perfan__trace_skip(x->t); break;
		}
	}
	return rc < 0 ? rc : 0;
}

/* deviceProperties: [{"id": 0, "name": "NVIDIA A100", ...}, ...] */
static int devices(struct kin *x)
{
	const char *key;
	size_t klen;
	int rc = perfan__jread_array(&x->j, "deviceProperties, an array");
	while (!rc && (rc = perfan__jread_element(&x->j)) == 1) {
		struct perfan__kin_ev *e =
			&x->e; /* its buffers, for the name */
		int64_t id = -1;
		e->name.have = 0;
		rc = perfan__jread_object(&x->j, "a device, an object");
		while (!rc &&
		       (rc = perfan__jread_member(&x->j, &key, &klen)) == 1) {
			double v;
			if (!strcmp(key, "id")) {
				rc = perfan__jread_number(&x->j, "the id", &v);
				id = v >= 0 && v <= INT32_MAX ? (int64_t)v : -1;
			} else if (!strcmp(key, "name")) {
				const char *s;
				size_t n;
				rc = perfan__jread_string(&x->j, "the name", &s,
							  &n);
				if (!rc && perfan__grow((void **)&e->name.s,
							&e->name.cap, n + 1, 1))
					rc = perfan__nomem(x->j.name);
				if (!rc) {
					memcpy(e->name.s, s, n);
					e->name.s[n] = '\0';
					e->name.have = 1;
				}
			} else {
				rc = perfan__jread_skip(&x->j);
			}
		}
		if (rc < 0)
			return rc;
		rc = 0;
		if (id >= 0 && e->name.have)
			rc = perfan__trace_device_name(x->t, (int32_t)id,
						       e->name.s);
	}
	return rc < 0 ? rc : 0;
}

/* distributedInfo: {"rank": 0, ...} */
static int distributed(struct kin *x)
{
	const char *key;
	size_t klen;
	int rc = perfan__jread_object(&x->j, "distributedInfo, an object");
	while (!rc && (rc = perfan__jread_member(&x->j, &key, &klen)) == 1) {
		double v;
		if (strcmp(key, "rank") ||
		    perfan__jread_peek(&x->j, NULL) != PERFAN__JREAD_NUMBER) {
			rc = perfan__jread_skip(&x->j);
		} else if (!(rc = perfan__jread_number(&x->j, "rank", &v))) {
			x->rank = v >= 0 && v <= INT32_MAX ? (int32_t)v : -1;
		}
	}
	return rc < 0 ? rc : 0;
}

static int top(struct kin *x)
{
	const char *key, *s;
	size_t klen, n, off;
	int rc = perfan__jread_object(&x->j, "a Kineto trace, a JSON object");
	while (!rc && (rc = perfan__jread_member(&x->j, &key, &klen)) == 1) {
		if (!strcmp(key, "traceEvents")) {
			rc = events(x);
		} else if (!strcmp(key, "deviceProperties")) {
			rc = devices(x);
		} else if (!strcmp(key, "distributedInfo")) {
			rc = distributed(x);
		} else if (!strcmp(key, "schemaVersion") &&
			   perfan__jread_peek(&x->j, NULL) ==
				   PERFAN__JREAD_NUMBER) {
			rc = perfan__jread_number_text(&x->j, NULL, &s, &n,
						       NULL);
			free(x->schema);
			if (!rc && !(x->schema = strndup(s, n)))
				rc = perfan__nomem(x->j.name);
		} else if (!strcmp(key, "baseTimeNanoseconds")) {
			rc = perfan__jread_number_text(
				&x->j, "baseTimeNanoseconds, a number", &s, &n,
				&off);
			if (!rc && perfan__decimal_scaled(s, n, 0, &x->base))
				rc = perfan__jread_err(
					&x->j, PERFAN_EFORMAT, off,
					"baseTimeNanoseconds is out of range");
		} else {
			rc = perfan__jread_skip(&x->j);
		}
	}
	if (rc < 0)
		return rc;
	if ((rc = perfan__jread_end(&x->j)))
		return rc;
	if (!x->events)
		return perfan__err(PERFAN_EFORMAT,
				   "%s: a JSON object without traceEvents: "
				   "not a Kineto trace",
				   x->j.name);
	return 0;
}

static int by_place(const void *a, const void *b)
{
	const struct flow *p = a, *q = b;
	if (p->pid != q->pid)
		return p->pid < q->pid ? -1 : 1;
	if (p->tid != q->tid)
		return p->tid < q->tid ? -1 : 1;
	return p->ts < q->ts ? -1 : p->ts > q->ts;
}

/* Move every time by the base, and give the launches and GPU work without
 * a correlation the id of the flow that starts or ends on them. */
static void amend(struct kin *x)
{
	size_t n;
	struct perfan_trace_event *ev = perfan__trace_events(x->t, &n);
	if (x->nflows && x->nlacks) {
		qsort(x->flows, x->nflows, sizeof(*x->flows), by_place);
		for (size_t i = 0; i < x->nlacks; i++) {
			struct flow key = {x->lacks[i].pid, x->lacks[i].tid,
					   x->lacks[i].ts, 0};
			const struct flow *f =
				bsearch(&key, x->flows, x->nflows,
					sizeof(*x->flows), by_place);
			if (f && x->lacks[i].event < n)
				ev[x->lacks[i].event].correlation = f->id;
		}
	}
	if (x->base)
		for (size_t i = 0; i < n; i++)
			ev[i].ts += x->base;
}

/* The trace the reader X->j reads into X->t (the reader freed). */
static int parse(struct kin *x)
{
	int rc = top(x);
	if (!rc)
		rc = name_threads(x);
	if (!rc) {
		amend(x);
		rc = perfan__trace_describe(x->t,
					    x->old ? "kineto 2021" : "kineto",
					    x->schema, x->base, x->rank);
	}
	if (!rc)
		rc = perfan__trace_finish(x->t);
	perfan__jread_fini(&x->j);
	return rc;
}

/* The Kineto trace X->j reads into *OUT. */
static int read_trace(struct kin *x, perfan_trace **out)
{
	*out = NULL;
	if (!(x->t = perfan__trace_new())) {
		perfan__jread_fini(&x->j);
		return perfan__nomem(x->j.name);
	}
	int rc = parse(x);
	perfan__kin_ev_free(&x->e);
	free(x->schema);
	free(x->flows);
	free(x->lacks);
	for (size_t i = 0; i < x->nnames; i++)
		free(x->names[i].name);
	free(x->names);
	perfan__htab_free(&x->threads);
	if (rc) {
		perfan_trace_free(x->t);
		return rc;
	}
	*out = x->t;
	return 0;
}

int perfan__kineto_parse(const void *buf, size_t len, const char *name,
			 perfan_trace **out)
{
	struct kin x = {.rank = -1};
	perfan__jread_init(&x.j, buf, len, name, KIN_DEPTH);
	return read_trace(&x, out);
}

int perfan__kineto_stream(perfan__jread_fill fill, void *ctx, const char *name,
			  size_t window, perfan_trace **out)
{
	struct kin x = {.rank = -1};
	perfan__jread_init_stream(&x.j, fill, ctx, name, KIN_DEPTH);
	x.j.window = window;
	return read_trace(&x, out);
}

/* The input read as it comes, gzip inflated on the way (on a second
 * thread when the options allow two): only a window of its text is
 * held. */
static int trace(perfan_source *s, perfan_trace **out)
{
	struct perfan__text_in *in;
	struct perfan__ahead *ahead = NULL;
	*out = NULL;
	int rc = perfan__text_open(s, KIN_MAX, &in);
	if (rc)
		return rc;
	if (s->o.threads >= 2 && perfan__text_gzip(in) &&
	    perfan__ahead_start(perfan__text_read, in, KIN_PIECE, &ahead))
		ahead = NULL; /* no thread: inflated here */
	rc = ahead ? perfan__kineto_stream(perfan__ahead_read, ahead, s->name,
					   0, out)
		   : perfan__kineto_stream(perfan__text_read, in, s->name, 0,
					   out);
	perfan__ahead_stop(ahead);
	perfan__text_close(in);
	return rc;
}

/* A JSON object with "traceEvents" or "schemaVersion" in the first bytes
 * (inflated when gzip). */
static int detect(const void *buf, size_t len)
{
	char *tmp = NULL;
	const char *p = buf;
	if (perfan__is_gzip(buf, len)) {
		size_t cap = 4 * PERFAN__INPUT_PEEK;
		if (!(tmp = malloc(cap)))
			return 0;
		len = perfan__gunzip_peek(buf, len, tmp, cap);
		p = tmp;
	}
	const char *end = p + len;
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	int yes = p < end && *p == '{' &&
		  (memmem(p, (size_t)(end - p), "\"traceEvents\"", 13) ||
		   memmem(p, (size_t)(end - p), "\"schemaVersion\"", 15));
	free(tmp);
	return yes;
}

const struct perfan__format perfan__format_kineto = {
	.name = "torch.profiler",
	.caps = PERFAN__TRACE_CAPS,
	.detect = detect,
	.load = perfan__trace_load,
	.trace = trace,
};
