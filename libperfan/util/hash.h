/* util/hash.h: hashing of bytes and integers, and an open-addressing table
 * of 32-bit ids that interning tables (strings, frames, trie children) build
 * on: the table stores each id with its 32-bit hash, the caller owns the
 * items and compares them itself. */
#ifndef PERFAN_UTIL_HASH_H
#define PERFAN_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 64-bit hash of N bytes at P. Not cryptographic; good spread for interning. */
uint64_t perfan__hash_mem(const void *p, size_t n);

/* Mix of a 64-bit integer (the splitmix64 finalizer). */
static inline uint64_t perfan__hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* 64-bit hash of N bytes at P, chained from SEED (0 to start). */
static inline uint64_t perfan__hash_bytes(const void *p, size_t n,
					  uint64_t seed)
{
	return perfan__hash_u64(perfan__hash_mem(p, n) ^ seed);
}

/* Fold a 64-bit hash to the 32 bits the table keeps. */
static inline uint32_t perfan__hash32(uint64_t h)
{
	return (uint32_t)(h ^ (h >> 32));
}

/* A slot: ID + 1 (0 = empty) and the id's hash. Linear probing, kept at
 * most half full, so a lookup touches one or two cache lines. */
struct perfan__idslot {
	uint32_t id1;
	uint32_t hash;
};

struct perfan__idtab {
	struct perfan__idslot *slots;
	size_t mask; /* number of slots - 1; 0 before the first reserve */
	size_t count;
};

/* Make room for one more id (call before a lookup that may insert, so the
 * empty slot the lookup ends at stays valid). Returns 0 or PERFAN_ENOMEM. */
int perfan__idtab_reserve(struct perfan__idtab *t);
void perfan__idtab_free(struct perfan__idtab *t);

/* Probe order: start at perfan__idtab_start, step with perfan__idtab_step,
 * until an empty slot (not found; insert there) or a match. */
static inline size_t perfan__idtab_start(const struct perfan__idtab *t,
					 uint32_t hash)
{
	return hash & t->mask;
}

static inline size_t perfan__idtab_step(const struct perfan__idtab *t, size_t i)
{
	return (i + 1) & t->mask;
}

static inline void perfan__idtab_put(struct perfan__idtab *t, size_t i,
				     uint32_t id, uint32_t hash)
{
	t->slots[i].id1 = id + 1;
	t->slots[i].hash = hash;
	t->count++;
}

#endif
