/* analysis/timeline.c: what every thread did over time (perfan/timeline.h):
 * one read of the stream through the off-CPU engine keeps each thread's
 * off-CPU intervals (state, class, site, switch-out stack) and a sample's
 * stack for each running stretch between them; at the end the lanes are
 * made of both, segments shorter than the resolution merged with their
 * time kept by kind. Frames and stacks are interned once (the stackmap). */
#include <stdlib.h>
#include <string.h>

#include <perfan/offcpu.h>
#include <perfan/threadnames.h>
#include <perfan/timeline.h>

#include "analysis/offcpu_internal.h"
#include "analysis/stackmap.h"
#include "analysis/threads_keep.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"
#include "util/opts.h"

#define NONE PERFAN_TIMELINE_NONE
#define DEFAULT_MAX_SEGMENTS 200000

/* An off-CPU interval kept, with the stack of the running stretch before
 * it. */
struct raw {
	uint64_t start, end;
	uint32_t state, wait, stack, site;
	uint32_t run_stack;
};

/* A sample that may stand for a running stretch. */
struct cand {
	uint64_t time;
	uint32_t stack;
};

struct tthread {
	struct raw *iv;
	size_t n, cap;
	uint64_t gap_from;       /* the end of its last interval; 0: none yet */
	struct cand first, last; /* samples since then */
	uint64_t wait[PERFAN_WAIT_NR_CLASSES];
};

struct perfan_timeline {
	struct perfan_timeline_opts o;
	struct perfan_filter filter;
	struct tthread **t;
	size_t n, cap;
	struct perfan__htab by_tid;
	perfan_profile *stacks;
	struct perfan__stackmap sm;
	perfan_thread_names *names;
	struct perfan_timeline_pool *pools;
	struct perfan_timeline_wake *wakes;
	size_t nwakes, wakes_cap;
	struct perfan_timeline_sample *samples;
	size_t nsamples, samples_cap;
	int32_t *sample_tid; /* each sample's thread, for its lane */
	size_t sample_tid_cap;
	struct perfan_timeline_lane *lanes;
	struct perfan_timeline_segment *segs;
	size_t nsegs, segs_cap;
	struct perfan_timeline_mix *mixes;
	size_t nmixes, mixes_cap;
	struct perfan_timeline_result res;
	int err;
};

static struct tthread *thread_of(perfan_timeline *t, int32_t tid)
{
	uint64_t key = (uint64_t)(uint32_t)tid;
	uint64_t *i = perfan__htab_get(&t->by_tid, key);
	if (i)
		return t->t[*i];
	struct tthread *th;
	if (perfan__grow((void **)&t->t, &t->cap, t->n + 1, sizeof(*t->t)) ||
	    !(th = calloc(1, sizeof(*th))) ||
	    perfan__htab_put(&t->by_tid, key, t->n)) {
		t->err = perfan__nomem("timeline");
		return NULL;
	}
	t->t[t->n++] = th;
	return th;
}

/* FRAMES (N, leaf first) as a node of the stacks' trie, or NONE; and the
 * same under thread PID/TID's process frame, weighing W, for the
 * threads' names (perfan_thread_names_new reads only those). */
static int stack_of(perfan_timeline *t, int32_t pid, int32_t tid,
		    const char *comm, uint64_t w,
		    const struct perfan_stream_frame *f, size_t n,
		    uint32_t *out)
{
	*out = NONE;
	if (!n)
		return 0;
	perfan_node_id leaf;
	int err = perfan__stackmap_path(&t->sm, 1, f, n, 0);
	if (!err)
		err = perfan_profile_add(t->stacks, t->sm.path + 1, n, 0, 0,
					 NULL, &leaf);
	if (!err && leaf != PERFAN_ROOT_NODE)
		*out = leaf;
	if (err || !w || tid <= 0)
		return err;
	err = perfan_profile_process_frame(t->stacks, &t->sm.path[0],
					   PERFAN_ROOT_PID_TID, comm, pid, tid);
	return err ? err
		   : perfan_profile_add(t->stacks, t->sm.path, n + 1, 0, w,
					NULL, NULL);
}

/* The stack of the running stretch that ends at END: of the first and
 * the last sample in it, the one nearer its middle. */
static uint32_t run_stack(const struct tthread *th, uint64_t end)
{
	if (!th->first.time)
		return NONE;
	uint64_t from = th->gap_from ? th->gap_from : th->first.time;
	uint64_t mid = from + (end > from ? (end - from) / 2 : 0);
	uint64_t d1 = mid > th->first.time ? mid - th->first.time
					   : th->first.time - mid;
	uint64_t d2 = mid > th->last.time ? mid - th->last.time
					  : th->last.time - mid;
	return d2 < d1 ? th->last.stack : th->first.stack;
}

static int add_wake(perfan_timeline *t, const struct perfan_offcpu_interval *iv)
{
	if (iv->wake_source != PERFAN_WAKE_THREAD || iv->waker_tid <= 0 ||
	    !iv->wake_time)
		return 0;
	if (perfan__grow((void **)&t->wakes, &t->wakes_cap, t->nwakes + 1,
			 sizeof(*t->wakes)))
		return perfan__nomem("timeline");
	t->wakes[t->nwakes++] = (struct perfan_timeline_wake){
		iv->wake_time, iv->waker_pid, iv->waker_tid,
		iv->pid,       iv->tid,       iv->waker_uncertain,
	};
	return 0;
}

static int on_interval(const struct perfan_offcpu_interval *iv, void *payload)
{
	perfan_timeline *t = payload;
	if (iv->flags & PERFAN_OFFCPU_AGGREGATE)
		return 0;
	struct tthread *th = thread_of(t, iv->tid);
	if (!th)
		return t->err;
	if (perfan__grow((void **)&th->iv, &th->cap, th->n + 1,
			 sizeof(*th->iv)))
		return t->err = perfan__nomem("timeline");
	struct raw *r = &th->iv[th->n];
	*r = (struct raw){iv->start,
			  iv->end,
			  iv->state,
			  iv->wait,
			  NONE,
			  NONE,
			  run_stack(th, iv->start)};
	int err = stack_of(t, iv->pid, iv->tid, iv->comm, iv->end - iv->start,
			   iv->frames, iv->nr_frames, &r->stack);
	if (!err && iv->site < iv->nr_frames)
		err = perfan__stackmap_frame(&t->sm, &iv->frames[iv->site],
					     &r->site);
	/* a wakeup ends the blocked part; its run-queue part names it
	 * again */
	if (!err && iv->state != PERFAN_OFFCPU_WAKEUP_DELAY)
		err = add_wake(t, iv);
	if (err)
		return t->err = err;
	th->n++;
	if (iv->state != PERFAN_OFFCPU_RUNQ &&
	    iv->state != PERFAN_OFFCPU_WAKEUP_DELAY &&
	    iv->wait < PERFAN_WAIT_NR_CLASSES)
		th->wait[iv->wait] += iv->end - iv->start;
	th->gap_from = iv->end;
	th->first.time = th->last.time = 0;
	return 0;
}

static int on_event(const struct perfan_stream_event *ev, void *payload)
{
	perfan_timeline *t = payload;
	if (t->err)
		return t->err;
	if (ev->type != PERFAN_STREAM_SAMPLE || ev->tid <= 0 || !ev->time ||
	    !perfan__offcpu_is_cpu_clock(ev->event) ||
	    !perfan_filter_sample(&t->filter, ev->pid, ev->tid, ev->cpu,
				  ev->comm, ev->time, ev->event->name))
		return 0;
	struct tthread *th = thread_of(t, ev->tid);
	if (!th)
		return t->err;
	uint32_t stack;
	int err = stack_of(t, ev->pid, ev->tid, ev->comm, ev->u.sample.period,
			   ev->u.sample.frames, ev->u.sample.nr_frames, &stack);
	if (err)
		return t->err = err;
	struct cand c = {ev->time, stack};
	if (!th->first.time)
		th->first = c;
	th->last = c;
	if (!t->o.samples)
		return 0;
	if (perfan__grow((void **)&t->samples, &t->samples_cap, t->nsamples + 1,
			 sizeof(*t->samples)) ||
	    perfan__grow((void **)&t->sample_tid, &t->sample_tid_cap,
			 t->nsamples + 1, sizeof(*t->sample_tid)))
		return t->err = perfan__nomem("timeline");
	t->sample_tid[t->nsamples] = ev->tid;
	t->samples[t->nsamples++] = (struct perfan_timeline_sample){
		ev->time, ev->u.sample.period, 0, stack};
	return 0;
}

/* ---- the lanes ------------------------------------------------------- */

/* A lane's segments before merging, in order: running stretches between
 * its intervals within [START, END). */
struct walk {
	const struct tthread *th;
	uint64_t start, end;
	size_t i;      /* the next interval */
	uint64_t at;   /* where the next segment starts */
	uint32_t tail; /* the stack of the last running stretch */
};

static int walk_next(struct walk *w, struct perfan_timeline_segment *s)
{
	const struct tthread *th = w->th;
	while (w->at < w->end) {
		const struct raw *r = w->i < (th ? th->n : 0) ? &th->iv[w->i]
							      : NULL;
		uint64_t start = r && r->start > w->at ? r->start : w->at;
		if (!r || start > w->at) {
			uint64_t to = r && r->start < w->end ? r->start
							     : w->end;
			*s = (struct perfan_timeline_segment){
				w->at,
				to,
				PERFAN_TIMELINE_RUNNING,
				0,
				r ? r->run_stack : w->tail,
				NONE,
				NONE};
			w->at = to;
			return 1;
		}
		w->i++;
		uint64_t end = r->end < w->end ? r->end : w->end;
		if (end <= w->at)
			continue; /* nothing of it left (an overlap) */
		*s = (struct perfan_timeline_segment){
			w->at,   end,      PERFAN_TIMELINE_OFF + r->state,
			r->wait, r->stack, r->site,
			NONE};
		w->at = end;
		return 1;
	}
	return 0;
}

/* Segments shorter than the resolution, gathered into one. */
struct bucket {
	uint64_t start, end;
	uint64_t time[PERFAN_TIMELINE_NR_KINDS];
	size_t n;
	struct perfan_timeline_segment one; /* the first, or the longest */
	uint64_t one_len;
};

/* What merging does: NSEGS and NMIXES counted (and, with EMIT, the
 * segments and mixes made). */
struct merger {
	perfan_timeline *t;
	uint64_t res;
	int emit;
	size_t nsegs, nmixes;
};

static int put_seg(struct merger *m, const struct perfan_timeline_segment *s,
		   const uint64_t *mix)
{
	m->nsegs++;
	if (mix)
		m->nmixes++;
	if (!m->emit)
		return 0;
	perfan_timeline *t = m->t;
	if (perfan__grow((void **)&t->segs, &t->segs_cap, t->nsegs + 1,
			 sizeof(*t->segs)))
		return perfan__nomem("timeline");
	t->segs[t->nsegs] = *s;
	if (mix) {
		if (perfan__grow((void **)&t->mixes, &t->mixes_cap,
				 t->nmixes + 1, sizeof(*t->mixes)))
			return perfan__nomem("timeline");
		memcpy(t->mixes[t->nmixes].time, mix,
		       sizeof(t->mixes[t->nmixes].time));
		t->segs[t->nsegs].mix = (uint32_t)t->nmixes++;
	}
	t->nsegs++;
	return 0;
}

static int flush(struct merger *m, struct bucket *b)
{
	if (!b->n)
		return 0;
	int err;
	if (b->n == 1) {
		err = put_seg(m, &b->one, NULL);
	} else {
		/* the kind with the most time names it; its longest piece
		 * gives the class, stack and site */
		struct perfan_timeline_segment s = b->one;
		s.start = b->start;
		s.end = b->end;
		err = put_seg(m, &s, b->time);
	}
	memset(b, 0, sizeof(*b));
	return err;
}

static uint32_t top_kind(const struct bucket *b)
{
	uint32_t k = 0;
	for (uint32_t i = 1; i < PERFAN_TIMELINE_NR_KINDS; i++)
		if (b->time[i] > b->time[k])
			k = i;
	return k;
}

static int merge_lane(struct merger *m, const struct tthread *th,
		      uint64_t start, uint64_t end)
{
	struct walk w = {th, start, end,
			 0,  start, th ? run_stack(th, end) : NONE};
	struct bucket b = {0};
	struct perfan_timeline_segment s;
	int err = 0;
	while (!err && walk_next(&w, &s)) {
		uint64_t len = s.end - s.start;
		if (len >= m->res) {
			err = flush(m, &b);
			if (!err)
				err = put_seg(m, &s, NULL);
			continue;
		}
		if (!b.n)
			b.start = s.start;
		b.end = s.end;
		b.time[s.kind] += len;
		b.n++;
		uint32_t top = top_kind(&b);
		if (b.n == 1 ||
		    (s.kind == top && (b.one.kind != top || len > b.one_len))) {
			b.one = s;
			b.one_len = len;
		}
		if (b.end - b.start >= m->res)
			err = flush(m, &b);
	}
	if (!err)
		err = flush(m, &b);
	return err;
}

static const struct tthread *tthread_get(const perfan_timeline *t, int32_t tid)
{
	uint64_t *k = perfan__htab_get(&t->by_tid, (uint64_t)(uint32_t)tid);
	return k ? t->t[*k] : NULL;
}

static int merge_all(perfan_timeline *t, struct merger *m)
{
	for (size_t i = 0; i < t->res.nr_lanes; i++) {
		struct perfan_timeline_lane *l = &t->lanes[i];
		size_t first = t->nsegs;
		int err =
			merge_lane(m, tthread_get(t, l->tid), l->start, l->end);
		if (err)
			return err;
		l->nr_segments = t->nsegs - first;
	}
	return 0;
}

/* The resolution: OPTS's, else the finest of 1 us and steps of a quarter
 * more that keeps the segments within the budget. */
static int pick_resolution(perfan_timeline *t)
{
	if (t->o.resolution) {
		t->res.resolution = t->o.resolution;
		return 0;
	}
	size_t max = t->o.max_segments ? t->o.max_segments
				       : DEFAULT_MAX_SEGMENTS;
	uint64_t res = 0;
	for (;;) {
		struct merger m = {t, res, 0, 0, 0};
		int err = merge_all(t, &m);
		if (err)
			return err;
		if (m.nsegs <= max || res >= (1ull << 40))
			break;
		res = res ? res + res / 4 : 1024;
	}
	t->res.resolution = res;
	return 0;
}

/* Each lane's name and pool (perfan/threadnames.h, from the stacks under
 * the threads' process frames); the pools of two lanes or more. */
static int name_lanes(perfan_timeline *t)
{
	struct perfan_thread_names_opts no =
		PERFAN_OPTS_INIT(struct perfan_thread_names_opts);
	int err = perfan_thread_names_new(&t->names, t->stacks, &no);
	if (err)
		return err;
	size_t np = perfan_thread_names_nr_pools(t->names);
	size_t *count = calloc(np + 1, sizeof(*count));
	size_t *index = calloc(np + 1, sizeof(*index));
	t->pools = calloc(np + 1, sizeof(*t->pools));
	if (!count || !index || !t->pools) {
		free(count);
		free(index);
		return perfan__nomem("timeline");
	}
	for (size_t i = 0; i < t->res.nr_lanes; i++) {
		struct perfan_timeline_lane *l = &t->lanes[i];
		const struct perfan_thread_name *tn =
			perfan_thread_names_find(t->names, l->pid, l->tid);
		l->name = tn ? tn->name : l->comm;
		l->role = tn ? tn->role : NULL;
		l->pool = PERFAN_NO_POOL;
		if (tn && tn->pool < np)
			count[tn->pool]++;
	}
	/* pools of two lanes or more, in the order of their first lanes */
	for (size_t p = 0; p < np; p++)
		index[p] = PERFAN_NO_POOL;
	size_t n = 0;
	for (size_t i = 0; i < t->res.nr_lanes; i++) {
		struct perfan_timeline_lane *l = &t->lanes[i];
		const struct perfan_thread_name *tn =
			perfan_thread_names_find(t->names, l->pid, l->tid);
		if (!tn || tn->pool >= np || count[tn->pool] < 2)
			continue;
		if (index[tn->pool] == PERFAN_NO_POOL) {
			const struct perfan_thread_pool *tp =
				perfan_thread_names_pool(t->names, tn->pool);
			index[tn->pool] = n;
			t->pools[n++] = (struct perfan_timeline_pool){
				tp->pid, tp->name, count[tn->pool], i};
		}
		l->pool = index[tn->pool];
	}
	t->res.nr_pools = n;
	t->res.pools = t->pools;
	free(count);
	free(index);
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct raw *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int wake_cmp(const void *a, const void *b)
{
	const struct perfan_timeline_wake *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int lane_cmp(const void *a, const void *b)
{
	const struct perfan_timeline_lane *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int finish(perfan_timeline *t, const struct perfan_offcpu_summary *s)
{
	t->res.start = s->start;
	t->res.end = s->end;
	perfan_filter_clip(&t->filter, &t->res.start, &t->res.end);
	for (size_t i = 0; i < t->n; i++)
		if (t->t[i]->n > 1)
			qsort(t->t[i]->iv, t->t[i]->n, sizeof(*t->t[i]->iv),
			      by_time);
	t->lanes = calloc(s->nr_threads + 1, sizeof(*t->lanes));
	if (!t->lanes)
		return perfan__nomem("timeline");
	/* the thread table's threads: of a system-wide recording the
	 * busiest process unless all are asked for; with time on or off the
	 * CPU */
	int32_t focus = perfan__threads_focus(t->o.all, s);
	size_t n = 0;
	for (size_t i = 0; i < s->nr_threads; i++, t->res.nr_lanes = n) {
		const struct perfan_offcpu_thread *ot = &s->threads[i];
		uint64_t start, end;
		if (!perfan__threads_keep(1, focus, s, ot, &start, &end))
			continue;
		struct perfan_timeline_lane *l = &t->lanes[n++];
		/* the engine's names go with it: each lane keeps its own */
		char *comm = ot->comm ? strdup(ot->comm) : NULL;
		if (ot->comm && !comm)
			return perfan__nomem("timeline");
		*l = (struct perfan_timeline_lane){.pid = ot->pid,
						   .tid = ot->tid,
						   .comm = comm,
						   .start = start,
						   .end = end,
						   .on_cpu = ot->on_cpu};
		const struct tthread *th = tthread_get(t, ot->tid);
		if (th)
			memcpy(l->wait, th->wait, sizeof(l->wait));
	}
	if (n > 1)
		qsort(t->lanes, n, sizeof(*t->lanes), lane_cmp);
	t->res.nr_lanes = n;
	int err = name_lanes(t);
	if (err)
		return err;
	err = pick_resolution(t);
	struct merger m = {t, t->res.resolution, 1, 0, 0};
	if (!err)
		err = merge_all(t, &m);
	if (err)
		return err;
	/* the segments' places, and each lane's time by kind from them */
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		struct perfan_timeline_lane *l = &t->lanes[i];
		l->segments = t->segs + at;
		for (size_t k = 0; k < l->nr_segments; k++) {
			const struct perfan_timeline_segment *g =
				&t->segs[at++];
			if (g->mix == NONE) {
				l->time[g->kind] += g->end - g->start;
				continue;
			}
			for (int j = 0; j < PERFAN_TIMELINE_NR_KINDS; j++)
				l->time[j] += t->mixes[g->mix].time[j];
		}
	}
	if (t->nwakes > 1)
		qsort(t->wakes, t->nwakes, sizeof(*t->wakes), wake_cmp);
	/* each sample's lane (samples of threads without one left out) */
	struct perfan__htab lane_of = {0};
	for (size_t i = 0; i < n && !err; i++)
		if (perfan__htab_put(&lane_of,
				     (uint64_t)(uint32_t)t->lanes[i].tid, i))
			err = perfan__nomem("timeline");
	size_t kept = 0;
	for (size_t i = 0; i < t->nsamples && !err; i++) {
		uint64_t *l = perfan__htab_get(
			&lane_of, (uint64_t)(uint32_t)t->sample_tid[i]);
		if (!l)
			continue;
		t->samples[kept] = t->samples[i];
		t->samples[kept++].lane = (uint32_t)*l;
	}
	perfan__htab_free(&lane_of);
	if (err)
		return err;
	t->nsamples = kept;
	t->res.lanes = t->lanes;
	t->res.wakes = t->wakes;
	t->res.nr_wakes = t->nwakes;
	t->res.mixes = t->mixes;
	t->res.nr_mixes = t->nmixes;
	t->res.samples = t->samples;
	t->res.nr_samples = t->nsamples;
	t->res.stacks = t->stacks;
	return 0;
}

void perfan_timeline_free(perfan_timeline *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->t[i]->iv);
		free(t->t[i]);
	}
	free(t->t);
	perfan__htab_free(&t->by_tid);
	perfan__stackmap_free(&t->sm);
	perfan_profile_free(t->stacks);
	perfan_thread_names_free(t->names);
	free(t->pools);
	free(t->wakes);
	free(t->samples);
	free(t->sample_tid);
	for (size_t i = 0; t->lanes && i < t->res.nr_lanes; i++)
		free((char *)t->lanes[i].comm);
	free(t->lanes);
	free(t->segs);
	free(t->mixes);
	free(t);
}

int perfan_timeline_perfdata(perfan_timeline **out, perfan_perfdata *pd,
			     const struct perfan_resolve_opts *ro,
			     const struct perfan_timeline_opts *opts)
{
	if (!out || !pd)
		return perfan__err_null(__func__, out ? "perfdata" : "out");
	*out = NULL;
	perfan_timeline *t = calloc(1, sizeof(*t));
	if (!t)
		return perfan__nomem("timeline");
	int err = PERFAN__OPTS_COPY(t->o, opts);
	struct perfan_filter want = PERFAN_FILTER_INIT;
	if (!err && t->o.filter)
		memcpy(&want, t->o.filter,
		       t->o.filter->sz < sizeof(want) ? t->o.filter->sz
						      : sizeof(want));
	want.sz = sizeof(want);
	if (!err)
		err = perfan_filter_resolve(&t->filter, &want, pd);
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	if (!err)
		err = perfan_profile_new(&t->stacks, &po);
	if (!err) {
		int col = perfan_profile_add_column(t->stacks, "stacks", "");
		if (col < 0)
			err = col;
	}
	t->sm.p = t->stacks;
	struct perfan_offcpu_opts oo =
		PERFAN_OPTS_INIT(struct perfan_offcpu_opts);
	oo.interval = on_interval;
	oo.payload = t;
	oo.filter = &t->filter;
	perfan_offcpu *oc = NULL;
	if (!err)
		err = perfan__offcpu_read(pd, ro, &oo, on_event, t, "timeline",
					  &oc);
	if (!err && t->err)
		err = t->err;
	if (!err)
		err = finish(t, perfan_offcpu_summary(oc));
	perfan_offcpu_free(oc);
	if (err) {
		perfan_timeline_free(t);
		return err;
	}
	*out = t;
	return 0;
}

const struct perfan_timeline_result *
perfan_timeline_result(const perfan_timeline *t)
{
	return t ? &t->res : NULL;
}
