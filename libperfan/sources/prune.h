/* sources/prune.h: the pruning stack tree behind perfan_folded_read's
 * prune option (sources/prune.c). */
#ifndef PERFAN_PROFILE_PRUNE_H
#define PERFAN_PROFILE_PRUNE_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/profile.h>

struct perfan__ptree;

/* A tree that folds complete subtrees lighter than FRACTION of the weight
 * read so far in both columns (after and before); a column with no weight
 * read yet does not count. */
int perfan__ptree_new(struct perfan__ptree **out, double fraction);
void perfan__ptree_free(struct perfan__ptree *t);

/* Add a line: its N frames, of which the first KEEP are the previous
 * line's; LINE (LEN bytes) is its stack text, PREV (PREV_LEN) the previous
 * line's, PREV_KEEP_END where its frame KEEP ends in it, COMMON how many
 * bytes the two have in common at their start; W its after and before
 * weights. Returns 0, PERFAN_ENOMEM, or, when the line sorts before
 * the previous one and was not added, 1 if nothing was folded yet (the
 * tree can be flushed and the rest read without it) or PERFAN_EUNSUPPORTED
 * (no message is set: the caller knows the line). */
int perfan__ptree_add(struct perfan__ptree *t, const perfan_frame_id *frames,
		      size_t n, size_t keep, const char *line, size_t len,
		      const char *prev, size_t prev_len, size_t prev_keep_end,
		      size_t common, const uint64_t w[2]);

/* Put what the tree holds into P: weights into columns COL[0] (after) and
 * COL[1] (before, if >= 0), folded weight under frame OTHER. */
int perfan__ptree_flush(struct perfan__ptree *t, perfan_profile *p,
			const int col[2], perfan_frame_id other);

#endif
