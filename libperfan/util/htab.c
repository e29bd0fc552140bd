/* util/htab.c: open addressing with linear probing and backward-shift
 * deletion; grows at 3/4 load. */
#include "util/htab.h"

#include "util/hash.h"
#include "util/prefault.h"

#include <stdlib.h>

#include <perfan/common.h>

uint64_t *perfan__htab_get(const struct perfan__htab *h, uint64_t key)
{
	if (!h->cap)
		return NULL;
	size_t mask = h->cap - 1;
	for (size_t i = perfan__hash_u64(key) & mask;; i = (i + 1) & mask) {
		struct perfan__htab_slot *e = &h->s[i];
		if (!e->used)
			return NULL;
		if (e->key == key)
			return &e->val;
	}
}

static int grow(struct perfan__htab *h)
{
	size_t cap = h->cap ? h->cap * 2 : 64;
	struct perfan__htab n = {0};
	n.s = calloc(cap, sizeof(*n.s));
	if (!n.s)
		return PERFAN_ENOMEM;
	perfan__prefault(n.s, cap * sizeof(*n.s));
	n.cap = cap;
	for (size_t i = 0; i < h->cap; i++) {
		if (!h->s[i].used)
			continue;
		size_t j = perfan__hash_u64(h->s[i].key) & (cap - 1);
		while (n.s[j].used)
			j = (j + 1) & (cap - 1);
		n.s[j] = h->s[i];
	}
	n.n = h->n;
	perfan__htab_free(h);
	*h = n;
	return 0;
}

int perfan__htab_put(struct perfan__htab *h, uint64_t key, uint64_t val)
{
	uint64_t *v = perfan__htab_get(h, key);
	if (v) {
		*v = val;
		return 0;
	}
	if ((h->n + 1) * 4 > h->cap * 3) {
		int err = grow(h);
		if (err)
			return err;
	}
	size_t mask = h->cap - 1;
	size_t i = perfan__hash_u64(key) & mask;
	while (h->s[i].used)
		i = (i + 1) & mask;
	h->s[i] = (struct perfan__htab_slot){key, val, 1};
	h->n++;
	return 0;
}

int perfan__htab_del(struct perfan__htab *h, uint64_t key)
{
	if (!h->cap)
		return 0;
	size_t mask = h->cap - 1;
	size_t i = perfan__hash_u64(key) & mask;
	for (;; i = (i + 1) & mask) {
		if (!h->s[i].used)
			return 0;
		if (h->s[i].key == key)
			break;
	}
	/* Shift later members of the probe run back over the hole. */
	size_t j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (!h->s[j].used)
			break;
		size_t home = perfan__hash_u64(h->s[j].key) & mask;
		/* Move j to i unless its home lies cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			h->s[i] = h->s[j];
			i = j;
		}
	}
	h->s[i].used = 0;
	h->n--;
	return 1;
}

int perfan__htab_next(const struct perfan__htab *h, size_t *pos, uint64_t *key,
		      uint64_t *val)
{
	for (size_t i = *pos; i < h->cap; i++) {
		if (h->s[i].used) {
			if (key)
				*key = h->s[i].key;
			if (val)
				*val = h->s[i].val;
			*pos = i + 1;
			return 1;
		}
	}
	*pos = h->cap;
	return 0;
}

void perfan__htab_free(struct perfan__htab *h)
{
	free(h->s);
	h->s = NULL;
	h->cap = h->n = 0;
}
