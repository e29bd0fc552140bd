/* util/arena.h: a bump allocator for data that lives as long as its owner
 * (decoded features, event names), freed all at once, or emptied for reuse
 * (the read-ahead batches of sources/perfdata/pipeline.c). */
#ifndef PERFAN_UTIL_ARENA_H
#define PERFAN_UTIL_ARENA_H

#include <stddef.h>

struct perfan__arena_chunk;
struct perfan__arena {
	struct perfan__arena_chunk *head;
};

/* 8-byte aligned, zeroed memory, or NULL when out of memory. */
void *perfan__arena_alloc(struct perfan__arena *a, size_t n);
/* 16-byte aligned memory, not zeroed (new chunks of at least MIN_CHUNK
 * bytes), or NULL when out of memory. */
void *perfan__arena_bump(struct perfan__arena *a, size_t n, size_t min_chunk);
/* Empty A for reuse: one chunk of KEEP_CAP bytes is kept, the rest freed. */
void perfan__arena_reset(struct perfan__arena *a, size_t keep_cap);
/* A NUL-terminated copy of N bytes at S (stops at an earlier NUL). */
char *perfan__arena_strndup(struct perfan__arena *a, const char *s, size_t n);
void perfan__arena_free(struct perfan__arena *a);

#endif
