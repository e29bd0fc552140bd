/* stream/stream_memo.h: the frames a callchain resolved to, kept for the
 * next sample with the same callchain in the same address space (most
 * samples repeat one: an idle loop, a hot function's callers). */
#ifndef PERFAN_SYMBOLS_STREAM_MEMO_H
#define PERFAN_SYMBOLS_STREAM_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "util/htab.h"
#include "util/maparr.h"

/* the words kept with an entry for the memo's user (key->keep) */
#define PERFAN__MEMO_KEEP 2

/* What a callchain resolved to: frame ids (leaf first), the frames and
 * unresolved frames counted, and whether the stack was cut short. */
struct perfan__memo_hit {
	const uint32_t *ids;
	size_t nids;
	uint32_t frames, unresolved;
	int truncated;
};

struct perfan__memo_entry;

struct perfan__memo {
	struct perfan__htab index; /* hash -> entry's offset + 1 */
	/* The entries, each followed by its callchain and its frame ids, in
	 * one mapping of their own (util/maparr): a sample that finds its
	 * entry reads one place, not three. Grown without copying, on huge
	 * pages once past 2 MiB. */
	struct perfan__maparr mem;
	size_t used;      /* bytes of mem taken */
	uint64_t serials; /* entries numbered so far */
	size_t last;      /* the offset of the entry found last + 1, 0: none */
};

/* The key: the address space (MAPS_GEN and OLD_GEN: the gen of the
 * process's maps and of its maps before exec, 0 for none), the event (EV:
 * its stack limit), the generation of the kernel's state (GEN: bumped by
 * every record that may change kernel maps or symbols) and the callchain
 * CHAIN[0..N). */
struct perfan__memo_key {
	const void *ev;
	uint64_t gen, maps_gen, old_gen;
	const uint64_t *chain;
	size_t n;
	uint64_t hash;   /* set by perfan__memo_find when not found, */
	int hash_taken;  /* with whether another key holds the hash */
	uint64_t serial; /* the entry's number, never reused: set by
			  * perfan__memo_find when found, perfan__memo_put
			  * when kept; 0 otherwise */
	uint64_t *keep;  /* with it, PERFAN__MEMO_KEEP words the memo's
			  * user keeps with the entry (0 when kept), valid
			  * until the next put; else NULL */
};

/* 1 and *HIT (valid until the next put) when KEY was seen, else 0. */
int perfan__memo_find(struct perfan__memo *m, struct perfan__memo_key *key,
		      struct perfan__memo_hit *hit);
/* Keep what KEY (looked up with perfan__memo_find) resolved to. 0, or
 * PERFAN_ENOMEM. Past a bound on its memory the memo starts again. */
int perfan__memo_put(struct perfan__memo *m, struct perfan__memo_key *key,
		     const struct perfan__memo_hit *what);
void perfan__memo_free(struct perfan__memo *m);

#endif
