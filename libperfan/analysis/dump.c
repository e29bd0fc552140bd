/* analysis/dump.c: every thread at one moment (perfan/dump.h): from one
 * read of the stream, each thread's off-CPU interval holding the moment
 * (with its switch-out stack) and its last on-CPU sample at or before it;
 * frames interned once, so memory stays per thread and per function; and
 * every stack under its thread, for the threads' names. */
#include <stdlib.h>
#include <string.h>

#include <perfan/dump.h>
#include <perfan/offcpu.h>
#include <perfan/threadnames.h>

#include "analysis/offcpu_internal.h"
#include "analysis/stackmap.h"
#include "analysis/thread_table.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

/* A stack kept: frame ids in the map's profile and their addresses. */
struct kept {
	perfan_frame_id *ids;
	uint64_t *addrs;
	size_t n, cap;
	uint64_t time;
};

struct dthread {
	struct perfan__thread id;
	int off; /* an interval holds the moment */
	uint32_t state, wait;
	uint64_t since, woken_at;
	int woken;
	struct kept iv, sample;
	uint64_t last_end;   /* the latest end of an interval before it */
	uint64_t prev_start; /* the last interval's start, and end */
	uint64_t prev_end;
};

struct perfan_dump {
	struct perfan_dump_opts o;
	struct perfan__thread_table tt; /* of struct dthread */
	/* the frames, interned; every stack under its thread's process
	 * frame, weighing its time (column 0), for NAMES */
	perfan_profile *stacks;
	struct perfan__stackmap sm;
	perfan_thread_names *names;
	struct perfan_dump_thread *out;
	struct perfan_dump_frame *frames;
	struct perfan_dump_result res;
	int err;
};

static struct dthread *thread_of(perfan_dump *d, int32_t pid, int32_t tid,
				 const char *comm)
{
	struct dthread *th = perfan__thread_table_get(&d->tt, pid, tid, comm);
	if (!th)
		d->err = PERFAN_ENOMEM;
	return th;
}

/* FRAMES (N, leaf first) into K, at TIME. */
static int keep(perfan_dump *d, struct kept *k,
		const struct perfan_stream_frame *frames, size_t n,
		uint64_t time)
{
	if (n > k->cap) {
		size_t cap = k->cap;
		if (perfan__grow((void **)&k->ids, &cap, n, sizeof(*k->ids)) ||
		    perfan__grow((void **)&k->addrs, &k->cap, n,
				 sizeof(*k->addrs)))
			return perfan__nomem("dump");
	}
	for (size_t i = 0; i < n; i++) {
		int err =
			perfan__stackmap_frame(&d->sm, &frames[i], &k->ids[i]);
		if (err)
			return err;
		k->addrs[i] = frames[i].map_addr;
	}
	k->n = n;
	k->time = time;
	return 0;
}

static int on_interval(const struct perfan_offcpu_interval *iv, void *payload)
{
	perfan_dump *d = payload;
	uint64_t at = d->o.at;
	if (iv->flags & PERFAN_OFFCPU_AGGREGATE)
		return 0;
	struct dthread *th = thread_of(d, iv->pid, iv->tid, iv->comm);
	if (!th)
		return d->err;
	/* the part before a wakeup, delivered just before this one */
	uint64_t start = iv->state == PERFAN_OFFCPU_WAKEUP_DELAY &&
					 th->prev_end == iv->start
				 ? th->prev_start
				 : iv->start;
	th->prev_start = start;
	th->prev_end = iv->end;
	int err = perfan__stackmap_thread_add(&d->sm, iv->pid, iv->tid,
					      iv->comm, iv->frames,
					      iv->nr_frames, 0,
					      iv->end - iv->start, NULL);
	if (err)
		return d->err = err;
	/* the end of the recording (AT unknown till then): what is open */
	int holds = at == UINT64_MAX ? (iv->flags & PERFAN_OFFCPU_OPEN_END) != 0
				     : iv->start <= at && at < iv->end;
	if (!holds) {
		if (iv->end <= at && iv->end > th->last_end)
			th->last_end = iv->end;
		return 0;
	}
	if (th->off)
		return 0;
	th->off = 1;
	th->state = iv->state;
	th->wait = iv->wait;
	th->since = start;
	th->woken = iv->state == PERFAN_OFFCPU_WAKEUP_DELAY;
	th->woken_at = th->woken ? iv->start : 0;
	err = keep(d, &th->iv, iv->frames, iv->nr_frames, iv->start);
	return err ? (d->err = err) : 0;
}

static int on_event(const struct perfan_stream_event *ev, void *payload)
{
	perfan_dump *d = payload;
	if (d->err)
		return d->err;
	if (ev->type != PERFAN_STREAM_SAMPLE || ev->tid <= 0 || !ev->time ||
	    !perfan__offcpu_is_cpu_clock(ev->event))
		return 0;
	const struct perfan_stream_sample *sm = &ev->u.sample;
	int err = perfan__stackmap_thread_add(&d->sm, ev->pid, ev->tid,
					      ev->comm, sm->frames,
					      sm->nr_frames, 0, sm->period,
					      NULL);
	if (err || ev->time > d->o.at)
		return d->err = err;
	struct dthread *th = thread_of(d, ev->pid, ev->tid, ev->comm);
	if (!th)
		return d->err;
	err = keep(d, &th->sample, sm->frames, sm->nr_frames, ev->time);
	return err ? (d->err = err) : 0;
}

static int by_pid_tid(const void *a, const void *b)
{
	const struct perfan_dump_thread *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int finish(perfan_dump *d, perfan_offcpu *oc)
{
	const struct perfan_offcpu_summary *sum = perfan_offcpu_summary(oc);
	uint64_t at = d->o.at;
	d->res.at = at;
	d->res.start = sum->start;
	d->res.end = sum->end;
	size_t nframes = 0, nt = 0;
	for (size_t i = 0; i < d->tt.n; i++) {
		const struct dthread *th = d->tt.t[i];
		nframes += th->iv.n + th->sample.n;
	}
	d->out = calloc(sum->nr_threads + 1, sizeof(*d->out));
	d->frames = calloc(nframes + 1, sizeof(*d->frames));
	if (!d->out || !d->frames)
		return perfan__nomem("dump");
	int err = perfan_thread_names_new(&d->names, d->stacks, NULL);
	if (err)
		return err;
	struct perfan_dump_frame *fr = d->frames;
	for (size_t i = 0; i < sum->nr_threads; i++) {
		const struct perfan_offcpu_thread *ot = &sum->threads[i];
		if (ot->start > at || (ot->exited && ot->end < at) ||
		    (d->o.pid > 0 && ot->pid != d->o.pid))
			continue;
		struct dthread *th = perfan__thread_table_find(&d->tt, ot->tid);
		struct perfan_dump_thread *t = &d->out[nt++];
		t->pid = ot->pid;
		t->tid = ot->tid;
		t->comm = th && th->id.comm[0] ? th->id.comm : ot->comm;
		perfan__thread_name(d->names, ot->pid, ot->tid, &t->name,
				    &t->role, &t->pool);
		if (!t->name)
			t->name = t->comm;
		t->running = !th || !th->off;
		t->since = ot->start;
		const struct kept *s = NULL;
		if (th && th->off) {
			t->state = th->state;
			t->wait = th->wait;
			t->woken = th->woken;
			t->woken_at = th->woken_at;
			t->since = th->since;
			s = &th->iv;
		} else if (th) {
			if (th->last_end > t->since)
				t->since = th->last_end;
			s = &th->sample;
		}
		if (!s)
			continue;
		t->frames = fr;
		t->nr_frames = s->n;
		t->stack_time = s->time;
		for (size_t f = 0; f < s->n; f++, fr++) {
			const struct perfan_frame *pf =
				perfan_profile_frame_get(d->stacks, s->ids[f]);
			*fr = (struct perfan_dump_frame){pf->name, pf->module,
							 s->addrs[f]};
		}
	}
	qsort(d->out, nt, sizeof(*d->out), by_pid_tid);
	d->res.threads = d->out;
	d->res.nr_threads = nt;
	return 0;
}

void perfan_dump_free(perfan_dump *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->tt.n; i++) {
		struct dthread *th = d->tt.t[i];
		free(th->iv.ids);
		free(th->iv.addrs);
		free(th->sample.ids);
		free(th->sample.addrs);
	}
	perfan__thread_table_free(&d->tt);
	perfan__stackmap_free(&d->sm);
	perfan_profile_free(d->stacks);
	perfan_thread_names_free(d->names);
	free(d->out);
	free(d->frames);
	free(d);
}

int perfan_dump_perfdata(perfan_dump **out, perfan_perfdata *pd,
			 const struct perfan_resolve_opts *ro,
			 const struct perfan_dump_opts *opts)
{
	if (!out || !pd)
		return perfan__err_null(__func__, out ? "perfdata" : "out");
	*out = NULL;
	perfan_dump *d = calloc(1, sizeof(*d));
	if (!d)
		return perfan__nomem("dump");
	d->tt.size = sizeof(struct dthread);
	int err = PERFAN__OPTS_COPY(d->o, opts);
	if (!err && !d->o.at)
		d->o.at = UINT64_MAX; /* the end: its time known at the end */
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	if (!err)
		err = perfan_profile_new(&d->stacks, &po);
	if (!err) {
		int col = perfan_profile_add_column(d->stacks, "time", "ns");
		err = col < 0 ? col : 0;
	}
	d->sm.p = d->stacks;
	struct perfan_offcpu_opts oo =
		PERFAN_OPTS_INIT(struct perfan_offcpu_opts);
	oo.interval = on_interval;
	oo.payload = d;
	perfan_offcpu *oc = NULL;
	if (!err)
		err = perfan__offcpu_read(pd, ro, &oo, on_event, d, "dump",
					  &oc);
	if (!err && d->err)
		err = d->err;
	if (!err) {
		const struct perfan_offcpu_summary *sum =
			perfan_offcpu_summary(oc);
		if (d->o.at == UINT64_MAX)
			d->o.at = sum->end;
		if (d->o.at < sum->start || d->o.at > sum->end)
			err = perfan__err(
				PERFAN_EINVAL,
				"%s: %llu ns is outside the recording (%llu "
				"to %llu ns)",
				perfan_perfdata_name(pd),
				(unsigned long long)d->o.at,
				(unsigned long long)sum->start,
				(unsigned long long)sum->end);
	}
	if (!err)
		err = finish(d, oc);
	perfan_offcpu_free(oc);
	if (err) {
		perfan_dump_free(d);
		return err;
	}
	*out = d;
	return 0;
}

const struct perfan_dump_result *perfan_dump_result(const perfan_dump *d)
{
	return d ? &d->res : NULL;
}
