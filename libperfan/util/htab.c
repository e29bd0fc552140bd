/* util/htab.c: open addressing with linear probing and backward-shift
 * deletion; grows at 3/4 load. Key 0 marks an empty slot and is kept
 * beside the slots. */
#include "util/htab.h"

#include "util/hash.h"
#include "util/prefault.h"

#include <stdlib.h>

#include <perfan/common.h>

uint64_t *perfan__htab_get(const struct perfan__htab *h, uint64_t key)
{
	if (!key)
		return h->has_zero ? (uint64_t *)&h->zero_val : NULL;
	if (!h->cap)
		return NULL;
	size_t mask = h->cap - 1;
	for (size_t i = perfan__hash_u64(key) & mask;; i = (i + 1) & mask) {
		struct perfan__htab_slot *e = &h->s[i];
		if (e->key == key)
			return &e->val;
		if (!e->key)
			return NULL;
	}
}

static int grow(struct perfan__htab *h)
{
	size_t cap = h->cap ? h->cap * 2 : 64;
	struct perfan__htab_slot *s = calloc(cap, sizeof(*s));
	if (!s)
		return PERFAN_ENOMEM;
	perfan__prefault(s, cap * sizeof(*s));
	for (size_t i = 0; i < h->cap; i++) {
		if (!h->s[i].key)
			continue;
		size_t j = perfan__hash_u64(h->s[i].key) & (cap - 1);
		while (s[j].key)
			j = (j + 1) & (cap - 1);
		s[j] = h->s[i];
	}
	free(h->s);
	h->s = s;
	h->cap = cap;
	return 0;
}

int perfan__htab_put(struct perfan__htab *h, uint64_t key, uint64_t val)
{
	uint64_t *v = perfan__htab_get(h, key);
	if (v) {
		*v = val;
		return 0;
	}
	if (!key) {
		h->zero_val = val;
		h->has_zero = 1;
		h->n++;
		return 0;
	}
	if ((h->n - (size_t)h->has_zero + 1) * 4 > h->cap * 3) {
		int err = grow(h);
		if (err)
			return err;
	}
	size_t mask = h->cap - 1;
	size_t i = perfan__hash_u64(key) & mask;
	while (h->s[i].key)
		i = (i + 1) & mask;
	h->s[i] = (struct perfan__htab_slot){key, val};
	h->n++;
	return 0;
}

int perfan__htab_del(struct perfan__htab *h, uint64_t key)
{
	if (!key) {
		if (!h->has_zero)
			return 0;
		h->has_zero = 0;
		h->n--;
		return 1;
	}
	if (!h->cap)
		return 0;
	size_t mask = h->cap - 1;
	size_t i = perfan__hash_u64(key) & mask;
	for (;; i = (i + 1) & mask) {
		if (!h->s[i].key)
			return 0;
		if (h->s[i].key == key)
			break;
	}
	/* Shift later members of the probe run back over the hole. */
	size_t j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (!h->s[j].key)
			break;
		size_t home = perfan__hash_u64(h->s[j].key) & mask;
		/* Move j to i unless its home lies cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			h->s[i] = h->s[j];
			i = j;
		}
	}
	h->s[i].key = 0;
	h->n--;
	return 1;
}

/* *POS: 0 for key 0, I + 1 for slot I. */
int perfan__htab_next(const struct perfan__htab *h, size_t *pos, uint64_t *key,
		      uint64_t *val)
{
	size_t i = *pos;
	if (i == 0) {
		*pos = i = 1;
		if (h->has_zero) {
			if (key)
				*key = 0;
			if (val)
				*val = h->zero_val;
			return 1;
		}
	}
	for (; i <= h->cap; i++) {
		if (h->s[i - 1].key) {
			if (key)
				*key = h->s[i - 1].key;
			if (val)
				*val = h->s[i - 1].val;
			*pos = i + 1;
			return 1;
		}
	}
	*pos = h->cap + 1;
	return 0;
}

void perfan__htab_free(struct perfan__htab *h)
{
	free(h->s);
	h->s = NULL;
	h->cap = h->n = 0;
	h->has_zero = 0;
	h->zero_val = 0;
}
