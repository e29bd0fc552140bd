/* sources/folded_reader.c: one folded line into a profile: parsed, its new
 * frames split, hashed and interned (reusing the previous line's as far as
 * the two agree, since folded files are sorted and neighbours share their
 * callers), then added to the profile or to the pruning tree. */
#include <stdlib.h>
#include <string.h>

#include "sources/folded_reader.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int reserve_frames(struct perfan__freader *r, size_t n)
{
	void **const v[] = {(void **)&r->frames, (void **)&r->ends,
			    (void **)&r->lens, (void **)&r->hashes,
			    (void **)&r->kinds};
	const size_t size[] = {sizeof(*r->frames), sizeof(*r->ends),
			       sizeof(*r->lens), sizeof(*r->hashes),
			       sizeof(*r->kinds)};
	return perfan__grow_each(v, size, 5, &r->frames_cap, n);
}

/* The kind a frame's text names, and how much of the text is its name. */
static uint32_t frame_kind(const struct perfan__freader *r, const char *s,
			   size_t *len, int first)
{
	size_t n = *len;
	if (first && r->o.process_root)
		return PERFAN_FRAME_PROCESS;
	if (r->o.annotations && n > 4 && s[n - 4] == '_' && s[n - 3] == '[' &&
	    s[n - 1] == ']') {
		char k = s[n - 2];
		if (k == 'k' || k == 'j' || k == 'i') {
			*len = n - 4;
			return k == 'k'   ? PERFAN_FRAME_KERNEL
			       : k == 'j' ? PERFAN_FRAME_JIT
					  : PERFAN_FRAME_INLINED;
		}
	}
	return PERFAN_FRAME_NATIVE;
}

/* Put what the pruning tree holds into the profile and go on without it. */
static int stop_pruning(struct perfan__freader *r)
{
	perfan_frame_id other;
	int col[2] = {r->col, r->bcol};
	int rc = perfan_profile_frame(r->p, &other, "(other)", NULL, NULL, 0,
				      PERFAN_FRAME_OTHER);
	if (!rc)
		rc = perfan__ptree_flush(r->prune, r->p, col, other);
	perfan__ptree_free(r->prune);
	r->prune = NULL;
	return rc;
}

static int line_error(const char *name, uint64_t lineno, const char *what)
{
	return perfan__err(PERFAN_EFORMAT, "%s:%llu: %s", name,
			   (unsigned long long)lineno, what);
}

int perfan__freader_parse(const char *name, int two, const char *s, size_t len,
			  uint64_t lineno, size_t *stack_len, uint64_t *count,
			  uint64_t *before)
{
	*stack_len = 0;
	*count = *before = 0;
	while (len && is_blank(s[len - 1]))
		len--;
	if (!len)
		return 0;
	size_t d = len;
	while (d && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	if (d == len || !d || (s[d - 1] != ' ' && s[d - 1] != '\t'))
		return line_error(name, lineno,
				  "expected a stack, a space and a count");
	uint64_t c = 0;
	for (size_t i = d; i < len; i++) {
		unsigned v = (unsigned)(s[i] - '0');
		if (c > (UINT64_MAX - v) / 10)
			return line_error(name, lineno,
					  "count larger than 2^64-1");
		c = c * 10 + v;
	}
	/* one space or tab parts stack and count; spaces before it belong
	 * to the last frame, as flamegraph.pl reads it */
	size_t n = d - 1;
	uint64_t b4 = 0;
	if (two) {
		/* "STACK BEFORE AFTER": the stack ends in a count too */
		size_t b = n;
		while (b && s[b - 1] >= '0' && s[b - 1] <= '9')
			b--;
		if (b < n && b > 1 && (s[b - 1] == ' ' || s[b - 1] == '\t')) {
			for (size_t i = b; i < n; i++) {
				unsigned v = (unsigned)(s[i] - '0');
				if (b4 > (UINT64_MAX - v) / 10)
					return line_error(name, lineno,
							  "count larger than "
							  "2^64-1");
				b4 = b4 * 10 + v;
			}
			n = b - 1;
		}
	}
	if (!n)
		return line_error(name, lineno, "no stack before the count");
	*stack_len = n;
	*count = c;
	*before = b4;
	return 0;
}

int perfan__freader_stage(struct perfan__freader *r, const char *name,
			  uint64_t lineno, const char *s, size_t n,
			  uint64_t count, uint64_t before,
			  struct perfan__fstaged *st)
{
	/* a total that saturated would show every stack near it as 100 % */
	if (count > UINT64_MAX - r->sum || before > UINT64_MAX - r->bsum)
		return line_error(name, lineno,
				  "the counts add up to more than 2^64-1 "
				  "(18446744073709551615)");
	r->sum += count;
	r->bsum += before;
	/* frames shared with the previous line: those whose ';' lies inside
	 * the common prefix */
	size_t lim = n < r->prev_len ? n : r->prev_len, c = 0;
	while (c + 8 <= lim) {
		uint64_t a, b;
		memcpy(&a, s + c, 8);
		memcpy(&b, r->prev + c, 8);
		if (a != b)
			break;
		c += 8;
	}
	while (c < lim && s[c] == r->prev[c])
		c++;
	size_t keep = 0;
	while (keep < r->nframes && r->ends[keep] < c)
		keep++;
	st->keep = keep;
	st->prev_keep_end = keep < r->nframes ? r->ends[keep] : 0;
	st->common = c;
	size_t pos = keep ? r->ends[keep - 1] + 1 : 0;
	size_t nf = keep;
	/* split and hash the new frames first, then look them up: the cache
	 * misses of a line's frames overlap */
	for (;;) {
		const char *semi = memchr(s + pos, ';', n - pos);
		size_t e = semi ? (size_t)(semi - s) : n;
		if (reserve_frames(r, nf + 1))
			return perfan__nomem(name);
		size_t len = e - pos;
		uint32_t kind = frame_kind(r, s + pos, &len, nf == 0);
		uint64_t h = perfan__fcache_hash(s + pos, len, NULL, 0, kind);
		perfan__fcache_prefetch(&r->cache, h);
		r->hashes[nf] = h;
		r->kinds[nf] = kind;
		r->lens[nf] = len;
		r->ends[nf++] = e;
		if (!semi)
			break;
		pos = e + 1;
	}
	/* the frames from KEEP on are this line's until they are interned */
	r->nframes = keep;
	for (size_t i = keep; i < nf; i++) {
		size_t b = i ? r->ends[i - 1] + 1 : 0;
		int rc = perfan__profile_frame_cached(
			r->p, &r->cache, r->hashes[i], &r->frames[i], s + b,
			r->lens[i], NULL, 0, r->kinds[i]);
		if (rc)
			return rc;
	}
	r->nframes = nf;
	return 0;
}

int perfan__freader_set_prev(struct perfan__freader *r, const char *s, size_t n)
{
	r->prev_len = n;
	if (!r->copy_prev) {
		r->prev = s;
		return 0;
	}
	if (perfan__grow((void **)&r->own, &r->own_cap, n, 1)) {
		r->prev_len = 0;
		return perfan__nomem(r->name);
	}
	memcpy(r->own, s, n);
	r->prev = r->own;
	return 0;
}

int perfan__freader_hold_prev(struct perfan__freader *r, const char *buf,
			      size_t cap)
{
	uintptr_t a = (uintptr_t)r->prev, b = (uintptr_t)buf;
	if (!r->prev || r->prev == r->own || (buf && (a < b || a - b >= cap)))
		return 0;
	int copy = r->copy_prev;
	r->copy_prev = 1;
	int rc = perfan__freader_set_prev(r, r->prev, r->prev_len);
	r->copy_prev = copy;
	return rc;
}

int perfan__freader_put(struct perfan__freader *r,
			const perfan_frame_id *frames, size_t nf,
			uint64_t count, uint64_t before)
{
	if (before) {
		int rc = perfan_profile_add(r->p, frames, nf, (size_t)r->bcol,
					    before, NULL, NULL);
		if (rc)
			return rc;
	}
	if (!count && before)
		return 0; /* a stack of the before column only */
	return perfan_profile_add(r->p, frames, nf, (size_t)r->col, count, NULL,
				  NULL);
}

int perfan__freader_tree_rc(struct perfan__freader *r, int rc, const char *name,
			    uint64_t lineno)
{
	if (rc == 1) /* unsorted, nothing lost: keep all from here */
		return stop_pruning(r);
	if (rc == PERFAN_EUNSUPPORTED)
		return perfan__err(PERFAN_EUNSUPPORTED,
				   "%s:%llu: this line sorts before the one "
				   "above it, after lighter stacks were "
				   "merged: pruning needs lines in byte order "
				   "(LC_ALL=C sort)",
				   name, (unsigned long long)lineno);
	return rc;
}

int perfan__freader_add(struct perfan__freader *r, const char *name,
			uint64_t lineno, const char *s, size_t n,
			uint64_t count, uint64_t before)
{
	struct perfan__fstaged st;
	int rc = perfan__freader_stage(r, name, lineno, s, n, count, before,
				       &st);
	if (rc)
		return rc;
	if (r->prune) {
		uint64_t w[2] = {count, before};
		rc = perfan__ptree_add(r->prune, r->frames, r->nframes, st.keep,
				       s, n, r->prev, r->prev_len,
				       st.prev_keep_end, st.common, w);
		rc = perfan__freader_tree_rc(r, rc, name, lineno);
		if (rc)
			return rc;
		if (r->prune) /* added to the tree */
			return perfan__freader_set_prev(r, s, n);
	}
	if ((rc = perfan__freader_set_prev(r, s, n)))
		return rc;
	return perfan__freader_put(r, r->frames, r->nframes, count, before);
}

int perfan__freader_init(struct perfan__freader *r, perfan_profile *p,
			 const char *name, const char *column,
			 const char *before_column,
			 const struct perfan_folded_read_opts *opts,
			 int copy_prev)
{
	memset(r, 0, sizeof(*r));
	int rc = PERFAN__OPTS_COPY(r->o, opts);
	if (rc)
		return rc;
	r->p = p;
	r->name = name;
	r->copy_prev = copy_prev;
	r->col = perfan_profile_add_column(p, column ? column : "samples",
					   "samples");
	if (r->col < 0)
		return r->col;
	r->sum = perfan_profile_total(p, (size_t)r->col);
	r->bcol = -1;
	if (before_column) {
		r->bcol =
			perfan_profile_add_column(p, before_column, "samples");
		if (r->bcol < 0)
			return r->bcol;
		r->bsum = perfan_profile_total(p, (size_t)r->bcol);
	}
	if (perfan__fcache_init(&r->cache))
		return perfan__nomem(name);
	if (r->o.prune > 0 && perfan__ptree_new(&r->prune, r->o.prune)) {
		perfan__fcache_free(&r->cache);
		return PERFAN_ENOMEM;
	}
	return 0;
}

int perfan__freader_finish(struct perfan__freader *r, int rc)
{
	if (r->prune) {
		int frc = stop_pruning(r);
		if (!rc)
			rc = frc;
	}
	free(r->own);
	free(r->frames);
	free(r->ends);
	free(r->lens);
	free(r->hashes);
	free(r->kinds);
	perfan__fcache_free(&r->cache);
	return rc;
}

int perfan__freader_lines(struct perfan__freader *r, struct perfan__lines *l)
{
	int two = r->bcol >= 0, rc;
	const char *s;
	size_t len;
	while ((rc = perfan__lines_next(l, &s, &len)) == 1) {
		size_t cap, n;
		char *old = perfan__lines_retired(l, &cap);
		uint64_t count, before;
		rc = perfan__freader_parse(r->name, two, s, len, l->lineno, &n,
					   &count, &before);
		if (!rc && n)
			rc = perfan__freader_add(r, r->name, l->lineno, s, n,
						 count, before);
		if (old) {
			/* the previous line may still be in it */
			int hrc = perfan__freader_hold_prev(r, old, cap);
			perfan__lines_give(l, old, cap);
			if (!rc)
				rc = hrc;
		}
		if (rc)
			break;
	}
	return rc;
}
