/* analysis/offcpu_threads.c: the off-CPU engine's table of threads: found by
 * tid, named, each holding a copy of its open interval's stack, and sorted
 * for the summary. Memory grows with threads, never with the recording. */
#include <stdlib.h>
#include <string.h>

#include "analysis/offcpu_internal.h"
#include "util/cmp.h"
#include "util/grow.h"

struct perfan__othread *perfan__othread_find(struct perfan__othreads *t,
					     int32_t tid)
{
	uint64_t *v = perfan__htab_get(&t->by_tid, (uint64_t)(uint32_t)tid);
	return v ? t->v[*v] : NULL;
}

struct perfan__othread *perfan__othread_get(struct perfan__othreads *t,
					    int32_t pid, int32_t tid, int fresh)
{
	struct perfan__othread *th = perfan__othread_find(t, tid);
	if (th && !(fresh && th->pub.exited)) {
		if (th->pub.pid < 0 && pid >= 0)
			th->pub.pid = pid;
		return th;
	}
	if (perfan__grow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v)))
		return NULL;
	th = calloc(1, sizeof(*th));
	if (!th)
		return NULL;
	if (perfan__htab_put(&t->by_tid, (uint64_t)(uint32_t)tid, t->n)) {
		free(th);
		return NULL;
	}
	th->pub.pid = pid;
	th->pub.tid = tid;
	t->v[t->n++] = th;
	return th;
}

int perfan__othread_comm(struct perfan__othreads *t, struct perfan__othread *th,
			 const char *comm)
{
	if (!comm || (th->pub.comm && !strcmp(th->pub.comm, comm)))
		return 0;
	char *c = perfan__arena_strndup(&t->arena, comm, strlen(comm));
	if (!c)
		return PERFAN_ENOMEM;
	th->pub.comm = c;
	return 0;
}

/* Copy FRAMES[0..N) into *TO (of *CAP), *NR their number. */
static int copy_stack(struct perfan_stream_frame **to, size_t *nr, size_t *cap,
		      const struct perfan_stream_frame *frames, size_t n)
{
	if (n > *cap && perfan__grow((void **)to, cap, n, sizeof(**to)))
		return PERFAN_ENOMEM;
	if (n)
		memcpy(*to, frames, n * sizeof(*frames));
	*nr = n;
	return 0;
}

int perfan__othread_stack(struct perfan__othread *th,
			  const struct perfan_stream_frame *frames, size_t n)
{
	return copy_stack(&th->frames, &th->nr_frames, &th->cap_frames, frames,
			  n);
}

int perfan__othread_waker_stack(struct perfan__othread *th,
				const struct perfan_stream_frame *frames,
				size_t n)
{
	return copy_stack(&th->wframes, &th->nr_wframes, &th->cap_wframes,
			  frames, n);
}

static int by_pid_tid(const void *a, const void *b)
{
	const struct perfan_offcpu_thread *x = a, *y = b;
	int c = perfan__cmp_i64(x->pid, y->pid);
	if (!c)
		c = perfan__cmp_i64(x->tid, y->tid);
	/* a tid used twice: the older thread first */
	return c ? c : perfan__cmp_u64(x->start, y->start);
}

static int any_interval(const struct perfan_offcpu_thread *t)
{
	for (int s = 0; s < PERFAN_OFFCPU_NR_STATES; s++)
		if (t->intervals[s])
			return 1;
	return 0;
}

int perfan__othreads_sorted(struct perfan__othreads *t, uint64_t end, size_t *n)
{
	if (t->n > t->cap_sorted &&
	    perfan__grow((void **)&t->sorted, &t->cap_sorted, t->n,
			 sizeof(*t->sorted)))
		return PERFAN_ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct perfan__othread *th = t->v[i];
		if (!th->own && !any_interval(&th->pub))
			continue; /* only named by others' records */
		struct perfan_offcpu_thread *o = &t->sorted[k++];
		*o = th->pub;
		o->start = th->fork_time     ? th->fork_time
			   : th->unseen_from ? th->unseen_from
					     : th->first;
		o->end = th->last;
		if ((th->pub.open_end || th->src != SRC_NONE) && end > o->end)
			o->end = end;
		if (o->end < o->start)
			o->end = o->start;
	}
	qsort(t->sorted, k, sizeof(*t->sorted), by_pid_tid);
	*n = k;
	return 0;
}

int perfan__othreads_all_recorded(const struct perfan__othreads *t)
{
	size_t to = 0, unrecorded = 0, processes = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct perfan__othread *th = t->v[i];
		to += th->switched_to;
		unrecorded += th->switched_to && !th->own;
		/* a process not started in the recording */
		processes += th->own && !th->fork_time &&
			     th->pub.pid == th->pub.tid;
	}
	/* One switched to as the recording stopped may have none yet. A
	 * process whose threads only ever hand the CPU to each other (and
	 * idle) looks the same: a recording of every CPU has others. */
	return to > 0 && unrecorded <= 1 + to / 50 && processes >= 2;
}

void perfan__othreads_free(struct perfan__othreads *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i]->frames);
		free(t->v[i]->wframes);
		free(t->v[i]);
	}
	free(t->v);
	free(t->sorted);
	perfan__htab_free(&t->by_tid);
	perfan__arena_free(&t->arena);
	memset(t, 0, sizeof(*t));
}
