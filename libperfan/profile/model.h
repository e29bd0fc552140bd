/* profile/model.h: the model's API for the library's later stages (the
 * readers in sources/, the fold in stream/, the views in python/, the
 * sinks in render/), beyond the public perfan/profile.h: interning frames
 * from byte ranges (no NUL-terminated copies) and through a reader's
 * cache, the trie's nodes and self weights, samples carried over, and
 * saturating weight sums. What only profile.c uses stays static there. */
#ifndef PERFAN_PROFILE_MODEL_H
#define PERFAN_PROFILE_MODEL_H

#include <perfan/profile.h>

/* perfan_profile_frame from byte ranges: MODULE may be NULL (no module);
 * no file, line 0. */
int perfan__profile_frame_n(perfan_profile *p, perfan_frame_id *out,
			    const char *name, size_t name_len,
			    const char *module, size_t module_len,
			    uint32_t kind);

/* A reader's memory of the frames it interned lately, in front of
 * perfan__profile_frame_n: one hash of the bytes and one comparison per
 * frame, where interning hashes and probes twice. A reader with many
 * frames to look up hashes them all first and prefetches their entries
 * (perfan__fcache_hash, perfan__fcache_prefetch), so that the misses
 * overlap. */
#define PERFAN__FCACHE_MIN 256
#define PERFAN__FCACHE_MAX 16384
struct perfan__fcache_entry {
	uint64_t hash;
	const char *name, *module; /* the profile's copies */
	uint32_t len, mlen, kind, frame;
};
/* Two ways a set, MASK + 2 entries. It starts at PERFAN__FCACHE_MIN
 * entries and grows fourfold, up to PERFAN__FCACHE_MAX, each time it has
 * missed as often as it has entries: a short input costs a few KiB, not
 * the 640 KiB a long one is worth. */
struct perfan__fcache {
	struct perfan__fcache_entry *e;
	uint32_t mask, misses;
};

/* An empty cache of the smallest size, or PERFAN_ENOMEM. */
int perfan__fcache_init(struct perfan__fcache *c);
void perfan__fcache_free(struct perfan__fcache *c);

uint64_t perfan__fcache_hash(const char *name, size_t name_len,
			     const char *module, size_t module_len,
			     uint32_t kind);

static inline void perfan__fcache_prefetch(const struct perfan__fcache *c,
					   uint64_t hash)
{
	__builtin_prefetch(&c->e[(hash >> 20) & c->mask]);
}

/* As perfan__profile_frame_n, through CACHE (perfan__fcache_init);
 * HASH is perfan__fcache_hash of the same arguments. */
int perfan__profile_frame_cached(perfan_profile *p,
				 struct perfan__fcache *cache, uint64_t hash,
				 perfan_frame_id *out, const char *name,
				 size_t name_len, const char *module,
				 size_t module_len, uint32_t kind);

/* The length of an interned frame's name (strlen without the walk). */
size_t perfan__profile_frame_name_len(const perfan_profile *p,
				      perfan_frame_id id);

/* A trie node. Node 0, the root, is nobody's child or sibling, so 0 also
 * means "none" in first_child and next_sibling. Siblings are unordered. */
struct perfan__node {
	uint32_t parent, frame;
	uint32_t first_child, next_sibling;
	uint32_t depth;
};

/* The nodes (perfan_profile_nr_nodes of them) and a column's self
 * weights, borrowed until the profile changes. */
const struct perfan__node *perfan__profile_nodes(const perfan_profile *p);
const uint64_t *perfan__profile_self(const perfan_profile *p, size_t col);

/* Append S to P's kept samples as it is (S->leaf a node of P, S->col a
 * column), without adding weight, and keep the samples of later adds:
 * for a profile made from another one's stacks (a view) that carries that
 * one's samples over. Returns 0, PERFAN_EINVAL or PERFAN_ENOMEM. */
int perfan__profile_push_sample(perfan_profile *p,
				const struct perfan_profile_sample *s);

/* perfan_profile_add's weight on NODE, a leaf it returned before (the
 * same stack again, looked up by the caller): 0, PERFAN_EINVAL or
 * PERFAN_ENOMEM. */
int perfan__profile_add_at(perfan_profile *p, perfan_node_id node, size_t col,
			   uint64_t weight,
			   const struct perfan_sample_meta *meta);

static inline uint64_t perfan__sat_add(uint64_t a, uint64_t b)
{
	uint64_t r = a + b;
	return r < a ? UINT64_MAX : r;
}

#endif
