/* stream/stream_memo.c: callchains already resolved, by their exact
 * contents (a hash finds them; the whole key is compared). */
#include "stream/stream_memo.h"

#include <stdlib.h>
#include <string.h>

#include <perfan/common.h>

#include "util/hash.h"

/* Past this many bytes of callchains and ids the memo starts again. */
#define MEMO_MAX_BYTES ((size_t)64 << 20)

struct perfan__memo_entry {
	const void *ev;
	uint64_t gen, maps_gen, old_gen;
	size_t chain, n;  /* in m->chains */
	size_t ids, nids; /* in m->ids */
	uint32_t frames, unresolved;
	int truncated;
	uint64_t serial;
	uint64_t keep[PERFAN__MEMO_KEEP]; /* the user's (key->keep) */
};

static uint64_t key_hash(const struct perfan__memo_key *k)
{
	uint64_t h = perfan__hash_u64(
		k->maps_gen ^ ((uint64_t)(uintptr_t)k->ev << 1) ^
		(k->gen * 0x9e3779b97f4a7c15ULL) ^ (k->old_gen << 32));
	return perfan__hash_u64(
		h ^ perfan__hash_mem(k->chain, k->n * sizeof(*k->chain)));
}

static int same(const struct perfan__memo *m,
		const struct perfan__memo_entry *e,
		const struct perfan__memo_key *k)
{
	return e->maps_gen == k->maps_gen && e->old_gen == k->old_gen &&
	       e->ev == k->ev && e->gen == k->gen && e->n == k->n &&
	       !memcmp(m->chains + e->chain, k->chain,
		       k->n * sizeof(*k->chain));
}

int perfan__memo_find(struct perfan__memo *m, struct perfan__memo_key *key,
		      struct perfan__memo_hit *hit)
{
	key->serial = 0;
	key->keep = NULL;
	struct perfan__memo_entry *e;
	if (m->last && same(m, &m->e[m->last - 1], key)) {
		/* the last sample's chain again (a hot loop): no hash */
		e = &m->e[m->last - 1];
	} else {
		key->hash = key_hash(key);
		const uint64_t *v = perfan__htab_get(&m->index, key->hash);
		key->hash_taken = v != NULL;
		if (!v)
			return 0;
		e = &m->e[*v - 1];
		if (!same(m, e, key))
			return 0; /* another key with this hash: anew */
		m->last = (size_t)*v;
	}
	hit->ids = m->ids + e->ids;
	hit->nids = e->nids;
	hit->frames = e->frames;
	hit->unresolved = e->unresolved;
	hit->truncated = e->truncated;
	key->serial = e->serial;
	key->keep = e->keep;
	return 1;
}

static void reset(struct perfan__memo *m)
{
	perfan__htab_free(&m->index);
	m->ne = m->nchains = m->nids = 0;
	m->last = 0;
}

int perfan__memo_put(struct perfan__memo *m, struct perfan__memo_key *key,
		     const struct perfan__memo_hit *what)
{
	if (key->hash_taken)
		return 0; /* the first key keeps the hash */
	if ((m->nchains + key->n) * sizeof(*m->chains) +
		    (m->nids + what->nids) * sizeof(*m->ids) >
	    MEMO_MAX_BYTES)
		reset(m);
	if (!m->me.huge_from) /* once: a zeroed memo's arrays */
		m->me.huge_from = m->mchains.huge_from = m->mids.huge_from =
			PERFAN__MAPARR_EAGER;
	if (perfan__maparr_grow(&m->me, (m->ne + 1) * sizeof(*m->e)) ||
	    perfan__maparr_grow(&m->mchains,
				(m->nchains + key->n) * sizeof(*m->chains)) ||
	    perfan__maparr_grow(&m->mids,
				(m->nids + what->nids) * sizeof(*m->ids)))
		return PERFAN_ENOMEM;
	m->e = m->me.p;
	m->chains = m->mchains.p;
	m->ids = m->mids.p;
	struct perfan__memo_entry *e = &m->e[m->ne];
	*e = (struct perfan__memo_entry){
		.ev = key->ev,
		.gen = key->gen,
		.maps_gen = key->maps_gen,
		.old_gen = key->old_gen,
		.chain = m->nchains,
		.n = key->n,
		.ids = m->nids,
		.nids = what->nids,
		.frames = what->frames,
		.unresolved = what->unresolved,
		.truncated = what->truncated,
		.serial = ++m->serials,
	};
	memcpy(m->chains + m->nchains, key->chain,
	       key->n * sizeof(*key->chain));
	memcpy(m->ids + m->nids, what->ids, what->nids * sizeof(*what->ids));
	int err = perfan__htab_put(&m->index, key->hash, m->ne + 1);
	if (err)
		return err;
	m->ne++;
	m->nchains += key->n;
	m->nids += what->nids;
	m->last = m->ne;
	key->serial = e->serial;
	key->keep = e->keep;
	return 0;
}

void perfan__memo_free(struct perfan__memo *m)
{
	perfan__htab_free(&m->index);
	perfan__maparr_free(&m->me);
	perfan__maparr_free(&m->mchains);
	perfan__maparr_free(&m->mids);
	memset(m, 0, sizeof(*m));
}
