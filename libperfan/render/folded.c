/* render/folded.c: a profile out as folded lines: each stack's text
 * built in one walk of the trie, the lines sorted bytewise. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/folded.h>

#include "profile/model.h"
#include "render/outbuf.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/opts.h"

struct text {
	char *buf;
	size_t len, cap;
};

static int text_put(struct text *t, const char *s, size_t n)
{
	if (!n)
		return 0;
	if (perfan__grow((void **)&t->buf, &t->cap, t->len + n, 1))
		return PERFAN_ENOMEM;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	return 0;
}

static int put_line(struct perfan__outbuf *o, const char *s, size_t len,
		    uint64_t w)
{
	char num[24];
	size_t i = sizeof(num);
	num[--i] = '\n';
	do {
		num[--i] = (char)('0' + w % 10);
		w /= 10;
	} while (w);
	num[--i] = ' ';
	perfan__outbuf_put(o, s, len);
	perfan__outbuf_put(o, num + i, sizeof(num) - i);
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
	struct perfan__outbuf out; /* lines go out in large writes */
	struct text cur;           /* the stack text being written */
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
	if (perfan__grow((void **)&k->items, &k->cap, k->nitems + 1,
			 sizeof(*k->items)))
		return PERFAN_ENOMEM;
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
	if (perfan__grow((void **)&k->lv, &k->cap_lv, k->nlv + 1,
			 sizeof(*k->lv)))
		return PERFAN_ENOMEM;
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
	size_t path_cap = 0;
	struct line *lines = NULL;
	struct text all = {0};
	uint32_t *path = NULL;
	int rc = 0;
	for (uint32_t n = 1; n < nn && !rc; n++) {
		uint64_t wt = own_weight(w, n);
		if (!wt || w->names[w->nodes[n].frame].skip)
			continue;
		uint32_t d = w->nodes[n].depth, k = 0;
		if (perfan__grow((void **)&path, &path_cap, d, sizeof(*path))) {
			rc = PERFAN_ENOMEM;
			break;
		}
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
		if (perfan__grow((void **)&lines, &cap, nlines + 1,
				 sizeof(*lines))) {
			rc = PERFAN_ENOMEM;
			break;
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
		return perfan__err_null(__func__, p ? "fp" : "profile");
	struct perfan_folded_write_opts o;
	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
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
	rc = perfan__outbuf_open(&w.out, fp);
	if (!rc)
		rc = make_names(&w, &o);
	if (rc == 0)
		rc = write_sorted(&w);
	else if (rc == 1)
		rc = write_lines(&w);
	int wrc = perfan__outbuf_close(&w.out);
	if (!rc)
		rc = wrc;
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
