/* util/htab.h: an open-addressing hash table from 64-bit keys to 64-bit
 * values, for the resolver's lookups (threads by tid, addresses to cached
 * frames, ...). */
#ifndef PERFAN_UTIL_HTAB_H
#define PERFAN_UTIL_HTAB_H

#include <stddef.h>
#include <stdint.h>

/* A key and its value side by side, 16 bytes: a lookup touches one cache
 * line. Key 0 marks an empty slot; key 0 itself is kept beside the
 * slots. */
struct perfan__htab_slot {
	uint64_t key, val;
};

struct perfan__htab {
	struct perfan__htab_slot *s;
	size_t cap;        /* 0 or a power of two */
	size_t n;          /* keys held, key 0 included */
	uint64_t zero_val; /* key 0's value, when has_zero */
	int has_zero;
};

/* The value stored for KEY, or NULL. Valid until the next put or del. */
uint64_t *perfan__htab_get(const struct perfan__htab *h, uint64_t key);
/* Insert or replace. Returns 0 or PERFAN_ENOMEM. */
int perfan__htab_put(struct perfan__htab *h, uint64_t key, uint64_t val);
/* Remove KEY if present; returns 1 if it was. */
int perfan__htab_del(struct perfan__htab *h, uint64_t key);
/* Walk: start with *pos = 0; returns 1 and sets key/val while items
 * remain. The table must not change during the walk. */
int perfan__htab_next(const struct perfan__htab *h, size_t *pos, uint64_t *key,
		      uint64_t *val);
void perfan__htab_free(struct perfan__htab *h);

#endif
