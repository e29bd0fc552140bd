/* analysis/threadnames.c: each thread's name, role and pool
 * (perfan/threadnames.h), from the first Python function of its stacks
 * past threading's start-up and from its comm. */
#include <stdlib.h>
#include <string.h>

#include <perfan/python.h>
#include <perfan/threadnames.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"
#include "util/opts.h"

/* A role candidate of one thread. */
struct cand {
	const char *role; /* in the arena */
	double weight;
	int whole; /* its stacks reach the thread's start */
};

struct nthread {
	struct perfan_thread_name n;
	double comm_weight;
	struct cand *c;
	size_t nc, cap;
};

struct perfan_thread_names {
	struct perfan_thread_names_opts o;
	struct nthread *t;
	size_t n, cap;
	struct perfan__htab by_tid; /* (pid << 32 | tid) -> index */
	struct perfan_thread_name *out;
	struct perfan_thread_pool *pools;
	size_t npools, pool_cap;
	struct perfan__arena arena;
};

static uint64_t key_of(int32_t pid, int32_t tid)
{
	return (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
}

static const char *keep(perfan_thread_names *n, const char *s, size_t len)
{
	return perfan__arena_strndup(&n->arena, s, len);
}

static struct nthread *thread_of(perfan_thread_names *n, int32_t pid,
				 int32_t tid)
{
	uint64_t *i = perfan__htab_get(&n->by_tid, key_of(pid, tid));
	if (i)
		return &n->t[*i];
	if (perfan__grow((void **)&n->t, &n->cap, n->n + 1, sizeof(*n->t)) ||
	    perfan__htab_put(&n->by_tid, key_of(pid, tid), n->n))
		return NULL;
	struct nthread *t = &n->t[n->n++];
	memset(t, 0, sizeof(*t));
	t->n.pid = pid;
	t->n.tid = tid;
	t->n.pool = PERFAN_NO_POOL;
	return t;
}

static int add_cand(perfan_thread_names *n, struct nthread *t, const char *qual,
		    size_t len, double w, int whole)
{
	for (size_t i = 0; i < t->nc; i++)
		if (t->c[i].whole == whole &&
		    !strncmp(t->c[i].role, qual, len) && !t->c[i].role[len]) {
			t->c[i].weight += w;
			return 0;
		}
	if (perfan__grow((void **)&t->c, &t->cap, t->nc + 1, sizeof(*t->c)))
		return PERFAN_ENOMEM;
	const char *r = keep(n, qual, len);
	if (!r)
		return PERFAN_ENOMEM;
	t->c[t->nc++] = (struct cand){r, w, whole};
	return 0;
}

/* Whether FILE is the threading module's. */
static int threading_file(const char *file)
{
	if (!file)
		return 0;
	size_t n = strlen(file);
	static const char mod[] = "threading.py";
	size_t m = sizeof(mod) - 1;
	return n >= m && !strcmp(file + n - m, mod) &&
	       (n == m || file[n - m - 1] == '/');
}

/* Whether QUAL (LEN) in FILE is one of threading's frames that start a
 * thread and call its target. */
static int startup(const char *qual, size_t len, const char *file)
{
	static const char *const fns[] = {
		"Thread._bootstrap", "Thread._bootstrap_inner", "Thread.run"};
	if (!threading_file(file))
		return 0;
	for (size_t i = 0; i < sizeof(fns) / sizeof(*fns); i++)
		if (strlen(fns[i]) == len && !strncmp(fns[i], qual, len))
			return 1;
	return 0;
}

/* The weight of node X: its share of each column's total, summed. */
static double weight(const perfan_profile *p, perfan_node_id x)
{
	double w = 0;
	for (size_t c = 0; c < perfan_profile_nr_columns(p); c++) {
		uint64_t all = perfan_profile_total(p, c);
		if (all)
			w += (double)perfan_profile_node_total(p, x, c) /
			     (double)all;
	}
	return w;
}

struct walk {
	perfan_node_id node;
	int boot; /* threading's start-up seen on the way */
};

/* The role candidates under process node ROOT of thread T. */
static int roles_under(perfan_thread_names *n, const perfan_profile *p,
		       perfan_node_id root, struct nthread *t)
{
	struct walk *st = NULL;
	size_t ns = 0, cap = 0;
	int rc = 0;
	const perfan_node_id *kids;
	size_t nk = perfan_profile_node_children(p, root, &kids);
	for (size_t i = 0; i < nk && !rc; i++) {
		if (perfan__grow((void **)&st, &cap, ns + 1, sizeof(*st))) {
			rc = PERFAN_ENOMEM;
			break;
		}
		st[ns++] = (struct walk){kids[i], 0};
	}
	while (ns && !rc) {
		struct walk w = st[--ns];
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, w.node));
		const char *qual, *file;
		size_t len;
		if (f->kind == PERFAN_FRAME_PYTHON &&
		    perfan_python_frame_split(f->name, &qual, &len, &file)) {
			if (!startup(qual, len, file)) {
				rc = add_cand(n, t, qual, len,
					      weight(p, w.node), w.boot);
				continue; /* the first past start-up */
			}
			w.boot = 1;
		}
		nk = perfan_profile_node_children(p, w.node, &kids);
		if (perfan__grow((void **)&st, &cap, ns + nk, sizeof(*st))) {
			rc = PERFAN_ENOMEM;
			break;
		}
		for (size_t i = 0; i < nk; i++)
			st[ns++] = (struct walk){kids[i], w.boot};
	}
	free(st);
	return rc;
}

/* T's role: the heaviest candidate, whole stacks first. */
static const char *best_role(const struct nthread *t)
{
	const struct cand *b = NULL;
	for (size_t i = 0; i < t->nc; i++) {
		const struct cand *c = &t->c[i];
		if (!b || c->whole > b->whole ||
		    (c->whole == b->whole && c->weight > b->weight))
			b = c;
	}
	return b ? b->role : NULL;
}

/* NAME with each run of digits a '*', in the arena; NULL when it has
 * none (or no memory: then no pool). */
static const char *pattern_of(perfan_thread_names *n, const char *name)
{
	size_t len = strlen(name), k = 0;
	int digits = 0;
	char *s = perfan__arena_alloc(&n->arena, len + 1);
	if (!s)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (name[i] >= '0' && name[i] <= '9') {
			if (!i || name[i - 1] < '0' || name[i - 1] > '9')
				s[k++] = '*';
			digits = 1;
		} else {
			s[k++] = name[i];
		}
	}
	s[k] = 0;
	return digits ? s : NULL;
}

static int by_pid_tid(const void *a, const void *b)
{
	const struct nthread *x = a, *y = b;
	if (x->n.pid != y->n.pid)
		return x->n.pid < y->n.pid ? -1 : 1;
	return x->n.tid < y->n.tid ? -1 : x->n.tid > y->n.tid;
}

/* Names, from each thread's comm, its process's and its role. */
static void name_all(perfan_thread_names *n)
{
	for (size_t i = 0; i < n->n; i++) {
		struct nthread *t = &n->t[i];
		const char *comm = t->n.comm ? t->n.comm : "";
		uint64_t *m = perfan__htab_get(&n->by_tid,
					       key_of(t->n.pid, t->n.pid));
		const char *pcomm = m ? n->t[*m].n.comm : NULL;
		t->n.role = t->n.tid == t->n.pid ? "main" : best_role(t);
		if (t->n.tid != t->n.pid && pcomm && strcmp(pcomm, comm)) {
			t->n.name = comm;
			t->n.source = PERFAN_THREAD_NAME_SET;
		} else if (t->n.tid != t->n.pid && t->n.role) {
			t->n.name = t->n.role;
			t->n.source = PERFAN_THREAD_NAME_ENTRY;
		} else {
			t->n.name = comm;
			t->n.source = PERFAN_THREAD_NAME_COMM;
		}
	}
}

/* The pools: threads of one process (not its first) with one role, or
 * else one pattern of the names they gave themselves; a key's first
 * thread holds the count. */
static int pool_all(perfan_thread_names *n)
{
	size_t min = n->o.min_pool ? n->o.min_pool : 2;
	const char **key = calloc(n->n ? n->n : 1, sizeof(*key));
	size_t *first = calloc(n->n ? n->n : 1, sizeof(*first));
	size_t *count = calloc(n->n ? n->n : 1, sizeof(*count));
	int rc = 0;
	if (!key || !first || !count) {
		rc = PERFAN_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n->n; i++) {
		const struct perfan_thread_name *t = &n->t[i].n;
		/* a process's first thread is a pool of its own; a name
		 * pattern only of names the threads gave themselves */
		key[i] = t->tid == t->pid ? NULL
			 : t->role        ? t->role
			 : t->source == PERFAN_THREAD_NAME_SET
				 ? pattern_of(n, t->name)
				 : NULL;
		first[i] = i;
		for (size_t j = 0; key[i] && j < i; j++)
			if (n->t[j].n.pid == t->pid && key[j] &&
			    !strcmp(key[j], key[i])) {
				first[i] = first[j];
				break;
			}
		count[first[i]]++;
	}
	for (size_t i = 0; i < n->n; i++) {
		if (!key[i] || count[first[i]] < min)
			continue;
		struct nthread *f = &n->t[first[i]];
		if (f->n.pool == PERFAN_NO_POOL) {
			if (perfan__grow((void **)&n->pools, &n->pool_cap,
					 n->npools + 1, sizeof(*n->pools))) {
				rc = PERFAN_ENOMEM;
				goto out;
			}
			n->pools[n->npools] = (struct perfan_thread_pool){
				f->n.pid, key[first[i]], count[first[i]]};
			f->n.pool = n->npools++;
		}
		n->t[i].n.pool = f->n.pool;
	}
out:
	free(key);
	free(first);
	free(count);
	return rc;
}

static int build(perfan_thread_names *n, const perfan_profile *p)
{
	const perfan_node_id *kids;
	size_t nk = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	for (size_t i = 0; i < nk; i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[i]));
		if (f->kind != PERFAN_FRAME_PROCESS ||
		    f->root != PERFAN_ROOT_PID_TID || f->pid < 0 || f->tid < 0)
			continue;
		struct nthread *t = thread_of(n, f->pid, f->tid);
		if (!t)
			return PERFAN_ENOMEM;
		double w = weight(p, kids[i]);
		if (!t->n.comm || w > t->comm_weight) {
			t->n.comm = keep(n, f->comm ? f->comm : "",
					 f->comm ? strlen(f->comm) : 0);
			if (!t->n.comm)
				return PERFAN_ENOMEM;
			t->comm_weight = w;
		}
		int rc = roles_under(n, p, kids[i], t);
		if (rc)
			return rc;
	}
	if (n->n > 1)
		qsort(n->t, n->n, sizeof(*n->t), by_pid_tid);
	perfan__htab_free(&n->by_tid);
	memset(&n->by_tid, 0, sizeof(n->by_tid));
	for (size_t i = 0; i < n->n; i++)
		if (perfan__htab_put(&n->by_tid,
				     key_of(n->t[i].n.pid, n->t[i].n.tid), i))
			return PERFAN_ENOMEM;
	name_all(n);
	if (!n->o.no_pools) {
		int rc = pool_all(n);
		if (rc)
			return rc;
	}
	n->out = calloc(n->n ? n->n : 1, sizeof(*n->out));
	if (!n->out)
		return PERFAN_ENOMEM;
	for (size_t i = 0; i < n->n; i++)
		n->out[i] = n->t[i].n;
	return 0;
}

int perfan_thread_names_new(perfan_thread_names **out, const perfan_profile *p,
			    const struct perfan_thread_names_opts *opts)
{
	if (out)
		*out = NULL;
	if (!out || !p)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_thread_names_new: NULL argument");
	perfan_thread_names *n = calloc(1, sizeof(*n));
	if (!n)
		return perfan__nomem("thread names");
	int rc = PERFAN__OPTS_COPY(n->o, opts);
	if (!rc && (rc = build(n, p)) == PERFAN_ENOMEM)
		rc = perfan__nomem("thread names");
	if (rc) {
		perfan_thread_names_free(n);
		return rc;
	}
	*out = n;
	return 0;
}

void perfan_thread_names_free(perfan_thread_names *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++)
		free(n->t[i].c);
	free(n->t);
	free(n->out);
	free(n->pools);
	perfan__htab_free(&n->by_tid);
	perfan__arena_free(&n->arena);
	free(n);
}

size_t perfan_thread_names_nr(const perfan_thread_names *n)
{
	return n ? n->n : 0;
}

const struct perfan_thread_name *
perfan_thread_names_get(const perfan_thread_names *n, size_t i)
{
	return n && i < n->n ? &n->out[i] : NULL;
}

const struct perfan_thread_name *
perfan_thread_names_find(const perfan_thread_names *n, int32_t pid, int32_t tid)
{
	if (!n)
		return NULL;
	if (pid >= 0) {
		uint64_t *i = perfan__htab_get(&n->by_tid, key_of(pid, tid));
		return i ? &n->out[*i] : NULL;
	}
	for (size_t i = 0; i < n->n; i++)
		if (n->out[i].tid == tid)
			return &n->out[i];
	return NULL;
}

size_t perfan_thread_names_nr_pools(const perfan_thread_names *n)
{
	return n ? n->npools : 0;
}

const struct perfan_thread_pool *
perfan_thread_names_pool(const perfan_thread_names *n, size_t i)
{
	return n && i < n->npools ? &n->pools[i] : NULL;
}
