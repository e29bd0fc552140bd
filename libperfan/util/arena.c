/* util/arena.c: bump allocator in chunks of at least 64 KiB. */
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct perfan__arena_chunk {
	struct perfan__arena_chunk *next;
	size_t cap, used;
	_Alignas(16) unsigned char data[];
};

void *perfan__arena_alloc(struct perfan__arena *a, size_t n)
{
	struct perfan__arena_chunk *c = a->head;
	size_t need = (n + 7) & ~(size_t)7;
	if (need < n)
		return NULL;
	if (!c || c->cap - c->used < need) {
		size_t cap = need > 65536 ? need : 65536;
		if (cap > SIZE_MAX - sizeof(*c))
			return NULL;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *r = c->data + c->used;
	c->used += need;
	memset(r, 0, need);
	return r;
}

char *perfan__arena_strndup(struct perfan__arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *r = perfan__arena_alloc(a, len + 1);
	if (r)
		memcpy(r, s, len);
	return r;
}

void perfan__arena_free(struct perfan__arena *a)
{
	struct perfan__arena_chunk *c = a->head;
	while (c) {
		struct perfan__arena_chunk *n = c->next;
		free(c);
		c = n;
	}
	a->head = NULL;
}
