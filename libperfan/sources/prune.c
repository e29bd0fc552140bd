/* sources/prune.c: the stack tree of a sorted folded file read with
 * pruning: once no later line can reach a subtree (the lines are in byte
 * order) and it weighs less than a fraction of what was read so far, in
 * the after column and in the before column alike, it is folded into an
 * "(other)" weight of its parent and its nodes are freed. Memory then
 * follows the wide frames, not the file. */
#include <stdlib.h>
#include <string.h>

#include "sources/prune.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

#define NONE UINT32_MAX

struct pnode {
	perfan_frame_id frame;
	uint32_t parent, first_child, prev_sibling, next_sibling;
	uint32_t final;
	/* [0] after, [1] before; total is known once final */
	uint64_t self[2], other[2], total[2];
};

/* A subtree left while later lines could still enter it; TEXT is its
 * path as the lines spell it. */
struct pending {
	uint32_t node;
	char *text;
	size_t len;
};

/* A node of a walk and the child to look at next. */
struct cursor {
	uint32_t node, next;
};

struct perfan__ptree {
	double fraction;
	struct pnode *n;
	size_t nn, cap;
	uint32_t free_list; /* through next_sibling */
	uint32_t *path;     /* the previous line's nodes */
	size_t npath, path_cap;
	struct pending *pend;
	size_t npend, pend_cap;
	struct cursor *walk; /* scratch for finalize */
	size_t walk_cap;
	uint32_t *dropped; /* scratch for drop */
	size_t dropped_cap;
	uint64_t read[2]; /* after and before weight read so far */
	int folded;       /* something was folded: order now matters */
};

int perfan__ptree_new(struct perfan__ptree **out, double fraction)
{
	struct perfan__ptree *t = calloc(1, sizeof(*t));
	if (!t || perfan__grow((void **)&t->n, &t->cap, 1, sizeof(*t->n))) {
		free(t);
		return perfan__nomem("folded input");
	}
	t->fraction = fraction;
	t->free_list = NONE;
	t->n[0] = (struct pnode){.parent = NONE,
				 .first_child = NONE,
				 .prev_sibling = NONE,
				 .next_sibling = NONE};
	t->nn = 1;
	*out = t;
	return 0;
}

void perfan__ptree_free(struct perfan__ptree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->npend; i++)
		free(t->pend[i].text);
	free(t->pend);
	free(t->path);
	free(t->walk);
	free(t->dropped);
	free(t->n);
	free(t);
}

/* The child of PARENT with FRAME, created if absent. Sorted input leaves
 * few children open at a time (the others are folded or wide), so the
 * list is searched. */
static int child(struct perfan__ptree *t, uint32_t parent,
		 perfan_frame_id frame, uint32_t *out)
{
	for (uint32_t c = t->n[parent].first_child; c != NONE;
	     c = t->n[c].next_sibling)
		if (t->n[c].frame == frame) {
			*out = c;
			return 0;
		}
	uint32_t id;
	if (t->free_list != NONE) {
		id = t->free_list;
		t->free_list = t->n[id].next_sibling;
	} else {
		if (t->nn >= NONE - 1)
			return perfan__nomem("folded input");
		if (t->nn == t->cap && perfan__grow((void **)&t->n, &t->cap,
						    t->nn + 1, sizeof(*t->n)))
			return perfan__nomem("folded input");
		id = (uint32_t)t->nn++;
	}
	uint32_t first = t->n[parent].first_child;
	t->n[id] = (struct pnode){.frame = frame,
				  .parent = parent,
				  .first_child = NONE,
				  .prev_sibling = NONE,
				  .next_sibling = first};
	if (first != NONE)
		t->n[first].prev_sibling = id;
	t->n[parent].first_child = id;
	*out = id;
	return 0;
}

static int push(struct perfan__ptree *t, size_t *n, uint32_t node,
		uint32_t next)
{
	if (*n == t->walk_cap && perfan__grow((void **)&t->walk, &t->walk_cap,
					      *n + 1, sizeof(*t->walk)))
		return perfan__nomem("folded input");
	t->walk[(*n)++] = (struct cursor){node, next};
	return 0;
}

/* Free N and all below it (unlinked from its parent already). */
static int drop(struct perfan__ptree *t, uint32_t n)
{
	size_t depth = 0;
	if (perfan__grow((void **)&t->dropped, &t->dropped_cap, 1,
			 sizeof(*t->dropped)))
		return perfan__nomem("folded input");
	t->dropped[depth++] = n;
	while (depth) {
		uint32_t x = t->dropped[--depth];
		for (uint32_t c = t->n[x].first_child; c != NONE;
		     c = t->n[c].next_sibling) {
			if (depth == t->dropped_cap &&
			    perfan__grow((void **)&t->dropped, &t->dropped_cap,
					 depth + 1, sizeof(*t->dropped)))
				return perfan__nomem("folded input");
			t->dropped[depth++] = c;
		}
		t->n[x].next_sibling = t->free_list;
		t->free_list = x;
	}
	return 0;
}

/* The weight below which a subtree folds, per column, for what was read
 * so far; negative: the column sets no bound, as nothing was read in it
 * (a one-count read has no before weight, and that must not keep every
 * subtree). */
static void limits(const struct perfan__ptree *t, double limit[2])
{
	for (int k = 0; k < 2; k++)
		limit[k] = t->read[k] ? t->fraction * (double)t->read[k] : -1;
}

/* Narrow in both columns (a differential graph draws what is wide in
 * either), and some column to be narrow in. */
static int narrow(const struct pnode *x, const double limit[2])
{
	if (limit[0] < 0 && limit[1] < 0)
		return 0;
	for (int k = 0; k < 2; k++)
		if (limit[k] >= 0 && !((double)x->total[k] < limit[k]))
			return 0;
	return 1;
}

/* X can get no more weight and its children are decided: fold it into
 * its parent's "(other)" when lighter than LIMIT in both columns. */
static int decide(struct perfan__ptree *t, uint32_t n, const double limit[2])
{
	struct pnode *x = &t->n[n];
	for (int k = 0; k < 2; k++) {
		x->total[k] = x->self[k] + x->other[k];
		for (uint32_t c = x->first_child; c != NONE;
		     c = t->n[c].next_sibling)
			x->total[k] += t->n[c].total[k];
	}
	x->final = 1;
	if (!narrow(x, limit))
		return 0;
	uint32_t par = x->parent;
	t->n[par].other[0] += x->total[0];
	t->n[par].other[1] += x->total[1];
	if (x->prev_sibling != NONE)
		t->n[x->prev_sibling].next_sibling = x->next_sibling;
	else
		t->n[par].first_child = x->next_sibling;
	if (x->next_sibling != NONE)
		t->n[x->next_sibling].prev_sibling = x->prev_sibling;
	t->folded = 1;
	return drop(t, n);
}

/* N and what is below it can get no more weight: decide each, children
 * first (a walk of its own, as stacks may be deep). */
static int finalize(struct perfan__ptree *t, uint32_t n, const double limit[2])
{
	size_t depth = 0;
	int rc = push(t, &depth, n, t->n[n].first_child);
	while (!rc && depth) {
		struct cursor *cu = &t->walk[depth - 1];
		uint32_t c = cu->next;
		while (c != NONE && t->n[c].final)
			c = t->n[c].next_sibling;
		if (c != NONE) {
			/* the sibling after C survives C's decision */
			cu->next = t->n[c].next_sibling;
			rc = push(t, &depth, c, t->n[c].first_child);
			continue;
		}
		rc = decide(t, t->walk[--depth].node, limit);
	}
	return rc;
}

/* Byte order of A (LA bytes, then ';') against B (LB bytes, then ' '):
 * < 0 when every string that starts with "A;" sorts before B. */
static int before_line(const char *a, size_t la, const char *b, size_t lb)
{
	size_t n = la < lb ? la : lb;
	int r = memcmp(a, b, n);
	if (r)
		return r < 0 ? -1 : 1;
	unsigned char x = n < la ? (unsigned char)a[n] : ';';
	unsigned char y = n < lb ? (unsigned char)b[n] : ' ';
	if (x != y)
		return x < y ? -1 : 1;
	return 1; /* "A;" is a prefix of B: B is inside the subtree */
}

static int add_pending(struct perfan__ptree *t, uint32_t node, const char *s,
		       size_t len)
{
	if (t->npend == t->pend_cap &&
	    perfan__grow((void **)&t->pend, &t->pend_cap, t->npend + 1,
			 sizeof(*t->pend)))
		return perfan__nomem("folded input");
	char *copy = malloc(len ? len : 1);
	if (!copy)
		return perfan__nomem("folded input");
	memcpy(copy, s, len);
	t->pend[t->npend++] = (struct pending){node, copy, len};
	return 0;
}

int perfan__ptree_add(struct perfan__ptree *t, const perfan_frame_id *frames,
		      size_t n, size_t keep, const char *line, size_t len,
		      const char *prev, size_t prev_len, size_t prev_keep_end,
		      size_t common, const uint64_t w[2])
{
	double limit[2];
	int rc = 0;
	limits(t, limit);
	if (keep > t->npath)
		keep = t->npath;
	/* a frame that ends where the two lines part is still shared */
	while (keep < t->npath && keep < n &&
	       t->n[t->path[keep]].frame == frames[keep])
		keep++;
	if (t->npath) {
		/* the previous line, ' ' after its stack, must not sort
		 * after this one */
		size_t i = common;
		unsigned char x = i < prev_len ? (unsigned char)prev[i] : ' ';
		unsigned char y = i < len ? (unsigned char)line[i] : ' ';
		if (x > y)
			return t->folded ? PERFAN_EUNSUPPORTED : 1;
	}
	/* subtrees left earlier that this line has passed */
	for (size_t k = 0; k < t->npend && !rc;) {
		struct pending *pd = &t->pend[k];
		if (before_line(pd->text, pd->len, line, len) < 0) {
			if (!t->n[pd->node].final)
				rc = finalize(t, pd->node, limit);
		} else if (!(len >= pd->len + 1 &&
			     !memcmp(line, pd->text, pd->len) &&
			     line[pd->len] == ';')) {
			k++;
			continue; /* still ahead */
		}
		/* done, or this line enters it again */
		free(pd->text);
		*pd = t->pend[--t->npend];
	}
	/* the previous line's frames from KEEP on are left */
	if (!rc && keep < t->npath && !t->n[t->path[keep]].final) {
		if (before_line(prev, prev_keep_end, line, len) < 0)
			rc = finalize(t, t->path[keep], limit);
		else
			rc = add_pending(t, t->path[keep], prev, prev_keep_end);
	}
	if (rc)
		return rc;
	if (n > t->path_cap &&
	    perfan__grow((void **)&t->path, &t->path_cap, n, sizeof(*t->path)))
		return perfan__nomem("folded input");
	uint32_t node = keep ? t->path[keep - 1] : 0;
	for (size_t i = keep; i < n; i++) {
		if ((rc = child(t, node, frames[i], &node)))
			return rc;
		t->path[i] = node;
	}
	t->npath = n;
	t->n[node].self[0] += w[0];
	t->n[node].self[1] += w[1];
	t->read[0] += w[0];
	t->read[1] += w[1];
	return 0;
}

/* ---- into the profile ---------------------------------------------------------- */

struct walk {
	uint32_t node;
	uint32_t depth;
};

int perfan__ptree_flush(struct perfan__ptree *t, perfan_profile *p,
			const int col[2], perfan_frame_id other)
{
	struct walk *st = NULL;
	perfan_frame_id *path = NULL;
	size_t nst = 0, cap = 0, pcap = 0;
	int rc = 0;
	if (perfan__grow((void **)&st, &cap, 1, sizeof(*st)))
		return perfan__nomem("folded input");
	st[nst++] = (struct walk){0, 0};
	while (nst && !rc) {
		struct walk w = st[--nst];
		const struct pnode *x = &t->n[w.node];
		if (w.depth + 1 > pcap &&
		    perfan__grow((void **)&path, &pcap, w.depth + 1,
				 sizeof(*path))) {
			rc = perfan__nomem("folded input");
			break;
		}
		if (w.depth)
			path[w.depth - 1] = x->frame;
		for (int c = 0; c < 2 && !rc; c++) {
			if (col[c] < 0)
				continue;
			if (x->self[c])
				rc = perfan_profile_add(p, path, w.depth,
							(size_t)col[c],
							x->self[c], NULL, NULL);
			if (!rc && x->other[c]) {
				path[w.depth] = other;
				rc = perfan_profile_add(p, path, w.depth + 1,
							(size_t)col[c],
							x->other[c], NULL,
							NULL);
			}
		}
		for (uint32_t c = x->first_child; c != NONE && !rc;
		     c = t->n[c].next_sibling) {
			if (nst == cap && perfan__grow((void **)&st, &cap,
						       nst + 1, sizeof(*st))) {
				rc = perfan__nomem("folded input");
				break;
			}
			st[nst++] = (struct walk){c, w.depth + 1};
		}
	}
	free(st);
	free(path);
	return rc;
}
