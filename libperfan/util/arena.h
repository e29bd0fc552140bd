/* util/arena.h: a bump allocator for data that lives as long as its owner
 * (decoded features, event names); freed all at once. */
#ifndef PERFAN_UTIL_ARENA_H
#define PERFAN_UTIL_ARENA_H

#include <stddef.h>

struct perfan__arena_chunk;
struct perfan__arena {
	struct perfan__arena_chunk *head;
};

/* 8-byte aligned, zeroed memory, or NULL when out of memory. */
void *perfan__arena_alloc(struct perfan__arena *a, size_t n);
/* A NUL-terminated copy of N bytes at S (stops at an earlier NUL). */
char *perfan__arena_strndup(struct perfan__arena *a, const char *s, size_t n);
void perfan__arena_free(struct perfan__arena *a);

#endif
