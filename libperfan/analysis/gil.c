/* analysis/gil.c: the GIL ledger (perfan/gil.h): the off-CPU engine's
 * intervals of class GIL and GIL handoff per thread, the on-CPU samples
 * (held or not, and the holders' stacks), the perf probe events on
 * take_gil and drop_gil; then who held the GIL while each thread waited,
 * the blame profile, and (unless given) the threads' names from the
 * stacks read. */
#include <stdlib.h>
#include <string.h>

#include <perfan/gil.h>
#include <perfan/waits.h>

#include "analysis/offcpu_internal.h"
#include "analysis/stackmap.h"
#include "analysis/thread_table.h"
#include "analysis/waits_internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

/* GIL waits closer than this are one episode: the interpreter's timed
 * waits (5 ms) ending and starting again. */
#define EPISODE_GAP 200000u

/* A span of time [start, end). */
struct span {
	uint64_t start, end;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

/* An on-CPU sample kept for the blame profile. */
struct sample {
	uint64_t time, period;
	int32_t tid;
	perfan_node_id node;
};

struct gthread {
	struct perfan__thread id;
	struct perfan_gil_thread pub;
	struct spans waits;  /* its GIL waits (stacks), in order */
	struct spans nohold; /* when it cannot hold the GIL: blocked, in
				a GIL wait or handoff, not yet seen */
	struct spans holds;  /* from the probes */
	struct spans pwaits; /* take_gil to its return (probes) */
	uint64_t last_wait_end;
	uint64_t take_at, hold_at; /* an open probe wait, hold; 0: none */
};

/* What a probe event is. */
enum { P_UNSEEN = 0, P_NONE, P_TAKE, P_TAKE_RET, P_DROP };

struct perfan_gil {
	struct perfan_gil_opts o;
	struct perfan_filter filter;
	perfan_offcpu *oc;
	struct perfan__thread_table tt; /* of struct gthread */
	uint8_t *probe_kind;            /* per event index */
	size_t nprobe_kind;
	struct perfan__waits waits;
	struct sample *samples;
	size_t nsamples, capsamples;
	/* under each thread's process frame; column 0: on-CPU ns (GIL held)
	 * and off-CPU ns, for the names; 1: GIL blame */
	perfan_profile *stacks;
	perfan_thread_names *names; /* its own (no names given) */
	perfan_profile *blame;      /* the blame column alone */
	struct perfan__stackmap sm; /* the stream's frames in STACKS */
	struct perfan_gil_thread *sorted;
	uint64_t *matrix;
	struct perfan_gil_result res;
	int err;
};

static int push(struct spans *s, uint64_t start, uint64_t end)
{
	if (end <= start)
		return 0;
	if (s->n && s->v[s->n - 1].end >= start &&
	    s->v[s->n - 1].start <= start) {
		if (end > s->v[s->n - 1].end)
			s->v[s->n - 1].end = end; /* touching: one span */
		return 0;
	}
	if (perfan__grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v)))
		return PERFAN_ENOMEM;
	s->v[s->n++] = (struct span){start, end};
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* S sorted and merged (intervals close out of order across splits). */
static void normalize(struct spans *s)
{
	if (s->n < 2)
		return;
	qsort(s->v, s->n, sizeof(*s->v), by_start);
	size_t k = 0;
	for (size_t i = 1; i < s->n; i++) {
		if (s->v[i].start <= s->v[k].end) {
			if (s->v[i].end > s->v[k].end)
				s->v[k].end = s->v[i].end;
		} else {
			s->v[++k] = s->v[i];
		}
	}
	s->n = k + 1;
}

/* The time of [A, B) inside S (sorted, disjoint). */
static uint64_t overlap(const struct spans *s, uint64_t a, uint64_t b)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) { /* the first span ending after A */
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint64_t sum = 0;
	for (size_t i = lo; i < s->n && s->v[i].start < b; i++) {
		uint64_t x = s->v[i].start > a ? s->v[i].start : a;
		uint64_t y = s->v[i].end < b ? s->v[i].end : b;
		if (y > x)
			sum += y - x;
	}
	return sum;
}

/* Whether T lies in S (sorted, disjoint). */
static int inside(const struct spans *s, uint64_t t)
{
	return overlap(s, t, t + 1) != 0;
}

static struct gthread *thread_of(perfan_gil *g, int32_t pid, int32_t tid,
				 const char *comm)
{
	struct gthread *th = perfan__thread_table_get(&g->tt, pid, tid, comm);
	if (!th) {
		g->err = PERFAN_ENOMEM;
		return NULL;
	}
	th->pub.pid = th->id.pid;
	th->pub.tid = th->id.tid;
	return th;
}

/* Thread I of the ledger (of all, once finished: those shown first). */
static struct gthread *th_at(const perfan_gil *g, size_t i)
{
	return g->tt.t[i];
}

/* ---- the off-CPU engine's intervals ----------------------------------- */

static int on_interval(const struct perfan_offcpu_interval *iv, void *payload)
{
	perfan_gil *g = payload;
	struct gthread *th = thread_of(g, iv->pid, iv->tid, iv->comm);
	if (!th)
		return g->err;
	uint64_t len = iv->end - iv->start;
	int rc = 0;
	if (iv->flags & PERFAN_OFFCPU_AGGREGATE)
		return 0;
	if (!g->o.names && (rc = perfan__stackmap_thread_add(
				    &g->sm, iv->pid, iv->tid, iv->comm,
				    iv->frames, iv->nr_frames, 0, len, NULL)))
		return g->err = rc;
	if (iv->wait == PERFAN_WAIT_GIL) {
		struct perfan_gil_thread *t = &th->pub;
		t->wait += len;
		if (iv->state == PERFAN_OFFCPU_WAKEUP_DELAY)
			t->wait_runq += len;
		else
			t->wait_blocked += len;
		if (!th->last_wait_end ||
		    iv->start > th->last_wait_end + EPISODE_GAP)
			t->episodes++;
		if (iv->end > th->last_wait_end)
			th->last_wait_end = iv->end;
		rc = push(&th->waits, iv->start, iv->end);
	} else if (iv->wait == PERFAN_WAIT_GIL_HANDOFF) {
		th->pub.handoff_wait += len;
		if (iv->state != PERFAN_OFFCPU_WAKEUP_DELAY)
			th->pub.forced++;
	}
	/* a thread blocked (not preempted) holds no GIL */
	if (!rc && iv->state != PERFAN_OFFCPU_RUNQ)
		rc = push(&th->nohold, iv->start, iv->end);
	return rc ? (g->err = perfan__nomem("GIL ledger")) : 0;
}

/* ---- samples and probes ------------------------------------------------ */

static int probe_kind(perfan_gil *g, const struct perfan_event *ev)
{
	if (!ev)
		return P_NONE;
	size_t i = ev->index;
	if (i >= g->nprobe_kind) {
		size_t cap = g->nprobe_kind;
		if (perfan__grow((void **)&g->probe_kind, &cap, i + 1, 1))
			return g->err = perfan__nomem("GIL ledger");
		memset(g->probe_kind + g->nprobe_kind, 0, cap - g->nprobe_kind);
		g->nprobe_kind = cap;
	}
	if (g->probe_kind[i] == P_UNSEEN) {
		/* perf probe's names: GROUP:take_gil, GROUP:take_gil__return,
		 * GROUP:drop_gil, the group probe_libpythonX by default */
		const char *n = ev->name ? strchr(ev->name, ':') : NULL;
		int k = P_NONE;
		if (n && !strncmp(ev->name, "probe", 5)) {
			if (!strcmp(n, ":take_gil"))
				k = P_TAKE;
			else if (!strcmp(n, ":take_gil__return"))
				k = P_TAKE_RET;
			else if (!strcmp(n, ":drop_gil"))
				k = P_DROP;
		}
		g->probe_kind[i] = (uint8_t)k;
	}
	return g->probe_kind[i];
}

static int on_probe(perfan_gil *g, const struct perfan_stream_event *ev,
		    int kind)
{
	g->res.probes_seen = 1;
	if (g->o.no_probes || !ev->time)
		return 0;
	g->res.probes = 1;
	struct gthread *th = thread_of(g, ev->pid, ev->tid, ev->comm);
	if (!th)
		return g->err;
	uint64_t t = ev->time;
	int rc = 0;
	switch (kind) {
	case P_TAKE:
		if (th->hold_at) { /* a take without a drop: held to here */
			th->pub.probe_hold += t - th->hold_at;
			rc = push(&th->holds, th->hold_at, t);
			th->hold_at = 0;
		}
		th->take_at = t;
		break;
	case P_TAKE_RET:
		if (th->take_at) {
			th->pub.probe_wait += t - th->take_at;
			th->pub.probe_episodes++;
			rc = push(&th->pwaits, th->take_at, t);
			th->take_at = 0;
		}
		th->hold_at = t;
		break;
	case P_DROP:
		if (th->hold_at) {
			th->pub.probe_hold += t - th->hold_at;
			rc = push(&th->holds, th->hold_at, t);
			th->hold_at = 0;
		}
		break;
	}
	return rc ? (g->err = perfan__nomem("GIL ledger")) : 0;
}

static int on_cpu_sample(perfan_gil *g, const struct perfan_stream_event *ev)
{
	const struct perfan_stream_sample *sm = &ev->u.sample;
	if (ev->tid <= 0 ||
	    !perfan_filter_sample(&g->filter, ev->pid, ev->tid, ev->cpu,
				  ev->comm, ev->time, NULL))
		return 0;
	struct gthread *th = thread_of(g, ev->pid, ev->tid, ev->comm);
	if (!th)
		return g->err;
	th->pub.on_cpu += sm->period;
	uint32_t w = perfan__wait_classify(&g->waits, sm->frames, sm->nr_frames,
					   PERFAN_OFFCPU_RUNQ, NULL);
	if (w == PERFAN_WAIT_GIL || w == PERFAN_WAIT_GIL_HANDOFF)
		return 0; /* taking or dropping it, not running with it */
	th->pub.hold_samples += sm->period;
	/* the stack, under its thread, for the blame profile */
	perfan_node_id leaf = 0;
	int err = perfan__stackmap_thread_add(&g->sm, ev->pid, ev->tid,
					      ev->comm, sm->frames,
					      sm->nr_frames, 0, sm->period,
					      &leaf);
	if (!err && perfan__grow((void **)&g->samples, &g->capsamples,
				 g->nsamples + 1, sizeof(*g->samples)))
		err = perfan__nomem("GIL ledger");
	if (err)
		return g->err = err;
	g->samples[g->nsamples++] =
		(struct sample){ev->time, sm->period, ev->tid, leaf};
	return 0;
}

/* An event after the off-CPU engine took it: probes and samples. */
static int feed(const struct perfan_stream_event *ev, void *payload)
{
	perfan_gil *g = payload;
	if (g->err)
		return g->err;
	if (ev->type != PERFAN_STREAM_SAMPLE)
		return 0;
	int k = probe_kind(g, ev->event);
	if (k != P_NONE)
		return k < 0 ? k : on_probe(g, ev, k);
	if (perfan__offcpu_is_cpu_clock(ev->event))
		return on_cpu_sample(g, ev);
	return 0;
}

/* ---- the ledger -------------------------------------------------------- */

/* The spans of W's waits the ledger reads: the probes' or the stacks'. */
static const struct spans *waits_of(const perfan_gil *g,
				    const struct gthread *w)
{
	return g->res.probes ? &w->pwaits : &w->waits;
}

/* How long H could have held the GIL in [A, B): from the probes, its
 * holds; else its lifetime there less its blocked time. */
static uint64_t holding(const perfan_gil *g, const struct gthread *h,
			uint64_t a, uint64_t b)
{
	if (g->res.probes)
		return overlap(&h->holds, a, b);
	uint64_t x = h->pub.start > a ? h->pub.start : a;
	uint64_t y = h->pub.end < b ? h->pub.end : b;
	if (y <= x)
		return 0;
	return y - x - overlap(&h->nohold, x, y);
}

/* The matrix: row W, who held the GIL while W waited. */
static void blame_row(perfan_gil *g, size_t w, uint64_t *row, uint64_t *share)
{
	size_t n = g->res.nr_threads;
	const struct gthread *tw = th_at(g, w);
	const struct spans *ws = waits_of(g, tw);
	for (size_t k = 0; k < ws->n; k++) {
		uint64_t a = ws->v[k].start, b = ws->v[k].end, sum = 0;
		for (size_t h = 0; h < n; h++) {
			share[h] = 0;
			if (h != w && th_at(g, h)->pub.pid == tw->pub.pid)
				sum += share[h] = holding(g, th_at(g, h), a, b);
		}
		uint64_t len = b - a, given = 0;
		for (size_t h = 0; h < n; h++) {
			if (!share[h])
				continue;
			/* several at once: the wait shared between them */
			uint64_t part =
				sum > len
					? (uint64_t)((double)share[h] *
						     (double)len / (double)sum)
					: share[h];
			row[h] += part;
			given += part;
		}
		row[n] += len > given ? len - given : 0;
	}
}

/* The blame column: each kept sample weighted by its period times the
 * waiters of its process then. */
static int blame_profile(perfan_gil *g)
{
	int err = 0;
	for (size_t i = 0; i < g->nsamples && !err; i++) {
		const struct sample *sm = &g->samples[i];
		size_t hi = perfan__thread_table_index(&g->tt, sm->tid);
		if (hi >= g->res.nr_threads)
			continue; /* not a thread the ledger shows */
		const struct gthread *h = th_at(g, hi);
		uint64_t waiters = 0;
		for (size_t w = 0; w < g->res.nr_threads; w++)
			if (w != hi && th_at(g, w)->pub.pid == h->pub.pid &&
			    inside(waits_of(g, th_at(g, w)), sm->time))
				waiters++;
		if (!waiters)
			continue;
		size_t d = perfan_profile_node_depth(g->stacks, sm->node);
		if (perfan__stackmap_room(&g->sm, d + 1))
			return PERFAN_ENOMEM;
		perfan_frame_id *path = g->sm.path;
		size_t k = d;
		for (perfan_node_id nd = sm->node; nd != PERFAN_ROOT_NODE && k;
		     nd = perfan_profile_node_parent(g->stacks, nd))
			path[--k] = perfan_profile_node_frame(g->stacks, nd);
		err = perfan_profile_add(g->stacks, path + k, d - k, 1,
					 sm->period * waiters, NULL, NULL);
	}
	if (err)
		return err;
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	err = perfan_profile_new(&g->blame, &po);
	int col = err ? err
		      : perfan_profile_add_column(g->blame, "GIL blame", "ns");
	if (col < 0)
		return col;
	err = perfan_profile_merge(g->blame, (size_t)col, g->stacks, 1);
	return err ? err
		   : perfan__python_view_in_place(&g->blame, g->o.python_view);
}

static int by_pid_tid(const void *a, const void *b)
{
	const struct gthread *x = *(void *const *)a, *y = *(void *const *)b;
	if (x->pub.pid != y->pub.pid)
		return x->pub.pid < y->pub.pid ? -1 : 1;
	return x->pub.tid < y->pub.tid ? -1 : x->pub.tid > y->pub.tid;
}

/* Whether a thread of PID waited for the GIL, handed it off or hit a
 * probe. */
static int gil_process(const perfan_gil *g, int32_t pid)
{
	for (size_t i = 0; i < g->tt.n; i++) {
		const struct perfan_gil_thread *t = &th_at(g, i)->pub;
		if (t->pid == pid && (t->wait || t->forced ||
				      t->probe_episodes || t->probe_hold))
			return 1;
	}
	return 0;
}

/* Each thread's name, role and pool: from the names given, else from
 * the stacks read (before the blame column has weight). */
static int name_threads(perfan_gil *g)
{
	const perfan_thread_names *names = g->o.names;
	if (!names) {
		int err = perfan_thread_names_new(&g->names, g->stacks, NULL);
		if (err)
			return err;
		names = g->names;
	}
	perfan__thread_table_name(&g->tt, names);
	for (size_t i = 0; i < g->tt.n; i++) {
		struct gthread *th = th_at(g, i);
		th->pub.name = th->id.name;
		th->pub.role = th->id.role;
		th->pub.pool = th->id.pool;
	}
	return 0;
}

static int finish(perfan_gil *g)
{
	int rc = perfan_offcpu_finish(g->oc);
	if (rc)
		return rc;
	const struct perfan_offcpu_summary *sum = perfan_offcpu_summary(g->oc);
	g->res.offcpu = sum;
	g->res.start = sum->start;
	g->res.end = sum->end;
	/* lifetimes and names from the engine */
	for (size_t i = 0; i < sum->nr_threads; i++) {
		const struct perfan_offcpu_thread *ot = &sum->threads[i];
		struct gthread *th = perfan__thread_table_find(&g->tt, ot->tid);
		if (!th)
			continue;
		th->pub.start = ot->start;
		th->pub.end = ot->end;
		if (ot->pid > 0)
			th->pub.pid = th->id.pid = ot->pid;
		if (!th->id.comm[0] && ot->comm)
			snprintf(th->id.comm, sizeof(th->id.comm), "%s",
				 ot->comm);
	}
	/* the threads of GIL processes that the filter keeps, first */
	size_t keep = 0;
	for (size_t i = 0; i < g->tt.n; i++) {
		struct gthread *th = th_at(g, i);
		th->pub.comm = th->id.comm[0] ? th->id.comm : NULL;
		normalize(&th->waits);
		normalize(&th->nohold);
		normalize(&th->holds);
		normalize(&th->pwaits);
		if (th->pub.pid > 0 && gil_process(g, th->pub.pid) &&
		    perfan_filter_thread(&g->filter, th->pub.pid, th->pub.tid,
					 th->pub.comm)) {
			g->tt.t[i] = g->tt.t[keep];
			g->tt.t[keep++] = th;
		}
	}
	qsort(g->tt.t, keep, sizeof(*g->tt.t), by_pid_tid);
	if (perfan__thread_table_reindex(&g->tt))
		return PERFAN_ENOMEM;
	g->res.nr_threads = keep;
	int err = name_threads(g);
	if (err)
		return err;
	g->sorted = calloc(keep ? keep : 1, sizeof(*g->sorted));
	g->matrix = calloc((keep ? keep : 1) * (keep + 1), sizeof(*g->matrix));
	uint64_t *share = calloc(keep ? keep : 1, sizeof(*share));
	if (!g->sorted || !g->matrix || !share) {
		free(share);
		return perfan__nomem("GIL ledger");
	}
	for (size_t w = 0; w < keep; w++) {
		g->sorted[w] = th_at(g, w)->pub;
		blame_row(g, w, g->matrix + w * (keep + 1), share);
	}
	free(share);
	g->res.threads = g->sorted;
	g->res.blame = g->matrix;
	return blame_profile(g);
}

/* ---- the public functions ---------------------------------------------- */

void perfan_gil_free(perfan_gil *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->tt.n; i++) {
		struct gthread *th = th_at(g, i);
		free(th->waits.v);
		free(th->nohold.v);
		free(th->holds.v);
		free(th->pwaits.v);
	}
	perfan__thread_table_free(&g->tt);
	perfan__waits_free(&g->waits);
	perfan_offcpu_free(g->oc);
	perfan_profile_free(g->stacks);
	perfan_thread_names_free(g->names);
	perfan_profile_free(g->blame);
	free(g->probe_kind);
	free(g->samples);
	perfan__stackmap_free(&g->sm);
	free(g->sorted);
	free(g->matrix);
	free(g);
}

int perfan_gil_perfdata(perfan_gil **out, perfan_perfdata *pd,
			const struct perfan_resolve_opts *ro,
			const struct perfan_gil_opts *opts)
{
	if (!out || !pd)
		return perfan__err_null(__func__, out ? "perfdata" : "out");
	*out = NULL;
	perfan_gil *g = calloc(1, sizeof(*g));
	if (!g)
		return perfan__nomem("GIL ledger");
	g->tt.size = sizeof(struct gthread);
	int err = PERFAN__OPTS_COPY(g->o, opts);
	g->filter = PERFAN_FILTER_INIT;
	if (!err && g->o.filter)
		err = perfan_filter_validate(g->o.filter);
	if (!err && g->o.filter)
		g->filter = *g->o.filter;
	g->filter.sz = sizeof(g->filter);
	g->filter.event = NULL; /* the ledger reads its own events */
	g->o.filter = NULL;
	struct perfan_offcpu_opts oo =
		PERFAN_OPTS_INIT(struct perfan_offcpu_opts);
	oo.interval = on_interval;
	oo.payload = g;
	oo.filter = &g->filter;
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	if (!err)
		err = perfan_profile_new(&g->stacks, &po);
	if (!err) {
		int c0 = perfan_profile_add_column(g->stacks, "time", "ns");
		int c1 = c0 < 0 ? c0
				: perfan_profile_add_column(g->stacks,
							    "GIL blame", "ns");
		err = c1 < 0 ? c1 : 0;
	}
	g->sm.p = g->stacks;
	if (!err)
		err = perfan__offcpu_read(pd, ro, &oo, feed, g, "GIL ledger",
					  &g->oc);
	if (!err)
		err = finish(g);
	if (err) {
		perfan_gil_free(g);
		return err;
	}
	*out = g;
	return 0;
}

const struct perfan_gil_result *perfan_gil_result(const perfan_gil *g)
{
	return g ? &g->res : NULL;
}

const perfan_profile *perfan_gil_blame(const perfan_gil *g)
{
	return g && g->nsamples ? g->blame : NULL;
}
