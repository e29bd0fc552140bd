/* analysis/threads.c: the per-thread table of wall-clock time (the
 * off-CPU analysis's totals per thread) and each thread's top blocking
 * call sites, read from the off-CPU leaves of a time profile: the wait
 * (system call or kernel wait function) and the function that made it. */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include <perfan/threads.h>
#include <perfan/waits.h>

#include "analysis/threads_internal.h"
#include "analysis/threads_keep.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

/* ---- what a stack waits in ------------------------------------------------- */

/* Waits by system call, under the names people search for. */
static const struct {
	const char *sys, *wait;
} syscall_waits[] = {
	{"futex", "futex"},
	{"futex_waitv", "futex"},
	{"epoll_wait", "epoll_wait"},
	{"epoll_pwait", "epoll_wait"},
	{"epoll_pwait2", "epoll_wait"},
	{"poll", "poll/select"},
	{"ppoll", "poll/select"},
	{"select", "poll/select"},
	{"pselect6", "poll/select"},
	{"_newselect", "poll/select"},
	{"read", "read/recv"},
	{"readv", "read/recv"},
	{"pread64", "read/recv"},
	{"preadv", "read/recv"},
	{"preadv2", "read/recv"},
	{"recvfrom", "read/recv"},
	{"recvmsg", "read/recv"},
	{"recvmmsg", "read/recv"},
	{"nanosleep", "nanosleep"},
	{"clock_nanosleep", "nanosleep"},
};

/* Kernel functions that say what a stack without a system call frame (a
 * kernel thread, a page fault) or with one of many waits waits in;
 * matched as prefixes. "io_schedule" wins over the system call: an fsync
 * or a read that waits for the disk is disk I/O. */
static const struct {
	const char *fn, *wait;
} kernel_waits[] = {
	{"futex_wait", "futex"},
	{"do_nanosleep", "nanosleep"},
	{"hrtimer_nanosleep", "nanosleep"},
	{"ep_poll", "epoll_wait"},
	{"do_sys_poll", "poll/select"},
	{"do_select", "poll/select"},
	{"pipe_read", "read/recv"},
	{"sock_recvmsg", "read/recv"},
};

/* User-space waits that a system call alone does not tell apart. */
static const char *const sem_waits[] = {"sem_wait", "sem_timedwait",
					"sem_clockwait", "__new_sem_wait"};

/* The system call a kernel frame is the entry of ("__x64_sys_futex":
 * "futex"), or NULL. */
static const char *syscall_of(const char *fn)
{
	static const char *const prefixes[] = {"__x64_sys_",   "__ia32_sys_",
					       "__arm64_sys_", "__riscv_sys_",
					       "__s390x_sys_", "__se_sys_",
					       "__do_sys_",    "ksys_"};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++) {
		size_t n = strlen(prefixes[i]);
		if (!strncmp(fn, prefixes[i], n) && fn[n])
			return fn + n;
	}
	return NULL;
}

/* A module of the C runtime, whose frames are the wait's wrappers, not
 * its caller. */
static int runtime_module(const char *module)
{
	if (!module)
		return 0;
	const char *b = strrchr(module, '/');
	b = b ? b + 1 : module;
	return !strncmp(b, "libc.so", 7) || !strncmp(b, "libc-", 5) ||
	       !strncmp(b, "libpthread", 10) || !strncmp(b, "ld-linux", 8) ||
	       !strncmp(b, "ld-2.", 5) || !strcmp(b, "ld.so") ||
	       !strcmp(b, "[vdso]");
}

/* The wait of a stack, as the codes of struct site key it: an index into
 * the tables above, or a frame whose name (or system call) it is. */
enum {
	W_SYSCALL = 0,          /* + index into syscall_waits */
	W_KERNEL = 64,          /* + index into kernel_waits */
	W_DISK = 96,            /* "disk I/O" */
	W_SEM = 97,             /* "sem_wait" */
	W_NOSTACK = 98,         /* "(no stack)" */
	W_FRAME_SYS = 1u << 30, /* | frame: the system call it enters */
	W_FRAME_FN = 2u << 30,  /* | frame: the kernel function itself */
};

static const char *wait_name(uint32_t code)
{
	if (code < W_KERNEL)
		return syscall_waits[code].wait;
	if (code < W_DISK)
		return kernel_waits[code - W_KERNEL].wait;
	return code == W_DISK  ? "disk I/O"
	       : code == W_SEM ? "sem_wait"
			       : "(no stack)";
}

/* Classify the stack FR[0..N) (leaf first, the off-CPU leaf left out, the
 * process frame too) into its wait code and caller frame (NONE). */
#define NONE ((perfan_frame_id)-1)
static void classify(const perfan_profile *p, const perfan_frame_id *fr,
		     size_t n, uint32_t *wait, perfan_frame_id *caller)
{
	uint32_t w = W_NOSTACK, fn_wait = W_NOSTACK;
	int disk = 0, sem = 0, python = 0;
	perfan_frame_id outer_kernel = NONE;
	*caller = NONE;
	for (size_t i = 0; i < n; i++)
		python |= perfan_profile_frame_get(p, fr[i])->kind ==
			  PERFAN_FRAME_PYTHON;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(p, fr[i]);
		if (f->kind == PERFAN_FRAME_KERNEL) {
			outer_kernel = fr[i];
			disk |= !strncmp(f->name, "io_schedule", 11);
			const char *sys = syscall_of(f->name);
			if (sys) {
				/* the outermost system call frame wins */
				w = W_FRAME_SYS | fr[i];
				for (size_t k = 0;
				     k < sizeof(syscall_waits) /
						 sizeof(*syscall_waits);
				     k++)
					if (!strcmp(sys, syscall_waits[k].sys))
						w = W_SYSCALL + (uint32_t)k;
			}
			for (size_t k = 0;
			     fn_wait == W_NOSTACK &&
			     k < sizeof(kernel_waits) / sizeof(*kernel_waits);
			     k++)
				if (!strncmp(f->name, kernel_waits[k].fn,
					     strlen(kernel_waits[k].fn)))
					fn_wait = W_KERNEL + (uint32_t)k;
			continue;
		}
		if (*caller != NONE)
			continue;
		if (runtime_module(f->module)) {
			for (size_t k = 0;
			     k < sizeof(sem_waits) / sizeof(*sem_waits); k++)
				sem |= !strcmp(f->name, sem_waits[k]);
			continue;
		}
		if (f->kind == PERFAN_FRAME_OFFCPU ||
		    f->kind == PERFAN_FRAME_UNKNOWN ||
		    f->kind == PERFAN_FRAME_OTHER ||
		    (python && f->kind != PERFAN_FRAME_PYTHON))
			continue;
		*caller = fr[i];
	}
	if (disk)
		w = W_DISK;
	else if (sem)
		w = W_SEM;
	else if (w == W_NOSTACK || (w & W_FRAME_SYS)) {
		if (fn_wait != W_NOSTACK)
			w = fn_wait;
		else if (w == W_NOSTACK && outer_kernel != NONE)
			w = W_FRAME_FN | outer_kernel;
	}
	*wait = w;
}

/* ---- the table --------------------------------------------------------------- */

static int find_row(const perfan_threads *t, int32_t pid, int32_t tid)
{
	size_t lo = 0, hi = t->nrows;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct perfan_thread_row *r = &t->rows[mid];
		if (r->pid < pid || (r->pid == pid && r->tid < tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->nrows && t->rows[lo].pid == pid && t->rows[lo].tid == tid)
		return (int)lo;
	return -1;
}

/* Blocking: what a call site waited for (waiting for a CPU is not, and
 * before first seen has no stack). */
static int blocking(int state)
{
	return state != PERFAN_OFFCPU_RUNQ && state != PERFAN_OFFCPU_UNSEEN;
}

/* The name of frame ID of the table's profile; NULL for NONE. */
static const char *frame_name(const perfan_threads *t, perfan_frame_id id)
{
	return id == NONE ? NULL : perfan_profile_frame_get(t->p, id)->name;
}

/* The site of mechanism MECH among the sites of one key from *V on
 * (SIZE_MAX when none), and in *TAIL the chain's last site (SIZE_MAX when
 * the key has none), which a new one is linked from. */
static size_t find_key(const struct rowx *x, const uint64_t *v,
		       const char *mech, size_t *tail)
{
	*tail = SIZE_MAX;
	for (size_t i = v ? (size_t)*v : SIZE_MAX; i != SIZE_MAX;
	     i = x->next[i]) {
		const char *m = x->sites[i].mechanism;
		if (!strcmp(m ? m : "", mech ? mech : ""))
			return i;
		*tail = i;
	}
	return SIZE_MAX;
}

/* The name of wait code WAIT. */
static const char *wait_of(const perfan_threads *t, uint32_t wait)
{
	if (!(wait & (W_FRAME_SYS | W_FRAME_FN)))
		return wait_name(wait);
	const char *fn = frame_name(t, wait & ~(3u << 30));
	return (wait & W_FRAME_SYS) ? syscall_of(fn) : fn;
}

static int add_site(perfan_threads *t, size_t row, uint32_t wait,
		    perfan_frame_id caller, const struct sitekey *k, int state,
		    uint64_t w)
{
	struct rowx *x = &t->x[row];
	/* a classed site is its class, site and mechanism as shown; a
	 * site without a class its wait and caller */
	uint64_t key = k->wait_class
			       ? ((uint64_t)(k->wait_class | 1u << 31) << 32) |
					 k->site
			       : ((uint64_t)wait << 32) | caller;
	const char *wname = wait_of(t, wait);
	/* the C library's wrappers (clock_nanosleep@GLIBC_2.2.5,
	 * __GI___lll_lock_wait) read better as their wait */
	const char *mech =
		k->mech == NONE || runtime_module(perfan_profile_frame_get(
							  t->p, k->mech)
							  ->module)
			? wname
			: frame_name(t, k->mech);
	uint64_t *v = perfan__htab_get(&x->index, key);
	/* (the chain's last site by its index: growing the arrays below
	 * moves them) */
	size_t tail, i = find_key(x, v, mech, &tail);
	if (i == SIZE_MAX) {
		void **const arrays[] = {(void **)&x->sites, (void **)&x->next};
		const size_t size[] = {sizeof(*x->sites), sizeof(*x->next)};
		if (perfan__grow_each(arrays, size, 2, &x->cap, x->n + 1))
			return perfan__nomem("threads");
		i = x->n++;
		struct perfan_thread_site *s = &x->sites[i];
		memset(s, 0, sizeof(*s));
		s->caller = frame_name(t, caller);
		s->wait = wname;
		s->wait_class = k->wait_class;
		s->site = frame_name(t, k->site);
		s->mechanism = mech;
		x->next[i] = SIZE_MAX;
		if (tail != SIZE_MAX)
			x->next[tail] = i;
		else if (perfan__htab_put(&x->index, key, i))
			return perfan__nomem("threads");
	}
	x->sites[i].total += w;
	x->sites[i].off[state] += w;
	return 0;
}

static int pick_column(const perfan_profile *p, size_t col, size_t *out)
{
	size_t nc = perfan_profile_nr_columns(p);
	if (col != PERFAN_THREADS_AUTO) {
		if (col >= nc)
			return perfan__err(PERFAN_EINVAL,
					   "threads: the profile has no column "
					   "%zu",
					   col);
		*out = col;
		return 0;
	}
	*out = nc;
	for (size_t c = 0; c < nc && *out == nc; c++)
		if (perfan_profile_column_kind(p, c) == PERFAN_COLUMN_OFFCPU)
			*out = c;
	for (size_t c = 0; c < nc && *out == nc; c++)
		if (perfan_profile_column_kind(p, c) == PERFAN_COLUMN_WALL)
			*out = c;
	return 0; /* none: no call sites */
}

/* The class of off-CPU leaf N: its own; for the run-queue delay after a
 * wakeup (whose leaf the off-CPU view names by its state) the class of
 * the wait it followed, the heaviest classed leaf beside it on the same
 * stack. */
static uint32_t leaf_class(const perfan_profile *p, perfan_node_id n,
			   size_t col)
{
	const struct perfan_frame *f =
		perfan_profile_frame_get(p, perfan_profile_node_frame(p, n));
	if (f->wait || f->state != PERFAN_OFFCPU_WAKEUP_DELAY)
		return f->wait;
	const perfan_node_id *kids;
	size_t nk = perfan_profile_node_children(
		p, perfan_profile_node_parent(p, n), &kids);
	uint32_t wait = PERFAN_WAIT_NONE;
	uint64_t most = 0;
	for (size_t i = 0; i < nk; i++) {
		const struct perfan_frame *k = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[i]));
		uint64_t w = perfan_profile_node_self(p, kids[i], col);
		if (k->kind == PERFAN_FRAME_OFFCPU && k->wait && w > most) {
			most = w;
			wait = k->wait;
		}
	}
	return wait;
}

/* Add W of frame F's self time to list X's, keeping its heaviest. */
static int add_self(struct rowx *x, perfan_frame_id f, uint64_t w)
{
	uint64_t *v = perfan__htab_get(&x->self, f), sum = w;
	if (v)
		sum = *v += w;
	else if (perfan__htab_put(&x->self, f, w))
		return perfan__nomem("threads");
	if (sum > x->top_self || (sum == x->top_self && f < x->top)) {
		x->top = f;
		x->top_self = sum;
	}
	return 0;
}

/* Each row's (and pool's) top function: the frame with the most on-CPU
 * self weight in column COL under the row's process frame. */
static int collect_top(perfan_threads *t, size_t col)
{
	const perfan_profile *p = t->p;
	size_t nn = perfan_profile_nr_nodes(p);
	/* per node, its row plus 1 (0: none); parents come before their
	 * children */
	size_t *row_of = calloc(nn ? nn : 1, sizeof(*row_of));
	if (!row_of)
		return perfan__nomem("threads");
	int rc = 0;
	for (perfan_node_id n = 1; n < nn && !rc; n++) {
		perfan_node_id up = perfan_profile_node_parent(p, n);
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, n));
		if (up == PERFAN_ROOT_NODE) {
			int row = f->kind == PERFAN_FRAME_PROCESS &&
						  f->pid >= 0 && f->tid >= 0
					  ? find_row(t, f->pid, f->tid)
					  : -1;
			row_of[n] = row < 0 ? 0 : (size_t)row + 1;
			continue;
		}
		row_of[n] = up < n ? row_of[up] : 0;
		uint64_t w = perfan_profile_node_self(p, n, col);
		if (!w || !row_of[n] || f->kind == PERFAN_FRAME_OFFCPU)
			continue;
		size_t row = row_of[n] - 1;
		perfan_frame_id id = perfan_profile_node_frame(p, n);
		rc = add_self(&t->x[row], id, w);
		if (!rc && t->rows[row].pool != PERFAN_NO_POOL)
			rc = add_self(&t->x[t->nrows + t->rows[row].pool], id,
				      w);
	}
	free(row_of);
	for (size_t i = 0; i < t->nrows + t->npools && !rc; i++) {
		const struct rowx *x = &t->x[i];
		const char *top =
			x->top_self ? perfan_profile_frame_get(p, x->top)->name
				    : NULL;
		if (i < t->nrows) {
			t->rows[i].top = top;
			t->rows[i].top_self = x->top_self;
		} else {
			t->pools[i - t->nrows].top = top;
			t->pools[i - t->nrows].top_self = x->top_self;
		}
	}
	return rc;
}

/* The call sites of every off-CPU leaf of the profile. */
static int collect_sites(perfan_threads *t, size_t col)
{
	const perfan_profile *p = t->p;
	size_t nn = perfan_profile_nr_nodes(p), cap = 0;
	perfan_frame_id *fr = NULL;
	int rc = 0;
	for (perfan_node_id n = 1; n < nn && !rc; n++) {
		uint64_t w = perfan_profile_node_self(p, n, col);
		const struct perfan_frame *leaf = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, n));
		if (!w || leaf->kind != PERFAN_FRAME_OFFCPU)
			continue;
		uint32_t state = leaf->state;
		if (state >= PERFAN_OFFCPU_NR_STATES || !blocking((int)state))
			continue;
		/* the stack under the leaf, leaf first, to its root */
		size_t depth = perfan_profile_node_depth(p, n), k = 0;
		if (perfan__grow((void **)&fr, &cap, depth + 1, sizeof(*fr))) {
			rc = perfan__nomem("threads");
			break;
		}
		perfan_node_id x = perfan_profile_node_parent(p, n), root = n;
		for (; x != PERFAN_ROOT_NODE;
		     x = perfan_profile_node_parent(p, x)) {
			fr[k++] = perfan_profile_node_frame(p, x);
			root = x;
		}
		const struct perfan_frame *rf = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, root));
		if (rf->kind != PERFAN_FRAME_PROCESS || rf->pid < 0 ||
		    rf->tid < 0)
			continue; /* not one thread's */
		int row = find_row(t, rf->pid, rf->tid);
		if (row < 0)
			continue;
		if (k && fr[k - 1] == perfan_profile_node_frame(p, root))
			k--; /* the process frame */
		uint32_t wait;
		perfan_frame_id caller;
		classify(p, fr, k, &wait, &caller);
		struct sitekey key = {leaf_class(p, n, col), NONE, NONE};
		if (key.wait_class >= PERFAN_WAIT_NR_CLASSES)
			key.wait_class = PERFAN_WAIT_NONE;
		if (key.wait_class) {
			size_t site, mech;
			perfan_wait_site(p, fr, k, key.wait_class, &site,
					 &mech);
			key.site = site < k ? fr[site] : NONE;
			key.mech = mech < k ? fr[mech] : NONE;
		}
		if (key.wait_class == PERFAN_WAIT_GIL)
			t->rows[row].gil += w;
		rc = add_site(t, (size_t)row, wait, caller, &key, state, w);
		size_t pool = t->rows[row].pool;
		if (!rc && pool != PERFAN_NO_POOL)
			rc = add_site(t, t->nrows + pool, wait, caller, &key,
				      state, w);
	}
	free(fr);
	return rc;
}

static int str_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int site_cmp(const void *a, const void *b)
{
	const struct perfan_thread_site *x = a, *y = b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	int c = strcmp(x->wait, y->wait);
	if (!c)
		c = str_cmp(x->caller, y->caller);
	if (!c && x->wait_class != y->wait_class)
		c = x->wait_class < y->wait_class ? -1 : 1;
	if (!c)
		c = str_cmp(x->site, y->site);
	return c ? c : str_cmp(x->mechanism, y->mechanism);
}

/* Each row's waiting (every blocking state but the GIL), and the pools'
 * sums of it and of the GIL. */
static void shares(perfan_threads *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		struct perfan_thread_row *r = &t->rows[i];
		uint64_t w = r->off_total - r->off[PERFAN_OFFCPU_RUNQ] -
			     r->off[PERFAN_OFFCPU_UNSEEN];
		r->waiting = w > r->gil ? w - r->gil : 0;
		if (r->pool < t->npools) {
			t->pools[r->pool].gil += r->gil;
			t->pools[r->pool].waiting += r->waiting;
		}
	}
}

static const char *const sort_names[] = {
	[PERFAN_THREADS_SORT_TID] = "tid",
	[PERFAN_THREADS_SORT_ON_CPU] = "on-cpu",
	[PERFAN_THREADS_SORT_GIL] = "gil",
	[PERFAN_THREADS_SORT_WAITING] = "waiting",
	[PERFAN_THREADS_SORT_WALL] = "wall",
};

int perfan_threads_sort_parse(const char *name)
{
	for (size_t i = 0; name && i < sizeof(sort_names) / sizeof(*sort_names);
	     i++)
		if (!strcmp(name, sort_names[i]))
			return (int)i;
	return -1;
}

/* The figure row R (or its pool, when it has one) is ranked by. */
static uint64_t sort_key(const perfan_threads *t,
			 const struct perfan_thread_row *r)
{
	const struct perfan_thread_pool_row *p =
		r->pool < t->npools ? &t->pools[r->pool] : NULL;
	switch (t->o.sort) {
	case PERFAN_THREADS_SORT_ON_CPU: return p ? p->on_cpu : r->on_cpu;
	case PERFAN_THREADS_SORT_GIL: return p ? p->gil : r->gil;
	case PERFAN_THREADS_SORT_WAITING: return p ? p->waiting : r->waiting;
	case PERFAN_THREADS_SORT_WALL: return p ? p->wall : r->wall;
	}
	return 0;
}

static int row_cmp(const void *a, const void *b, void *payload)
{
	const perfan_threads *sorting = payload;
	const struct perfan_thread_row *x = a, *y = b;
	uint64_t kx = sort_key(sorting, x), ky = sort_key(sorting, y);
	if (kx != ky)
		return kx < ky ? 1 : -1;
	/* a pool's rows together, at its first row's place */
	size_t px = x->pool < sorting->npools ? sorting->pools[x->pool].first
					      : SIZE_MAX;
	size_t py = y->pool < sorting->npools ? sorting->pools[y->pool].first
					      : SIZE_MAX;
	const struct perfan_thread_row *fx = px != SIZE_MAX ? &sorting->rows[px]
							    : x;
	const struct perfan_thread_row *fy = py != SIZE_MAX ? &sorting->rows[py]
							    : y;
	if (fx->pid != fy->pid)
		return fx->pid < fy->pid ? -1 : 1;
	if (fx->tid != fy->tid)
		return fx->tid < fy->tid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The rows in the order asked for, the pools' first rows found again. */
static int sort_rows(perfan_threads *t)
{
	if (t->o.sort <= PERFAN_THREADS_SORT_TID ||
	    t->o.sort > PERFAN_THREADS_SORT_WALL || t->nrows < 2)
		return 0;
	/* the comparison reads the pools' first rows, which stay put until
	 * the sort is over: a copy of the rows is sorted */
	struct perfan_thread_row *copy = malloc(t->nrows * sizeof(*copy));
	if (!copy)
		return perfan__nomem("threads");
	memcpy(copy, t->rows, t->nrows * sizeof(*copy));
	qsort_r(copy, t->nrows, sizeof(*copy), row_cmp, t);
	memcpy(t->rows, copy, t->nrows * sizeof(*copy));
	free(copy);
	for (size_t k = 0; k < t->npools; k++)
		t->pools[k].first = SIZE_MAX;
	for (size_t i = 0; i < t->nrows; i++) {
		size_t k = t->rows[i].pool;
		if (k < t->npools && t->pools[k].first == SIZE_MAX)
			t->pools[k].first = i;
	}
	return 0;
}

/* The pools of the names with two rows or more in the table, each row's
 * pool made an index into them (PERFAN_NO_POOL for a pool of one row),
 * their figures summed; T->x grown by a call-site list per pool. */
static int pool_rows(perfan_threads *t)
{
	size_t np = perfan_thread_names_nr_pools(t->o.names);
	size_t *count = calloc(np ? np : 1, sizeof(*count));
	size_t *ix = calloc(np ? np : 1, sizeof(*ix));
	int rc = 0;
	if (!count || !ix) {
		rc = perfan__nomem("threads");
		goto out;
	}
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].pool < np)
			count[t->rows[i].pool]++;
	for (size_t k = 0; k < np; k++)
		ix[k] = PERFAN_NO_POOL;
	t->pools = calloc(np ? np : 1, sizeof(*t->pools));
	struct rowx *x = realloc(t->x, (t->nrows + np + 1) * sizeof(*x));
	if (!t->pools || !x) {
		rc = perfan__nomem("threads");
		goto out;
	}
	t->x = x;
	memset(x + t->nrows, 0, (np + 1) * sizeof(*x));
	for (size_t i = 0; i < t->nrows; i++) {
		struct perfan_thread_row *r = &t->rows[i];
		size_t k = r->pool;
		if (k >= np || count[k] < 2) {
			r->pool = PERFAN_NO_POOL;
			continue;
		}
		if (ix[k] == PERFAN_NO_POOL) {
			ix[k] = t->npools++;
			struct perfan_thread_pool_row *pr = &t->pools[ix[k]];
			pr->pid = r->pid;
			pr->name =
				perfan_thread_names_pool(t->o.names, k)->name;
			pr->first = i;
		}
		struct perfan_thread_pool_row *pr = &t->pools[ix[k]];
		r->pool = ix[k];
		pr->nr_threads++;
		pr->wall += r->wall;
		pr->on_cpu += r->on_cpu;
		pr->off_total += r->off_total;
		for (int st = 0; st < PERFAN_OFFCPU_NR_STATES; st++)
			pr->off[st] += r->off[st];
		pr->open_start += r->open_start;
		pr->open_end += r->open_end;
	}
out:
	free(count);
	free(ix);
	return rc;
}

int perfan_threads_new(perfan_threads **out, const perfan_profile *p,
		       const struct perfan_offcpu_summary *s,
		       const struct perfan_threads_opts *opts)
{
	if (out)
		*out = NULL;
	if (!out || !p || !s)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_threads_new: NULL argument");
	perfan_threads *t = calloc(1, sizeof(*t));
	if (!t)
		return perfan__nomem("threads");
	int rc = PERFAN__OPTS_COPY(t->o, opts);
	if (rc) {
		free(t);
		return rc;
	}
	if (!opts)
		t->o.column = PERFAN_THREADS_AUTO;
	if (!t->o.max_sites)
		t->o.max_sites = 5;
	t->p = p;
	size_t col = 0;
	rc = pick_column(p, t->o.column, &col);
	if (rc) {
		free(t);
		return rc;
	}
	t->rows = calloc(s->nr_threads ? s->nr_threads : 1, sizeof(*t->rows));
	t->x = calloc(s->nr_threads ? s->nr_threads : 1, sizeof(*t->x));
	if (!t->rows || !t->x) {
		perfan_threads_free(t);
		return perfan__nomem("threads");
	}
	int32_t focus = perfan__threads_focus(t->o.all, s);
	int32_t left_pid = -1;
	for (size_t i = 0; i < s->nr_threads; i++) {
		const struct perfan_offcpu_thread *th = &s->threads[i];
		uint64_t start, end;
		if (!perfan__threads_keep(t->o.skip_idle, focus, s, th, &start,
					  &end)) {
			if (focus >= 0 && th->pid != focus &&
			    perfan__threads_keep(t->o.skip_idle, -1, s, th,
						 &start, &end)) {
				t->left_threads++;
				t->left_procs += th->pid != left_pid;
				left_pid = th->pid;
			}
			continue;
		}
		struct perfan_thread_row *r = &t->rows[t->nrows++];
		r->pid = th->pid;
		r->tid = th->tid;
		r->comm = th->comm;
		r->start = start;
		r->end = end;
		r->wall = end > start ? end - start : 0;
		r->on_cpu = th->on_cpu;
		r->on_cpu_samples = th->on_cpu_samples;
		for (int st = 0; st < PERFAN_OFFCPU_NR_STATES; st++) {
			r->off[st] = th->off[st];
			r->intervals[st] = th->intervals[st];
			r->off_total += th->off[st];
			if (th->off[st])
				t->states |= 1u << st;
		}
		r->open_start = th->open_start;
		r->open_end = th->open_end;
		r->inexact = th->inexact;
		r->exited = th->exited;
		/* every switch-in recorded (the whole system's, or the
		 * process's own switch records): its time between them is
		 * exact, where samples are a count */
		if (!th->inexact && th->run &&
		    (!s->cpu_samples || s->switch_records)) {
			r->on_cpu = th->run;
			r->on_cpu_switches = 1;
		}
		r->cpu_ratio = r->wall ? (double)r->on_cpu / (double)r->wall
				       : 0;
		const struct perfan_thread_name *nm =
			perfan_thread_names_find(t->o.names, r->pid, r->tid);
		r->name = nm && nm->name ? nm->name : r->comm;
		r->role = nm ? nm->role : NULL;
		r->pool = nm ? nm->pool : PERFAN_NO_POOL;
	}
	if ((rc = pool_rows(t))) {
		perfan_threads_free(t);
		return rc;
	}
	if (col < perfan_profile_nr_columns(p) &&
	    (rc = collect_sites(t, col))) {
		perfan_threads_free(t);
		return rc;
	}
	if (col < perfan_profile_nr_columns(p) && (rc = collect_top(t, col))) {
		perfan_threads_free(t);
		return rc;
	}
	shares(t);
	for (size_t i = 0; i < t->nrows + t->npools; i++) {
		struct rowx *x = &t->x[i];
		if (x->n)
			qsort(x->sites, x->n, sizeof(*x->sites), site_cmp);
		size_t n = x->n < t->o.max_sites ? x->n : t->o.max_sites;
		if (i < t->nrows) {
			t->rows[i].sites = x->sites;
			t->rows[i].nr_sites = n;
		} else {
			t->pools[i - t->nrows].sites = x->sites;
			t->pools[i - t->nrows].nr_sites = n;
		}
	}
	if ((rc = sort_rows(t))) {
		perfan_threads_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void perfan_threads_free(perfan_threads *t)
{
	if (!t)
		return;
	for (size_t i = 0; t->x && i < t->nrows + t->npools; i++) {
		free(t->x[i].sites);
		free(t->x[i].next);
		perfan__htab_free(&t->x[i].index);
		perfan__htab_free(&t->x[i].self);
	}
	free(t->x);
	free(t->rows);
	free(t->pools);
	free(t);
}

size_t perfan_threads_nr(const perfan_threads *t)
{
	return t ? t->nrows : 0;
}

const struct perfan_thread_row *perfan_threads_row(const perfan_threads *t,
						   size_t i)
{
	return t && i < t->nrows ? &t->rows[i] : NULL;
}

uint32_t perfan_threads_states(const perfan_threads *t)
{
	return t ? t->states : 0;
}

size_t perfan_threads_nr_pools(const perfan_threads *t)
{
	return t ? t->npools : 0;
}

const struct perfan_thread_pool_row *
perfan_threads_pool(const perfan_threads *t, size_t i)
{
	return t && i < t->npools ? &t->pools[i] : NULL;
}

void perfan_threads_left_out(const perfan_threads *t, size_t *threads,
			     size_t *processes)
{
	if (threads)
		*threads = t ? t->left_threads : 0;
	if (processes)
		*processes = t ? t->left_procs : 0;
}
