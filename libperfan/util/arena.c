/* util/arena.c: bump allocator in chunks (64 KiB or more), freed at once or
 * emptied for reuse. */
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct perfan__arena_chunk {
	struct perfan__arena_chunk *next;
	size_t cap, used;
	_Alignas(16) unsigned char data[];
};

/* N bytes rounded up to ALIGN (a power of two, at most 16) at an ALIGN
 * boundary of the newest chunk, or of a new one of at least MIN_CHUNK
 * bytes where it has no room. */
static void *take(struct perfan__arena *a, size_t n, size_t align,
		  size_t min_chunk)
{
	size_t need = (n + align - 1) & ~(align - 1);
	if (need < n)
		return NULL;
	struct perfan__arena_chunk *c = a->head;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;
	if (!c || at > c->cap || c->cap - at < need) {
		size_t cap = need > min_chunk ? need : min_chunk;
		if (cap > SIZE_MAX - sizeof(*c))
			return NULL;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->next = a->head;
		a->head = c;
		at = 0;
	}
	void *r = c->data + at;
	c->used = at + need;
	return r;
}

void *perfan__arena_alloc(struct perfan__arena *a, size_t n)
{
	void *r = take(a, n, 8, 65536);
	if (r)
		memset(r, 0, (n + 7) & ~(size_t)7);
	return r;
}

void *perfan__arena_bump(struct perfan__arena *a, size_t n, size_t min_chunk)
{
	return take(a, n, 16, min_chunk);
}

void perfan__arena_reset(struct perfan__arena *a, size_t keep_cap)
{
	struct perfan__arena_chunk *keep = NULL, *c = a->head;
	while (c) {
		struct perfan__arena_chunk *next = c->next;
		if (!keep && c->cap == keep_cap) {
			keep = c;
			keep->used = 0;
			keep->next = NULL;
		} else {
			free(c);
		}
		c = next;
	}
	a->head = keep;
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
