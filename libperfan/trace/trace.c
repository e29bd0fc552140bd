/* trace/trace.c: the trace model (perfan/trace.h): interned strings,
 * threads and streams, events, sorted once the reader is done. */
#include "trace/build.h"

#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/keysort.h"
#include "util/maparr.h"

struct device_name {
	int32_t device;
	const char *name;
};

struct process_name {
	int64_t pid;
	const char *name;
};

struct perfan_trace {
	struct perfan__arena arena; /* strings */
	const char **strs;          /* interned, by id */
	size_t nstrs, capstrs;
	struct perfan__idtab str_tab;
	struct perfan_trace_thread *threads;
	size_t nthreads, capthreads;
	uint32_t last_thread; /* the last one looked up, tried first */
	struct perfan_trace_event *events; /* in evmap */
	size_t nevents;
	struct perfan__maparr evmap;
	struct device_name *devices;
	size_t ndevices, capdevices;
	struct process_name *procs;
	size_t nprocs, capprocs;
	struct perfan_trace_info info;
};

perfan_trace *perfan__trace_new(void)
{
	perfan_trace *t = calloc(1, sizeof(*t));
	if (t)
		t->info.rank = -1;
	return t;
}

void perfan_trace_free(perfan_trace *t)
{
	if (!t)
		return;
	perfan__arena_free(&t->arena);
	free(t->strs);
	perfan__idtab_free(&t->str_tab);
	free(t->threads);
	perfan__maparr_free(&t->evmap);
	free(t->devices);
	free(t->procs);
	free(t);
}

const char *perfan__trace_intern(perfan_trace *t, const char *s, size_t n)
{
	if (perfan__idtab_reserve(&t->str_tab) < 0)
		return NULL;
	uint32_t h = perfan__hash32(perfan__hash_mem(s, n));
	size_t i = perfan__idtab_start(&t->str_tab, h);
	for (;; i = perfan__idtab_step(&t->str_tab, i)) {
		const struct perfan__idslot *sl = &t->str_tab.slots[i];
		if (!sl->id1)
			break;
		if (sl->hash != h)
			continue;
		const char *c = t->strs[sl->id1 - 1];
		if (strncmp(c, s, n) == 0 && c[n] == '\0' && !memchr(s, 0, n))
			return c;
	}
	if (perfan__grow((void **)&t->strs, &t->capstrs, t->nstrs + 1,
			 sizeof(*t->strs)) < 0)
		return NULL;
	char *c = perfan__arena_strndup(&t->arena, s, n);
	if (!c)
		return NULL;
	t->strs[t->nstrs] = c;
	perfan__idtab_put(&t->str_tab, i, (uint32_t)t->nstrs, h);
	t->nstrs++;
	return c;
}

static const char *process_of(const perfan_trace *t, int64_t pid)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == pid)
			return t->procs[i].name;
	return NULL;
}

int perfan__trace_thread(perfan_trace *t, int64_t pid, int64_t tid,
			 int32_t device, int64_t stream, uint32_t *idx)
{
	for (size_t k = 0; k < t->nthreads; k++) {
		size_t i = (t->last_thread + k) % t->nthreads;
		const struct perfan_trace_thread *th = &t->threads[i];
		if (th->pid == pid && th->tid == tid && th->device == device &&
		    th->stream == stream) {
			t->last_thread = (uint32_t)i;
			*idx = (uint32_t)i;
			return 0;
		}
	}
	if (t->nthreads >= UINT32_MAX ||
	    perfan__grow((void **)&t->threads, &t->capthreads, t->nthreads + 1,
			 sizeof(*t->threads)) < 0)
		return PERFAN_ENOMEM;
	struct perfan_trace_thread *th = &t->threads[t->nthreads];
	memset(th, 0, sizeof(*th));
	th->pid = pid;
	th->tid = tid;
	th->device = device;
	th->stream = stream;
	th->process = process_of(t, pid);
	*idx = t->last_thread = (uint32_t)t->nthreads++;
	return 0;
}

int perfan__trace_thread_name(perfan_trace *t, int64_t pid, int64_t tid,
			      const char *name)
{
	const char *c = perfan__trace_intern(t, name, strlen(name));
	if (!c)
		return PERFAN_ENOMEM;
	int found = 0;
	for (size_t i = 0; i < t->nthreads; i++)
		if (t->threads[i].pid == pid && t->threads[i].tid == tid) {
			t->threads[i].name = c;
			found = 1;
		}
	if (found)
		return 0;
	/* metadata before the thread's first event: a CPU thread */
	uint32_t idx;
	int rc = perfan__trace_thread(t, pid, tid, -1, -1, &idx);
	if (rc < 0)
		return rc;
	t->threads[idx].name = c;
	return 0;
}

int perfan__trace_process_name(perfan_trace *t, int64_t pid, const char *name)
{
	const char *c = perfan__trace_intern(t, name, strlen(name));
	if (!c)
		return PERFAN_ENOMEM;
	size_t i;
	for (i = 0; i < t->nprocs && t->procs[i].pid != pid; i++)
		;
	if (i == t->nprocs) {
		if (perfan__grow((void **)&t->procs, &t->capprocs,
				 t->nprocs + 1, sizeof(*t->procs)) < 0)
			return PERFAN_ENOMEM;
		t->procs[t->nprocs++].pid = pid;
	}
	t->procs[i].name = c;
	for (size_t k = 0; k < t->nthreads; k++)
		if (t->threads[k].pid == pid)
			t->threads[k].process = c;
	return 0;
}

int perfan__trace_device_name(perfan_trace *t, int32_t device, const char *name)
{
	const char *c = perfan__trace_intern(t, name, strlen(name));
	if (!c)
		return PERFAN_ENOMEM;
	size_t i;
	for (i = 0; i < t->ndevices && t->devices[i].device != device; i++)
		;
	if (i == t->ndevices) {
		if (perfan__grow((void **)&t->devices, &t->capdevices,
				 t->ndevices + 1, sizeof(*t->devices)) < 0)
			return PERFAN_ENOMEM;
		t->devices[t->ndevices++].device = device;
	}
	t->devices[i].name = c;
	return 0;
}

const char *perfan_trace_device_name(const perfan_trace *t, int32_t device)
{
	for (size_t i = 0; t && i < t->ndevices; i++)
		if (t->devices[i].device == device)
			return t->devices[i].name;
	return NULL;
}

void perfan__trace_event_init(struct perfan_trace_event *e)
{
	memset(e, 0, sizeof(*e));
	e->correlation = e->external_id = e->python_id = e->python_parent =
		e->seq = e->stream = e->wait_stream = e->event_record = -1;
	e->device = -1;
}

int perfan__trace_add(perfan_trace *t, const struct perfan_trace_event *e)
{
	if (t->nevents >= UINT32_MAX ||
	    perfan__maparr_grow(&t->evmap,
				(t->nevents + 1) * sizeof(*t->events)) < 0)
		return PERFAN_ENOMEM;
	t->events = t->evmap.p;
	t->events[t->nevents] = *e;
	t->events[t->nevents].index = (uint32_t)t->nevents;
	t->nevents++;
	return 0;
}

struct perfan_trace_event *perfan__trace_events(perfan_trace *t, size_t *n)
{
	*n = t->nevents;
	return t->events;
}

void perfan__trace_skip(perfan_trace *t)
{
	t->info.skipped++;
}

int perfan__trace_describe(perfan_trace *t, const char *layout,
			   const char *schema, int64_t base_ns, int32_t rank)
{
	t->info.layout =
		layout ? perfan__trace_intern(t, layout, strlen(layout)) : NULL;
	t->info.schema =
		schema ? perfan__trace_intern(t, schema, strlen(schema)) : NULL;
	if ((layout && !t->info.layout) || (schema && !t->info.schema))
		return PERFAN_ENOMEM;
	t->info.base_ns = base_ns;
	t->info.rank = rank;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct perfan_trace_event *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The events by time, ties in input order: a stable sort of their times
 * (events are appended in input order, so their places are their
 * indexes), each event then moved once. */
static int sort_events(perfan_trace *t)
{
	size_t n = t->nevents;
	struct perfan_trace_event *ev = t->events;
	struct perfan__keyed *k = malloc(n * sizeof(*k));
	int in_order = 1;
	for (size_t i = 0; k && i < n; i++) {
		k[i] = (struct perfan__keyed){ev[i].ts, (uint32_t)i};
		in_order &= ev[i].index == i;
	}
	if (!k || !in_order || perfan__keysort(k, n)) {
		free(k); /* short of memory: glibc's sort needs less */
		qsort(ev, n, sizeof(*ev), by_time);
		return 0;
	}
	perfan__keysort_apply(ev, sizeof(*ev), k, n);
	free(k);
	return 0;
}

int perfan__trace_finish(perfan_trace *t)
{
	int rc = t->nevents ? sort_events(t) : 0;
	if (rc)
		return rc;
	t->info.nr_events = t->nevents;
	t->info.events = t->events;
	t->info.nr_threads = t->nthreads;
	t->info.threads = t->threads;
	return 0;
}

const struct perfan_trace_info *perfan_trace_info(const perfan_trace *t)
{
	return &t->info;
}

const char *perfan_trace_kind_name(enum perfan_trace_kind kind)
{
	static const char *const names[PERFAN_TRACE_NKINDS] = {
		[PERFAN_TRACE_OTHER] = "other",
		[PERFAN_TRACE_CPU_OP] = "cpu_op",
		[PERFAN_TRACE_USER_ANNOTATION] = "user_annotation",
		[PERFAN_TRACE_PYTHON_FUNCTION] = "python_function",
		[PERFAN_TRACE_RUNTIME] = "cuda_runtime",
		[PERFAN_TRACE_DRIVER] = "cuda_driver",
		[PERFAN_TRACE_KERNEL] = "kernel",
		[PERFAN_TRACE_MEMCPY] = "gpu_memcpy",
		[PERFAN_TRACE_MEMSET] = "gpu_memset",
		[PERFAN_TRACE_SYNC] = "cuda_sync",
		[PERFAN_TRACE_GPU_ANNOTATION] = "gpu_user_annotation",
	};
	return (unsigned)kind < PERFAN_TRACE_NKINDS ? names[kind] : NULL;
}
