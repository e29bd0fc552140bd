/* sources/perfdata/order.c: records copied into chunks (chunk.c), the records
 * of a round sorted by time (a natural merge sort of perf's per-CPU runs),
 * and the FIFO of records ready for delivery. perf's rule: at each
 * FINISHED_ROUND, deliver what is older than the newest time seen at the
 * previous round; at the end, deliver everything. */
#include "sources/perfdata/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

static int copy_raw(struct perfan_perfdata *pd, struct perfan__order *o,
		    const struct perfan__raw *r, uint64_t time,
		    struct perfan__queued *q)
{
	size_t n = (size_t)r->size + (size_t)r->payload_size;
	size_t need = (n + 15) & ~(size_t)15;
	q->time = time;
	q->seq = o->seq++;
	q->offset = r->offset;
	q->from_compressed = r->from_compressed;
	q->payload_size = r->payload_size;
	if (!r->from_compressed && pd->src.map && r->bytes >= pd->src.map &&
	    r->bytes < pd->src.map + pd->src.map_len) {
		/* a mapped file stays mapped: queue the record in place (it
		 * counts in the window all the same: its entry here is what
		 * grows with a round) */
		q->bytes = (uint8_t *)(uintptr_t)r->bytes;
		q->chunk = NULL;
		q->need = n;
		return 0;
	}
	struct perfan__chunk *c = perfan__chunk_for(o, need);
	if (!c)
		return PD_ERR(pd, PERFAN_ENOMEM, r->offset, "out of memory");
	uint8_t *dst = c->data + c->used;
	memcpy(dst, r->bytes, r->size);
	if (r->payload_size)
		memcpy(dst + r->size, r->payload, r->payload_size);
	c->used += need;
	c->live++;
	q->bytes = dst;
	q->chunk = c;
	q->need = need;
	return 0;
}

static int ready_push(struct perfan_perfdata *pd, struct perfan__order *o,
		      const struct perfan__queued *q);

/* Merge sorted A[0..NA) and B[0..NB) into OUT, A's first on equal times:
 * A arrived before B, so arrival order breaks ties (perf's rule). */
static void merge(const struct perfan__queued *a, size_t na,
		  const struct perfan__queued *b, size_t nb,
		  struct perfan__queued *out)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb)
		out[k++] = b[j].time < a[i].time ? b[j++] : a[i++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
}

/* Sort the records that came since the last sort and merge them into the
 * sorted ones. perf writes each CPU's buffer in time order, so a round is
 * a few ascending runs: a natural merge sort takes O(n log runs). */
static int sort_pending(struct perfan_perfdata *pd, struct perfan__order *o)
{
	size_t n = o->npend, from = o->nsorted;
	if (from == n)
		return 0;
	if (perfan__grow((void **)&o->tmp, &o->captmp, n, sizeof(*o->tmp)) ||
	    perfan__grow((void **)&o->runs, &o->capruns, n - from + 1,
			 sizeof(*o->runs)))
		return PD_ERR(pd, PERFAN_ENOMEM, 0, "out of memory");
	/* the ascending runs of the new records */
	size_t nr = 0;
	o->runs[nr++] = from;
	for (size_t i = from + 1; i < n; i++)
		if (o->pend[i].time < o->pend[i - 1].time)
			o->runs[nr++] = i;
	o->runs[nr] = n;
	struct perfan__queued *src = o->pend, *dst = o->tmp;
	while (nr > 1) {
		size_t k = 0;
		for (size_t r = 0; r < nr; r += 2) {
			size_t lo = o->runs[r], mid = o->runs[r + 1];
			size_t hi = r + 2 <= nr ? o->runs[r + 2] : mid;
			merge(src + lo, mid - lo, src + mid, hi - mid,
			      dst + lo);
			o->runs[k++] = lo;
		}
		o->runs[k] = n;
		nr = k;
		struct perfan__queued *t = src;
		src = dst;
		dst = t;
	}
	/* then with the records sorted before (into the other array: a
	 * merge cannot write over its own input) */
	if (from) {
		if (src != o->pend)
			memcpy(o->pend + from, o->tmp + from,
			       (n - from) * sizeof(*o->pend));
		merge(o->pend, from, o->pend + from, n - from, o->tmp);
		src = o->tmp;
	}
	if (src != o->pend) {
		/* the sorted records are in tmp: swap the arrays */
		struct perfan__queued *t = o->pend;
		size_t c = o->cappend;
		o->pend = o->tmp;
		o->cappend = o->captmp;
		o->tmp = t;
		o->captmp = c;
	}
	o->nsorted = n;
	return 0;
}

/* Deliver the sorted records up to time LIMIT; with SHED, only while more
 * than BYTES_ABOVE bytes of records are queued. */
static int deliver_sorted(struct perfan_perfdata *pd, struct perfan__order *o,
			  uint64_t limit, int shed, size_t bytes_above)
{
	size_t k = 0;
	int err = 0;
	while (k < o->npend && o->pend[k].time <= limit &&
	       (!shed || o->queued_bytes > bytes_above)) {
		struct perfan__queued *q = &o->pend[k];
		if ((err = ready_push(pd, o, q))) {
			/* out of memory: deliver nothing more rather than
			 * lose order silently */
			break;
		}
		o->queued_bytes -= q->need;
		k++;
	}
	if (k && k < o->npend)
		memmove(o->pend, o->pend + k,
			(o->npend - k) * sizeof(*o->pend));
	o->npend -= k;
	o->nsorted -= k;
	return err;
}

static int ready_push(struct perfan_perfdata *pd, struct perfan__order *o,
		      const struct perfan__queued *q)
{
	if (o->rtail - o->rhead == o->rcap || o->rcap == 0) {
		size_t ncap = o->rcap ? o->rcap * 2 : 256;
		struct perfan__queued *n = malloc(ncap * sizeof(*n));
		if (!n)
			return PD_ERR(pd, PERFAN_ENOMEM, q->offset,
				      "out of memory");
		for (size_t i = o->rhead; i < o->rtail; i++)
			n[i - o->rhead] = o->ready[i % o->rcap];
		o->rtail -= o->rhead;
		o->rhead = 0;
		free(o->ready);
		o->ready = n;
		o->rcap = ncap;
	}
	o->ready[o->rtail++ % o->rcap] = *q;
	return 0;
}

void perfan__order_flush(struct perfan_perfdata *pd, uint64_t limit)
{
	struct perfan__order *o = &pd->order;
	if (sort_pending(pd, o) || deliver_sorted(pd, o, limit, 0, 0))
		pd->err = PERFAN_ENOMEM;
}

void perfan__order_round(struct perfan_perfdata *pd)
{
	struct perfan__order *o = &pd->order;
	perfan__order_flush(pd, o->next_flush);
	o->next_flush = o->max_time;
	o->round_bytes = 0;
}

/* The window's size: what it holds at most before the oldest records go
 * out early. */
static size_t window_size(const struct perfan_perfdata *pd)
{
	return pd->opts.max_queue_bytes ? pd->opts.max_queue_bytes
					: PERFAN__ORDER_WINDOW;
}

int perfan__order_push(struct perfan_perfdata *pd, const struct perfan__raw *r,
		       uint64_t time)
{
	struct perfan__order *o = &pd->order;
	if (perfan__grow((void **)&o->pend, &o->cappend, o->npend + 1,
			 sizeof(*o->pend)))
		return PD_ERR(pd, PERFAN_ENOMEM, r->offset, "out of memory");
	int rc = copy_raw(pd, o, r, time, &o->pend[o->npend]);
	if (rc)
		return rc;
	size_t need = o->pend[o->npend++].need;
	o->queued_bytes += need;
	o->round_bytes += need;
	if (time > o->max_time)
		o->max_time = time;
	size_t max = window_size(pd);
	if (o->queued_bytes > max) {
		/* the time-order window holds the records of the round being
		 * read and of the one before it (perf's rule): a round larger
		 * than it (or a file without rounds) cannot be put wholly in
		 * order */
		if (!o->warned_overflow)
			perfan__log(
				pd, PERFAN_LOG_WARN,
				"%s: the time-order window (%zu bytes of "
				"records) is full at offset %llu, %zu bytes "
				"into a round (rounds of the file are larger "
				"than the window): the oldest records go out "
				"early, and later ones may come out of time "
				"order",
				pd->name, max, (unsigned long long)r->offset,
				o->round_bytes);
		o->warned_overflow = 1;
		if (sort_pending(pd, o) ||
		    deliver_sorted(pd, o, UINT64_MAX, 1, max / 2))
			return PERFAN_ENOMEM;
	}
	return 0;
}

int perfan__order_push_ready_to(struct perfan_perfdata *pd,
				struct perfan__order *o,
				const struct perfan__raw *r)
{
	struct perfan__queued q;
	int rc = copy_raw(pd, o, r, 0, &q);
	if (rc)
		return rc;
	rc = ready_push(pd, o, &q);
	if (rc)
		perfan__chunk_unref(o, q.chunk);
	return rc;
}

int perfan__order_push_ready(struct perfan_perfdata *pd,
			     const struct perfan__raw *r)
{
	return perfan__order_push_ready_to(pd, &pd->order, r);
}

int perfan__order_pop_from(struct perfan_perfdata *pd, struct perfan__order *o,
			   struct perfan__raw *r)
{
	if (o->rhead == o->rtail)
		return 0;
	struct perfan__queued q = o->ready[o->rhead++ % o->rcap];
	if (o->rhead == o->rtail)
		o->rhead = o->rtail = 0;
	memset(r, 0, sizeof(*r));
	r->bytes = q.bytes;
	r->type = perfan__u32(q.bytes, pd->swap);
	r->misc = perfan__u16(q.bytes + 4, pd->swap);
	r->size = perfan__u16(q.bytes + 6, pd->swap);
	r->offset = q.offset;
	r->from_compressed = q.from_compressed;
	r->payload_size = q.payload_size;
	r->payload = q.payload_size ? q.bytes + r->size : NULL;
	o->held = q;
	o->holding = 1;
	return 1;
}

void perfan__order_release(struct perfan_perfdata *pd, struct perfan__order *o)
{
	(void)pd;
	if (!o->holding)
		return;
	o->holding = 0;
	perfan__chunk_unref(o, o->held.chunk);
}

void perfan__order_free(struct perfan__order *o)
{
	struct perfan__chunk *c = o->chunks;
	while (c) {
		struct perfan__chunk *n = c->next;
		free(c);
		c = n;
	}
	c = o->free_chunks;
	while (c) {
		struct perfan__chunk *n = c->next;
		free(c);
		c = n;
	}
	free(o->pend);
	free(o->tmp);
	free(o->runs);
	free(o->ready);
	memset(o, 0, sizeof(*o));
}
