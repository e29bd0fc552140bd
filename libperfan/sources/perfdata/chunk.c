/* sources/perfdata/chunk.c: the reference-counted chunks the time order
 * copies records into (order.c), and that a reader thread's batches hold
 * them in (pipeline.c): a chunk is reused once no record in it is held. */
#include "sources/perfdata/internal.h"

#include <stdlib.h>

/* Chunks start at CHUNK_FIRST bytes and double to CHUNK_SIZE: a short
 * input costs little. Only chunks of the current size are recycled. */
#define CHUNK_FIRST ((size_t)1 << 16)
#define CHUNK_SIZE ((size_t)1 << 20)

struct perfan__chunk *perfan__chunk_for(struct perfan__order *o, size_t n)
{
	struct perfan__chunk *c = o->chunks;
	if (c && c->cap - c->used >= n)
		return c;
	if (!o->chunk_size)
		o->chunk_size = CHUNK_FIRST;
	else if (o->chunk_size < CHUNK_SIZE && !o->free_chunks)
		o->chunk_size *= 2;
	size_t cap = n > o->chunk_size ? n : o->chunk_size;
	if (cap == o->chunk_size && o->free_chunks) {
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

void perfan__chunk_unref(struct perfan__order *o, struct perfan__chunk *c)
{
	if (!c || --c->live || c == o->chunks)
		return;
	/* unlink and recycle */
	struct perfan__chunk **pp = &o->chunks;
	while (*pp && *pp != c)
		pp = &(*pp)->next;
	if (*pp)
		*pp = c->next;
	if (c->cap == o->chunk_size) {
		c->next = o->free_chunks;
		o->free_chunks = c;
	} else {
		free(c);
	}
}

struct perfan__chunk *perfan__chunk_held(const struct perfan__order *o,
					 const uint8_t *bytes)
{
	return o->holding && o->held.bytes == bytes ? o->held.chunk : NULL;
}

void perfan__chunk_ref(struct perfan__chunk *c)
{
	c->live++;
}
