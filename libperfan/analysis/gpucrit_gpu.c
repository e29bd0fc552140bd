/* analysis/gpucrit_gpu.c: the GPU side of HTA's critical-path graph: each
 * piece of GPU work's span; before it, its launch when the stream was empty
 * (HTA's queue length: launches less work begun, per stream) or else the
 * work before it on its stream; stream, context and event syncs, from the
 * last work on the stream (or the work an event followed) to the end of
 * the call that waited for it; stream waits, from the work waited for to
 * the work that waited (gpucrit_event.c finds them). */
#include <stdlib.h>
#include <string.h>

#include "analysis/gpucrit_graph.h"
#include "util/error.h"

/* HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US: a longer gap is some dependency
 * the trace does not show */
#define KERNEL_KERNEL_MAX_NS 1500000

static int is_work(uint32_t kind)
{
	return kind == PERFAN_TRACE_KERNEL || kind == PERFAN_TRACE_MEMCPY ||
	       kind == PERFAN_TRACE_MEMSET;
}

struct item {
	int64_t key, idx;
	uint32_t ev;
	int delta;
};

static int item_cmp(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Per stream, the work in flight after each launch (+1) and each start of
 * work (-1), over the whole trace; QLEN[e] for those events, HAVE[e] set. */
static int queue_lengths(const struct gc_graph *g, int32_t *qlen, uint8_t *have)
{
	const struct perfan_trace_info *ti = g->ti;
	struct item *it = malloc((ti->nr_events + 1) * sizeof(*it));
	if (!it)
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		int32_t p = g->partner[i];
		if (p < 0)
			continue;
		if (!perfan__gc_on_gpu(e->kind) && perfan__gc_is_launch(e) &&
		    ti->events[p].stream >= 0)
			it[n++] =
				(struct item){e->ts, e->index, (uint32_t)i, 1};
		else if (perfan__gc_on_gpu(e->kind) && e->stream >= 0 &&
			 perfan__gc_is_launch(&ti->events[p]))
			it[n++] =
				(struct item){e->ts, e->index, (uint32_t)i, -1};
	}
	qsort(it, n, sizeof(*it), item_cmp);
	/* the streams seen and their lengths */
	int64_t *sid = malloc((n + 1) * sizeof(*sid));
	int32_t *len = malloc((n + 1) * sizeof(*len));
	if (!sid || !len) {
		free(it);
		free(sid);
		free(len);
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	}
	size_t ns = 0;
	for (size_t k = 0; k < n; k++) {
		const struct perfan_trace_event *e = &ti->events[it[k].ev];
		int64_t s = it[k].delta > 0
				    ? ti->events[g->partner[it[k].ev]].stream
				    : e->stream;
		size_t j = 0;
		while (j < ns && sid[j] != s)
			j++;
		if (j == ns) {
			sid[ns] = s;
			len[ns++] = 0;
		}
		len[j] += it[k].delta;
		qlen[it[k].ev] = len[j];
		have[it[k].ev] = 1;
	}
	free(it);
	free(sid);
	free(len);
	return 0;
}

/* The last work's end node per stream, streams in the order first met. */
struct lasts {
	int64_t *stream;
	uint32_t *node;
	size_t n;
};

static long last_on(const struct lasts *l, int64_t stream)
{
	for (size_t j = 0; j < l->n; j++)
		if (l->stream[j] == stream)
			return l->node[j];
	return -1;
}

static void set_last(struct lasts *l, int64_t stream, uint32_t node)
{
	size_t j = 0;
	while (j < l->n && l->stream[j] != stream)
		j++;
	if (j == l->n) {
		l->stream[j] = stream;
		l->n++;
	}
	l->node[j] = node;
}

static void sync_edge(struct gc_graph *g, long gpu_node, uint32_t call)
{
	if (gpu_node >= 0 && g->end_of[call] >= 0 &&
	    gpu_node != g->end_of[call])
		perfan__gc_edge(g, (uint32_t)gpu_node,
				(uint32_t)g->end_of[call], PERFAN_GPUCRIT_SYNC,
				0);
}

/* The walk over the GPU rows. */
struct gpu_walk {
	struct lasts l;
	int32_t *qlen;
	uint8_t *have;
	/* per event sync or stream wait: the work it waits for, and (a
	 * stream wait) the work that waits; per work: the work a stream wait
	 * made it wait for, until it is met */
	int32_t *src, *dest, *waits_for;
};

static void work(struct gc_graph *g, uint32_t ev, struct gpu_walk *w)
{
	const struct perfan_trace_event *E = g->ti->events;
	const int32_t *qlen = w->qlen;
	const uint8_t *have = w->have;
	struct lasts *l = &w->l;
	uint32_t s = (uint32_t)g->start_of[ev], e = (uint32_t)g->end_of[ev];
	perfan__gc_edge(g, s, e, PERFAN_GPUCRIT_OPERATOR, 0);
	int32_t launch = g->partner[ev];
	long last = last_on(l, E[ev].stream);
	/* a stream wait before it: an edge from the work waited for */
	long wend = -1;
	int waited = w->waits_for[ev] >= 0;
	if (waited) {
		wend = g->end_of[w->waits_for[ev]];
		if (wend < 0)
			waited = 0;
		else
			perfan__gc_edge(g, (uint32_t)wend, s,
					PERFAN_GPUCRIT_SYNC, 0);
		w->waits_for[ev] = -1;
	}
	if (have[ev] && qlen[ev] == 0 && have[launch] && qlen[launch] == 1 &&
	    (last < 0 || g->nodes[last].ts < E[launch].ts) &&
	    (!waited || g->nodes[wend].ts < E[launch].ts)) {
		if (g->start_of[launch] >= 0)
			perfan__gc_edge(g, (uint32_t)g->start_of[launch], s,
					PERFAN_GPUCRIT_LAUNCH, 0);
	} else if (last >= 0 &&
		   g->nodes[s].ts - g->nodes[last].ts < KERNEL_KERNEL_MAX_NS &&
		   (!waited || g->nodes[wend].ts < g->nodes[last].ts)) {
		perfan__gc_edge(g, (uint32_t)last, s,
				PERFAN_GPUCRIT_KERNEL_KERNEL, 0);
	}
	set_last(l, E[ev].stream, e);
}

static void sync(struct gc_graph *g, uint32_t ev, struct gpu_walk *w)
{
	const struct perfan_trace_event *e = &g->ti->events[ev];
	const struct lasts *l = &w->l;
	uint32_t call = (uint32_t)g->partner[ev];
	if (e->sync == PERFAN_TRACE_SYNC_STREAM) {
		sync_edge(g, last_on(l, e->stream), call);
	} else if (e->sync == PERFAN_TRACE_SYNC_CONTEXT) {
		for (size_t j = 0; j < l->n; j++)
			sync_edge(g, l->node[j], call);
	} else if (e->sync == PERFAN_TRACE_SYNC_EVENT && w->src[ev] >= 0) {
		sync_edge(g, g->end_of[w->src[ev]], call);
	} else if (e->sync == PERFAN_TRACE_SYNC_WAIT && w->src[ev] >= 0 &&
		   w->dest[ev] >= 0) {
		w->waits_for[w->dest[ev]] = w->src[ev];
	}
}

int perfan__gc_gpu(struct gc_graph *g)
{
	const struct perfan_trace_info *ti = g->ti;
	size_t n = ti->nr_events;
	struct gpu_walk w = {
		.l = {malloc((n + 1) * sizeof(int64_t)),
		      malloc((n + 1) * sizeof(uint32_t)), 0},
		.qlen = calloc(n + 1, sizeof(int32_t)),
		.have = calloc(n + 1, 1),
		.src = malloc((n + 1) * sizeof(int32_t)),
		.dest = malloc((n + 1) * sizeof(int32_t)),
		.waits_for = malloc((n + 1) * sizeof(int32_t)),
	};
	struct item *rows = malloc((n + 1) * sizeof(*rows));
	int err = PERFAN_ENOMEM;
	if (!w.qlen || !w.have || !rows || !w.l.stream || !w.l.node || !w.src ||
	    !w.dest || !w.waits_for)
		goto done;
	memset(w.src, 0xff, (n + 1) * sizeof(int32_t));
	memset(w.dest, 0xff, (n + 1) * sizeof(int32_t));
	memset(w.waits_for, 0xff, (n + 1) * sizeof(int32_t));
	if ((err = queue_lengths(g, w.qlen, w.have)) < 0 ||
	    (err = perfan__gc_event_links(g, w.src, w.dest)) < 0)
		goto done;
	/* work by its start, syncs by their end (a stream sync can overlap
	 * the copy it waits for) */
	size_t nr = 0;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_trace_event *e = &ti->events[i];
		if (g->partner[i] < 0)
			continue;
		if (is_work(e->kind) && g->start_of[i] >= 0)
			rows[nr++] =
				(struct item){e->ts, e->index, (uint32_t)i, 0};
		else if (e->kind == PERFAN_TRACE_SYNC && g->in_window[i])
			rows[nr++] = (struct item){e->ts + e->dur, e->index,
						   (uint32_t)i, 1};
	}
	qsort(rows, nr, sizeof(*rows), item_cmp);
	for (size_t k = 0; k < nr; k++) {
		if (rows[k].delta)
			sync(g, rows[k].ev, &w);
		else
			work(g, rows[k].ev, &w);
	}
	err = g->err;
done:
	if (err == PERFAN_ENOMEM)
		perfan__err(err, "out of memory");
	free(w.qlen);
	free(w.have);
	free(rows);
	free(w.l.stream);
	free(w.l.node);
	free(w.src);
	free(w.dest);
	free(w.waits_for);
	return err;
}
