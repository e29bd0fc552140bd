/* analysis/gpu_steps.c: the steps (ProfilerStep#N annotations, those a
 * --step expression matches, or the whole trace) on each device: busy and
 * idle time, the gaps by class and the longest, each stream, the launches,
 * the CPU side, the host-wait gaps charged, and the verdict. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gpu_internal.h"
#include "util/error.h"
#include "util/htab.h"
#include "util/log.h"

/* The first of W[0..N) (by time) starting at or after T that is busy. */
static const struct gpu_work *first_after(const struct gpu_work *w, size_t n,
					  int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w[mid].ts < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n; lo++)
		if (w[lo].busy)
			return &w[lo];
	return NULL;
}

static const char *top_leaf(const perfan_gpu *g, const struct perfan__htab *h,
			    int64_t *ns)
{
	size_t pos = 0;
	uint64_t k, v, best = 0, bk = 0;
	while (perfan__htab_next(h, &pos, &k, &v))
		if (v > best || (v == best && v && k < bk)) {
			best = v;
			bk = k;
		}
	if (ns)
		*ns = (int64_t)best;
	return best ? perfan_profile_frame_get(g->profile, (perfan_frame_id)bk)
			       ->name
		    : NULL;
}

static int merge_add(struct perfan__htab *into, const struct perfan__htab *h)
{
	size_t pos = 0;
	uint64_t k, v;
	while (perfan__htab_next(h, &pos, &k, &v)) {
		uint64_t *x = perfan__htab_get(into, k);
		if (x)
			*x += v;
		else if (perfan__htab_put(into, k, v))
			return perfan__nomem("gpu");
	}
	return 0;
}

/* The longest gaps, longest first, N of them at most. */
static void keep_longest(struct perfan_gpu_gap *v, size_t *n, size_t max,
			 const struct perfan_gpu_gap *gap)
{
	size_t k = *n < max ? (*n)++ : max;
	if (k == max && (!max || v[max - 1].end - v[max - 1].start >=
					 gap->end - gap->start))
		return;
	if (k == max)
		k--;
	while (k && v[k - 1].end - v[k - 1].start < gap->end - gap->start) {
		v[k] = v[k - 1];
		k--;
	}
	v[k] = *gap;
}

static int gaps(perfan_gpu *g, struct perfan_gpu_step *st, size_t idx,
		const struct gpu_work *w, size_t n, const struct gpu_span *m,
		size_t nm)
{
	struct perfan__htab leaf = {0}, one = {0};
	struct perfan_gpu_gap *longest =
		calloc(g->o.nr_longest, sizeof(*longest));
	if (!longest)
		return perfan__nomem("gpu");
	g->step_gaps[idx] = longest;
	st->longest = longest;
	int64_t prev = st->start;
	int rc = 0;
	for (size_t i = 0; i <= nm && !rc; i++) {
		int64_t s = prev, e = i < nm ? m[i].s : st->end;
		if (i < nm && m[i].e > prev)
			prev = m[i].e;
		if (e <= s)
			continue;
		const struct gpu_work *next = first_after(w, n, e);
		struct perfan_gpu_gap gap = {s, e, 0, NULL};
		gap.cls = perfan__gpu_gap_class(g, s, e - s, next);
		st->idle_by[gap.cls] += e - s;
		st->nr_gaps[gap.cls]++;
		if (gap.cls == PERFAN_GPU_IDLE_HOST ||
		    gap.cls == PERFAN_GPU_IDLE_SYNC) {
			perfan__htab_free(&one);
			rc = perfan__gpu_charge(g, &gap, next, &one);
			if (!rc)
				rc = merge_add(&leaf, &one);
			gap.function = top_leaf(g, &one, NULL);
		}
		keep_longest(longest, &st->nr_longest, g->o.nr_longest, &gap);
	}
	st->function = top_leaf(g, &leaf, &st->function_ns);
	perfan__htab_free(&leaf);
	perfan__htab_free(&one);
	return rc;
}

static int cmp_stream(const void *a, const void *b)
{
	const struct gpu_work *x = a, *y = b;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* The streams of the work that starts in the step. */
static int streams(perfan_gpu *g, struct perfan_gpu_step *st, size_t idx,
		   const struct gpu_work *w, size_t n, struct gpu_span *buf)
{
	struct gpu_work *v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return perfan__nomem("gpu");
	size_t k = 0, ns = 0;
	for (size_t i = 0; i < n; i++)
		if (w[i].busy && w[i].ts >= st->start && w[i].ts < st->end)
			v[k++] = w[i];
	qsort(v, k, sizeof(*v), cmp_stream);
	for (size_t i = 0; i < k; i++)
		ns += !i || v[i].stream != v[i - 1].stream;
	struct perfan_gpu_stream *s = calloc(ns ? ns : 1, sizeof(*s));
	if (!s) {
		free(v);
		return perfan__nomem("gpu");
	}
	g->step_streams[idx] = s;
	st->streams = s;
	st->nr_streams = ns;
	ns = 0;
	for (size_t i = 0, j; i < k; i = j) {
		for (j = i; j < k && v[j].stream == v[i].stream; j++)
			;
		struct perfan_gpu_stream *x = &s[ns++];
		x->device = st->device;
		x->stream = v[i].stream;
		perfan__gpu_stream_idle(g, v + i, j - i, x);
		for (size_t q = i; q < j; q++)
			buf[q - i] = (struct gpu_span){v[q].ts, v[q].end};
		perfan__gpu_merge(buf, j - i, st->start, st->end, &x->busy);
	}
	free(v);
	return 0;
}

static int64_t merged(const struct gpu_work *w, size_t n, int type, int64_t a,
		      int64_t b, struct gpu_span *buf)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (w[i].type == type)
			buf[k++] = (struct gpu_span){w[i].ts, w[i].end};
	int64_t t;
	perfan__gpu_merge(buf, k, a, b, &t);
	return t;
}

static int one_step(perfan_gpu *g, struct perfan_gpu_step *st, size_t idx,
		    const struct gpu_work *w, size_t n)
{
	struct gpu_span *m = malloc((n ? n : 1) * sizeof(*m));
	struct gpu_span *buf = malloc((n ? n : 1) * sizeof(*buf));
	int rc = m && buf ? 0 : perfan__nomem("gpu");
	size_t k = 0;
	for (size_t i = 0; i < n && !rc; i++)
		if (w[i].busy)
			m[k++] = (struct gpu_span){w[i].ts, w[i].end};
	size_t nm = rc ? 0
		       : perfan__gpu_merge(m, k, st->start, st->end, &st->busy);
	if (!rc) {
		st->idle = st->end - st->start - st->busy;
		st->compute =
			merged(w, n, GPU_COMPUTE, st->start, st->end, buf);
		st->communication =
			merged(w, n, GPU_COMM, st->start, st->end, buf);
		st->memory = merged(w, n, GPU_MEMORY, st->start, st->end, buf);
		st->sync = merged(w, n, GPU_SYNCW, st->start, st->end, buf);
		rc = gaps(g, st, idx, w, n, m, nm);
	}
	if (!rc)
		rc = streams(g, st, idx, w, n, buf);
	if (!rc)
		rc = perfan__gpu_step_launches(g, st, w, n);
	if (!rc)
		rc = perfan__gpu_step_cpu(g, st, w, n);
	if (!rc)
		perfan__gpu_verdict(st);
	free(m);
	free(buf);
	return rc;
}

/* The step annotations, by time; none: the whole trace. */
static int windows(perfan_gpu *g, uint32_t **out, size_t *n)
{
	const struct perfan_trace_info *ti = g->ti;
	regex_t re;
	const char *pat = g->o.step ? g->o.step : "^ProfilerStep#[0-9]+";
	int e = regcomp(&re, pat, REG_EXTENDED | REG_NOSUB);
	if (e) {
		char msg[256];
		regerror(e, &re, msg, sizeof(msg));
		return perfan__err(PERFAN_EINVAL, "--step %s: %s", pat, msg);
	}
	*n = 0;
	*out = malloc((ti->nr_events ? ti->nr_events : 1) * sizeof(**out));
	if (!*out) {
		regfree(&re);
		return perfan__nomem("gpu");
	}
	for (size_t i = 0; i < ti->nr_events; i++) {
		const struct perfan_trace_event *ev = &ti->events[i];
		/* 2021's traces have their steps as operators */
		int kind = ev->kind == PERFAN_TRACE_USER_ANNOTATION ||
			   ev->kind == PERFAN_TRACE_CPU_OP;
		if (kind && g->keep[i] && ti->threads[ev->thread].device < 0 &&
		    ev->name && !regexec(&re, ev->name, 0, NULL, 0))
			(*out)[(*n)++] = (uint32_t)i;
	}
	regfree(&re);
	return 0;
}

int perfan__gpu_steps(perfan_gpu *g)
{
	const struct perfan_trace_info *ti = g->ti;
	uint32_t *win;
	size_t nw, ndev = 0;
	int rc = windows(g, &win, &nw);
	if (rc)
		return rc;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t i = 0; !nw && i < ti->nr_events; i++) {
		if (!g->keep[i])
			continue;
		if (g->ts[i] < lo)
			lo = g->ts[i];
		if (g->end[i] > hi)
			hi = g->end[i];
	}
	for (size_t i = 0; i < g->nr_work; i++)
		ndev += !i || g->work[i].device != g->work[i - 1].device;
	size_t nsteps = (nw ? nw : 1) * ndev;
	g->steps = calloc(nsteps ? nsteps : 1, sizeof(*g->steps));
	g->step_streams = calloc(nsteps ? nsteps : 1, sizeof(*g->step_streams));
	g->step_gaps = calloc(nsteps ? nsteps : 1, sizeof(*g->step_gaps));
	if (!g->steps || !g->step_streams || !g->step_gaps) {
		free(win);
		return perfan__nomem("gpu");
	}
	size_t k = 0;
	for (size_t s = 0; s < (nw ? nw : 1) && !rc; s++) {
		for (size_t i = 0, j; i < g->nr_work && !rc; i = j) {
			for (j = i; j < g->nr_work &&
				    g->work[j].device == g->work[i].device;
			     j++)
				;
			struct perfan_gpu_step *st = &g->steps[k];
			st->device = g->work[i].device;
			if (nw) {
				st->name = ti->events[win[s]].name;
				st->start = g->ts[win[s]];
				st->end = g->end[win[s]];
			} else {
				st->start = lo;
				st->end = hi;
			}
			rc = one_step(g, st, k, g->work + i, j - i);
			k++;
		}
	}
	free(win);
	g->res.steps = g->steps;
	g->res.nr_steps = k;
	return rc;
}
