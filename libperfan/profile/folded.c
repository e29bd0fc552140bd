/* profile/folded.c: folded stacks in and out. Reading reuses the frames of
 * the previous line as far as the two lines agree, because folded files
 * are sorted and neighbours share their callers; a pair of files (before,
 * after) is read as one stream of two-count lines, merged in that order;
 * writing builds each stack's text in one walk of the trie and sorts the
 * lines bytewise. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/folded.h>

#include "profile/internal.h"
#include "profile/prune.h"
#include "util/error.h"
#include "util/lines.h"
#include "util/opts.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* ---- reading --------------------------------------------------------------- */

struct reader {
	perfan_profile *p;
	struct perfan_folded_read_opts o;
	const char *name;
	int col, bcol; /* bcol: two-count lines' BEFORE, or -1 */
	/* the previous stack: its text, its frames and where each ends */
	char *prev;
	size_t prev_len, prev_cap;
	perfan_frame_id *frames;
	size_t *ends, *lens;
	uint64_t *hashes;
	uint32_t *kinds;
	size_t nframes, frames_cap;
	struct perfan__fcache *cache;
	struct perfan__ptree *prune; /* with opts.prune */
	/* what the columns hold: their totals may not pass 2^64-1 */
	uint64_t sum, bsum;
};

static int reserve_frames(struct reader *r, size_t n)
{
	if (n <= r->frames_cap)
		return 0;
	size_t cap = r->frames_cap ? r->frames_cap * 2 : 64;
	while (cap < n)
		cap *= 2;
	void *a = realloc(r->frames, cap * sizeof(*r->frames));
	if (!a)
		return PERFAN_ENOMEM;
	r->frames = a;
	if (!(a = realloc(r->ends, cap * sizeof(*r->ends))))
		return PERFAN_ENOMEM;
	r->ends = a;
	if (!(a = realloc(r->lens, cap * sizeof(*r->lens))))
		return PERFAN_ENOMEM;
	r->lens = a;
	if (!(a = realloc(r->hashes, cap * sizeof(*r->hashes))))
		return PERFAN_ENOMEM;
	r->hashes = a;
	if (!(a = realloc(r->kinds, cap * sizeof(*r->kinds))))
		return PERFAN_ENOMEM;
	r->kinds = a;
	r->frames_cap = cap;
	return 0;
}

/* The kind a frame's text names, and how much of the text is its name. */
static uint32_t frame_kind(const struct reader *r, const char *s, size_t *len,
			   int first)
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
static int stop_pruning(struct reader *r)
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

/* The parts of a line: its stack S[0..*STACK_LEN) (0: a blank line), its
 * count, and with TWO the count before it, if there is one ("STACK
 * BEFORE AFTER"). */
static int parse_line(const char *name, int two, const char *s, size_t len,
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

/* Add the stack S[0..N) with COUNT in the after column and BEFORE in the
 * before column; NAME and LINENO say where it was read. */
static int add_stack(struct reader *r, const char *name, uint64_t lineno,
		     const char *s, size_t n, uint64_t count, uint64_t before)
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
	size_t prev_keep_end = keep < r->nframes ? r->ends[keep] : 0;
	size_t pos = keep ? r->ends[keep - 1] + 1 : 0;
	size_t nf = keep;
	/* split and hash the new frames first, then look them up: the cache
	 * misses of a line's frames overlap */
	for (;;) {
		const char *semi = memchr(s + pos, ';', n - pos);
		size_t e = semi ? (size_t)(semi - s) : n;
		if (reserve_frames(r, nf + 1))
			return perfan__err(PERFAN_ENOMEM, "%s: out of memory",
					   name);
		size_t len = e - pos;
		uint32_t kind = frame_kind(r, s + pos, &len, nf == 0);
		uint64_t h = perfan__fcache_hash(s + pos, len, NULL, 0, kind);
		perfan__fcache_prefetch(r->cache, h);
		r->hashes[nf] = h;
		r->kinds[nf] = kind;
		r->lens[nf] = len;
		r->ends[nf++] = e;
		if (!semi)
			break;
		pos = e + 1;
	}
	for (size_t i = keep; i < nf; i++) {
		size_t b = i ? r->ends[i - 1] + 1 : 0;
		int rc = perfan__profile_frame_cached(
			r->p, r->cache, r->hashes[i], &r->frames[i], s + b,
			r->lens[i], NULL, 0, r->kinds[i]);
		if (rc)
			return rc;
	}
	r->nframes = nf;
	if (r->prune) {
		uint64_t w[2] = {count, before};
		int rc = perfan__ptree_add(r->prune, r->frames, nf, keep, s, n,
					   r->prev, r->prev_len, prev_keep_end,
					   c, w);
		if (rc == 1) /* unsorted, nothing lost: keep all from here */
			rc = stop_pruning(r);
		else if (rc == PERFAN_EUNSUPPORTED)
			return perfan__err(PERFAN_EUNSUPPORTED,
					   "%s:%llu: this line sorts before "
					   "the one above it, after lighter "
					   "stacks were merged: pruning needs "
					   "lines in byte order (LC_ALL=C "
					   "sort)",
					   name, (unsigned long long)lineno);
		if (rc)
			return rc;
	}
	if (n > r->prev_cap) {
		size_t cap = r->prev_cap ? r->prev_cap : 256;
		while (cap < n)
			cap *= 2;
		char *np = realloc(r->prev, cap);
		if (!np)
			return perfan__err(PERFAN_ENOMEM, "%s: out of memory",
					   name);
		r->prev = np;
		r->prev_cap = cap;
	}
	memcpy(r->prev, s, n);
	r->prev_len = n;
	if (r->prune)
		return 0; /* added to the tree */
	if (before) {
		int rc = perfan_profile_add(r->p, r->frames, nf,
					    (size_t)r->bcol, before, NULL,
					    NULL);
		if (rc)
			return rc;
	}
	if (!count && before)
		return 0; /* a stack of the before column only */
	return perfan_profile_add(r->p, r->frames, nf, (size_t)r->col, count,
				  NULL, NULL);
}

/* Columns, cache and pruning tree for a read into P. */
static int reader_init(struct reader *r, perfan_profile *p, const char *name,
		       const char *column, const char *before_column,
		       const struct perfan_folded_read_opts *opts)
{
	memset(r, 0, sizeof(*r));
	PERFAN__OPTS_COPY(r->o, opts);
	r->p = p;
	r->name = name;
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
	r->cache = calloc(1, sizeof(*r->cache));
	if (!r->cache)
		return perfan__err(PERFAN_ENOMEM, "%s: out of memory", name);
	if (r->o.prune > 0 && perfan__ptree_new(&r->prune, r->o.prune)) {
		free(r->cache);
		r->cache = NULL;
		return PERFAN_ENOMEM;
	}
	return 0;
}

/* What the pruning tree holds into the profile (after an error too: what
 * was read stays in P), and free the rest. Returns RC, or the error of
 * that. */
static int reader_finish(struct reader *r, int rc)
{
	if (r->prune) {
		int frc = stop_pruning(r);
		if (!rc)
			rc = frc;
	}
	free(r->prev);
	free(r->frames);
	free(r->ends);
	free(r->lens);
	free(r->hashes);
	free(r->kinds);
	free(r->cache);
	return rc;
}

int perfan_folded_read(perfan_profile *p, FILE *fp, const char *name,
		       const char *column,
		       const struct perfan_folded_read_opts *opts)
{
	if (!p || !fp)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_folded_read: %s is NULL",
				   p ? "fp" : "profile");
	struct perfan_folded_read_opts o;
	PERFAN__OPTS_COPY(o, opts);
	struct reader r;
	name = name ? name : "folded input";
	int rc = reader_init(&r, p, name, column, o.before_column, &o);
	if (rc)
		return reader_finish(&r, rc);
	struct perfan__lines l;
	if ((rc = perfan__lines_init(&l, fp, name, 0)))
		return reader_finish(&r, rc);
	const char *s;
	size_t len;
	int two = r.bcol >= 0;
	while ((rc = perfan__lines_next(&l, &s, &len)) == 1) {
		size_t n;
		uint64_t count, before;
		rc = parse_line(name, two, s, len, l.lineno, &n, &count,
				&before);
		if (!rc && n)
			rc = add_stack(&r, name, l.lineno, s, n, count, before);
		if (rc)
			break;
	}
	perfan__lines_free(&l);
	return reader_finish(&r, rc);
}

/* One input of a pair read: its line ahead, S[0..N) with COUNT, or S
 * NULL at its end. */
struct side {
	struct perfan__lines l;
	const char *name;
	const char *s;
	size_t n;
	uint64_t count;
};

static int side_next(struct side *d)
{
	const char *s;
	size_t len;
	int rc;
	while ((rc = perfan__lines_next(&d->l, &s, &len)) == 1) {
		uint64_t before;
		rc = parse_line(d->name, 0, s, len, d->l.lineno, &d->n,
				&d->count, &before);
		if (rc)
			return rc;
		if (d->n) {
			d->s = s;
			return 0;
		}
	}
	d->s = NULL;
	return rc;
}

/* The byte order of two stacks as their lines sort, each followed by the
 * space before its count. */
static int cmp_stack(const char *a, size_t la, const char *b, size_t lb)
{
	size_t n = la < lb ? la : lb;
	int r = memcmp(a, b, n);
	if (r || la == lb)
		return r;
	unsigned char x = la > n ? (unsigned char)a[n] : ' ';
	unsigned char y = lb > n ? (unsigned char)b[n] : ' ';
	if (x != y)
		return x < y ? -1 : 1;
	return la < lb ? -1 : 1;
}

int perfan_folded_read_pair(perfan_profile *p, FILE *before,
			    const char *before_name, FILE *after,
			    const char *after_name, const char *before_column,
			    const char *after_column,
			    const struct perfan_folded_read_opts *opts)
{
	if (!p || !before || !after)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_folded_read_pair: %s is NULL",
				   !p        ? "profile"
				   : !before ? "before"
					     : "after");
	if (before == after)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_folded_read_pair: before and after "
				   "are the same stream");
	/* [0] after, [1] before, as the columns of the pruning tree */
	struct side sd[2];
	memset(sd, 0, sizeof(sd));
	sd[0].name = after_name ? after_name : "after input";
	sd[1].name = before_name ? before_name : "before input";
	struct reader r;
	int rc = reader_init(&r, p, sd[0].name,
			     after_column ? after_column : "after",
			     before_column ? before_column : "before", opts);
	if (rc)
		return reader_finish(&r, rc);
	if ((rc = perfan__lines_init(&sd[0].l, after, sd[0].name, 0)))
		return reader_finish(&r, rc);
	if ((rc = perfan__lines_init(&sd[1].l, before, sd[1].name, 0))) {
		perfan__lines_free(&sd[0].l);
		return reader_finish(&r, rc);
	}
	/* the sides of the line fed last: a line out of order is the fault
	 * of its own file (the other's lines are all behind or ahead), and
	 * when it is in both, of one whose previous line was that one */
	int last = 0;
	if (!(rc = side_next(&sd[0])))
		rc = side_next(&sd[1]);
	while (!rc && (sd[0].s || sd[1].s)) {
		int c = !sd[1].s ? -1
			: !sd[0].s
				? 1
				: cmp_stack(sd[0].s, sd[0].n, sd[1].s, sd[1].n);
		int now = c < 0 ? 1 : c > 0 ? 2 : 3; /* bits: after, before */
		const struct side *x =
			now == 1 || (now == 3 && (last & 1)) ? &sd[0] : &sd[1];
		rc = add_stack(&r, x->name, x->l.lineno, x->s, x->n,
			       now & 1 ? sd[0].count : 0,
			       now & 2 ? sd[1].count : 0);
		last = now;
		if (!rc && now & 1)
			rc = side_next(&sd[0]);
		if (!rc && now & 2)
			rc = side_next(&sd[1]);
	}
	perfan__lines_free(&sd[0].l);
	perfan__lines_free(&sd[1].l);
	return reader_finish(&r, rc);
}

int perfan_folded_read_path(perfan_profile *p, const char *path,
			    const char *column,
			    const struct perfan_folded_read_opts *opts)
{
	if (!path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_folded_read_path: path is NULL");
	if (!strcmp(path, "-"))
		return perfan_folded_read(p, stdin, "<stdin>", column, opts);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return perfan__err(errno == ENOENT ? PERFAN_ENOTFOUND
						   : PERFAN_EIO,
				   "%s: %s", path, strerror(errno));
	int rc = perfan_folded_read(p, fp, path, column, opts);
	fclose(fp);
	return rc;
}

/* ---- writing --------------------------------------------------------------- */

struct text {
	char *buf;
	size_t len, cap;
};

static int text_put(struct text *t, const char *s, size_t n)
{
	if (!n)
		return 0;
	if (t->len + n > t->cap) {
		size_t cap = t->cap ? t->cap : 1 << 12;
		while (cap < t->len + n) {
			if (cap > SIZE_MAX / 2)
				return PERFAN_ENOMEM;
			cap *= 2;
		}
		char *nb = realloc(t->buf, cap);
		if (!nb)
			return PERFAN_ENOMEM;
		t->buf = nb;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	return 0;
}

/* Lines gather in a buffer of our own and go out in large writes, which
 * stdio passes straight to write(2). */
struct outbuf {
	FILE *fp;
	char *buf;
	size_t len, cap;
	int failed;
};

static void out_flush(struct outbuf *o)
{
	if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->fp) != o->len)
		o->failed = 1;
	o->len = 0;
}

static void out_put(struct outbuf *o, const char *s, size_t n)
{
	if (o->len + n > o->cap) {
		out_flush(o);
		if (n > o->cap) {
			if (!o->failed && fwrite(s, 1, n, o->fp) != n)
				o->failed = 1;
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static int put_line(struct outbuf *o, const char *s, size_t len, uint64_t w)
{
	char num[24];
	size_t i = sizeof(num);
	num[--i] = '\n';
	do {
		num[--i] = (char)('0' + w % 10);
		w /= 10;
	} while (w);
	num[--i] = ' ';
	out_put(o, s, len);
	out_put(o, num + i, sizeof(num) - i);
	return o->failed ? -1 : 0;
}

/* What a frame looks like in the output. */
struct dname {
	const char *s;
	size_t len;
	int skip; /* a process frame left out */
};

struct writer {
	const perfan_profile *p;
	const struct perfan__node *nodes;
	const uint64_t *self;
	struct dname *names; /* per frame */
	char *sfx_buf;       /* names with a suffix appended */
	int any_skip;
	struct outbuf out;
	struct text cur; /* the stack text being written */
};

static const char *suffix_for(const struct perfan_frame *f, unsigned annotate)
{
	switch (f->kind) {
	case PERFAN_FRAME_KERNEL:
		return annotate & PERFAN_FOLDED_KERNEL ? "_[k]" : NULL;
	case PERFAN_FRAME_PYTHON:
		/* a CPython trampoline named by a perf map or jitdump, which
		 * stackcollapse-perf.pl marks as JIT code */
		if (strncmp(f->name, "py::", 4))
			return NULL;
		/* fall through */
	case PERFAN_FRAME_JIT:
		return annotate & PERFAN_FOLDED_JIT ? "_[j]" : NULL;
	case PERFAN_FRAME_INLINED:
		return annotate & PERFAN_FOLDED_INLINED ? "_[i]" : NULL;
	default: return NULL;
	}
}

/* Display names for every frame. Returns 1 if one holds a ';' (the text
 * of a stack is then ambiguous and only a sort of whole lines is right),
 * 0, or a negative error. */
static int make_names(struct writer *w,
		      const struct perfan_folded_write_opts *o)
{
	const perfan_profile *p = w->p;
	size_t nf = perfan_profile_nr_frames(p), extra = 0;
	int semi = 0;
	w->names = calloc(nf ? nf : 1, sizeof(*w->names));
	if (!w->names)
		return PERFAN_ENOMEM;
	for (size_t i = 0; i < nf; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(p, (uint32_t)i);
		struct dname *d = &w->names[i];
		d->s = f->name;
		d->len = perfan__profile_frame_name_len(p, (uint32_t)i);
		if (o->no_process && f->kind == PERFAN_FRAME_PROCESS) {
			d->skip = 1;
			w->any_skip = 1;
			continue;
		}
		const char *sfx = suffix_for(f, o->annotate);
		if (sfx && !(d->len >= 4 && !memcmp(d->s + d->len - 4, sfx, 4)))
			extra += d->len + 4;
		if (memchr(d->s, ';', d->len))
			semi = 1;
	}
	if (extra) {
		w->sfx_buf = malloc(extra);
		if (!w->sfx_buf)
			return PERFAN_ENOMEM;
		char *b = w->sfx_buf;
		for (size_t i = 0; i < nf; i++) {
			const struct perfan_frame *f =
				perfan_profile_frame_get(p, (uint32_t)i);
			struct dname *d = &w->names[i];
			const char *sfx = suffix_for(f, o->annotate);
			if (d->skip || !sfx ||
			    (d->len >= 4 && !memcmp(d->s + d->len - 4, sfx, 4)))
				continue;
			memcpy(b, d->s, d->len);
			memcpy(b + d->len, sfx, 4);
			d->s = b;
			d->len += 4;
			b += d->len;
		}
	}
	return semi;
}

/* The weight of the text of node X: its own, and that of left-out
 * process frames right below it, whose text is the same. */
static uint64_t own_weight(struct writer *w, uint32_t x)
{
	uint64_t sum = w->self[x];
	if (!w->any_skip)
		return sum;
	for (uint32_t c = w->nodes[x].first_child; c;
	     c = w->nodes[c].next_sibling)
		if (w->names[w->nodes[c].frame].skip)
			sum = perfan__sat_add(sum, own_weight(w, c));
	return sum;
}

/* ---- in order, merging as it goes ---------------------------------------- */

/* Each level of the walk sorts, for all the nodes whose stacks have the
 * same text so far, their children's own lines and, separately, the
 * subtrees below the children: the key of a subtree is the child's name
 * followed by ';'. In that order the walk writes the lines in byte order,
 * and equal keys side by side are one line or one subtree. */
struct item {
	const char *s;
	size_t len;
	uint32_t sub; /* 0: the child's own line, 1: the stacks below it */
	uint32_t node;
};

static int cmp_item(const void *va, const void *vb)
{
	const struct item *a = va, *b = vb;
	size_t n = a->len < b->len ? a->len : b->len;
	int r = memcmp(a->s, b->s, n);
	if (r)
		return r;
	if (a->len == b->len)
		return (int)a->sub - (int)b->sub;
	if (a->len < b->len) {
		if (!a->sub)
			return -1;
		return (unsigned char)b->s[n] < ';' ? 1 : -1;
	}
	if (!b->sub)
		return 1;
	return (unsigned char)a->s[n] < ';' ? -1 : 1;
}

/* The levels of the walk keep their items on one stack: a level is
 * built on top of its parent's, which stays below it until it is done. So
 * memory follows the families along one path, not the depth times a
 * buffer. */
struct level {
	size_t base, n, at; /* its items: items[base .. base + n) */
	size_t prefix_len;  /* the text before this level's names */
	int has_text;       /* it holds a frame */
};

struct walk {
	struct item *items;
	size_t nitems, cap;
	struct level *lv;
	size_t nlv, cap_lv;
};

static int push_item(struct walk *k, const struct dname *d, uint32_t sub,
		     uint32_t node)
{
	if (k->nitems == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 256;
		struct item *ni = realloc(k->items, cap * sizeof(*ni));
		if (!ni)
			return PERFAN_ENOMEM;
		k->items = ni;
		k->cap = cap;
	}
	k->items[k->nitems++] = (struct item){d->s, d->len, sub, node};
	return 0;
}

/* The items of the children of X (through left-out process frames), on
 * top of the stack. */
static int add_children(struct writer *w, struct walk *k, uint32_t x)
{
	for (uint32_t c = w->nodes[x].first_child; c;
	     c = w->nodes[c].next_sibling) {
		const struct dname *d = &w->names[w->nodes[c].frame];
		int rc = 0;
		if (d->skip)
			rc = add_children(w, k, c);
		else if (w->self[c] || w->any_skip)
			rc = push_item(k, d, 0, c);
		if (!rc && !d->skip && w->nodes[c].first_child)
			rc = push_item(k, d, 1, c);
		if (rc)
			return rc;
	}
	return 0;
}

/* qsort, unless the items are in order already (a family of one child,
 * or a walk that found them so). */
static void sort_items(struct item *it, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (cmp_item(&it[i - 1], &it[i]) > 0) {
			qsort(it, n, sizeof(*it), cmp_item);
			return;
		}
}

/* A new level on top, for the children of the nodes of items
 * [FROM, TO) of the level below (or of the root). */
static int push_level(struct writer *w, struct walk *k, size_t from, size_t to,
		      int root)
{
	if (k->nlv == k->cap_lv) {
		size_t cap = k->cap_lv ? k->cap_lv * 2 : 64;
		struct level *nl = realloc(k->lv, cap * sizeof(*nl));
		if (!nl)
			return PERFAN_ENOMEM;
		k->lv = nl;
		k->cap_lv = cap;
	}
	struct level *l = &k->lv[k->nlv];
	l->base = k->nitems;
	l->at = 0;
	l->prefix_len = w->cur.len;
	l->has_text = !root;
	int rc = 0;
	if (root)
		rc = add_children(w, k, PERFAN_ROOT_NODE);
	for (size_t i = from; i < to && !rc; i++)
		rc = add_children(w, k, k->items[i].node);
	if (rc)
		return rc;
	l->n = k->nitems - l->base;
	if (l->n) /* no items yet: k->items may be NULL */
		sort_items(k->items + l->base, l->n);
	k->nlv++;
	return 0;
}

static int write_sorted(struct writer *w)
{
	struct walk k;
	memset(&k, 0, sizeof(k));
	w->cur.len = 0;
	int rc = push_level(w, &k, 0, 0, 1);
	while (!rc && k.nlv) {
		struct level *l = &k.lv[k.nlv - 1];
		if (l->at == l->n) {
			k.nitems = l->base;
			k.nlv--;
			continue;
		}
		const struct item *it = k.items + l->base;
		size_t i = l->at, j = i + 1;
		while (j < l->n && !cmp_item(&it[i], &it[j]))
			j++;
		l->at = j;
		w->cur.len = l->prefix_len;
		if ((l->has_text && (rc = text_put(&w->cur, ";", 1))) ||
		    (rc = text_put(&w->cur, it[i].s, it[i].len)))
			break;
		if (it[i].sub) {
			rc = push_level(w, &k, l->base + i, l->base + j, 0);
			continue;
		}
		uint64_t sum = 0;
		for (size_t m = i; m < j; m++)
			sum = perfan__sat_add(sum, own_weight(w, it[m].node));
		if (sum && w->cur.len &&
		    put_line(&w->out, w->cur.buf, w->cur.len, sum))
			rc = PERFAN_EIO;
	}
	free(k.items);
	free(k.lv);
	return rc;
}

/* ---- whole lines, sorted ---------------------------------------------------- */

/* For names with ';' in them: every line's text, sorted and merged. */
struct line {
	size_t off, len;
	uint64_t weight;
	const char *base;
};

static int cmp_line(const void *va, const void *vb)
{
	const struct line *a = va, *b = vb;
	size_t n = a->len < b->len ? a->len : b->len;
	int r = memcmp(a->base + a->off, b->base + b->off, n);
	if (r)
		return r;
	return a->len < b->len ? -1 : a->len > b->len;
}

static int write_lines(struct writer *w)
{
	size_t nn = perfan_profile_nr_nodes(w->p), nlines = 0, cap = 0;
	struct line *lines = NULL;
	struct text all = {0};
	uint32_t *path = NULL;
	int rc = 0;
	for (uint32_t n = 1; n < nn && !rc; n++) {
		uint64_t wt = own_weight(w, n);
		if (!wt || w->names[w->nodes[n].frame].skip)
			continue;
		uint32_t d = w->nodes[n].depth, k = 0;
		uint32_t *np = realloc(path, (size_t)d * sizeof(*np));
		if (!np) {
			rc = PERFAN_ENOMEM;
			break;
		}
		path = np;
		for (uint32_t x = n; x; x = w->nodes[x].parent)
			path[k++] = x;
		size_t off = all.len;
		int first = 1;
		while (k-- && !rc) {
			const struct dname *dn =
				&w->names[w->nodes[path[k]].frame];
			if (dn->skip)
				continue;
			if (!first)
				rc = text_put(&all, ";", 1);
			if (!rc)
				rc = text_put(&all, dn->s, dn->len);
			first = 0;
		}
		if (rc || all.len == off)
			continue;
		if (nlines == cap) {
			cap = cap ? cap * 2 : 1024;
			struct line *nl = realloc(lines, cap * sizeof(*nl));
			if (!nl) {
				rc = PERFAN_ENOMEM;
				break;
			}
			lines = nl;
		}
		lines[nlines++] = (struct line){off, all.len - off, wt, NULL};
	}
	free(path);
	for (size_t i = 0; i < nlines; i++)
		lines[i].base = all.buf;
	if (!rc && nlines)
		qsort(lines, nlines, sizeof(*lines), cmp_line);
	for (size_t i = 0; i < nlines && !rc;) {
		uint64_t wt = lines[i].weight;
		size_t j = i + 1;
		while (j < nlines && !cmp_line(&lines[i], &lines[j]))
			wt = perfan__sat_add(wt, lines[j++].weight);
		if (put_line(&w->out, all.buf + lines[i].off, lines[i].len, wt))
			rc = PERFAN_EIO;
		i = j;
	}
	free(lines);
	free(all.buf);
	return rc;
}

int perfan_folded_write(const perfan_profile *p, FILE *fp,
			const struct perfan_folded_write_opts *opts)
{
	if (!p || !fp)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_folded_write: %s is NULL",
				   p ? "fp" : "profile");
	struct perfan_folded_write_opts o;
	PERFAN__OPTS_COPY(o, opts);
	size_t ncols = perfan_profile_nr_columns(p);
	if (!ncols)
		return 0;
	if (o.column >= ncols)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_folded_write: column %zu of %zu",
				   o.column, ncols);
	struct writer w;
	memset(&w, 0, sizeof(w));
	w.p = p;
	w.nodes = perfan__profile_nodes(p);
	w.self = perfan__profile_self(p, o.column);
	w.out.fp = fp;
	w.out.cap = 1 << 20;
	w.out.buf = malloc(w.out.cap);
	int rc = w.out.buf ? make_names(&w, &o) : PERFAN_ENOMEM;
	if (rc == 0)
		rc = write_sorted(&w);
	else if (rc == 1)
		rc = write_lines(&w);
	out_flush(&w.out);
	if (!rc && w.out.failed)
		rc = PERFAN_EIO;
	free(w.out.buf);
	free(w.names);
	free(w.sfx_buf);
	free(w.cur.buf);
	if (rc == PERFAN_ENOMEM)
		return perfan__err(rc, "perfan_folded_write: out of memory");
	if (rc || ferror(fp))
		return perfan__err(PERFAN_EIO, "writing folded stacks: %s",
				   strerror(errno));
	return 0;
}
