/* profile/profile.c: the profile model: strings and frames interned once,
 * stacks in a trie whose children are found by a hash on (parent, frame),
 * one self-weight array per column, totals and sorted children computed on
 * demand, and the samples themselves when asked for. */
#include <stdlib.h>
#include <string.h>

#include <perfan/profile.h>

#include "profile/model.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/log.h"

/* Frames live in fixed chunks so that pointers from
 * perfan_profile_frame_get stay valid as more frames are interned. */
#define FCHUNK_BITS 10
#define FCHUNK (1u << FCHUNK_BITS)

/* Ids are 32-bit; the root and "none" need room at the top. */
#define MAX_IDS (UINT32_MAX - 2)

struct column {
	char *name, *unit;
	uint64_t *self;  /* per node, node_cap long */
	uint64_t *total; /* per node when total_ok */
	int total_ok;
	enum perfan_column_kind kind;
	/* the nodes when the totals were made: nodes added since (by a
	 * stack of another column) have none yet */
	size_t total_nodes;
};

struct perfan_profile {
	int keep_samples;
	struct perfan__arena arena; /* interned strings */
	const char *main_module;    /* interned; NULL: not known */

	/* strings */
	struct perfan__idtab str_tab;
	const char **strs;
	uint32_t *str_len;
	size_t nstrs, strs_cap;

	/* frames */
	struct perfan_frame **fchunks;
	size_t nfchunks;
	uint32_t *fname_len;
	size_t nframes, fname_cap;
	uint8_t *fthread; /* per frame: 1 once a thread was set */
	size_t fthread_cap;
	struct perfan__idtab frame_tab;

	/* trie nodes; node 0 is the root. Children hang in a sibling list;
	 * a node with more than SMALL_FAMILY children also has them in
	 * child_tab, hashed on (parent, frame), and its bit in indexed set. */
	struct perfan__node *nodes;
	size_t nnodes, node_cap;
	uint64_t *indexed;
	struct perfan__idtab child_tab;

	struct column *cols;
	size_t ncols;

	/* children sorted by frame, valid while no node is added */
	int children_ok;
	uint32_t *child_start; /* nnodes + 1 */
	uint32_t *child_list;  /* nnodes - 1 */
	uint32_t *frame_rank;  /* frame id -> position in name order */

	/* the last stack added: consecutive stacks mostly share their
	 * callers, so the walk restarts where they part */
	uint32_t *last_frames, *last_nodes;
	size_t last_n, last_cap;

	struct perfan_profile_sample *samples;
	size_t nsamples, samples_cap;

	/* stacks cut to PERFAN_MAX_STACK_DEPTH, distinct strings cut to
	 * PERFAN_MAX_NAME (perfan_profile_cuts) */
	uint64_t stacks_cut, names_cut;
};

int perfan_profile_new(perfan_profile **out,
		       const struct perfan_profile_opts *opts)
{
	if (!out)
		return perfan__err_null(__func__, "out");
	*out = NULL;
	perfan_profile *p = calloc(1, sizeof(*p));
	if (!p)
		return perfan__nomem("profile");
	if (opts &&
	    opts->sz >= offsetof(struct perfan_profile_opts, keep_samples) +
				sizeof(opts->keep_samples))
		p->keep_samples = opts->keep_samples != 0;
	/* the root */
	p->node_cap = 1024;
	p->nodes = malloc(p->node_cap * sizeof(*p->nodes));
	p->indexed = calloc(p->node_cap / 64, sizeof(*p->indexed));
	if (!p->nodes || !p->indexed) {
		perfan_profile_free(p);
		return perfan__nomem("profile");
	}
	p->nodes[0] =
		(struct perfan__node){PERFAN_ROOT_NODE, UINT32_MAX, 0, 0, 0};
	p->nnodes = 1;
	*out = p;
	return 0;
}

void perfan_profile_free(perfan_profile *p)
{
	if (!p)
		return;
	perfan__arena_free(&p->arena);
	perfan__idtab_free(&p->str_tab);
	free(p->strs);
	free(p->str_len);
	for (size_t i = 0; i < p->nfchunks; i++)
		free(p->fchunks[i]);
	free(p->fchunks);
	free(p->fname_len);
	free(p->fthread);
	perfan__idtab_free(&p->frame_tab);
	free(p->nodes);
	free(p->indexed);
	perfan__idtab_free(&p->child_tab);
	for (size_t i = 0; i < p->ncols; i++) {
		free(p->cols[i].name);
		free(p->cols[i].unit);
		free(p->cols[i].self);
		free(p->cols[i].total);
	}
	free(p->cols);
	free(p->child_start);
	free(p->child_list);
	free(p->frame_rank);
	free(p->last_frames);
	free(p->last_nodes);
	free(p->samples);
	free(p);
}

/* ---- columns ------------------------------------------------------------ */

int perfan_profile_add_column(perfan_profile *p, const char *name,
			      const char *unit)
{
	if (!p || !name)
		return perfan__err_null(__func__, p ? "name" : "profile");
	if (!unit)
		unit = "samples";
	for (size_t i = 0; i < p->ncols; i++)
		if (!strcmp(p->cols[i].name, name) &&
		    !strcmp(p->cols[i].unit, unit))
			return (int)i;
	if (p->ncols >= 65536)
		return perfan__err(PERFAN_EINVAL, "profile: too many columns");
	struct column *nc = realloc(p->cols, (p->ncols + 1) * sizeof(*nc));
	if (!nc)
		return perfan__nomem("profile");
	p->cols = nc;
	struct column *c = &p->cols[p->ncols];
	memset(c, 0, sizeof(*c));
	c->name = strdup(name);
	c->unit = strdup(unit);
	c->self = calloc(p->node_cap, sizeof(*c->self));
	if (!c->name || !c->unit || !c->self) {
		free(c->name);
		free(c->unit);
		free(c->self);
		return perfan__nomem("profile");
	}
	return (int)p->ncols++;
}

size_t perfan_profile_nr_columns(const perfan_profile *p)
{
	return p ? p->ncols : 0;
}

const char *perfan_profile_column_name(const perfan_profile *p, size_t col)
{
	return p && col < p->ncols ? p->cols[col].name : NULL;
}

const char *perfan_profile_column_unit(const perfan_profile *p, size_t col)
{
	return p && col < p->ncols ? p->cols[col].unit : NULL;
}

int perfan_profile_set_column_kind(perfan_profile *p, size_t col,
				   enum perfan_column_kind kind)
{
	if (!p || col >= p->ncols)
		return perfan__err(PERFAN_EINVAL, "%s: no column %zu", __func__,
				   col);
	p->cols[col].kind = kind;
	return 0;
}

enum perfan_column_kind perfan_profile_column_kind(const perfan_profile *p,
						   size_t col)
{
	return p && col < p->ncols ? p->cols[col].kind : PERFAN_COLUMN_EVENT;
}

/* ---- strings and frames -------------------------------------------------- */

static int perfan__profile_str(perfan_profile *p, const char *s, size_t len,
			       const char **out);

int perfan_profile_set_main_module(perfan_profile *p, const char *module)
{
	if (!p)
		return perfan__err_null(__func__, "profile");
	if (!module) {
		p->main_module = NULL;
		return 0;
	}
	return perfan__profile_str(p, module, strlen(module), &p->main_module);
}

const char *perfan_profile_main_module(const perfan_profile *p)
{
	return p ? p->main_module : NULL;
}

/* Intern LEN bytes at S (which need not be NUL-terminated): *OUT is the
 * profile's NUL-terminated copy, the same pointer for the same bytes. */
static int perfan__profile_str(perfan_profile *p, const char *s, size_t len,
			       const char **out)
{
	/* a name longer than the cap: its first bytes (whole UTF-8
	 * characters) and "...", so that one line of a text input cannot
	 * make every output that names it that large */
	char cut[PERFAN_MAX_NAME + 1];
	int was_cut = len > PERFAN_MAX_NAME;
	if (was_cut) {
		size_t k = PERFAN_MAX_NAME - 3;
		while (k && ((unsigned char)s[k] & 0xc0) == 0x80)
			k--; /* not inside a character */
		memcpy(cut, s, k);
		memcpy(cut + k, "...", 3);
		s = cut;
		len = k + 3;
	}
	uint32_t h = perfan__hash32(perfan__hash_mem(s, len));
	if (perfan__idtab_reserve(&p->str_tab))
		return perfan__nomem("profile");
	size_t i = perfan__idtab_start(&p->str_tab, h);
	for (;; i = perfan__idtab_step(&p->str_tab, i)) {
		struct perfan__idslot *sl = &p->str_tab.slots[i];
		if (!sl->id1)
			break;
		uint32_t id = sl->id1 - 1;
		if (sl->hash == h && p->str_len[id] == len &&
		    !memcmp(p->strs[id], s, len)) {
			*out = p->strs[id];
			return 0;
		}
	}
	if (p->nstrs >= MAX_IDS)
		return perfan__err(PERFAN_ENOMEM, "profile: too many strings");
	void **const v[] = {(void **)&p->strs, (void **)&p->str_len};
	const size_t size[] = {sizeof(*p->strs), sizeof(*p->str_len)};
	if (perfan__grow_each(v, size, 2, &p->strs_cap, p->nstrs + 1))
		return perfan__nomem("profile");
	char *copy = perfan__arena_alloc(&p->arena, len + 1);
	if (!copy)
		return perfan__nomem("profile");
	memcpy(copy, s, len);
	copy[len] = '\0';
	p->names_cut += was_cut;
	uint32_t id = (uint32_t)p->nstrs++;
	p->strs[id] = copy;
	p->str_len[id] = (uint32_t)len;
	perfan__idtab_put(&p->str_tab, i, id, h);
	*out = copy;
	return 0;
}

static inline struct perfan_frame *frame_at(const perfan_profile *p,
					    perfan_frame_id id)
{
	return &p->fchunks[id >> FCHUNK_BITS][id & (FCHUNK - 1)];
}

/* A frame's identity beyond its strings, line and kind: what a process
 * frame stands for and an off-CPU leaf's state. */
struct ident {
	const char *comm; /* interned */
	uint32_t root, state, wait;
	int32_t pid, tid; /* the parts ROOT names, else -1 */
};

static const struct ident NO_IDENT = {NULL, 0, 0, 0, -1, -1};

/* A frame made by its name alone: an off-CPU leaf's state not known. */
static const struct ident *plain_ident(uint32_t kind)
{
	static const struct ident no_state = {NULL, 0,  PERFAN_FRAME_NO_STATE,
					      0,    -1, -1};
	return kind == PERFAN_FRAME_OFFCPU ? &no_state : &NO_IDENT;
}

/* The pid and tid a process frame of ROOT is known by. */
static void ident_ids(struct ident *id, int32_t pid, int32_t tid)
{
	id->pid = id->root >= PERFAN_ROOT_PID ? pid : -1;
	id->tid = id->root == PERFAN_ROOT_PID_TID ? tid : -1;
}

static struct ident frame_ident(const struct perfan_frame *f)
{
	struct ident id = {f->comm, f->root, f->state, f->wait, -1, -1};
	ident_ids(&id, f->pid, f->tid);
	return id;
}

static int ident_eq(const struct ident *a, const struct ident *b)
{
	return a->comm == b->comm && a->root == b->root &&
	       a->state == b->state && a->wait == b->wait && a->pid == b->pid &&
	       a->tid == b->tid;
}

/* Interned strings are unique, so a frame hashes and compares by the
 * addresses of its strings. */
static uint32_t frame_hash(const char *name, const char *module,
			   const char *file, uint32_t line, uint32_t kind,
			   const struct ident *id)
{
	uint64_t h = perfan__hash_u64((uintptr_t)name);
	h = perfan__hash_u64(h ^ (uintptr_t)module);
	h = perfan__hash_u64(h ^ (uintptr_t)file);
	h = perfan__hash_u64(h ^ ((uint64_t)line << 8 | kind));
	if (id->root || id->state)
		h = perfan__hash_u64(
			h ^
			((uint64_t)(uint32_t)id->pid << 32 |
			 (uint32_t)id->tid) ^
			(id->wait << 16 | id->state << 2 | id->root));
	return perfan__hash32(h);
}

static int frame_intern(perfan_profile *p, perfan_frame_id *out,
			const char *name, const char *module, const char *file,
			uint32_t line, uint32_t kind, const struct ident *ident)
{
	uint32_t h = frame_hash(name, module, file, line, kind, ident);
	if (perfan__idtab_reserve(&p->frame_tab))
		return perfan__nomem("profile");
	size_t i = perfan__idtab_start(&p->frame_tab, h);
	for (;; i = perfan__idtab_step(&p->frame_tab, i)) {
		struct perfan__idslot *sl = &p->frame_tab.slots[i];
		if (!sl->id1)
			break;
		if (sl->hash != h)
			continue;
		const struct perfan_frame *f = frame_at(p, sl->id1 - 1);
		struct ident fid = frame_ident(f);
		if (f->name == name && f->module == module && f->file == file &&
		    f->line == line && f->kind == kind &&
		    ident_eq(&fid, ident)) {
			*out = sl->id1 - 1;
			return 0;
		}
	}
	if (p->nframes >= MAX_IDS)
		return perfan__err(PERFAN_ENOMEM, "profile: too many frames");
	uint32_t id = (uint32_t)p->nframes;
	if ((id & (FCHUNK - 1)) == 0) {
		struct perfan_frame **nc =
			realloc(p->fchunks, (p->nfchunks + 1) * sizeof(*nc));
		if (!nc)
			return perfan__nomem("profile");
		p->fchunks = nc;
		nc[p->nfchunks] = malloc(FCHUNK * sizeof(**nc));
		if (!nc[p->nfchunks])
			return perfan__nomem("profile");
		p->nfchunks++;
	}
	if (perfan__grow((void **)&p->fname_len, &p->fname_cap, p->nframes + 1,
			 sizeof(*p->fname_len)))
		return perfan__nomem("profile");
	struct perfan_frame *f = frame_at(p, id);
	f->name = name;
	f->module = module;
	f->file = file;
	f->line = line;
	f->kind = kind;
	f->pid = ident->pid;
	f->tid = ident->tid;
	f->comm = ident->comm;
	f->root = ident->root;
	f->state = ident->state;
	f->wait = ident->wait;
	p->fname_len[id] = (uint32_t)strlen(name);
	p->nframes++;
	perfan__idtab_put(&p->frame_tab, i, id, h);
	/* a new frame changes the name order */
	p->children_ok = 0;
	*out = id;
	return 0;
}

int perfan_profile_frame(perfan_profile *p, perfan_frame_id *out,
			 const char *name, const char *module, const char *file,
			 uint32_t line, uint32_t kind)
{
	if (!p || !out || !name)
		return perfan__err_null(__func__, !p     ? "profile"
						  : !out ? "out"
							 : "name");
	if (kind > PERFAN_FRAME_OFFCPU)
		return perfan__err(
			PERFAN_EINVAL,
			"perfan_profile_frame: unknown frame kind %u", kind);
	const char *n, *m = NULL, *f = NULL;
	int rc = perfan__profile_str(p, name, strlen(name), &n);
	if (!rc && module)
		rc = perfan__profile_str(p, module, strlen(module), &m);
	if (!rc && file)
		rc = perfan__profile_str(p, file, strlen(file), &f);
	if (rc)
		return rc;
	return frame_intern(p, out, n, m, f, line, kind, plain_ident(kind));
}

int perfan__profile_frame_n(perfan_profile *p, perfan_frame_id *out,
			    const char *name, size_t name_len,
			    const char *module, size_t module_len,
			    uint32_t kind)
{
	const char *n, *m = NULL;
	int rc = perfan__profile_str(p, name, name_len, &n);
	if (!rc && module)
		rc = perfan__profile_str(p, module, module_len, &m);
	if (rc)
		return rc;
	return frame_intern(p, out, n, m, NULL, 0, kind, plain_ident(kind));
}

uint64_t perfan__fcache_hash(const char *name, size_t name_len,
			     const char *module, size_t module_len,
			     uint32_t kind)
{
	uint64_t h = perfan__hash_mem(name, name_len);
	if (module)
		h ^= perfan__hash_u64(perfan__hash_mem(module, module_len) + 1);
	return (h ^ kind) | 1; /* 0 marks an empty entry */
}

/* memcmp(a, b, n) == 0 for the short strings of frame names, without a
 * call: 8 bytes at a time, the last 8 overlapping. */
static inline int eq_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	if (n < 8) {
		for (size_t i = 0; i < n; i++)
			if (a[i] != b[i])
				return 0;
		return 1;
	}
	for (size_t i = 0; i + 8 < n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return 0;
	}
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

static inline int fcache_hit(const struct perfan__fcache_entry *e,
			     uint64_t hash, const char *name, size_t name_len,
			     const char *module, size_t module_len,
			     uint32_t kind)
{
	return e->hash == hash && e->len == name_len && e->kind == kind &&
	       eq_bytes(e->name, name, name_len) &&
	       (module ? e->module && e->mlen == module_len &&
				 eq_bytes(e->module, module, module_len)
		       : !e->module);
}

int perfan__fcache_init(struct perfan__fcache *c)
{
	c->misses = 0;
	c->mask = PERFAN__FCACHE_MIN - 2;
	c->e = calloc(PERFAN__FCACHE_MIN, sizeof(*c->e));
	return c->e ? 0 : PERFAN_ENOMEM;
}

void perfan__fcache_free(struct perfan__fcache *c)
{
	free(c->e);
	c->e = NULL;
}

/* CACHE four times larger, its entries kept (the one used last first);
 * nonzero, and CACHE as it was, when there is no memory for it. */
static int fcache_grow(struct perfan__fcache *c)
{
	size_t n = (size_t)c->mask + 2, m = n * 4;
	struct perfan__fcache_entry *e = calloc(m, sizeof(*e));
	if (!e)
		return -1;
	for (size_t set = 0; set < n; set += 2)
		for (size_t way = 2; way-- > 0;) { /* the older way first */
			const struct perfan__fcache_entry *o = &c->e[set + way];
			if (!o->hash)
				continue;
			struct perfan__fcache_entry *s =
				&e[(o->hash >> 20) & (uint32_t)(m - 2)];
			s[1] = s[0];
			s[0] = *o;
		}
	free(c->e);
	c->e = e;
	c->mask = (uint32_t)(m - 2);
	c->misses = 0;
	return 0;
}

int perfan__profile_frame_cached(perfan_profile *p,
				 struct perfan__fcache *cache, uint64_t hash,
				 perfan_frame_id *out, const char *name,
				 size_t name_len, const char *module,
				 size_t module_len, uint32_t kind)
{
	/* two ways, the one used last first */
	struct perfan__fcache_entry *e = &cache->e[(hash >> 20) & cache->mask];
	if (fcache_hit(&e[0], hash, name, name_len, module, module_len, kind)) {
		*out = e[0].frame;
		return 0;
	}
	if (fcache_hit(&e[1], hash, name, name_len, module, module_len, kind)) {
		struct perfan__fcache_entry t = e[1];
		e[1] = e[0];
		e[0] = t;
		*out = t.frame;
		return 0;
	}
	int rc = perfan__profile_frame_n(p, out, name, name_len, module,
					 module_len, kind);
	if (rc)
		return rc;
	const struct perfan_frame *f = frame_at(p, *out);
	if (p->fname_len[*out] != name_len ||
	    (module && strlen(f->module) != module_len))
		return 0; /* cut (PERFAN_MAX_NAME): the entry compares whole */
	if (++cache->misses > cache->mask + 2 &&
	    cache->mask + 2 < PERFAN__FCACHE_MAX && !fcache_grow(cache))
		e = &cache->e[(hash >> 20) & cache->mask];
	e[1] = e[0];
	e[0] = (struct perfan__fcache_entry){hash,
					     f->name,
					     f->module,
					     (uint32_t)name_len,
					     (uint32_t)module_len,
					     kind,
					     *out};
	return 0;
}

int perfan_profile_frame_thread(perfan_profile *p, perfan_frame_id id,
				int32_t pid, int32_t tid)
{
	if (!p || id >= p->nframes)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_profile_frame_thread: no frame %u",
				   (unsigned)id);
	size_t old = p->fthread_cap;
	if (id >= old) {
		if (perfan__grow((void **)&p->fthread, &p->fthread_cap,
				 (size_t)id + 1, 1))
			return perfan__nomem("profile");
		memset(p->fthread + old, 0, p->fthread_cap - old);
	}
	struct perfan_frame *f = frame_at(p, id);
	/* the ids a frame is known by stay (they key it in frame_tab) */
	struct ident known = frame_ident(f);
	if (!p->fthread[id]) {
		p->fthread[id] = 1;
		f->pid = pid;
		f->tid = tid;
	} else {
		if (f->pid != pid)
			f->pid = -1;
		if (f->tid != tid)
			f->tid = -1;
	}
	if (known.root >= PERFAN_ROOT_PID)
		f->pid = known.pid;
	if (known.root == PERFAN_ROOT_PID_TID)
		f->tid = known.tid;
	return 0;
}

/* "comm", "comm-PID" or "comm-PID/TID" as stackcollapse-perf.pl writes a
 * root: spaces in the comm made '_', a pid not known "?". */
static int process_name(char *buf, size_t size, enum perfan_process_root root,
			const char *comm, int32_t pid, int32_t tid)
{
	char c[64], p_[16];
	if (comm)
		snprintf(c, sizeof(c), "%s", comm);
	else
		snprintf(c, sizeof(c), ":%d", tid);
	for (char *x = c; *x; x++)
		if (*x == ' ')
			*x = '_';
	if (pid >= 0)
		snprintf(p_, sizeof(p_), "%d", pid);
	else
		snprintf(p_, sizeof(p_), "?");
	switch (root) {
	case PERFAN_ROOT_PID: return snprintf(buf, size, "%s-%s", c, p_);
	case PERFAN_ROOT_PID_TID:
		return snprintf(buf, size, "%s-%s/%d", c, p_, tid);
	default: return snprintf(buf, size, "%s", c);
	}
}

int perfan_profile_process_frame(perfan_profile *p, perfan_frame_id *out,
				 enum perfan_process_root root,
				 const char *comm, int32_t pid, int32_t tid)
{
	if (!p || !out)
		return perfan__err_null(__func__, p ? "out" : "profile");
	if ((unsigned)root > PERFAN_ROOT_PID_TID)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_profile_process_frame: root %d",
				   (int)root);
	if (root == PERFAN_ROOT_NONE)
		root = PERFAN_ROOT_COMM;
	if (root == PERFAN_ROOT_PID_TID && tid < 0)
		root = PERFAN_ROOT_PID;
	char buf[128];
	int len = process_name(buf, sizeof(buf), root, comm, pid, tid);
	if (len >= (int)sizeof(buf))
		len = (int)sizeof(buf) - 1;
	/* a thread never named is known as perf shows it, ":TID" */
	char unnamed[16];
	if (!comm) {
		snprintf(unnamed, sizeof(unnamed), ":%d", tid);
		comm = unnamed;
	}
	const char *n, *c;
	struct ident id = {NULL, root, 0, 0, -1, -1};
	ident_ids(&id, pid, tid);
	int rc = perfan__profile_str(p, buf, (size_t)len, &n);
	if (!rc)
		rc = perfan__profile_str(p, comm, strlen(comm), &c);
	if (rc)
		return rc;
	id.comm = c;
	rc = frame_intern(p, out, n, NULL, NULL, 0, PERFAN_FRAME_PROCESS, &id);
	return rc ? rc : perfan_profile_frame_thread(p, *out, pid, tid);
}

int perfan_profile_offcpu_frame(perfan_profile *p, perfan_frame_id *out,
				uint32_t state, const char *name)
{
	return perfan_profile_wait_frame(p, out, state, 0, name);
}

int perfan_profile_wait_frame(perfan_profile *p, perfan_frame_id *out,
			      uint32_t state, uint32_t wait, const char *name)
{
	if (!p || !out || !name)
		return perfan__err_null(__func__, !p     ? "profile"
						  : !out ? "out"
							 : "name");
	const char *n;
	int rc = perfan__profile_str(p, name, strlen(name), &n);
	if (rc)
		return rc;
	struct ident id = NO_IDENT;
	id.state = state;
	id.wait = wait;
	return frame_intern(p, out, n, NULL, NULL, 0, PERFAN_FRAME_OFFCPU, &id);
}

int perfan_profile_frame_copy(perfan_profile *dst, perfan_frame_id *out,
			      const perfan_profile *src, perfan_frame_id s)
{
	if (!dst || !out || !src || s >= src->nframes)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_profile_frame_copy: no frame %u",
				   (unsigned)s);
	const struct perfan_frame *f = frame_at(src, s);
	const char *n, *m = NULL, *fl = NULL;
	struct ident id = frame_ident(f);
	int rc = perfan__profile_str(dst, f->name, src->fname_len[s], &n);
	if (!rc && f->module)
		rc = perfan__profile_str(dst, f->module, strlen(f->module), &m);
	if (!rc && f->file)
		rc = perfan__profile_str(dst, f->file, strlen(f->file), &fl);
	if (!rc && f->comm)
		rc = perfan__profile_str(dst, f->comm, strlen(f->comm),
					 &id.comm);
	if (!rc)
		rc = frame_intern(dst, out, n, m, fl, f->line, f->kind, &id);
	if (rc || s >= src->fthread_cap || !src->fthread[s])
		return rc;
	return perfan_profile_frame_thread(dst, *out, f->pid, f->tid);
}

const struct perfan_frame *perfan_profile_frame_get(const perfan_profile *p,
						    perfan_frame_id id)
{
	if (!p || id >= p->nframes)
		return NULL;
	return frame_at(p, id);
}

size_t perfan__profile_frame_name_len(const perfan_profile *p,
				      perfan_frame_id id)
{
	return p->fname_len[id];
}

size_t perfan_profile_nr_frames(const perfan_profile *p)
{
	return p ? p->nframes : 0;
}

void perfan_profile_cuts(const perfan_profile *p, uint64_t *stacks,
			 uint64_t *names)
{
	if (stacks)
		*stacks = p ? p->stacks_cut : 0;
	if (names)
		*names = p ? p->names_cut : 0;
}

/* ---- the trie ------------------------------------------------------------ */

/* Families up to this size are searched along their sibling list, which
 * costs nothing to build; larger ones are hashed. Most nodes have a few
 * children, and a new node (most of the work when a profile is loaded)
 * is then just appended. */
#define SMALL_FAMILY 16

static inline int is_indexed(const perfan_profile *p, uint32_t n)
{
	return (p->indexed[n >> 6] >> (n & 63)) & 1;
}

static uint32_t child_hash(uint32_t parent, uint32_t frame)
{
	return perfan__hash32(
		perfan__hash_u64(((uint64_t)parent << 32) | frame));
}

static int grow_nodes(perfan_profile *p)
{
	if (p->nnodes < p->node_cap)
		return 0;
	if (p->nnodes >= MAX_IDS)
		return perfan__err(PERFAN_ENOMEM,
				   "profile: too many stack nodes");
	size_t ncap = p->node_cap * 2;
	struct perfan__node *nn = realloc(p->nodes, ncap * sizeof(*nn));
	if (!nn)
		return perfan__nomem("profile");
	p->nodes = nn;
	uint64_t *ix = realloc(p->indexed, ncap / 64 * sizeof(*ix));
	if (!ix)
		return perfan__nomem("profile");
	memset(ix + p->node_cap / 64, 0,
	       (ncap - p->node_cap) / 64 * sizeof(*ix));
	p->indexed = ix;
	for (size_t c = 0; c < p->ncols; c++) {
		uint64_t *s = realloc(p->cols[c].self, ncap * sizeof(*s));
		if (!s)
			return perfan__nomem("profile");
		memset(s + p->node_cap, 0, (ncap - p->node_cap) * sizeof(*s));
		p->cols[c].self = s;
		/* totals are recomputed at full size when next asked */
		free(p->cols[c].total);
		p->cols[c].total = NULL;
		p->cols[c].total_ok = 0;
	}
	p->node_cap = ncap;
	return 0;
}

/* Put N into child_tab. */
static int index_child(perfan_profile *p, uint32_t n)
{
	uint32_t h = child_hash(p->nodes[n].parent, p->nodes[n].frame);
	if (perfan__idtab_reserve(&p->child_tab))
		return perfan__nomem("profile");
	size_t i = perfan__idtab_start(&p->child_tab, h);
	while (p->child_tab.slots[i].id1)
		i = perfan__idtab_step(&p->child_tab, i);
	perfan__idtab_put(&p->child_tab, i, n, h);
	return 0;
}

static int new_child(perfan_profile *p, uint32_t parent, uint32_t frame,
		     uint32_t *out)
{
	int rc = grow_nodes(p);
	if (rc)
		return rc;
	uint32_t n = (uint32_t)p->nnodes++;
	struct perfan__node *par = &p->nodes[parent];
	p->nodes[n] = (struct perfan__node){parent, frame, 0, par->first_child,
					    par->depth + 1};
	par->first_child = n;
	p->children_ok = 0;
	*out = n;
	return 0;
}

/* The child of PARENT with FRAME, created if absent. */
static int child(perfan_profile *p, uint32_t parent, uint32_t frame,
		 uint32_t *out)
{
	struct perfan__node *nodes = p->nodes;
	if (is_indexed(p, parent)) {
		uint32_t h = child_hash(parent, frame);
		size_t i = perfan__idtab_start(&p->child_tab, h);
		for (;; i = perfan__idtab_step(&p->child_tab, i)) {
			struct perfan__idslot *sl = &p->child_tab.slots[i];
			if (!sl->id1)
				break;
			uint32_t n = sl->id1 - 1;
			if (sl->hash == h && nodes[n].parent == parent &&
			    nodes[n].frame == frame) {
				*out = n;
				return 0;
			}
		}
		int rc = new_child(p, parent, frame, out);
		return rc ? rc : index_child(p, *out);
	}
	uint32_t prev = 0, count = 0;
	for (uint32_t c = nodes[parent].first_child; c;
	     prev = c, c = nodes[c].next_sibling, count++) {
		if (nodes[c].frame != frame)
			continue;
		if (prev) { /* to the front: stacks repeat */
			nodes[prev].next_sibling = nodes[c].next_sibling;
			nodes[c].next_sibling = nodes[parent].first_child;
			nodes[parent].first_child = c;
		}
		*out = c;
		return 0;
	}
	int rc = new_child(p, parent, frame, out);
	if (rc || count + 1 <= SMALL_FAMILY)
		return rc;
	/* the family outgrew its list */
	for (uint32_t c = p->nodes[parent].first_child; c;
	     c = p->nodes[c].next_sibling)
		if ((rc = index_child(p, c)))
			return rc;
	p->indexed[parent >> 6] |= (uint64_t)1 << (parent & 63);
	return 0;
}

/* WEIGHT on NODE in column COL, and the sample kept if samples are. */
static int add_weight(perfan_profile *p, uint32_t node, size_t col,
		      uint64_t weight, const struct perfan_sample_meta *meta)
{
	struct column *c = &p->cols[col];
	c->self[node] = perfan__sat_add(c->self[node], weight);
	c->total_ok = 0;
	if (p->keep_samples) {
		if (perfan__grow((void **)&p->samples, &p->samples_cap,
				 p->nsamples + 1, sizeof(*p->samples)))
			return perfan__nomem("profile");
		struct perfan_profile_sample *s = &p->samples[p->nsamples++];
		s->leaf = node;
		s->col = (uint32_t)col;
		s->weight = weight;
		if (meta) {
			s->meta = *meta;
		} else {
			s->meta.time = 0;
			s->meta.pid = s->meta.tid = s->meta.cpu = -1;
		}
	}
	return 0;
}

int perfan_profile_add(perfan_profile *p, const perfan_frame_id *frames,
		       size_t n, size_t col, uint64_t weight,
		       const struct perfan_sample_meta *meta,
		       perfan_node_id *leaf)
{
	if (!p || (n && !frames))
		return perfan__err_null(__func__, p ? "frames" : "profile");
	if (col >= p->ncols)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_profile_add: column %zu of %zu", col,
				   p->ncols);
	if (n > PERFAN_MAX_STACK_DEPTH) {
		n = PERFAN_MAX_STACK_DEPTH; /* its root side is kept */
		p->stacks_cut++;
	}
	size_t k = 0, lim = n < p->last_n ? n : p->last_n;
	while (k < lim && frames[k] == p->last_frames[k])
		k++;
	for (size_t i = k; i < n; i++)
		if (frames[i] >= p->nframes)
			return perfan__err(
				PERFAN_EINVAL,
				"perfan_profile_add: frame %u of %zu",
				frames[i], p->nframes);
	void **const last[] = {(void **)&p->last_frames,
			       (void **)&p->last_nodes};
	const size_t last_size[] = {sizeof(*p->last_frames),
				    sizeof(*p->last_nodes)};
	if (perfan__grow_each(last, last_size, 2, &p->last_cap, n))
		return perfan__nomem("profile");
	uint32_t node = k ? p->last_nodes[k - 1] : PERFAN_ROOT_NODE;
	for (size_t i = k; i < n; i++) {
		int rc = child(p, node, frames[i], &node);
		if (rc) {
			p->last_n = i; /* what is cached is still right */
			return rc;
		}
		p->last_frames[i] = frames[i];
		p->last_nodes[i] = node;
	}
	p->last_n = n;
	if (leaf)
		*leaf = node;
	return add_weight(p, node, col, weight, meta);
}

int perfan__profile_add_at(perfan_profile *p, perfan_node_id node, size_t col,
			   uint64_t weight,
			   const struct perfan_sample_meta *meta)
{
	if (node >= p->nnodes || col >= p->ncols)
		return perfan__err(PERFAN_EINVAL,
				   "profile: weight at node %u, column %zu",
				   node, col);
	return add_weight(p, node, col, weight, meta);
}

static const uint64_t *totals(const perfan_profile *cp, size_t col);

/* A walk of SRC's trie, depth first, so that consecutive stacks share
 * their callers and perfan_profile_add reuses DST's path for them. */
int perfan_profile_merge(perfan_profile *dst, size_t dst_col,
			 const perfan_profile *src, size_t src_col)
{
	if (!dst || !src)
		return perfan__err_null(__func__, dst ? "src" : "dst");
	if (dst == src)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_profile_merge: dst and src are the "
				   "same profile");
	if (dst_col >= dst->ncols || src_col >= src->ncols)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_profile_merge: %s column %zu of %zu",
				   dst_col >= dst->ncols ? "dst" : "src",
				   dst_col >= dst->ncols ? dst_col : src_col,
				   dst_col >= dst->ncols ? dst->ncols
							 : src->ncols);
	/* subtrees without weight in the column are passed by; without the
	 * totals (no memory for them) every node is visited */
	const uint64_t *tot = totals(src, src_col);
	const uint64_t *self = src->cols[src_col].self;
	perfan_frame_id *map =
		malloc((src->nframes ? src->nframes : 1) * sizeof(*map));
	uint32_t *stack = NULL, *path = NULL;
	size_t nst = 0, st_cap = 0, path_cap = 0;
	int rc = 0;
	if (!map || perfan__grow((void **)&stack, &st_cap, 1, sizeof(*stack)))
		rc = perfan__nomem("profile");
	for (size_t i = 0; !rc && i < src->nframes; i++)
		map[i] = UINT32_MAX; /* not interned in DST yet */
	if (!rc)
		stack[nst++] = PERFAN_ROOT_NODE;
	while (!rc && nst) {
		uint32_t x = stack[--nst];
		uint32_t d = src->nodes[x].depth;
		if (x != PERFAN_ROOT_NODE) {
			uint32_t f = src->nodes[x].frame;
			if (map[f] == UINT32_MAX &&
			    (rc = perfan_profile_frame_copy(dst, &map[f], src,
							    f)))
				break;
			if (d > path_cap &&
			    perfan__grow((void **)&path, &path_cap, d,
					 sizeof(*path))) {
				rc = perfan__nomem("profile");
				break;
			}
			path[d - 1] = map[f];
		}
		if (self[x] && (rc = perfan_profile_add(dst, path, d, dst_col,
							self[x], NULL, NULL)))
			break;
		for (uint32_t c = src->nodes[x].first_child; c;
		     c = src->nodes[c].next_sibling) {
			if (tot && !tot[c])
				continue;
			if (nst == st_cap &&
			    perfan__grow((void **)&stack, &st_cap, nst + 1,
					 sizeof(*stack))) {
				rc = perfan__nomem("profile");
				break;
			}
			stack[nst++] = c;
		}
	}
	free(map);
	free(stack);
	free(path);
	return rc;
}

size_t perfan_profile_nr_nodes(const perfan_profile *p)
{
	return p ? p->nnodes : 0;
}

perfan_frame_id perfan_profile_node_frame(const perfan_profile *p,
					  perfan_node_id n)
{
	if (!p || n >= p->nnodes)
		return UINT32_MAX;
	return p->nodes[n].frame;
}

perfan_node_id perfan_profile_node_parent(const perfan_profile *p,
					  perfan_node_id n)
{
	if (!p || n >= p->nnodes)
		return PERFAN_ROOT_NODE;
	return p->nodes[n].parent;
}

uint32_t perfan_profile_node_depth(const perfan_profile *p, perfan_node_id n)
{
	if (!p || n >= p->nnodes)
		return 0;
	return p->nodes[n].depth;
}

uint64_t perfan_profile_node_self(const perfan_profile *p, perfan_node_id n,
				  size_t col)
{
	if (!p || n >= p->nnodes || col >= p->ncols)
		return 0;
	return p->cols[col].self[n];
}

/* Totals in one pass from the last node back: a child's id is always
 * larger than its parent's. The cache is logically const. */
static const uint64_t *totals(const perfan_profile *cp, size_t col)
{
	perfan_profile *p = (perfan_profile *)cp;
	struct column *c = &p->cols[col];
	if (c->total_ok && c->total_nodes == p->nnodes)
		return c->total;
	if (!c->total) {
		c->total = malloc(p->node_cap * sizeof(*c->total));
		if (!c->total)
			return NULL;
	}
	memcpy(c->total, c->self, p->nnodes * sizeof(*c->total));
	for (size_t n = p->nnodes - 1; n > 0; n--) {
		uint32_t par = p->nodes[n].parent;
		c->total[par] = perfan__sat_add(c->total[par], c->total[n]);
	}
	c->total_ok = 1;
	c->total_nodes = p->nnodes;
	return c->total;
}

uint64_t perfan_profile_node_total(const perfan_profile *p, perfan_node_id n,
				   size_t col)
{
	if (!p || n >= p->nnodes || col >= p->ncols)
		return 0;
	const uint64_t *t = totals(p, col);
	if (!t) {
		perfan__nomem("profile");
		return 0;
	}
	return t[n];
}

uint64_t perfan_profile_total(const perfan_profile *p, size_t col)
{
	return perfan_profile_node_total(p, PERFAN_ROOT_NODE, col);
}

/* ---- sorted children ------------------------------------------------------ */

static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

struct fref {
	const struct perfan_frame *f;
	uint32_t id;
};

static int cmp_frame(const void *va, const void *vb)
{
	const struct fref *a = va, *b = vb;
	int r = strcmp(a->f->name, b->f->name);
	if (!r)
		r = cmp_str(a->f->module, b->f->module);
	if (!r)
		r = cmp_str(a->f->file, b->f->file);
	if (!r)
		r = a->f->line < b->f->line ? -1 : a->f->line > b->f->line;
	if (!r)
		r = a->f->kind < b->f->kind ? -1 : a->f->kind > b->f->kind;
	/* frames that share a name and differ in identity: by their ids,
	 * which follow interning */
	if (!r)
		r = a->id < b->id ? -1 : a->id > b->id;
	return r;
}

static int cmp_u64(const void *va, const void *vb)
{
	uint64_t a = *(const uint64_t *)va, b = *(const uint64_t *)vb;
	return a < b ? -1 : a > b;
}

static int build_children(perfan_profile *p)
{
	size_t nf = p->nframes, nn = p->nnodes;
	struct fref *refs = malloc((nf ? nf : 1) * sizeof(*refs));
	uint32_t *rank = realloc(p->frame_rank, (nf ? nf : 1) * sizeof(*rank));
	if (rank)
		p->frame_rank = rank;
	uint32_t *start = realloc(p->child_start, (nn + 1) * sizeof(*start));
	if (start)
		p->child_start = start;
	uint32_t *list = realloc(p->child_list, nn * sizeof(*list));
	if (list)
		p->child_list = list;
	uint64_t *keys = NULL;
	if (!refs || !rank || !start || !list)
		goto oom;
	for (size_t i = 0; i < nf; i++) {
		refs[i].f = frame_at(p, (uint32_t)i);
		refs[i].id = (uint32_t)i;
	}
	if (nf)
		qsort(refs, nf, sizeof(*refs), cmp_frame);
	for (size_t i = 0; i < nf; i++)
		rank[refs[i].id] = (uint32_t)i;
	free(refs);
	refs = NULL;

	/* counting sort by parent, then each family by frame rank */
	memset(start, 0, (nn + 1) * sizeof(*start));
	for (size_t n = 1; n < nn; n++)
		start[p->nodes[n].parent + 1]++;
	for (size_t n = 0; n < nn; n++)
		start[n + 1] += start[n];
	size_t maxfam = 0;
	for (size_t n = 0; n < nn; n++) {
		size_t fam = start[n + 1] - start[n];
		if (fam > maxfam)
			maxfam = fam;
	}
	keys = malloc((maxfam ? maxfam : 1) * sizeof(*keys));
	if (!keys)
		goto oom;
	/* fill using start[] as cursors, then shift back */
	for (size_t n = 1; n < nn; n++)
		list[start[p->nodes[n].parent]++] = (uint32_t)n;
	for (size_t n = nn; n > 0; n--)
		start[n] = start[n - 1];
	start[0] = 0;
	for (size_t n = 0; n < nn; n++) {
		uint32_t b = start[n], e = start[n + 1];
		if (e - b < 2)
			continue;
		for (uint32_t i = b; i < e; i++)
			keys[i - b] = (uint64_t)rank[p->nodes[list[i]].frame]
					      << 32 |
				      list[i];
		qsort(keys, e - b, sizeof(*keys), cmp_u64);
		for (uint32_t i = b; i < e; i++)
			list[i] = (uint32_t)keys[i - b];
	}
	free(keys);
	p->children_ok = 1;
	return 0;
oom:
	free(refs);
	free(keys);
	return perfan__nomem("profile");
}

size_t perfan_profile_node_children(const perfan_profile *cp, perfan_node_id n,
				    const perfan_node_id **out)
{
	perfan_profile *p = (perfan_profile *)cp;
	if (out)
		*out = NULL;
	if (!p || n >= p->nnodes || !out)
		return 0;
	if (!p->children_ok && build_children(p))
		return 0;
	*out = p->child_list + p->child_start[n];
	return p->child_start[n + 1] - p->child_start[n];
}

/* ---- samples --------------------------------------------------------------- */

size_t perfan_profile_nr_samples(const perfan_profile *p)
{
	return p ? p->nsamples : 0;
}

const struct perfan_profile_sample *
perfan_profile_sample_get(const perfan_profile *p, size_t i)
{
	if (!p || i >= p->nsamples)
		return NULL;
	return &p->samples[i];
}

int perfan__profile_push_sample(perfan_profile *p,
				const struct perfan_profile_sample *s)
{
	if (s->leaf >= p->nnodes || s->col >= p->ncols)
		return perfan__err(PERFAN_EINVAL,
				   "profile: sample at node %u, column %u",
				   s->leaf, s->col);
	if (perfan__grow((void **)&p->samples, &p->samples_cap, p->nsamples + 1,
			 sizeof(*p->samples)))
		return perfan__nomem("profile");
	p->samples[p->nsamples++] = *s;
	p->keep_samples = 1; /* what is added later is kept too */
	return 0;
}

/* ---- for the readers and writers of this folder ----------------------------- */

const struct perfan__node *perfan__profile_nodes(const perfan_profile *p)
{
	return p->nodes;
}

const uint64_t *perfan__profile_self(const perfan_profile *p, size_t col)
{
	return col < p->ncols ? p->cols[col].self : NULL;
}
