/* util/htab.c: open addressing with linear probing and backward-shift
 * deletion; grows at 3/4 load. */
#include "util/htab.h"

#include "util/hash.h"

#include <stdlib.h>

#include <perfan/common.h>

uint64_t *perfan__htab_get(const struct perfan__htab *h, uint64_t key)
{
	if (!h->cap)
		return NULL;
	size_t mask = h->cap - 1;
	for (size_t i = perfan__hash_u64(key) & mask;; i = (i + 1) & mask) {
		if (!h->used[i])
			return NULL;
		if (h->keys[i] == key)
			return &h->vals[i];
	}
}

static int grow(struct perfan__htab *h)
{
	size_t cap = h->cap ? h->cap * 2 : 64;
	struct perfan__htab n = {0};
	n.keys = malloc(cap * sizeof(*n.keys));
	n.vals = malloc(cap * sizeof(*n.vals));
	n.used = calloc(cap, 1);
	if (!n.keys || !n.vals || !n.used) {
		free(n.keys);
		free(n.vals);
		free(n.used);
		return PERFAN_ENOMEM;
	}
	n.cap = cap;
	for (size_t i = 0; i < h->cap; i++) {
		if (!h->used[i])
			continue;
		size_t j = perfan__hash_u64(h->keys[i]) & (cap - 1);
		while (n.used[j])
			j = (j + 1) & (cap - 1);
		n.used[j] = 1;
		n.keys[j] = h->keys[i];
		n.vals[j] = h->vals[i];
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
	while (h->used[i])
		i = (i + 1) & mask;
	h->used[i] = 1;
	h->keys[i] = key;
	h->vals[i] = val;
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
		if (!h->used[i])
			return 0;
		if (h->keys[i] == key)
			break;
	}
	/* Shift later members of the probe run back over the hole. */
	size_t j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (!h->used[j])
			break;
		size_t home = perfan__hash_u64(h->keys[j]) & mask;
		/* Move j to i unless its home lies cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			h->keys[i] = h->keys[j];
			h->vals[i] = h->vals[j];
			i = j;
		}
	}
	h->used[i] = 0;
	h->n--;
	return 1;
}

int perfan__htab_next(const struct perfan__htab *h, size_t *pos, uint64_t *key,
		      uint64_t *val)
{
	for (size_t i = *pos; i < h->cap; i++) {
		if (h->used[i]) {
			if (key)
				*key = h->keys[i];
			if (val)
				*val = h->vals[i];
			*pos = i + 1;
			return 1;
		}
	}
	*pos = h->cap;
	return 0;
}

void perfan__htab_free(struct perfan__htab *h)
{
	free(h->keys);
	free(h->vals);
	free(h->used);
	h->keys = h->vals = NULL;
	h->used = NULL;
	h->cap = h->n = 0;
}
