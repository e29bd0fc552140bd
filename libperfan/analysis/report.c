/* analysis/report.c: perf report's view of a profile: rows keyed by comm,
 * pid, dso and symbol with self and total (children) weights, counted the
 * way perf counts them, the Amdahl bound of each row and call graphs; its
 * writer is render/report_write.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/resolve.h>

#include "analysis/amdahl.h"
#include "analysis/report_result.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/log.h"
#include <perfan/text.h>

#define NONE UINT32_MAX

/* A row's key: ids of interned strings (or NONE where not a key). */
struct key {
	uint32_t comm;
	int32_t thread; /* pid key: tid, or pid where the tid is not known */
	uint32_t dso, sym;
	uint32_t cls; /* symbol class: 0 user, 1 kernel, 2 inlined */
};

/* What a process frame says: comm (interned), pid and tid. */
struct proc {
	uint32_t comm;
	int32_t pid, tid;
};

struct column {
	uint64_t total;
	struct perfan_report_row *rows;
	uint32_t *row_of; /* rows[i] is row id row_of[i] */
	size_t nrows;
};

struct perfan_report {
	const perfan_profile *p;
	struct perfan_report_opts o;
	enum perfan_report_key keys[PERFAN_REPORT_MAX_KEYS];
	size_t nkeys;
	int has_comm, has_pid, has_dso, has_sym;

	/* interned strings (comms, modules, names) */
	struct perfan__idtab str_tab;
	const char **strs;
	char **owned; /* strs we copied (parsed comms) */
	size_t nstrs, strs_cap, nowned;

	/* per frame: the ids of its module and name, NONE until first used */
	uint32_t *frame_dso, *frame_sym;

	/* rows */
	struct perfan__idtab row_tab;
	struct key *rkeys;
	perfan_frame_id *rframe;
	struct proc *rproc; /* the process a pid-keyed row was made under */
	size_t nrows_all, rows_cap;

	/* per node: its row, the row its self weight goes to, whether it is
	 * the outermost occurrence of its row on its path */
	uint32_t *node_row, *node_selfrow;
	unsigned char *node_outer;
	/* the nodes of each row, for call graphs: outermost occurrences
	 * (outer_nodes[outer_start[row] .. outer_start[row + 1]]) and nodes
	 * whose self weight goes to the row */
	uint32_t *outer_start, *outer_nodes, *self_start, *self_nodes;

	struct column *cols;
	size_t ncols;

	char **dsos; /* the --dsos list */
	size_t ndsos;
};

/* ---- strings ---------------------------------------------------------- */

/* The id of the string S (LEN bytes); COPY: S is not stable, keep a copy. */
static int str_id(perfan_report *r, const char *s, size_t len, int copy,
		  uint32_t *out)
{
	if (perfan__idtab_reserve(&r->str_tab))
		return perfan__nomem("report");
	uint32_t h = perfan__hash32(perfan__hash_mem(s, len));
	size_t i = perfan__idtab_start(&r->str_tab, h);
	for (;; i = perfan__idtab_step(&r->str_tab, i)) {
		struct perfan__idslot *sl = &r->str_tab.slots[i];
		if (!sl->id1)
			break;
		const char *t = r->strs[sl->id1 - 1];
		if (sl->hash == h && !strncmp(t, s, len) && !t[len]) {
			*out = sl->id1 - 1;
			return 0;
		}
	}
	if (perfan__grow((void **)&r->strs, &r->strs_cap, r->nstrs + 1,
			 sizeof(*r->strs)))
		return perfan__nomem("report");
	const char *keep = s;
	if (copy || s[len]) {
		char *c = malloc(len + 1);
		char **no = realloc(r->owned, (r->nowned + 1) * sizeof(*no));
		if (!c || !no) {
			free(c);
			if (no)
				r->owned = no;
			return perfan__nomem("report");
		}
		memcpy(c, s, len);
		c[len] = '\0';
		r->owned = no;
		r->owned[r->nowned++] = c;
		keep = c;
	}
	r->strs[r->nstrs] = keep;
	perfan__idtab_put(&r->str_tab, i, (uint32_t)r->nstrs, h);
	*out = (uint32_t)r->nstrs++;
	return 0;
}

/* ---- options ---------------------------------------------------------- */

static int parse_sort(perfan_report *r, const char *s)
{
	if (!s || !*s)
		s = "comm,dso,sym";
	r->nkeys = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		static const struct {
			const char *name;
			enum perfan_report_key key;
		} names[] = {
			{"comm", PERFAN_REPORT_KEY_COMM},
			{"pid", PERFAN_REPORT_KEY_PID},
			{"dso", PERFAN_REPORT_KEY_DSO},
			{"sym", PERFAN_REPORT_KEY_SYM},
		};
		size_t k;
		for (k = 0; k < 4; k++)
			if (strlen(names[k].name) == n &&
			    !strncmp(names[k].name, s, n))
				break;
		if (k == 4)
			return perfan__err(PERFAN_EINVAL,
					   "unknown sort key '%.*s' (keys: "
					   "comm, pid, dso, sym)",
					   (int)n, s);
		for (size_t j = 0; j < r->nkeys; j++)
			if (r->keys[j] == names[k].key)
				return perfan__err(
					PERFAN_EINVAL,
					"sort key '%.*s' given twice", (int)n,
					s);
		r->keys[r->nkeys++] = names[k].key;
		s += n;
		if (*s == ',') {
			s++;
			if (!*s)
				return perfan__err(PERFAN_EINVAL,
						   "sort keys end with ','");
		}
	}
	for (size_t j = 0; j < r->nkeys; j++) {
		r->has_comm |= r->keys[j] == PERFAN_REPORT_KEY_COMM;
		r->has_pid |= r->keys[j] == PERFAN_REPORT_KEY_PID;
		r->has_dso |= r->keys[j] == PERFAN_REPORT_KEY_DSO;
		r->has_sym |= r->keys[j] == PERFAN_REPORT_KEY_SYM;
	}
	return 0;
}

static int parse_dsos(perfan_report *r, const char *s)
{
	if (!s || !*s)
		return 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		if (n) {
			/* a path counts by its last part, as perf's short
			 * names */
			const char *b = s;
			for (size_t i = 0; i < n; i++)
				if (s[i] == '/' && i + 1 < n)
					b = s + i + 1;
			size_t bn = n - (size_t)(b - s);
			char **nd =
				realloc(r->dsos, (r->ndsos + 1) * sizeof(*nd));
			if (!nd)
				return perfan__nomem("report");
			r->dsos = nd;
			r->dsos[r->ndsos] = strndup(b, bn);
			if (!r->dsos[r->ndsos])
				return perfan__nomem("report");
			r->ndsos++;
		}
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
}

static int dso_wanted(const perfan_report *r, const char *module)
{
	if (!r->ndsos)
		return 1;
	for (size_t i = 0; i < r->ndsos; i++)
		if (!strcmp(r->dsos[i], module))
			return 1;
	return 0;
}

/* ---- keys ------------------------------------------------------------- */

static uint32_t sym_class(uint32_t kind)
{
	return kind == PERFAN_FRAME_KERNEL ? 1 : kind == PERFAN_FRAME_INLINED;
}

/* The process a root frame stands for, from its identity: the comm as
 * the root's name shows it (spaces made '_', as in stackcollapse-perf.pl's
 * roots), and the pid and tid the frame is known by. A process frame known
 * only by its name (a folded file's root) is that name, its thread not
 * known. */
static int frame_proc(perfan_report *r, const struct perfan_frame *f,
		      struct proc *out)
{
	out->pid = out->tid = -1;
	if (!f->comm)
		return str_id(r, f->name, strlen(f->name), 0, &out->comm);
	if (f->root >= PERFAN_ROOT_PID)
		out->pid = f->pid;
	if (f->root == PERFAN_ROOT_PID_TID)
		out->tid = f->tid;
	char c[64];
	snprintf(c, sizeof(c), "%s", f->comm);
	for (char *x = c; *x; x++)
		if (*x == ' ')
			*x = '_';
	return str_id(r, c, strlen(c), 1, &out->comm);
}

static uint32_t key_hash(const struct key *k)
{
	uint64_t h = perfan__hash_u64(((uint64_t)k->comm << 32) |
				      (uint32_t)k->thread);
	h = perfan__hash_u64(h ^ (((uint64_t)k->dso << 32) | k->sym));
	return perfan__hash32(perfan__hash_u64(h ^ k->cls));
}

static int key_eq(const struct key *a, const struct key *b)
{
	return a->comm == b->comm && a->thread == b->thread &&
	       a->dso == b->dso && a->sym == b->sym && a->cls == b->cls;
}

static int row_id(perfan_report *r, const struct key *k, perfan_frame_id f,
		  const struct proc *pr, uint32_t *out)
{
	if (perfan__idtab_reserve(&r->row_tab))
		return perfan__nomem("report");
	uint32_t h = key_hash(k);
	size_t i = perfan__idtab_start(&r->row_tab, h);
	for (;; i = perfan__idtab_step(&r->row_tab, i)) {
		struct perfan__idslot *sl = &r->row_tab.slots[i];
		if (!sl->id1)
			break;
		if (sl->hash == h && key_eq(&r->rkeys[sl->id1 - 1], k)) {
			*out = sl->id1 - 1;
			return 0;
		}
	}
	if (r->nrows_all == r->rows_cap) {
		size_t cap = r->rows_cap ? r->rows_cap * 2 : 256;
		struct key *nk = realloc(r->rkeys, cap * sizeof(*nk));
		if (nk)
			r->rkeys = nk;
		perfan_frame_id *nf = realloc(r->rframe, cap * sizeof(*nf));
		if (nf)
			r->rframe = nf;
		struct proc *np = realloc(r->rproc, cap * sizeof(*np));
		if (np)
			r->rproc = np;
		if (!nk || !nf || !np)
			return perfan__nomem("report");
		r->rows_cap = cap;
	}
	r->rkeys[r->nrows_all] = *k;
	r->rframe[r->nrows_all] = f;
	r->rproc[r->nrows_all] = pr ? *pr : (struct proc){NONE, -1, -1};
	perfan__idtab_put(&r->row_tab, i, (uint32_t)r->nrows_all, h);
	*out = (uint32_t)r->nrows_all++;
	return 0;
}

/* Module and name ids of frame F, interned on first use. */
static int frame_ids(perfan_report *r, perfan_frame_id f)
{
	if (r->frame_dso[f] != NONE)
		return 0;
	const struct perfan_frame *fr = perfan_profile_frame_get(r->p, f);
	const char *m = perfan__report_module(fr);
	int err = str_id(r, m, strlen(m), 0, &r->frame_dso[f]);
	if (!err)
		err = str_id(r, fr->name, strlen(fr->name), 0,
			     &r->frame_sym[f]);
	return err;
}

/* The row of a frame under process PR (NULL: none), or NONE when the frame
 * makes no row (a process frame, a module left out). */
static int frame_row(perfan_report *r, perfan_frame_id f, const struct proc *pr,
		     uint32_t *out)
{
	const struct perfan_frame *fr = perfan_profile_frame_get(r->p, f);
	*out = NONE;
	if (fr->kind == PERFAN_FRAME_PROCESS ||
	    !dso_wanted(r, perfan__report_module(fr)))
		return 0;
	int err = frame_ids(r, f);
	if (err)
		return err;
	struct key k = {NONE, -1, NONE, NONE, 0};
	if (r->has_comm || r->has_pid)
		k.comm = pr ? pr->comm : NONE;
	if (r->has_pid)
		k.thread = pr ? (pr->tid >= 0 ? pr->tid : pr->pid) : -1;
	if (r->has_dso)
		k.dso = r->frame_dso[f];
	if (r->has_sym) {
		k.sym = r->frame_sym[f];
		k.cls = sym_class(fr->kind);
	}
	return row_id(r, &k, f, pr, out);
}

/* ---- the walk that gives every node its row --------------------------- */

struct walk_ent {
	perfan_node_id n;
	const perfan_node_id *kids;
	size_t nkids, next;
};

/* Every node's row, the row its self weight goes to, and whether it is the
 * outermost occurrence of its row on its path (where a stack's weight
 * counts toward the row's total: once, however often the row recurs). */
static int assign_rows(perfan_report *r)
{
	const perfan_profile *p = r->p;
	size_t nn = perfan_profile_nr_nodes(p);
	size_t nf = perfan_profile_nr_frames(p);
	size_t nf1 = nf ? nf : 1;
	r->node_row = malloc(nn * sizeof(*r->node_row));
	r->node_selfrow = malloc(nn * sizeof(*r->node_selfrow));
	r->node_outer = calloc(nn, 1);
	r->frame_dso = malloc(nf1 * sizeof(*r->frame_dso));
	r->frame_sym = malloc(nf1 * sizeof(*r->frame_sym));
	/* a frame's row under the current process: valid where
	 * cache_gen[f] is the current generation */
	uint32_t *cache_row = malloc(nf1 * sizeof(*cache_row));
	uint32_t *cache_gen = calloc(nf1, sizeof(*cache_gen));
	uint32_t *active = NULL; /* per row: occurrences on the current path */
	size_t nactive = 0;
	struct walk_ent *st = NULL;
	size_t nst = 0, st_cap = 0;
	int err = 0;
	if (!r->node_row || !r->node_selfrow || !r->node_outer ||
	    !r->frame_dso || !r->frame_sym || !cache_row || !cache_gen ||
	    perfan__grow((void **)&st, &st_cap, 1, sizeof(*st))) {
		err = perfan__nomem("report");
		goto out;
	}
	memset(r->frame_dso, 0xff, nf1 * sizeof(*r->frame_dso));
	memset(r->frame_sym, 0xff, nf1 * sizeof(*r->frame_sym));
	r->node_row[0] = r->node_selfrow[0] = NONE;

	uint32_t gen = 1;
	struct proc cur, *pr = NULL;
	int per_proc = r->has_comm || r->has_pid;

	st[0].n = PERFAN_ROOT_NODE;
	st[0].nkids =
		perfan_profile_node_children(p, PERFAN_ROOT_NODE, &st[0].kids);
	st[0].next = 0;
	nst = 1;
	while (nst) {
		struct walk_ent *e = &st[nst - 1];
		if (e->next == e->nkids) {
			uint32_t row = r->node_row[e->n];
			if (row != NONE)
				active[row]--;
			nst--;
			continue;
		}
		perfan_node_id n = e->kids[e->next++];
		perfan_node_id parent = e->n;
		perfan_frame_id f = perfan_profile_node_frame(p, n);
		const struct perfan_frame *fr = perfan_profile_frame_get(p, f);
		if (parent == PERFAN_ROOT_NODE && per_proc) {
			/* another process: its rows are looked up anew */
			gen++;
			pr = NULL;
			if (fr->kind == PERFAN_FRAME_PROCESS) {
				err = frame_proc(r, fr, &cur);
				if (err)
					goto out;
				pr = &cur;
			}
		}
		uint32_t row;
		if (cache_gen[f] == gen) {
			row = cache_row[f];
		} else {
			err = frame_row(r, f, pr, &row);
			if (err)
				goto out;
			cache_row[f] = row;
			cache_gen[f] = gen;
		}
		r->node_row[n] = row;
		/* the self weight of inlined code goes to the function it was
		 * inlined into, as perf counts it */
		r->node_selfrow[n] = fr->kind == PERFAN_FRAME_INLINED &&
						     parent != PERFAN_ROOT_NODE
					     ? r->node_selfrow[parent]
					     : row;
		if (row != NONE) {
			if (r->nrows_all > nactive) {
				size_t cap = nactive;
				if (perfan__grow((void **)&active, &cap,
						 r->nrows_all,
						 sizeof(*active))) {
					err = perfan__nomem("report");
					goto out;
				}
				memset(active + nactive, 0,
				       (cap - nactive) * sizeof(*active));
				nactive = cap;
			}
			r->node_outer[n] = active[row] == 0;
			active[row]++;
		}
		if (perfan__grow((void **)&st, &st_cap, nst + 1, sizeof(*st))) {
			err = perfan__nomem("report");
			goto out;
		}
		e = &st[nst++];
		e->n = n;
		e->nkids = perfan_profile_node_children(p, n, &e->kids);
		e->next = 0;
	}
out:
	free(cache_row);
	free(cache_gen);
	free(active);
	free(st);
	return err;
}

/* Group node ids by ROW_OF (NONE and, with OUTER, non-outermost nodes
 * left out) into *START (nrows + 1 offsets) and *NODES. */
static int index_nodes(perfan_report *r, const uint32_t *row_of,
		       const unsigned char *outer, uint32_t **start,
		       uint32_t **nodes)
{
	size_t nn = perfan_profile_nr_nodes(r->p), nr = r->nrows_all;
	*start = calloc(nr + 2, sizeof(**start));
	*nodes = malloc((nn ? nn : 1) * sizeof(**nodes));
	if (!*start || !*nodes)
		return perfan__nomem("report");
	for (size_t n = 1; n < nn; n++)
		if (row_of[n] != NONE && (!outer || outer[n]))
			(*start)[row_of[n] + 2]++;
	for (size_t i = 2; i < nr + 2; i++)
		(*start)[i] += (*start)[i - 1];
	for (size_t n = 1; n < nn; n++)
		if (row_of[n] != NONE && (!outer || outer[n]))
			(*nodes)[(*start)[row_of[n] + 1]++] = (uint32_t)n;
	return 0;
}

/* ---- rows per column -------------------------------------------------- */

static _Thread_local const perfan_report *sort_ctx; /* for qsort */

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_rows(const void *va, const void *vb)
{
	const struct perfan_report_row *a = va, *b = vb;
	const perfan_report *r = sort_ctx;
	uint64_t wa = r->o.no_children ? a->self : a->total;
	uint64_t wb = r->o.no_children ? b->self : b->total;
	if (wa != wb)
		return wa > wb ? -1 : 1;
	if (!r->o.no_children && a->self != b->self)
		return a->self > b->self ? -1 : 1;
	for (size_t i = 0; i < r->nkeys; i++) {
		int c = 0;
		switch (r->keys[i]) {
		case PERFAN_REPORT_KEY_COMM:
			c = cmp_str(a->comm, b->comm);
			break;
		case PERFAN_REPORT_KEY_PID: {
			int32_t ta = perfan__report_thread(a),
				tb = perfan__report_thread(b);
			c = ta < tb ? -1 : ta > tb;
			if (!c)
				c = cmp_str(a->comm, b->comm);
			break;
		}
		case PERFAN_REPORT_KEY_DSO: c = cmp_str(a->dso, b->dso); break;
		case PERFAN_REPORT_KEY_SYM:
			c = cmp_str(a->sym, b->sym);
			if (!c)
				c = (int)sym_class(a->kind) -
				    (int)sym_class(b->kind);
			break;
		}
		if (c)
			return c;
	}
	return 0;
}

static int build_column(perfan_report *r, size_t col)
{
	const perfan_profile *p = r->p;
	struct column *c = &r->cols[col];
	size_t nn = perfan_profile_nr_nodes(p);
	size_t nr = r->nrows_all;
	c->total = perfan_profile_total(p, col);
	uint64_t *self = calloc(nr ? nr : 1, sizeof(*self));
	uint64_t *total = calloc(nr ? nr : 1, sizeof(*total));
	if (!self || !total) {
		free(self);
		free(total);
		return perfan__nomem("report");
	}
	for (size_t n = 1; n < nn; n++) {
		uint32_t sr = r->node_selfrow[n];
		if (sr != NONE)
			self[sr] += perfan_profile_node_self(p, n, col);
		uint32_t row = r->node_row[n];
		if (row != NONE && r->node_outer[n])
			total[row] += perfan_profile_node_total(p, n, col);
	}
	size_t cnt = 0;
	for (size_t i = 0; i < nr; i++)
		if (r->o.no_children ? self[i] : total[i])
			cnt++;
	c->rows = calloc(cnt ? cnt : 1, sizeof(*c->rows));
	c->row_of = calloc(cnt ? cnt : 1, sizeof(*c->row_of));
	if (!c->rows || !c->row_of) {
		free(self);
		free(total);
		return perfan__nomem("report");
	}
	double t = c->total ? (double)c->total : 1.0;
	/* the bound is a function's, on the time of one process or thread:
	 * not a thread's or a command's, nor on counts or summed waits */
	int bound = r->has_sym && !r->has_pid && perfan__amdahl_holds(p, col);
	size_t k = 0;
	for (size_t i = 0; i < nr; i++) {
		if (!(r->o.no_children ? self[i] : total[i]))
			continue;
		struct perfan_report_row *row = &c->rows[k];
		const struct key *key = &r->rkeys[i];
		const struct perfan_frame *fr =
			perfan_profile_frame_get(p, r->rframe[i]);
		row->comm = key->comm != NONE ? r->strs[key->comm] : NULL;
		row->pid = r->has_pid ? r->rproc[i].pid : -1;
		row->tid = r->has_pid ? r->rproc[i].tid : -1;
		row->dso = r->has_dso ? perfan__report_module(fr) : NULL;
		row->sym = r->has_sym ? fr->name : NULL;
		row->kind = fr->kind;
		row->frame = r->rframe[i];
		row->self = self[i];
		row->total = total[i];
		row->self_percent = 100.0 * (double)self[i] / t;
		row->total_percent = 100.0 * (double)total[i] / t;
		int fn = bound && fr->kind != PERFAN_FRAME_OFFCPU &&
			 fr->kind != PERFAN_FRAME_OTHER;
		row->speedup_self = fn ? perfan__amdahl(self[i], c->total)
				       : NAN;
		row->speedup_total = fn ? perfan__amdahl(total[i], c->total)
					: NAN;
		/* the row id travels with the row through the sort */
		row->frame = r->rframe[i];
		c->row_of[k] = (uint32_t)i;
		k++;
	}
	free(self);
	free(total);
	c->nrows = cnt;
	return 0;
}

/* Sort a column's rows (and their ids with them), then apply
 * percent_limit and limit. */
struct rowpair {
	struct perfan_report_row row;
	uint32_t id;
};

static int cmp_pairs(const void *a, const void *b)
{
	return cmp_rows(&((const struct rowpair *)a)->row,
			&((const struct rowpair *)b)->row);
}

static int sort_column(perfan_report *r, struct column *c)
{
	struct rowpair *v = malloc((c->nrows ? c->nrows : 1) * sizeof(*v));
	if (!v)
		return perfan__nomem("report");
	for (size_t i = 0; i < c->nrows; i++) {
		v[i].row = c->rows[i];
		v[i].id = c->row_of[i];
	}
	sort_ctx = r;
	qsort(v, c->nrows, sizeof(*v), cmp_pairs);
	for (size_t i = 0; i < c->nrows; i++) {
		c->rows[i] = v[i].row;
		c->row_of[i] = v[i].id;
	}
	free(v);
	size_t keep = c->nrows;
	if (r->o.percent_limit > 0) {
		keep = 0;
		while (keep < c->nrows) {
			const struct perfan_report_row *row = &c->rows[keep];
			double pct = r->o.no_children ? row->self_percent
						      : row->total_percent;
			if (pct < r->o.percent_limit)
				break;
			keep++;
		}
	}
	if (r->o.limit && keep > r->o.limit)
		keep = r->o.limit;
	c->nrows = keep;
	return 0;
}

/* ---- the API ------------------------------------------------------------ */

void perfan_report_free(perfan_report *r)
{
	if (!r)
		return;
	perfan__idtab_free(&r->str_tab);
	free(r->strs);
	for (size_t i = 0; i < r->nowned; i++)
		free(r->owned[i]);
	free(r->owned);
	free(r->frame_dso);
	free(r->frame_sym);
	perfan__idtab_free(&r->row_tab);
	free(r->rkeys);
	free(r->rframe);
	free(r->rproc);
	free(r->node_row);
	free(r->node_selfrow);
	free(r->node_outer);
	free(r->outer_start);
	free(r->outer_nodes);
	free(r->self_start);
	free(r->self_nodes);
	for (size_t i = 0; i < r->ncols; i++) {
		free(r->cols[i].rows);
		free(r->cols[i].row_of);
	}
	free(r->cols);
	for (size_t i = 0; i < r->ndsos; i++)
		free(r->dsos[i]);
	free(r->dsos);
	free(r);
}

int perfan_report_new(perfan_report **out, const perfan_profile *p,
		      const struct perfan_report_opts *opts)
{
	if (!out || !p)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_report_new: %s is NULL",
				   out ? "profile" : "out");
	*out = NULL;
	perfan_report *r = calloc(1, sizeof(*r));
	if (!r)
		return perfan__nomem("report");
	r->p = p;
	r->o.sz = sizeof(r->o);
	if (opts) {
		size_t sz = opts->sz < sizeof(r->o) ? opts->sz : sizeof(r->o);
		memcpy(&r->o, opts, sz);
		r->o.sz = sizeof(r->o);
	}
	/* the strings are the caller's: only used here */
	const char *sort = r->o.sort, *dsos = r->o.dsos;
	r->o.sort = r->o.dsos = NULL;
	if (!(r->o.percent_limit >= 0)) /* NaN too */
		r->o.percent_limit = 0;
	int err = parse_sort(r, sort);
	if (!err)
		err = parse_dsos(r, dsos);
	if (!err)
		err = assign_rows(r);
	if (!err)
		err = index_nodes(r, r->node_row, r->node_outer,
				  &r->outer_start, &r->outer_nodes);
	if (!err)
		err = index_nodes(r, r->node_selfrow, NULL, &r->self_start,
				  &r->self_nodes);
	if (!err) {
		r->ncols = perfan_profile_nr_columns(p);
		r->cols = calloc(r->ncols ? r->ncols : 1, sizeof(*r->cols));
		if (!r->cols)
			err = perfan__nomem("report");
	}
	for (size_t c = 0; !err && c < r->ncols; c++) {
		err = build_column(r, c);
		if (!err)
			err = sort_column(r, &r->cols[c]);
	}
	if (err) {
		perfan_report_free(r);
		return err;
	}
	*out = r;
	return 0;
}

size_t perfan_report_keys(const perfan_report *r,
			  const enum perfan_report_key **out)
{
	if (out)
		*out = r ? r->keys : NULL;
	return r ? r->nkeys : 0;
}

size_t perfan_report_nr_columns(const perfan_report *r)
{
	return r ? r->ncols : 0;
}

uint64_t perfan_report_total(const perfan_report *r, size_t col)
{
	return r && col < r->ncols ? r->cols[col].total : 0;
}

size_t perfan_report_nr_rows(const perfan_report *r, size_t col)
{
	return r && col < r->ncols ? r->cols[col].nrows : 0;
}

const struct perfan_report_row *perfan_report_row(const perfan_report *r,
						  size_t col, size_t i)
{
	if (!r || col >= r->ncols || i >= r->cols[col].nrows)
		return NULL;
	return &r->cols[col].rows[i];
}

const perfan_profile *perfan__report_profile(const perfan_report *r)
{
	return r->p;
}

const struct perfan_report_opts *perfan__report_opts(const perfan_report *r)
{
	return &r->o;
}

/* ---- call graphs -------------------------------------------------------- */

void perfan__report_graph_free(struct perfan__report_graph *g)
{
	free(g->frame);
	free(g->w);
	free(g->parent);
	perfan__idtab_free(&g->tab);
	free(g->kid_start);
	free(g->kids);
}

static uint32_t gkey_hash(uint32_t parent, perfan_frame_id f)
{
	return perfan__hash32(
		perfan__hash_u64(((uint64_t)parent << 32) | (uint64_t)f));
}

/* The child of PARENT for frame F (made if new); adds W to it. */
static int gtree_child(struct perfan__report_graph *g, uint32_t parent,
		       perfan_frame_id f, uint64_t w, uint32_t *out)
{
	if (perfan__idtab_reserve(&g->tab))
		return perfan__nomem("report");
	uint32_t h = gkey_hash(parent, f);
	size_t i = perfan__idtab_start(&g->tab, h);
	for (;; i = perfan__idtab_step(&g->tab, i)) {
		struct perfan__idslot *sl = &g->tab.slots[i];
		if (!sl->id1)
			break;
		uint32_t id = sl->id1 - 1;
		if (sl->hash == h && g->parent[id] == parent &&
		    g->frame[id] == f) {
			g->w[id] += w;
			*out = id;
			return 0;
		}
	}
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		perfan_frame_id *nf = realloc(g->frame, cap * sizeof(*nf));
		if (nf)
			g->frame = nf;
		uint64_t *nw = realloc(g->w, cap * sizeof(*nw));
		if (nw)
			g->w = nw;
		uint32_t *np = realloc(g->parent, cap * sizeof(*np));
		if (np)
			g->parent = np;
		if (!nf || !nw || !np)
			return perfan__nomem("report");
		g->cap = cap;
	}
	uint32_t id = (uint32_t)g->n++;
	g->frame[id] = f;
	g->w[id] = w;
	g->parent[id] = parent;
	perfan__idtab_put(&g->tab, i, id, h);
	*out = id;
	return 0;
}

static int gtree_init(struct perfan__report_graph *g, const perfan_profile *p)
{
	memset(g, 0, sizeof(*g));
	g->p = p;
	g->cap = 64;
	g->frame = malloc(g->cap * sizeof(*g->frame));
	g->w = malloc(g->cap * sizeof(*g->w));
	g->parent = malloc(g->cap * sizeof(*g->parent));
	if (!g->frame || !g->w || !g->parent)
		return perfan__nomem("report");
	g->frame[0] = NONE;
	g->w[0] = 0;
	g->parent[0] = NONE;
	g->n = 1;
	return 0;
}

static int is_process(const perfan_profile *p, perfan_node_id n)
{
	return perfan_profile_frame_get(p, perfan_profile_node_frame(p, n))
		       ->kind == PERFAN_FRAME_PROCESS;
}

/* Add the path from N outwards (N first) with weight W under G's root. */
static int add_callers(struct perfan__report_graph *g, perfan_node_id n,
		       uint64_t w)
{
	uint32_t at = 0;
	g->w[0] += w;
	for (; n != PERFAN_ROOT_NODE && !is_process(g->p, n);
	     n = perfan_profile_node_parent(g->p, n)) {
		int err = gtree_child(g, at, perfan_profile_node_frame(g->p, n),
				      w, &at);
		if (err)
			return err;
	}
	return 0;
}

/* Add the path from the outermost frame down to N with weight W; *AT is
 * N's tree node. */
static int add_path_to(struct perfan__report_graph *g, perfan_node_id n,
		       uint64_t w, uint32_t *at, perfan_node_id **buf,
		       size_t *cap)
{
	size_t k = 0;
	for (perfan_node_id m = n;
	     m != PERFAN_ROOT_NODE && !is_process(g->p, m);
	     m = perfan_profile_node_parent(g->p, m)) {
		if (perfan__grow((void **)buf, cap, k + 1, sizeof(**buf)))
			return perfan__nomem("report");
		(*buf)[k++] = m;
	}
	*at = 0;
	g->w[0] += w;
	while (k) {
		int err = gtree_child(
			g, *at, perfan_profile_node_frame(g->p, (*buf)[--k]), w,
			at);
		if (err)
			return err;
	}
	return 0;
}

/* Add the trie below N (N's tree node is AT) with each node's total. */
static int add_callees(struct perfan__report_graph *g, perfan_node_id n,
		       uint32_t at, size_t col)
{
	struct {
		perfan_node_id n;
		uint32_t at;
	} *st = NULL;
	size_t nst = 0, cap = 0;
	int err = 0;
	if (perfan__grow((void **)&st, &cap, 1, sizeof(*st)))
		return perfan__nomem("report");
	st[nst].n = n;
	st[nst].at = at;
	nst++;
	while (nst && !err) {
		perfan_node_id m = st[nst - 1].n;
		uint32_t mat = st[nst - 1].at;
		nst--;
		const perfan_node_id *kids;
		size_t nk = perfan_profile_node_children(g->p, m, &kids);
		for (size_t i = 0; i < nk && !err; i++) {
			uint64_t w =
				perfan_profile_node_total(g->p, kids[i], col);
			if (!w)
				continue;
			uint32_t kat;
			err = gtree_child(g, mat,
					  perfan_profile_node_frame(g->p,
								    kids[i]),
					  w, &kat);
			if (err)
				break;
			if (perfan__grow((void **)&st, &cap, nst + 1,
					 sizeof(*st))) {
				err = perfan__nomem("report");
				break;
			}
			st[nst].n = kids[i];
			st[nst].at = kat;
			nst++;
		}
	}
	free(st);
	return err;
}

static _Thread_local const struct perfan__report_graph *gsort_ctx;

static int cmp_gkids(const void *va, const void *vb)
{
	uint32_t a = *(const uint32_t *)va, b = *(const uint32_t *)vb;
	const struct perfan__report_graph *g = gsort_ctx;
	if (g->w[a] != g->w[b])
		return g->w[a] > g->w[b] ? -1 : 1;
	const struct perfan_frame *fa =
		perfan_profile_frame_get(g->p, g->frame[a]);
	const struct perfan_frame *fb =
		perfan_profile_frame_get(g->p, g->frame[b]);
	int c = strcmp(fa->name, fb->name);
	if (!c)
		c = cmp_str(fa->module, fb->module);
	return c ? c : (a < b ? -1 : a > b);
}

/* Children lists, heaviest first. */
static int gtree_finish(struct perfan__report_graph *g)
{
	g->kid_start = calloc(g->n + 1, sizeof(*g->kid_start));
	g->kids = malloc((g->n ? g->n : 1) * sizeof(*g->kids));
	if (!g->kid_start || !g->kids)
		return perfan__nomem("report");
	for (size_t i = 1; i < g->n; i++)
		g->kid_start[g->parent[i] + 1]++;
	for (size_t i = 0; i < g->n; i++)
		g->kid_start[i + 1] += g->kid_start[i];
	uint32_t *fill = malloc((g->n ? g->n : 1) * sizeof(*fill));
	if (!fill)
		return perfan__nomem("report");
	memcpy(fill, g->kid_start, g->n * sizeof(*fill));
	for (size_t i = 1; i < g->n; i++)
		g->kids[fill[g->parent[i]]++] = (uint32_t)i;
	free(fill);
	gsort_ctx = g;
	for (size_t i = 0; i < g->n; i++)
		qsort(g->kids + g->kid_start[i],
		      g->kid_start[i + 1] - g->kid_start[i], sizeof(*g->kids),
		      cmp_gkids);
	return 0;
}

/* The call graph of row I of column COL. */
int perfan__report_graph_build(const perfan_report *r, size_t col, size_t i,
			       int mode, struct perfan__report_graph *g)
{
	const perfan_profile *p = r->p;
	const struct column *c = &r->cols[col];
	uint32_t row = c->row_of[i];
	perfan_node_id *buf = NULL;
	size_t cap = 0;
	int err = gtree_init(g, p);
	const uint32_t *start = r->o.no_children ? r->self_start
						 : r->outer_start;
	const uint32_t *nodes = r->o.no_children ? r->self_nodes
						 : r->outer_nodes;
	for (uint32_t j = start[row]; j < start[row + 1] && !err; j++) {
		perfan_node_id n = nodes[j];
		if (!r->o.no_children) {
			uint64_t w = perfan_profile_node_total(p, n, col);
			if (!w)
				continue;
			if (mode == PERFAN_REPORT_GRAPH_CALLEE) {
				err = add_callers(g, n, w);
			} else {
				uint32_t at;
				err = add_path_to(g, n, w, &at, &buf, &cap);
				if (!err)
					err = add_callees(g, n, at, col);
			}
		} else {
			uint64_t w = perfan_profile_node_self(p, n, col);
			if (!w)
				continue;
			if (mode == PERFAN_REPORT_GRAPH_CALLEE) {
				/* from the function the code belongs to */
				perfan_node_id f = n;
				while (r->node_row[f] != row &&
				       perfan_profile_node_parent(p, f) !=
					       PERFAN_ROOT_NODE)
					f = perfan_profile_node_parent(p, f);
				err = add_callers(g, f, w);
			} else {
				uint32_t at;
				err = add_path_to(g, n, w, &at, &buf, &cap);
			}
		}
	}
	free(buf);
	if (!err)
		err = gtree_finish(g);
	return err;
}

int perfan__report_graph_visible(const perfan_report *r,
				 const struct perfan__report_graph *g,
				 uint32_t k, uint64_t total)
{
	if (!g->w[k])
		return 0;
	if (r->o.percent_limit <= 0)
		return 1;
	return 100.0 * (double)g->w[k] / (double)(total ? total : 1) >=
	       r->o.percent_limit;
}

size_t perfan__report_graph_nr_visible(const perfan_report *r,
				       const struct perfan__report_graph *g,
				       uint32_t n, uint64_t total)
{
	size_t v = 0;
	for (uint32_t k = g->kid_start[n]; k < g->kid_start[n + 1]; k++)
		v += (size_t)perfan__report_graph_visible(r, g, g->kids[k],
							  total);
	return v;
}

static int walk_graph(const perfan_report *r,
		      const struct perfan__report_graph *g, uint32_t n,
		      uint32_t depth, uint64_t total, perfan_report_graph_fn fn,
		      void *payload)
{
	for (uint32_t k = g->kid_start[n]; k < g->kid_start[n + 1]; k++) {
		uint32_t kid = g->kids[k];
		if (!perfan__report_graph_visible(r, g, kid, total))
			continue;
		struct perfan_report_graph_node gn = {
			.depth = depth,
			.frame = g->frame[kid],
			.weight = g->w[kid],
			.percent = 100.0 * (double)g->w[kid] /
				   (double)(total ? total : 1),
			.nr_children = perfan__report_graph_nr_visible(
				r, g, kid, total),
		};
		int rc = fn(&gn, payload);
		if (!rc)
			rc = walk_graph(r, g, kid, depth + 1, total, fn,
					payload);
		if (rc)
			return rc;
	}
	return 0;
}

int perfan_report_graph_walk(const perfan_report *r, size_t col, size_t i,
			     int mode, perfan_report_graph_fn fn, void *payload)
{
	if (!r || !fn || col >= r->ncols || i >= r->cols[col].nrows ||
	    (mode != PERFAN_REPORT_GRAPH_CALLER &&
	     mode != PERFAN_REPORT_GRAPH_CALLEE))
		return perfan__err(PERFAN_EINVAL,
				   "perfan_report_graph_walk: no such row, "
				   "column or mode");
	struct perfan__report_graph g;
	int err = perfan__report_graph_build(r, col, i, mode, &g);
	if (!err)
		err = walk_graph(r, &g, 0, 1, r->cols[col].total, fn, payload);
	perfan__report_graph_free(&g);
	return err;
}

int perfan_report_check(const struct perfan_report_opts *opts)
{
	perfan_profile *empty = NULL;
	perfan_report *r = NULL;
	int rc = perfan_profile_new(&empty, NULL);
	if (!rc)
		rc = perfan_report_new(&r, empty, opts);
	perfan_report_free(r);
	perfan_profile_free(empty);
	return rc;
}
