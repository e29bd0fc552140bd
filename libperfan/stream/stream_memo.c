/* stream/stream_memo.c: callchains already resolved, by their exact
 * contents (a hash finds them; the whole key is compared). */
#include "stream/stream_memo.h"

#include <stdlib.h>
#include <string.h>

#include <perfan/common.h>

#include "util/hash.h"

/* Past this many bytes of entries the memo starts again. */
#define MEMO_MAX_BYTES ((size_t)96 << 20)

/* An entry, followed by its N callchain words and NIDS frame ids (padded
 * to 8 bytes). */
struct perfan__memo_entry {
	const void *ev;
	uint64_t gen, maps_gen, old_gen;
	uint64_t serial;
	uint64_t keep[PERFAN__MEMO_KEEP]; /* the user's (key->keep) */
	uint32_t n, nids;
	uint32_t frames, unresolved;
	uint32_t truncated, pad;
};

static struct perfan__memo_entry *entry_at(const struct perfan__memo *m,
					   size_t off)
{
	return (struct perfan__memo_entry *)((char *)m->mem.p + off);
}

static uint64_t *chain_of(struct perfan__memo_entry *e)
{
	return (uint64_t *)(e + 1);
}

static uint32_t *ids_of(struct perfan__memo_entry *e)
{
	return (uint32_t *)(chain_of(e) + e->n);
}

/* The bytes of an entry with N callchain words and NIDS ids, or 0 when
 * it would not fit in the memo at all (nor, then, its counts in its
 * fields). */
static size_t entry_bytes(size_t n, size_t nids)
{
	if (n > MEMO_MAX_BYTES / 8 || nids > MEMO_MAX_BYTES / 4)
		return 0;
	return sizeof(struct perfan__memo_entry) + n * 8 +
	       (nids * 4 + 7) / 8 * 8;
}

static uint64_t key_hash(const struct perfan__memo_key *k)
{
	uint64_t h = perfan__hash_u64(
		k->maps_gen ^ ((uint64_t)(uintptr_t)k->ev << 1) ^
		(k->gen * 0x9e3779b97f4a7c15ULL) ^ (k->old_gen << 32));
	return perfan__hash_u64(
		h ^ perfan__hash_mem(k->chain, k->n * sizeof(*k->chain)));
}

static int same(struct perfan__memo_entry *e, const struct perfan__memo_key *k)
{
	return e->maps_gen == k->maps_gen && e->old_gen == k->old_gen &&
	       e->ev == k->ev && e->gen == k->gen && e->n == k->n &&
	       !memcmp(chain_of(e), k->chain, k->n * sizeof(*k->chain));
}

int perfan__memo_find(struct perfan__memo *m, struct perfan__memo_key *key,
		      struct perfan__memo_hit *hit)
{
	key->serial = 0;
	key->keep = NULL;
	struct perfan__memo_entry *e = m->last ? entry_at(m, m->last - 1)
					       : NULL;
	if (!e || !same(e, key)) {
		/* not the last sample's chain again (a hot loop): hashed */
		key->hash = key_hash(key);
		const uint64_t *v = perfan__htab_get(&m->index, key->hash);
		key->hash_taken = v != NULL;
		if (!v)
			return 0;
		e = entry_at(m, *v - 1);
		if (!same(e, key))
			return 0; /* another key with this hash: anew */
		m->last = (size_t)*v;
	}
	hit->ids = ids_of(e);
	hit->nids = e->nids;
	hit->frames = e->frames;
	hit->unresolved = e->unresolved;
	hit->truncated = (int)e->truncated;
	key->serial = e->serial;
	key->keep = e->keep;
	return 1;
}

static void reset(struct perfan__memo *m)
{
	perfan__htab_free(&m->index);
	m->used = 0;
	m->last = 0;
}

int perfan__memo_put(struct perfan__memo *m, struct perfan__memo_key *key,
		     const struct perfan__memo_hit *what)
{
	if (key->hash_taken)
		return 0; /* the first key keeps the hash */
	size_t bytes = entry_bytes(key->n, what->nids);
	if (!bytes)
		return 0; /* not kept: resolved again when it comes again */
	if (m->used + bytes > MEMO_MAX_BYTES)
		reset(m);
	if (!m->mem.huge_from) /* once: a zeroed memo's array */
		m->mem.huge_from = PERFAN__MAPARR_EAGER;
	if (perfan__maparr_grow(&m->mem, m->used + bytes))
		return PERFAN_ENOMEM;
	size_t off = m->used;
	struct perfan__memo_entry *e = entry_at(m, off);
	*e = (struct perfan__memo_entry){
		.ev = key->ev,
		.gen = key->gen,
		.maps_gen = key->maps_gen,
		.old_gen = key->old_gen,
		.serial = ++m->serials,
		.n = (uint32_t)key->n,
		.nids = (uint32_t)what->nids,
		.frames = what->frames,
		.unresolved = what->unresolved,
		.truncated = what->truncated != 0,
	};
	memcpy(chain_of(e), key->chain, key->n * sizeof(*key->chain));
	memcpy(ids_of(e), what->ids, what->nids * sizeof(*what->ids));
	int err = perfan__htab_put(&m->index, key->hash, off + 1);
	if (err)
		return err;
	m->used += bytes;
	m->last = off + 1;
	key->serial = e->serial;
	key->keep = e->keep;
	return 0;
}

void perfan__memo_free(struct perfan__memo *m)
{
	perfan__htab_free(&m->index);
	perfan__maparr_free(&m->mem);
	memset(m, 0, sizeof(*m));
}
