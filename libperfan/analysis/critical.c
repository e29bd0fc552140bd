/* analysis/critical.c: the critical path of a thread's interval
 * (perfan/critical.h): every thread's off-CPU intervals (with their wakers)
 * and on-CPU samples kept from one read of the stream, then a walk that
 * tiles the interval: the thread's running and runnable time as it is,
 * each blocked stretch replaced by the waker's own history over it. The
 * stacks are kept under their threads, which names the threads. */
#include <stdlib.h>
#include <string.h>

#include <perfan/critical.h>
#include <perfan/python.h>
#include <perfan/threadnames.h>
#include <perfan/waits.h>

#include "analysis/offcpu_internal.h"
#include "analysis/stackmap.h"
#include "analysis/thread_table.h"
#include "analysis/waits_internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

#define NO_FRAME ((perfan_frame_id)-1)

/* An off-CPU interval kept: its stack a node of c->stacks. */
struct civ {
	uint64_t start, end;
	uint32_t state, wait, wake_source;
	int32_t waker, next;
	perfan_node_id node;
	const char *site; /* the blocking site's name (c->stacks') */
};

struct csample {
	uint64_t time, period;
	perfan_node_id node;
	const char *fn; /* the innermost frame of the user's code */
};

struct cthread {
	struct perfan__thread id;
	uint64_t start, end;
	struct civ *iv;
	size_t niv, capiv;
	struct csample *sm;
	size_t nsm, capsm;
};

struct perfan_critical {
	struct perfan_critical_opts o;
	struct perfan__thread_table tt; /* of struct cthread */
	struct perfan__waits waits;
	/* every stack kept, under its thread's process frame, weighing its
	 * time (column 0) */
	perfan_profile *stacks;
	struct perfan__stackmap sm; /* the stream's frames in STACKS */
	perfan_thread_names *names; /* from STACKS */
	/* the result */
	perfan_profile *prof;  /* the path, native frames */
	perfan_profile *view;  /* its Python view, or NULL */
	perfan_frame_id *copy; /* stacks' frame -> prof's */
	size_t ncopy;
	struct perfan_critical_segment *seg;
	size_t nseg, capseg;
	struct perfan_critical_row *rows;
	size_t nrows, caprows;
	struct perfan_critical_bound *bounds;
	size_t nbounds, capbounds;
	int32_t *chain;
	size_t nchain, capchain;
	struct perfan_critical_result res;
	int err;
};

const char *perfan_critical_state_name(uint32_t state)
{
	static const char *const names[] = {"running", "runnable", "blocked"};
	return state < 3 ? names[state] : NULL;
}

static struct cthread *thread_of(perfan_critical *c, int32_t pid, int32_t tid,
				 const char *comm)
{
	struct cthread *th = perfan__thread_table_get(&c->tt, pid, tid, comm);
	if (!th)
		c->err = PERFAN_ENOMEM;
	return th;
}

static struct cthread *find(const perfan_critical *c, int32_t tid)
{
	return perfan__thread_table_find(&c->tt, tid);
}

/* The stack FRAMES (N, leaf first) of thread TH as a node of c->stacks
 * under its process frame, weighing W; *SITE the name of FRAMES[SITE_AT]
 * (NULL past the end). */
static int keep_stack(perfan_critical *c, const struct cthread *th,
		      const struct perfan_stream_frame *frames, size_t n,
		      uint64_t w, size_t site_at, perfan_node_id *node,
		      const char **site)
{
	*node = PERFAN_ROOT_NODE;
	*site = NULL;
	if (!n)
		return 0;
	int err = perfan__stackmap_thread_add(&c->sm, th->id.pid, th->id.tid,
					      th->id.comm, frames, n, 0, w,
					      node);
	if (!err && site_at < n) /* (the path: the process frame first) */
		*site = perfan_profile_frame_get(c->stacks,
						 c->sm.path[n - site_at])
				->name;
	return err;
}

static int on_interval(const struct perfan_offcpu_interval *iv, void *payload)
{
	perfan_critical *c = payload;
	if ((iv->flags & PERFAN_OFFCPU_AGGREGATE) || iv->end <= iv->start)
		return 0;
	struct cthread *th = thread_of(c, iv->pid, iv->tid, iv->comm);
	if (!th)
		return c->err;
	if (perfan__grow((void **)&th->iv, &th->capiv, th->niv + 1,
			 sizeof(*th->iv)))
		return c->err = perfan__nomem("critical path");
	struct civ *v = &th->iv[th->niv];
	*v = (struct civ){.start = iv->start,
			  .end = iv->end,
			  .state = iv->state,
			  .wait = iv->wait,
			  .wake_source = iv->wake_source,
			  .waker = iv->waker_tid,
			  .next = iv->next_tid};
	int err = keep_stack(c, th, iv->frames, iv->nr_frames,
			     iv->end - iv->start, iv->site, &v->node, &v->site);
	if (err)
		return c->err = err;
	th->niv++;
	return 0;
}

/* An event after the off-CPU engine took it: the on-CPU samples. */
static int on_event(const struct perfan_stream_event *ev, void *payload)
{
	perfan_critical *c = payload;
	if (c->err)
		return c->err;
	if (ev->type != PERFAN_STREAM_SAMPLE ||
	    !perfan__offcpu_is_cpu_clock(ev->event))
		return 0;
	const struct perfan_stream_sample *sm = &ev->u.sample;
	if (ev->tid <= 0 || !ev->time)
		return 0;
	struct cthread *th = thread_of(c, ev->pid, ev->tid, ev->comm);
	if (!th)
		return c->err;
	size_t site = sm->nr_frames;
	perfan__wait_classify(&c->waits, sm->frames, sm->nr_frames,
			      PERFAN_OFFCPU_RUNQ, &site);
	if (perfan__grow((void **)&th->sm, &th->capsm, th->nsm + 1,
			 sizeof(*th->sm)))
		return c->err = perfan__nomem("critical path");
	struct csample *s = &th->sm[th->nsm];
	*s = (struct csample){ev->time, sm->period, 0, NULL};
	int err = keep_stack(c, th, sm->frames, sm->nr_frames, sm->period, site,
			     &s->node, &s->fn);
	if (err)
		return c->err = err;
	th->nsm++;
	return 0;
}

/* ---- the walk ----------------------------------------------------------- */

static int by_start(const void *a, const void *b)
{
	const struct civ *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int chain_add(perfan_critical *c, int32_t tid)
{
	for (size_t i = 0; i < c->nchain; i++)
		if (c->chain[i] == tid)
			return 0;
	if (perfan__grow((void **)&c->chain, &c->capchain, c->nchain + 1,
			 sizeof(*c->chain)))
		return perfan__nomem("critical path");
	c->chain[c->nchain++] = tid;
	return 0;
}

/* The frame of C's profile for STACKS' frame F. */
static int copy_frame(perfan_critical *c, perfan_frame_id f,
		      perfan_frame_id *out)
{
	if (f >= c->ncopy) {
		size_t cap = c->ncopy;
		if (perfan__grow((void **)&c->copy, &cap, (size_t)f + 1,
				 sizeof(*c->copy)))
			return perfan__nomem("critical path");
		for (size_t k = c->ncopy; k < cap; k++)
			c->copy[k] = NO_FRAME;
		c->ncopy = cap;
	}
	if (c->copy[f] == NO_FRAME) {
		int err = perfan_profile_frame_copy(c->prof, &c->copy[f],
						    c->stacks, f);
		if (err)
			return err;
	}
	*out = c->copy[f];
	return 0;
}

/* Add W to C's profile: the roots of the threads TIDS[0..DEPTH] (the
 * chain to this segment), then NODE's stack (its process frame left
 * out), then LEAF (NULL: none). */
static int add_path(perfan_critical *c, const int32_t *tids, uint32_t depth,
		    perfan_node_id node, const char *leaf, uint32_t state,
		    uint32_t wait, uint64_t w)
{
	size_t d = node ? perfan_profile_node_depth(c->stacks, node) - 1 : 0;
	size_t n = depth + 1 + d + 1;
	perfan_frame_id *p = malloc(n * sizeof(*p));
	if (!p)
		return perfan__nomem("critical path");
	size_t k = 0;
	int err = 0;
	for (uint32_t i = 0; i <= depth && !err; i++) {
		const struct cthread *th = find(c, tids[i]);
		err = perfan_profile_process_frame(
			c->prof, &p[k++], PERFAN_ROOT_PID_TID,
			th && th->id.comm[0] ? th->id.comm : NULL,
			th ? th->id.pid : -1, tids[i]);
	}
	size_t base = k;
	k += d;
	size_t at = k;
	for (perfan_node_id nd = node;
	     !err && nd != PERFAN_ROOT_NODE && at > base;
	     nd = perfan_profile_node_parent(c->stacks, nd))
		err = copy_frame(c, perfan_profile_node_frame(c->stacks, nd),
				 &p[--at]);
	if (!err && leaf) {
		err = state == UINT32_MAX
			      ? perfan_profile_frame(c->prof, &p[k], leaf, NULL,
						     NULL, 0,
						     PERFAN_FRAME_UNKNOWN)
			      : perfan_profile_wait_frame(c->prof, &p[k], state,
							  wait, leaf);
		k++;
	}
	if (!err && w)
		err = perfan_profile_add(c->prof, p, k, 0, w, NULL, NULL);
	free(p);
	return err;
}

static int segment(perfan_critical *c, const struct cthread *th, uint32_t depth,
		   uint32_t state, uint32_t wait, uint32_t source, uint64_t a,
		   uint64_t b, const char *fn, int32_t taken_by)
{
	if (b <= a)
		return 0;
	/* one segment continues the last when it is the same */
	struct perfan_critical_segment *l = c->nseg ? &c->seg[c->nseg - 1]
						    : NULL;
	if (l && l->tid == th->id.tid && l->depth == depth &&
	    l->state == state && l->wait == wait && l->function == fn &&
	    l->start == b && l->wake_source == source &&
	    l->cpu_taken_by == taken_by) {
		l->start = a; /* (the walk goes back in time) */
		return 0;
	}
	if (perfan__grow((void **)&c->seg, &c->capseg, c->nseg + 1,
			 sizeof(*c->seg)))
		return perfan__nomem("critical path");
	c->seg[c->nseg++] = (struct perfan_critical_segment){
		.pid = th->id.pid,
		.tid = th->id.tid,
		.comm = th->id.comm[0] ? th->id.comm : NULL,
		.name = th->id.name      ? th->id.name
			: th->id.comm[0] ? th->id.comm
					 : NULL,
		.pool = th->id.pool,
		.depth = depth,
		.state = state,
		.wait = wait,
		.wake_source = source,
		.start = a,
		.end = b,
		.function = fn,
		.cpu_taken_by = taken_by};
	return 0;
}

/* TH running over [A, B): a segment per user function of its samples
 * there (the time shared by period), and the profile's stacks. */
static int running(perfan_critical *c, const struct cthread *th,
		   const int32_t *tids, uint32_t depth, uint64_t a, uint64_t b)
{
	/* the samples that fall in it: a sample at T counts the PERIOD
	 * before T */
	size_t lo = 0, hi = th->nsm;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (th->sm[mid].time <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint64_t total = 0;
	size_t end = lo;
	for (; end < th->nsm && th->sm[end].time - th->sm[end].period < b;
	     end++)
		total += th->sm[end].period;
	if (!total && end < th->nsm) {
		/* no sample fell in it: the thread's next one counts its CPU
		 * time since the last, this stretch with it */
		const struct csample *s = &th->sm[end];
		int err = add_path(c, tids, depth, s->node, NULL, 0, 0, b - a);
		return err ? err
			   : segment(c, th, depth, PERFAN_CRIT_RUNNING, 0, 0, a,
				     b, s->fn, -1);
	}
	if (!total) {
		int err = add_path(c, tids, depth, PERFAN_ROOT_NODE,
				   "[running: no samples]", UINT32_MAX, 0,
				   b - a);
		return err ? err
			   : segment(c, th, depth, PERFAN_CRIT_RUNNING, 0, 0, a,
				     b, NULL, -1);
	}
	/* the hottest user function names the segment */
	const char *best = NULL;
	uint64_t bestw = 0;
	uint64_t len = b - a, given = 0;
	int err = 0;
	for (size_t i = lo; i < end && !err; i++) {
		const struct csample *s = &th->sm[i];
		uint64_t w = i + 1 == end ? len - given
					  : (uint64_t)((double)len *
						       (double)s->period /
						       (double)total);
		given += w;
		uint64_t fw = 0;
		for (size_t k = lo; k < end; k++)
			if (th->sm[k].fn == s->fn)
				fw += th->sm[k].period;
		if (fw > bestw) {
			bestw = fw;
			best = s->fn;
		}
		err = add_path(c, tids, depth, s->node, NULL, 0, 0, w);
	}
	return err ? err
		   : segment(c, th, depth, PERFAN_CRIT_RUNNING, 0, 0, a, b,
			     best, -1);
}

/* The last of TH's intervals starting before T, or NULL. */
static const struct civ *piece_before(const struct cthread *th, uint64_t t)
{
	size_t lo = 0, hi = th->niv;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (th->iv[mid].start < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &th->iv[lo - 1] : NULL;
}

/* Emit V's part [A, B) of thread TH: runnable, or a wait not followed. */
static int waited(perfan_critical *c, const struct cthread *th,
		  const int32_t *tids, uint32_t depth, const struct civ *v,
		  uint64_t a, uint64_t b)
{
	int runnable = v->state == PERFAN_OFFCPU_RUNQ ||
		       v->state == PERFAN_OFFCPU_WAKEUP_DELAY;
	const char *name = v->wait && !runnable
				   ? perfan_wait_class_name(v->wait)
				   : perfan_offcpu_state_name(v->state);
	char leaf[64];
	snprintf(leaf, sizeof(leaf), "[off-cpu: %s]", name);
	int err = add_path(c, tids, depth, v->node, leaf, v->state,
			   runnable ? 0 : v->wait, b - a);
	if (!err)
		err = segment(
			c, th, depth,
			runnable ? PERFAN_CRIT_RUNNABLE : PERFAN_CRIT_BLOCKED,
			v->wait, runnable ? 0 : v->wake_source, a, b, v->site,
			v->state == PERFAN_OFFCPU_RUNQ ? v->next : -1);
	if (!runnable && v->wake_source == PERFAN_WAKE_NONE)
		c->res.unknown += b - a;
	return err;
}

/* The path over [A, B), from B back: the current thread's running and
 * runnable time is its own; where it was blocked, the thread that woke
 * it takes over at the same time, back to where that one was woken, and
 * so on; a thread met again is where it was in the chain (TIDS, the hops
 * from the thread asked about, C->o.max_depth at most). */
static int walk(perfan_critical *c, int32_t *tids, uint64_t a, uint64_t b)
{
	uint32_t depth = 0;
	uint64_t t = b;
	unsigned jumps = 0; /* hops without going back in time */
	int err = 0;
	while (!err && t > a) {
		const struct cthread *th = find(c, tids[depth]);
		err = chain_add(c, tids[depth]);
		if (err)
			break;
		if (!th || (th->start && t <= th->start)) {
			/* a waker not seen running before T */
			struct civ none = {.start = a,
					   .end = t,
					   .state = PERFAN_OFFCPU_UNSEEN,
					   .waker = -1,
					   .next = -1};
			struct cthread anon = {
				.id = {.pid = -1, .tid = tids[depth]}};
			err = waited(c, th ? th : &anon, tids, depth, &none, a,
				     t);
			break;
		}
		const struct civ *v = piece_before(th, t);
		if (!v ||
		    v->end < t) { /* running from V's end (or its start) */
			uint64_t from = v ? v->end : th->start;
			if (from < a)
				from = a;
			err = running(c, th, tids, depth, from, t);
			t = from;
			jumps = 0;
			continue;
		}
		uint64_t from = v->start > a ? v->start : a;
		int runnable = v->state == PERFAN_OFFCPU_RUNQ ||
			       v->state == PERFAN_OFFCPU_WAKEUP_DELAY;
		int follow = !runnable &&
			     v->wake_source == PERFAN_WAKE_THREAD &&
			     v->waker > 0 && v->waker != th->id.tid &&
			     jumps < c->o.max_depth;
		if (follow) {
			uint32_t k = 0;
			while (k <= depth && tids[k] != v->waker)
				k++;
			if (k > depth && depth + 1 >= c->o.max_depth)
				follow =
					0; /* the chain is as deep as allowed */
			else if (k > depth)
				tids[++depth] = v->waker;
			else
				depth = k; /* back to a thread of the chain */
		}
		if (follow) {
			jumps++;
			continue;
		}
		err = waited(c, th, tids, depth, v, from, t);
		t = from;
		jumps = 0;
	}
	/* the segments in time order */
	for (size_t i = 0, k = c->nseg; i < k / 2; i++) {
		struct perfan_critical_segment x = c->seg[i];
		c->seg[i] = c->seg[k - 1 - i];
		c->seg[k - 1 - i] = x;
	}
	return err;
}

/* ---- rows and bounds ---------------------------------------------------- */

static int by_time_row(const void *a, const void *b)
{
	const struct perfan_critical_row *x = a, *y = b;
	return x->time > y->time ? -1 : x->time < y->time;
}

static int by_time_bound(const void *a, const void *b)
{
	const struct perfan_critical_bound *x = a, *y = b;
	return x->time > y->time ? -1 : x->time < y->time;
}

static int rows(perfan_critical *c)
{
	for (size_t i = 0; i < c->nseg; i++) {
		const struct perfan_critical_segment *s = &c->seg[i];
		size_t k = 0;
		for (; k < c->nrows; k++) {
			struct perfan_critical_row *r = &c->rows[k];
			if (r->tid == s->tid && r->state == s->state &&
			    r->wait == s->wait && r->function == s->function)
				break;
		}
		if (k == c->nrows) {
			if (perfan__grow((void **)&c->rows, &c->caprows,
					 c->nrows + 1, sizeof(*c->rows)))
				return perfan__nomem("critical path");
			c->rows[c->nrows++] = (struct perfan_critical_row){
				.pid = s->pid,
				.tid = s->tid,
				.comm = s->comm,
				.state = s->state,
				.wait = s->wait,
				.function = s->function,
				.name = s->name,
				.pool = s->pool};
		}
		c->rows[k].time += s->end - s->start;
	}
	qsort(c->rows, c->nrows, sizeof(*c->rows), by_time_row);
	return 0;
}

/* Each user function's inclusive time on the path, from the profile. */
static int bounds(perfan_critical *c)
{
	size_t nn = perfan_profile_nr_nodes(c->prof);
	for (perfan_node_id nd = 1; nd < nn; nd++) {
		uint64_t self = perfan_profile_node_self(c->prof, nd, 0);
		if (!self)
			continue;
		/* each distinct function on the stack once */
		for (perfan_node_id up = nd; up != PERFAN_ROOT_NODE;
		     up = perfan_profile_node_parent(c->prof, up)) {
			const struct perfan_frame *f = perfan_profile_frame_get(
				c->prof,
				perfan_profile_node_frame(c->prof, up));
			if (!perfan__wait_user_code(f->kind, f->name,
						    f->module))
				continue;
			int again = 0;
			for (perfan_node_id low = nd; low != up && !again;
			     low = perfan_profile_node_parent(c->prof, low))
				again = perfan_profile_frame_get(
						c->prof,
						perfan_profile_node_frame(
							c->prof, low))
						->name == f->name;
			if (again)
				continue;
			size_t k = 0;
			while (k < c->nbounds &&
			       c->bounds[k].function != f->name)
				k++;
			if (k == c->nbounds) {
				if (perfan__grow((void **)&c->bounds,
						 &c->capbounds, c->nbounds + 1,
						 sizeof(*c->bounds)))
					return perfan__nomem("critical path");
				c->bounds[c->nbounds++] =
					(struct perfan_critical_bound){f->name,
								       0};
			}
			c->bounds[k].time += self;
		}
	}
	qsort(c->bounds, c->nbounds, sizeof(*c->bounds), by_time_bound);
	return 0;
}

/* ---- the public functions ---------------------------------------------- */

static int finish(perfan_critical *c, perfan_offcpu *oc)
{
	int err = perfan_offcpu_finish(oc);
	if (err)
		return err;
	const struct perfan_offcpu_summary *sum = perfan_offcpu_summary(oc);
	for (size_t i = 0; i < sum->nr_threads; i++) {
		const struct perfan_offcpu_thread *ot = &sum->threads[i];
		struct cthread *th = find(c, ot->tid);
		if (!th)
			continue;
		th->start = ot->start;
		th->end = ot->end;
		if (ot->pid > 0)
			th->id.pid = ot->pid;
		if (!th->id.comm[0] && ot->comm)
			snprintf(th->id.comm, sizeof(th->id.comm), "%s",
				 ot->comm);
	}
	for (size_t i = 0; i < c->tt.n; i++) {
		struct cthread *th = c->tt.t[i];
		qsort(th->iv, th->niv, sizeof(*th->iv), by_start);
	}
	/* each thread's name, from the stacks kept under it */
	err = perfan_thread_names_new(&c->names, c->stacks, NULL);
	if (err)
		return err;
	perfan__thread_table_name(&c->tt, c->names);
	const struct cthread *t = find(c, c->o.tid);
	if (!t)
		return perfan__err(PERFAN_EINVAL,
				   "thread %d: not in the recording",
				   (int)c->o.tid);
	uint64_t a = c->o.start ? c->o.start : t->start;
	uint64_t b = c->o.end ? c->o.end : t->end;
	if (a < t->start && t->start)
		a = t->start;
	if (b > t->end && t->end)
		b = t->end;
	if (b <= a)
		return perfan__err(PERFAN_EINVAL,
				   "thread %d: the interval is empty (its life "
				   "is %llu to %llu ns)",
				   (int)c->o.tid, (unsigned long long)t->start,
				   (unsigned long long)t->end);
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	err = perfan_profile_new(&c->prof, &po);
	int col =
		err ? err
		    : perfan_profile_add_column(c->prof, "critical path", "ns");
	if (col < 0)
		return col;
	int32_t *tids = calloc(c->o.max_depth + 1, sizeof(*tids));
	if (!tids)
		return perfan__nomem("critical path");
	tids[0] = c->o.tid;
	err = walk(c, tids, a, b);
	free(tids);
	if (!err)
		err = rows(c);
	if (!err)
		err = bounds(c);
	/* (the view apart: the rows and bounds name C->prof's frames) */
	if (!err && c->o.python_view > PERFAN_PY_NATIVE &&
	    perfan_python_present(c->prof))
		err = perfan_python_view(&c->view, c->prof, c->o.python_view);
	if (err)
		return err;
	struct perfan_critical_result *r = &c->res;
	r->pid = t->id.pid;
	r->tid = t->id.tid;
	r->comm = t->id.comm[0] ? t->id.comm : NULL;
	r->name = t->id.name;
	r->pool = t->id.pool;
	r->start = a;
	r->end = b;
	r->segments = c->seg;
	r->nr_segments = c->nseg;
	r->rows = c->rows;
	r->nr_rows = c->nrows;
	r->bounds = c->bounds;
	r->nr_bounds = c->nbounds;
	r->chain = c->chain;
	r->nr_chain = c->nchain;
	return 0;
}

void perfan_critical_free(perfan_critical *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->tt.n; i++) {
		struct cthread *th = c->tt.t[i];
		free(th->iv);
		free(th->sm);
	}
	perfan__thread_table_free(&c->tt);
	perfan__waits_free(&c->waits);
	perfan_profile_free(c->stacks);
	perfan_thread_names_free(c->names);
	perfan_profile_free(c->prof);
	perfan_profile_free(c->view);
	perfan__stackmap_free(&c->sm);
	free(c->copy);
	free(c->seg);
	free(c->rows);
	free(c->bounds);
	free(c->chain);
	free(c);
}

int perfan_critical_perfdata(perfan_critical **out, perfan_perfdata *pd,
			     const struct perfan_resolve_opts *ro,
			     const struct perfan_critical_opts *opts)
{
	if (!out || !pd)
		return perfan__err_null(__func__, out ? "perfdata" : "out");
	*out = NULL;
	perfan_critical *c = calloc(1, sizeof(*c));
	if (!c)
		return perfan__nomem("critical path");
	c->tt.size = sizeof(struct cthread);
	int err = PERFAN__OPTS_COPY(c->o, opts);
	if (!err && c->o.tid <= 0)
		err = perfan__err(PERFAN_EINVAL,
				  "the critical path needs a thread (tid)");
	if (!c->o.max_depth)
		c->o.max_depth = 8;
	if (c->o.max_depth > 64)
		c->o.max_depth = 64;
	struct perfan_offcpu_opts oo =
		PERFAN_OPTS_INIT(struct perfan_offcpu_opts);
	oo.interval = on_interval;
	oo.payload = c;
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	perfan_offcpu *oc = NULL;
	if (!err)
		err = perfan_profile_new(&c->stacks, &po);
	if (!err) {
		int c0 = perfan_profile_add_column(c->stacks, "time", "ns");
		err = c0 < 0 ? c0 : 0;
	}
	c->sm.p = c->stacks;
	if (!err)
		err = perfan__offcpu_read(pd, ro, &oo, on_event, c,
					  "critical path", &oc);
	if (!err)
		err = finish(c, oc);
	perfan_offcpu_free(oc);
	if (err) {
		perfan_critical_free(c);
		return err;
	}
	*out = c;
	return 0;
}

const struct perfan_critical_result *
perfan_critical_result(const perfan_critical *c)
{
	return c ? &c->res : NULL;
}

const perfan_profile *perfan_critical_profile(const perfan_critical *c)
{
	return !c ? NULL : c->view ? c->view : c->prof;
}
