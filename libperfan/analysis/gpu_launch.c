/* analysis/gpu_launch.c: a step's launch statistics: the delays from the
 * launch calls' ends to the work's starts (percentiles), the work shorter
 * than its launch call, and the launch queue (launched, not finished) over
 * the step. */
#include <stdlib.h>

#include "analysis/gpu_internal.h"
#include "util/log.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* A change of the queue's depth at T. */
struct qev {
	int64_t t;
	int d;
};

static int cmp_qev(const void *a, const void *b)
{
	const struct qev *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->d - y->d; /* finished before launched at one time */
}

static int64_t rank_of(const int64_t *v, size_t n, int pct)
{
	size_t k = (n * (size_t)pct + 99) / 100; /* nearest rank */
	return v[k ? k - 1 : 0];
}

int perfan__gpu_step_launches(const perfan_gpu *g, struct perfan_gpu_step *st,
			      const struct gpu_work *w, size_t n)
{
	int64_t *d = malloc((n ? n : 1) * sizeof(*d));
	struct qev *q = malloc((2 * n + 1) * sizeof(*q));
	if (!d || !q) {
		free(d);
		free(q);
		return perfan__nomem("gpu");
	}
	size_t nd = 0, nq = 0;
	for (size_t i = 0; i < n; i++) {
		if (!w[i].busy || w[i].launch == GPU_NONE)
			continue;
		int64_t ls = g->ts[w[i].launch], le = g->end[w[i].launch];
		if (w[i].ts >= st->start && w[i].ts < st->end) {
			d[nd++] = w[i].ts > le ? w[i].ts - le : 0;
			st->nr_shorter += w[i].end - w[i].ts < le - ls;
		}
		if (ls < st->end && w[i].end > st->start) {
			q[nq++] = (struct qev){ls, 1};
			q[nq++] = (struct qev){w[i].end, -1};
		}
	}
	st->nr_launches = nd;
	if (nd) {
		qsort(d, nd, sizeof(*d), cmp_i64);
		st->delay_p50 = rank_of(d, nd, 50);
		st->delay_p90 = rank_of(d, nd, 90);
		st->delay_p99 = rank_of(d, nd, 99);
		st->delay_max = d[nd - 1];
	}
	qsort(q, nq, sizeof(*q), cmp_qev);
	int64_t depth = 0, prev = st->start;
	double area = 0;
	for (size_t i = 0; i < nq; i++) {
		int64_t t = q[i].t < st->start ? st->start
			    : q[i].t > st->end ? st->end
					       : q[i].t;
		area += (double)depth * (double)(t - prev);
		prev = t;
		depth += q[i].d;
		if (q[i].t < st->end && depth > 0 &&
		    (uint64_t)depth > st->queue_max)
			st->queue_max = (uint64_t)depth;
	}
	if (st->end > st->start)
		st->queue_mean = area / (double)(st->end - st->start);
	free(d);
	free(q);
	return 0;
}
