/* sources/folded_reader.h: one folded line into a profile
 * (sources/folded_reader.c), for the readers of sources/folded_read.c and the
 * two-thread read of profile/folded_pipe.c. */
#ifndef PERFAN_PROFILE_FOLDED_READER_H
#define PERFAN_PROFILE_FOLDED_READER_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/folded.h>

#include "profile/model.h"
#include "sources/prune.h"
#include "util/lines.h"

struct perfan__freader {
	perfan_profile *p;
	struct perfan_folded_read_opts o;
	const char *name;
	int col, bcol; /* bcol: two-count lines' BEFORE, or -1 */
	/* the previous stack: its text (PREV, in the input's buffer, or in
	 * OWN with copy_prev), its frames and where each ends */
	const char *prev;
	size_t prev_len;
	char *own;
	size_t own_cap;
	int copy_prev;
	perfan_frame_id *frames;
	size_t *ends, *lens;
	uint64_t *hashes;
	uint32_t *kinds;
	size_t nframes, frames_cap;
	struct perfan__fcache cache;
	struct perfan__ptree *prune; /* with opts.prune */
	/* what the columns hold: their totals may not pass 2^64-1 */
	uint64_t sum, bsum;
};

/* How a line's frames meet the previous line's (perfan__freader_stage). */
struct perfan__fstaged {
	size_t keep;          /* frames shared with the previous line */
	size_t prev_keep_end; /* where the previous line's frame KEEP ends */
	size_t common;        /* bytes the two stacks share at their start */
};

/* Columns, cache and pruning tree for a read into P; COPY_PREV: the
 * previous line's text is copied (its buffer may change under it). */
int perfan__freader_init(struct perfan__freader *r, perfan_profile *p,
			 const char *name, const char *column,
			 const char *before_column,
			 const struct perfan_folded_read_opts *opts,
			 int copy_prev);

/* What the pruning tree holds into the profile (after an error too: what
 * was read stays in P), and free the rest. Returns RC, or the error of
 * that. */
int perfan__freader_finish(struct perfan__freader *r, int rc);

/* The parts of a line: its stack S[0..*STACK_LEN) (0: a blank line), its
 * count, and with TWO the count before it, if there is one ("STACK
 * BEFORE AFTER"). */
int perfan__freader_parse(const char *name, int two, const char *s, size_t len,
			  uint64_t lineno, size_t *stack_len, uint64_t *count,
			  uint64_t *before);

/* The first half of a line: count its weights, and split, hash and
 * intern the frames of the stack S[0..N) that the previous line does not
 * share into r->frames (r->nframes of them). The previous line stays
 * the previous one (perfan__freader_set_prev). */
int perfan__freader_stage(struct perfan__freader *r, const char *name,
			  uint64_t lineno, const char *s, size_t n,
			  uint64_t count, uint64_t before,
			  struct perfan__fstaged *st);

/* S[0..N), just staged, becomes the previous line. */
int perfan__freader_set_prev(struct perfan__freader *r, const char *s,
			     size_t n);

/* The previous line's text into the reader's own copy if it lies in BUF
 * (CAP bytes), about to be reused; BUF NULL: wherever it lies. */
int perfan__freader_hold_prev(struct perfan__freader *r, const char *buf,
			      size_t cap);

/* The second half without the pruning tree: FRAMES[0..NF) with COUNT in
 * the after column and BEFORE in the before column. */
int perfan__freader_put(struct perfan__freader *r,
			const perfan_frame_id *frames, size_t nf,
			uint64_t count, uint64_t before);

/* The second half with it: RC of perfan__ptree_add for the line at
 * NAME:LINENO, as the read goes on (0), or the error to stop with. */
int perfan__freader_tree_rc(struct perfan__freader *r, int rc, const char *name,
			    uint64_t lineno);

/* A whole line: stage, tree or profile, previous line. */
int perfan__freader_add(struct perfan__freader *r, const char *name,
			uint64_t lineno, const char *s, size_t n,
			uint64_t count, uint64_t before);

/* The lines of L from where it is to its end (L in keep mode unless the
 * reader copies the previous line). */
int perfan__freader_lines(struct perfan__freader *r, struct perfan__lines *l);

#endif
