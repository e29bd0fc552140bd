/* sources/pstats.c: cProfile dumps: the marshal format (version 2 as Python
 * 2.7 writes it, 4 and 5 as 3.8-3.14 do) decoded into a bounded value tree,
 * then read as pstats' dict (file, line, func) -> (cc, nc, tt, ct, callers)
 * with callers (file, line, func) -> (nc, cc, tt, ct). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/pstats_internal.h"
#include "util/bytes.h"
#include "util/cmp.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

/* A dump nests dict > tuple > dict > tuple > value; deeper is damage, and
 * the bound keeps the recursion's stack small whatever the input. */
#define MV_MAX_DEPTH 16
/* marshal's flag: the object is remembered for later TYPE_REF ('r'). */
#define MV_FLAG_REF 0x80

enum mv_kind { MV_INT, MV_FLOAT, MV_STR, MV_TUPLE, MV_DICT, MV_OTHER };

/* A decoded value. Strings point into the input; a dict's items are its
 * keys and values in turn. Each value is made from at least one input
 * byte, so the tree is at most a constant times the input. */
struct mv {
	enum mv_kind kind;
	size_t off;
	union {
		int64_t i;
		double f;
		struct {
			const char *p;
			size_t n;
		} s;
		struct {
			struct mv **v;
			size_t n;
		} t;
	} u;
};

struct rd {
	const uint8_t *p;
	size_t len, pos;
	const char *name;
	struct perfan__arena *arena;
	struct mv **refs; /* 'r' targets; NULL while a container is open */
	size_t nrefs, caprefs;
	struct mv **interned; /* version 2: 't' strings, targets of 'R' */
	size_t nint, capint;
};

/* "NAME: offset N: what". */
#define rd_err(r, code, off, ...)                                              \
	perfan__err_at((code), (r)->name, (off), 0, __VA_ARGS__)

static int rd_need(struct rd *r, size_t n, size_t off, const char *what)
{
	if (n > r->len - r->pos)
		return rd_err(r, PERFAN_ETRUNCATED, off,
			      "%s needs %zu bytes, the input has %zu left",
			      what, n, r->len - r->pos);
	return 0;
}

static int32_t rd_i32(struct rd *r)
{
	int32_t v = (int32_t)perfan__u32(
		r->p + r->pos, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	r->pos += 4;
	return v;
}

/* A length: a non-negative int32 (marshal writes them signed). */
static int rd_len(struct rd *r, size_t off, const char *what, size_t *n)
{
	int rc = rd_need(r, 4, off, what);
	if (rc)
		return rc;
	int32_t v = rd_i32(r);
	if (v < 0)
		return rd_err(r, PERFAN_EFORMAT, off,
			      "%s of negative length %d", what, v);
	*n = (size_t)v;
	return 0;
}

static int rd_push(struct mv ***arr, size_t *n, size_t *cap, struct mv *v)
{
	if (perfan__grow((void **)arr, cap, *n + 1, sizeof(**arr)))
		return perfan__nomem(NULL);
	(*arr)[(*n)++] = v;
	return 0;
}

static int rd_value(struct rd *r, int depth, struct mv **out);

static int rd_items(struct rd *r, int depth, struct mv *v, size_t n)
{
	/* Each item takes at least a byte: a count beyond what is left is
	 * damage, found before allocating for it. */
	if (n > r->len - r->pos)
		return rd_err(r, PERFAN_ETRUNCATED, v->off,
			      "a tuple of %zu items, the input has %zu bytes "
			      "left",
			      n, r->len - r->pos);
	v->kind = MV_TUPLE;
	v->u.t.n = n;
	v->u.t.v = n ? perfan__arena_alloc(r->arena, n * sizeof(*v->u.t.v))
		     : NULL;
	if (n && !v->u.t.v)
		return perfan__nomem(NULL);
	for (size_t i = 0; i < n; i++) {
		int rc = rd_value(r, depth + 1, &v->u.t.v[i]);
		if (rc)
			return rc;
	}
	return 0;
}

static int rd_dict(struct rd *r, int depth, struct mv *v)
{
	struct mv **items = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	for (;;) {
		struct mv *x;
		if (r->pos >= r->len) {
			rc = rd_err(r, PERFAN_ETRUNCATED, v->off,
				    "the dict starting here is not closed "
				    "(input ends at %zu)",
				    r->len);
			break;
		}
		if (r->p[r->pos] == '0') {
			r->pos++;
			break;
		}
		for (int k = 0; k < 2 && !rc; k++) {
			rc = rd_value(r, depth + 1, &x);
			if (!rc)
				rc = rd_push(&items, &n, &cap, x);
		}
		if (rc)
			break;
	}
	if (!rc) {
		v->kind = MV_DICT;
		v->u.t.n = n / 2;
		v->u.t.v = n ? perfan__arena_alloc(r->arena, n * sizeof(*items))
			     : NULL;
		if (n && !v->u.t.v)
			rc = perfan__nomem(NULL);
		else if (n)
			memcpy(v->u.t.v, items, n * sizeof(*items));
	}
	free(items);
	return rc;
}

static int rd_ref(struct rd *r, size_t off, int v2, struct mv **out)
{
	int rc = rd_need(r, 4, off, "a reference");
	if (rc)
		return rc;
	uint32_t idx = (uint32_t)rd_i32(r);
	struct mv **tab = v2 ? r->interned : r->refs;
	size_t n = v2 ? r->nint : r->nrefs;
	if (idx >= n || !tab[idx])
		return rd_err(r, PERFAN_EFORMAT, off,
			      "a reference to object %u, which is not an "
			      "earlier complete one (%zu so far)",
			      idx, n);
	*out = tab[idx];
	return 0;
}

static int rd_long(struct rd *r, struct mv *v)
{
	size_t n;
	int rc = rd_need(r, 4, v->off, "a long integer");
	if (rc)
		return rc;
	int32_t sn = rd_i32(r);
	/* 15-bit digits, least significant first; four fill 60 bits, more
	 * than any count or line a profile holds. */
	n = sn < 0 ? (size_t) - (int64_t)sn : (size_t)sn;
	if (n > 4)
		return rd_err(r, PERFAN_EUNSUPPORTED, v->off,
			      "a long integer of %zu digits, too large", n);
	if ((rc = rd_need(r, 2 * n, v->off, "a long integer")))
		return rc;
	int64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		uint16_t d =
			perfan__u16(r->p + r->pos + 2 * i,
				    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
		if (d > 0x7fff)
			return rd_err(r, PERFAN_EFORMAT, v->off,
				      "a long integer digit 0x%x over 15 bits",
				      d);
		x |= (int64_t)d << (15 * i);
	}
	r->pos += 2 * n;
	v->kind = MV_INT;
	v->u.i = sn < 0 ? -x : x;
	return 0;
}

static int rd_str(struct rd *r, struct mv *v, size_t n)
{
	int rc = rd_need(r, n, v->off, "a string");
	if (rc)
		return rc;
	v->kind = MV_STR;
	v->u.s.p = (const char *)r->p + r->pos;
	v->u.s.n = n;
	r->pos += n;
	return 0;
}

static int rd_scalar(struct rd *r, uint8_t code, struct mv *v)
{
	size_t n;
	int rc;
	switch (code) {
	case 'N': /* None, False, True, StopIteration, Ellipsis */
	case 'F':
	case 'T':
	case 'S':
	case '.': v->kind = MV_OTHER; return 0;
	case 'i':
		if ((rc = rd_need(r, 4, v->off, "an int")))
			return rc;
		v->kind = MV_INT;
		v->u.i = rd_i32(r);
		return 0;
	case 'I':
		if ((rc = rd_need(r, 8, v->off, "an int64")))
			return rc;
		v->kind = MV_INT;
		v->u.i = (int64_t)perfan__u64(
			r->p + r->pos, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
		r->pos += 8;
		return 0;
	case 'l': return rd_long(r, v);
	case 'g': {
		if ((rc = rd_need(r, 8, v->off, "a float")))
			return rc;
		uint64_t bits = perfan__u64(
			r->p + r->pos, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
		memcpy(&v->u.f, &bits, sizeof(bits));
		v->kind = MV_FLOAT;
		r->pos += 8;
		return 0;
	}
	case 'f': { /* version 0 and 1: the float as text */
		char buf[256], *end;
		if ((rc = rd_need(r, 1, v->off, "a float")))
			return rc;
		n = r->p[r->pos++];
		if ((rc = rd_need(r, n, v->off, "a float")))
			return rc;
		memcpy(buf, r->p + r->pos, n);
		buf[n] = '\0';
		r->pos += n;
		v->u.f = strtod(buf, &end);
		if (!n || *end)
			return rd_err(r, PERFAN_EFORMAT, v->off,
				      "a float written as text that is not a "
				      "number");
		v->kind = MV_FLOAT;
		return 0;
	}
	case 'z': /* short ASCII, short interned ASCII */
	case 'Z':
		if ((rc = rd_need(r, 1, v->off, "a string")))
			return rc;
		return rd_str(r, v, r->p[r->pos++]);
	case 's': /* bytes, interned, unicode, ASCII, interned ASCII */
	case 't':
	case 'u':
	case 'a':
	case 'A':
		if ((rc = rd_len(r, v->off, "a string", &n)))
			return rc;
		if ((rc = rd_str(r, v, n)))
			return rc;
		/* Version 2 numbers interned strings apart, for 'R'. */
		return code == 't'
			       ? rd_push(&r->interned, &r->nint, &r->capint, v)
			       : 0;
	}
	return 1;
}

static int rd_value(struct rd *r, int depth, struct mv **out)
{
	size_t off = r->pos, slot = 0, n;
	int rc;
	if (depth > MV_MAX_DEPTH)
		return rd_err(r, PERFAN_EFORMAT, off,
			      "values nested more than %d deep", MV_MAX_DEPTH);
	if (r->pos >= r->len)
		return rd_err(r, PERFAN_ETRUNCATED, off,
			      "the input ends where a value should start");
	uint8_t b = r->p[r->pos++], code = b & 0x7f;
	if (code == 'r' || code == 'R')
		return rd_ref(r, off, code == 'R', out);
	struct mv *v = perfan__arena_alloc(r->arena, sizeof(*v));
	if (!v)
		return perfan__nomem(NULL);
	v->off = off;
	/* marshal numbers an object when it starts, before its items. */
	if (b & MV_FLAG_REF) {
		slot = r->nrefs;
		if ((rc = rd_push(&r->refs, &r->nrefs, &r->caprefs, NULL)))
			return rc;
	}
	switch (code) {
	case '(':
		rc = rd_len(r, off, "a tuple", &n);
		if (!rc)
			rc = rd_items(r, depth, v, n);
		break;
	case ')':
		rc = rd_need(r, 1, off, "a tuple");
		if (!rc)
			rc = rd_items(r, depth, v, r->p[r->pos++]);
		break;
	case '{': rc = rd_dict(r, depth, v); break;
	case '0':
		rc = rd_err(r, PERFAN_EFORMAT, off,
			    "a NULL where a value should be");
		break;
	default:
		rc = rd_scalar(r, code, v);
		if (rc == 1)
			rc = rd_err(r, PERFAN_EUNSUPPORTED, off,
				    "marshal type 0x%02x ('%c'), which a "
				    "profile dump never holds",
				    b,
				    code >= 0x20 && code < 0x7f ? code : '?');
	}
	if (rc)
		return rc;
	if (b & MV_FLAG_REF)
		r->refs[slot] = v;
	*out = v;
	return 0;
}

/* ---- the dict as pstats has it ---------------------------------------- */

struct key {
	const char *file, *name;
	uint32_t line;
	int listed;
	size_t entry; /* index into the entries (listed keys) */
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (!c)
		c = perfan__cmp_u64(x->line, y->line);
	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : y->listed - x->listed; /* the listed one first */
}

static int is_num(const struct mv *v)
{
	return v->kind == MV_INT || v->kind == MV_FLOAT;
}

static double num(const struct mv *v)
{
	return v->kind == MV_INT ? (double)v->u.i : v->u.f;
}

static int rd_key(struct rd *r, const struct mv *k, struct key *out)
{
	if (k->kind != MV_TUPLE || k->u.t.n != 3 ||
	    k->u.t.v[0]->kind != MV_STR || k->u.t.v[1]->kind != MV_INT ||
	    k->u.t.v[2]->kind != MV_STR)
		return rd_err(r, PERFAN_EFORMAT, k->off,
			      "a key that is not a (file, line, function) "
			      "tuple");
	int64_t line = k->u.t.v[1]->u.i;
	if (line < 0 || line > UINT32_MAX)
		return rd_err(r, PERFAN_EFORMAT, k->off, "line number %lld",
			      (long long)line);
	out->file = perfan__arena_strndup(r->arena, k->u.t.v[0]->u.s.p,
					  k->u.t.v[0]->u.s.n);
	out->name = perfan__arena_strndup(r->arena, k->u.t.v[2]->u.s.p,
					  k->u.t.v[2]->u.s.n);
	if (!out->file || !out->name)
		return perfan__nomem(NULL);
	out->line = (uint32_t)line;
	return 0;
}

/* The counts and times of a tuple (a, b, tt, ct[, ...]) of N items. */
static int rd_counts(struct rd *r, const struct mv *v, size_t n,
		     const char *what, int64_t *a, int64_t *b, double *tt,
		     double *ct)
{
	if (v->kind != MV_TUPLE || v->u.t.n != n ||
	    v->u.t.v[0]->kind != MV_INT || v->u.t.v[1]->kind != MV_INT ||
	    !is_num(v->u.t.v[2]) || !is_num(v->u.t.v[3]))
		return rd_err(r, PERFAN_EFORMAT, v->off,
			      "%s is not a tuple of %zu: two call counts and "
			      "two times",
			      what, n);
	*a = v->u.t.v[0]->u.i;
	*b = v->u.t.v[1]->u.i;
	*tt = num(v->u.t.v[2]);
	*ct = num(v->u.t.v[3]);
	if (*a < 0 || *b < 0 || !isfinite(*tt) || !isfinite(*ct))
		return rd_err(r, PERFAN_EFORMAT, v->off,
			      "%s has a negative count or a time that is not "
			      "finite",
			      what);
	return 0;
}

static int edge_cmp(const void *a, const void *b)
{
	const struct perfan_pstats_edge *x = a, *y = b;
	int c = perfan__cmp_u64(x->callee, y->callee);
	return c ? c : perfan__cmp_u64(x->caller, y->caller);
}

/* The index of K among the (deduplicated, sorted) KEYS, which hold it. */
static size_t find_key(const struct key *keys, size_t n, struct key k)
{
	size_t lo = 0, hi = n;
	k.listed = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct key m = keys[mid];
		m.listed = 0;
		int c = key_cmp(&m, &k);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int label_make(perfan_pstats *s, size_t i)
{
	const struct perfan_pstats_func *f = &s->funcs[i];
	size_t n = strlen(f->file) + strlen(f->name) + 16;
	char *l = perfan__arena_alloc(&s->arena, n);
	if (!l)
		return perfan__nomem(NULL);
	size_t nl = strlen(f->name);
	if (!strcmp(f->file, "~") && f->line == 0) {
		if (nl >= 2 && f->name[0] == '<' && f->name[nl - 1] == '>')
			snprintf(l, n, "{%.*s}", (int)(nl - 2), f->name + 1);
		else
			snprintf(l, n, "%s", f->name);
	} else {
		snprintf(l, n, "%s:%u(%s)", f->file, f->line, f->name);
	}
	s->labels[i] = l;
	return 0;
}

/* The dict into functions and edges. */
static int build(struct rd *r, perfan_pstats *s, const struct mv *top)
{
	struct key *keys = NULL;
	size_t nk = 0, ne = 0, i, j;
	int rc = 0;

	if (top->kind != MV_DICT)
		return rd_err(r, PERFAN_EFORMAT, top->off,
			      "the dump is not a dict of functions");
	for (i = 0; i < top->u.t.n; i++) {
		const struct mv *val = top->u.t.v[2 * i + 1];
		if (val->kind == MV_TUPLE && val->u.t.n == 5 &&
		    val->u.t.v[4]->kind == MV_DICT)
			ne += val->u.t.v[4]->u.t.n;
	}
	keys = calloc(top->u.t.n + ne + 1, sizeof(*keys));
	s->funcs = calloc(top->u.t.n + ne + 1, sizeof(*s->funcs));
	s->edges = calloc(ne + 1, sizeof(*s->edges));
	if (!keys || !s->funcs || !s->edges) {
		rc = perfan__nomem(NULL);
		goto out;
	}
	for (i = 0; i < top->u.t.n && !rc; i++) {
		const struct mv *val = top->u.t.v[2 * i + 1];
		rc = rd_key(r, top->u.t.v[2 * i], &keys[nk]);
		if (rc)
			break;
		keys[nk].listed = 1;
		keys[nk++].entry = i;
		if (val->kind != MV_TUPLE || val->u.t.n != 5 ||
		    val->u.t.v[4]->kind != MV_DICT) {
			rc = rd_err(r, PERFAN_EFORMAT, val->off,
				    "a function's stats are not (cc, nc, "
				    "tt, ct, callers)");
			break;
		}
		const struct mv *cl = val->u.t.v[4];
		for (j = 0; j < cl->u.t.n && !rc; j++) {
			rc = rd_key(r, cl->u.t.v[2 * j], &keys[nk]);
			keys[nk++].listed = 0;
		}
	}
	if (rc)
		goto out;
	if (nk)
		qsort(keys, nk, sizeof(*keys), key_cmp);
	/* One function per key: listed once at most, callers merged in. */
	for (i = 0; i < nk; i++) {
		struct perfan_pstats_func *f;
		if (s->nr_funcs) {
			f = &s->funcs[s->nr_funcs - 1];
			if (!strcmp(f->file, keys[i].file) &&
			    f->line == keys[i].line &&
			    !strcmp(f->name, keys[i].name)) {
				if (keys[i].listed) {
					rc = rd_err(
						r, PERFAN_EFORMAT,
						top->u.t.v[2 * keys[i].entry]
							->off,
						"function %s:%u(%s) listed "
						"twice",
						f->file, f->line, f->name);
					goto out;
				}
				continue;
			}
		}
		f = &s->funcs[s->nr_funcs];
		keys[s->nr_funcs] = keys[i];
		f->file = keys[i].file;
		f->name = keys[i].name;
		f->line = keys[i].line;
		f->listed = keys[i].listed;
		s->nr_funcs++;
	}
	/* Counts, and the edges from each listed function's callers. */
	for (i = 0; i < s->nr_funcs && !rc; i++) {
		struct perfan_pstats_func *f = &s->funcs[i];
		int64_t cc, nc;
		if (!f->listed)
			continue;
		const struct mv *val = top->u.t.v[2 * keys[i].entry + 1];
		rc = rd_counts(r, val, 5, "a function's stats", &cc, &nc,
			       &f->tt, &f->ct);
		f->cc = (uint64_t)cc;
		f->nc = (uint64_t)nc;
		const struct mv *cl = val->u.t.v[4];
		for (j = 0; j < cl->u.t.n && !rc; j++) {
			struct key k;
			struct perfan_pstats_edge *e = &s->edges[s->nr_edges];
			const struct mv *cv = cl->u.t.v[2 * j + 1];
			if ((rc = rd_key(r, cl->u.t.v[2 * j], &k)))
				break;
			e->caller = find_key(keys, s->nr_funcs, k);
			e->callee = i;
			/* The profile module (not cProfile) keeps a bare
			 * count per caller. */
			if (cv->kind == MV_INT && cv->u.i >= 0) {
				e->nc = e->cc = (uint64_t)cv->u.i;
			} else {
				rc = rd_counts(r, cv, 4, "a caller's stats",
					       &nc, &cc, &e->tt, &e->ct);
				e->nc = (uint64_t)nc;
				e->cc = (uint64_t)cc;
			}
			s->nr_edges++;
		}
	}
	if (rc)
		goto out;
	if (s->nr_edges)
		qsort(s->edges, s->nr_edges, sizeof(*s->edges), edge_cmp);
	for (i = 1; i < s->nr_edges; i++)
		if (!edge_cmp(&s->edges[i - 1], &s->edges[i])) {
			rc = perfan__err(PERFAN_EFORMAT,
					 "%s: %s has the caller %s twice",
					 r->name,
					 s->funcs[s->edges[i].callee].name,
					 s->funcs[s->edges[i].caller].name);
			goto out;
		}
	for (i = 0; i < s->nr_edges; i++) {
		struct perfan_pstats_func *f = &s->funcs[s->edges[i].callee];
		if (!f->nr_callers)
			f->callers = i;
		f->nr_callers++;
	}
	s->by_caller = calloc(s->nr_edges + 1, sizeof(*s->by_caller));
	s->callees = calloc(s->nr_funcs + 1, sizeof(*s->callees));
	s->labels = calloc(s->nr_funcs + 1, sizeof(*s->labels));
	if (!s->by_caller || !s->callees || !s->labels) {
		rc = perfan__nomem(NULL);
		goto out;
	}
	/* By caller: a counting sort over the edges, which are in callee
	 * order already, so each caller's callees stay sorted. */
	for (i = 0; i < s->nr_edges; i++)
		s->callees[s->edges[i].caller + 1]++;
	for (i = 0; i < s->nr_funcs; i++)
		s->callees[i + 1] += s->callees[i];
	for (i = 0; i < s->nr_edges; i++)
		s->by_caller[s->callees[s->edges[i].caller]++] = i;
	for (i = s->nr_funcs; i > 0; i--)
		s->callees[i] = s->callees[i - 1];
	s->callees[0] = 0;
	for (i = 0; i < s->nr_funcs && !rc; i++)
		rc = label_make(s, i);
out:
	free(keys);
	return rc;
}

int perfan_pstats_detect(const void *data, size_t len)
{
	const uint8_t *p = data;
	if (len < 3 || (p[0] & 0x7f) != '{')
		return 0;
	switch (p[1] & 0x7f) {
	case ')': return p[2] == 3;
	case '(':
		return len >= 6 &&
		       perfan__u32(p + 2,
				   __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) == 3;
	}
	return 0;
}

int perfan_pstats_parse(perfan_pstats **out, const void *data, size_t len,
			const struct perfan_pstats_opts *opts)
{
	struct perfan_pstats_opts o;
	struct rd r = {0};
	struct mv *top = NULL;
	perfan_pstats *s;
	int rc;

	*out = NULL;
	if ((rc = PERFAN__OPTS_COPY(o, opts)))
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s)
		return perfan__nomem(NULL);
	r.p = data;
	r.len = len;
	r.name = o.name ? o.name : "input";
	r.arena = &s->arena;
	if (!len)
		rc = rd_err(&r, PERFAN_ETRUNCATED, 0, "an empty file");
	else
		rc = rd_value(&r, 0, &top);
	if (!rc && r.pos != r.len)
		rc = rd_err(&r, PERFAN_EFORMAT, r.pos,
			    "%zu bytes after the dump's dict", r.len - r.pos);
	if (!rc)
		rc = build(&r, s, top);
	free(r.refs);
	free(r.interned);
	if (rc) {
		perfan_pstats_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

int perfan__pstats_read_fp(perfan_pstats **out, FILE *fp, const char *name,
			   const struct perfan_pstats_opts *opts)
{
	struct perfan_pstats_opts o;
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;
	int rc = 0;

	*out = NULL;
	do {
		if (len == cap &&
		    perfan__grow((void **)&buf, &cap, len + 65536, 1)) {
			rc = perfan__nomem(NULL);
			break;
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	if (!rc && ferror(fp))
		rc = perfan__err(PERFAN_EIO, "%s: read error", name);
	if (!rc)
		rc = PERFAN__OPTS_COPY(o, opts);
	if (!o.name)
		o.name = name;
	if (!rc)
		rc = perfan_pstats_parse(out, buf, len, &o);
	free(buf);
	return rc;
}

int perfan_pstats_read_path(perfan_pstats **out, const char *path,
			    const struct perfan_pstats_opts *opts)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	*out = NULL;
	if (!fp)
		return perfan__err(PERFAN_ENOTFOUND, "%s: cannot open", path);
	int rc = perfan__pstats_read_fp(out, fp, path, opts);
	if (fp != stdin)
		fclose(fp);
	return rc;
}

void perfan_pstats_free(perfan_pstats *s)
{
	if (!s)
		return;
	free(s->funcs);
	free(s->edges);
	free(s->by_caller);
	free(s->callees);
	free(s->labels);
	perfan__arena_free(&s->arena);
	free(s);
}

size_t perfan_pstats_nr_funcs(const perfan_pstats *s)
{
	return s->nr_funcs;
}

const struct perfan_pstats_func *perfan_pstats_func(const perfan_pstats *s,
						    size_t i)
{
	return i < s->nr_funcs ? &s->funcs[i] : NULL;
}

size_t perfan_pstats_nr_edges(const perfan_pstats *s)
{
	return s->nr_edges;
}

const struct perfan_pstats_edge *perfan_pstats_edge(const perfan_pstats *s,
						    size_t i)
{
	return i < s->nr_edges ? &s->edges[i] : NULL;
}

size_t perfan_pstats_callees(const perfan_pstats *s, size_t i,
			     const size_t **out)
{
	if (i >= s->nr_funcs) {
		*out = NULL;
		return 0;
	}
	*out = s->by_caller + s->callees[i];
	return s->callees[i + 1] - s->callees[i];
}

const char *perfan_pstats_func_label(const perfan_pstats *s, size_t i)
{
	return i < s->nr_funcs ? s->labels[i] : NULL;
}

double perfan_pstats_total(const perfan_pstats *s)
{
	double t = 0;
	for (size_t i = 0; i < s->nr_funcs; i++)
		t += s->funcs[i].tt;
	return t;
}
