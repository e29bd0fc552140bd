/* perfdata/order.c: record copies in reference-counted chunks, a min-heap by
 * time, and the FIFO of records ready for delivery. perf's rule: at each
 * FINISHED_ROUND, deliver what is older than the newest time seen at the
 * previous round; at the end, deliver everything. */
#include "perfdata/internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE (1u << 20)

static struct perfan__chunk *chunk_for(struct perfan__order *o, size_t n)
{
	struct perfan__chunk *c = o->chunks;
	if (c && c->cap - c->used >= n)
		return c;
	size_t cap = n > CHUNK_SIZE ? n : CHUNK_SIZE;
	if (cap == CHUNK_SIZE && o->free_chunks) {
		c = o->free_chunks;
		o->free_chunks = c->next;
	} else {
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
	}
	c->used = 0;
	c->live = 0;
	c->next = o->chunks;
	o->chunks = c;
	return c;
}

static void chunk_unref(struct perfan__order *o, struct perfan__chunk *c)
{
	if (!c || --c->live || c == o->chunks)
		return;
	/* unlink and recycle */
	struct perfan__chunk **pp = &o->chunks;
	while (*pp && *pp != c)
		pp = &(*pp)->next;
	if (*pp)
		*pp = c->next;
	if (c->cap == CHUNK_SIZE) {
		c->next = o->free_chunks;
		o->free_chunks = c;
	} else {
		free(c);
	}
}

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
		/* a mapped file stays mapped: queue the record in place */
		q->bytes = (uint8_t *)(uintptr_t)r->bytes;
		q->chunk = NULL;
		q->need = 0;
		return 0;
	}
	struct perfan__chunk *c = chunk_for(o, need);
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

static int before(const struct perfan__queued *a,
		  const struct perfan__queued *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void heap_pop(struct perfan__order *o, struct perfan__queued *out)
{
	*out = o->heap[0];
	o->heap[0] = o->heap[--o->nheap];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < o->nheap && before(&o->heap[l], &o->heap[m]))
			m = l;
		if (r < o->nheap && before(&o->heap[r], &o->heap[m]))
			m = r;
		if (m == i)
			break;
		struct perfan__queued t = o->heap[i];
		o->heap[i] = o->heap[m];
		o->heap[m] = t;
		i = m;
	}
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
	while (o->nheap && o->heap[0].time <= limit) {
		struct perfan__queued q;
		heap_pop(o, &q);
		o->queued_bytes -= q.need;
		if (ready_push(pd, o, &q)) {
			/* out of memory: deliver nothing more rather than
			 * lose order silently */
			chunk_unref(o, q.chunk);
			pd->err = PERFAN_ENOMEM;
			return;
		}
	}
}

void perfan__order_round(struct perfan_perfdata *pd)
{
	struct perfan__order *o = &pd->order;
	perfan__order_flush(pd, o->next_flush);
	o->next_flush = o->max_time;
}

int perfan__order_push(struct perfan_perfdata *pd, const struct perfan__raw *r,
		       uint64_t time)
{
	struct perfan__order *o = &pd->order;
	if (o->nheap == o->capheap) {
		size_t ncap = o->capheap ? o->capheap * 2 : 1024;
		struct perfan__queued *n = realloc(o->heap, ncap * sizeof(*n));
		if (!n)
			return PD_ERR(pd, PERFAN_ENOMEM, r->offset,
				      "out of memory");
		o->heap = n;
		o->capheap = ncap;
	}
	struct perfan__queued q;
	int rc = copy_raw(pd, o, r, time, &q);
	if (rc)
		return rc;
	size_t i = o->nheap++;
	o->heap[i] = q;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(&o->heap[i], &o->heap[p]))
			break;
		struct perfan__queued t = o->heap[i];
		o->heap[i] = o->heap[p];
		o->heap[p] = t;
		i = p;
	}
	o->queued_bytes += q.need;
	if (time > o->max_time)
		o->max_time = time;
	size_t max = pd->opts.max_queue_bytes ? pd->opts.max_queue_bytes
					      : ((size_t)256 << 20);
	if (o->queued_bytes > max) {
		if (!o->warned_overflow)
			perfan__log(
				pd, PERFAN_LOG_WARN,
				"%s: more than %zu bytes of records between "
				"rounds; delivering the oldest early",
				pd->name, max);
		o->warned_overflow = 1;
		while (o->nheap && o->queued_bytes > max / 2) {
			struct perfan__queued q2;
			heap_pop(o, &q2);
			o->queued_bytes -= q2.need;
			if (ready_push(pd, o, &q2))
				return PERFAN_ENOMEM;
		}
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
		chunk_unref(o, q.chunk);
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
	chunk_unref(o, o->held.chunk);
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
	free(o->heap);
	free(o->ready);
	memset(o, 0, sizeof(*o));
}
