/* analysis/waits.c: a wait's class and blocking site from its switch-out
 * stack, and a wakeup's source from its waker's stack (perfan/waits.h):
 * tables of the functions that name a mechanism, matched from the leaf. */
#include <stdlib.h>
#include <string.h>

#include <perfan/offcpu.h>
#include <perfan/profile.h>
#include <perfan/python.h>
#include <perfan/waits.h>

#include "analysis/waits_internal.h"
#include "util/grow.h"

const char *perfan_wait_class_name(uint32_t wait)
{
	static const char *const names[PERFAN_WAIT_NR_CLASSES] = {
		[PERFAN_WAIT_GIL] = "GIL",
		[PERFAN_WAIT_GIL_HANDOFF] = "GIL handoff",
		[PERFAN_WAIT_STW] = "stop-the-world",
		[PERFAN_WAIT_LOCK] = "lock",
		[PERFAN_WAIT_IDLE] = "idle",
		[PERFAN_WAIT_IO] = "I/O",
		[PERFAN_WAIT_SLEEP] = "sleep",
		[PERFAN_WAIT_GPU] = "GPU sync",
		[PERFAN_WAIT_DISK] = "disk",
	};
	return wait < PERFAN_WAIT_NR_CLASSES ? names[wait] : NULL;
}

int perfan_wait_class_parse(const char *name)
{
	for (uint32_t w = 1; name && w < PERFAN_WAIT_NR_CLASSES; w++)
		if (!strcmp(name, perfan_wait_class_name(w)))
			return (int)w;
	return -1;
}

const char *perfan_wake_source_name(uint32_t source)
{
	static const char *const names[PERFAN_WAKE_NR_SOURCES] = {
		"none", "thread", "timer", "device", "network", "disk",
	};
	return source < PERFAN_WAKE_NR_SOURCES ? names[source] : NULL;
}

struct rule {
	const char *name;
	uint32_t what;
};

/* Native and kernel functions that name a wait's mechanism. Generic
 * waits (futex_wait, pthread_cond_timedwait, sem_clockwait) name none:
 * the frame above them does. */
static const struct rule native_rules[] = {
	/* CPython's GIL, 3.9 to 3.13 */
	{"take_gil", PERFAN_WAIT_GIL},
	{"_PyEval_AcquireLock", PERFAN_WAIT_GIL},
	{"PyEval_RestoreThread", PERFAN_WAIT_GIL},
	{"PyEval_AcquireThread", PERFAN_WAIT_GIL},
	{"_PyThreadState_Attach", PERFAN_WAIT_GIL},
	{"_Py_HandlePending", PERFAN_WAIT_GIL},
	{"eval_frame_handle_pending", PERFAN_WAIT_GIL},
	{"PyGILState_Ensure", PERFAN_WAIT_GIL},
	{"drop_gil", PERFAN_WAIT_GIL_HANDOFF},
	{"tstate_wait_attach", PERFAN_WAIT_STW},
	{"stop_the_world", PERFAN_WAIT_STW},
	{"_PyEval_StopTheWorld", PERFAN_WAIT_STW},
	{"_PyEval_StopTheWorldAll", PERFAN_WAIT_STW},
	/* locks */
	{"PyThread_acquire_lock_timed", PERFAN_WAIT_LOCK},
	{"PyThread_acquire_lock", PERFAN_WAIT_LOCK},
	{"_PyMutex_LockTimed", PERFAN_WAIT_LOCK},
	{"_PyMutex_LockSlow", PERFAN_WAIT_LOCK},
	{"PyMutex_Lock", PERFAN_WAIT_LOCK},
	{"_PyRecursiveMutex_Lock", PERFAN_WAIT_LOCK},
	{"pthread_mutex_lock", PERFAN_WAIT_LOCK},
	{"___pthread_mutex_lock", PERFAN_WAIT_LOCK},
	{"__pthread_mutex_lock", PERFAN_WAIT_LOCK},
	{"__pthread_mutex_lock_full", PERFAN_WAIT_LOCK},
	{"__pthread_mutex_clocklock_common", PERFAN_WAIT_LOCK},
	{"pthread_mutex_timedlock", PERFAN_WAIT_LOCK},
	{"__pthread_rwlock_rdlock", PERFAN_WAIT_LOCK},
	{"__pthread_rwlock_wrlock", PERFAN_WAIT_LOCK},
	{"pthread_rwlock_rdlock", PERFAN_WAIT_LOCK},
	{"pthread_rwlock_wrlock", PERFAN_WAIT_LOCK},
	{"__lll_lock_wait", PERFAN_WAIT_LOCK},
	{"pthread_barrier_wait", PERFAN_WAIT_IDLE},
	/* waiting for work: event loops and their system calls */
	{"epoll_wait", PERFAN_WAIT_IDLE},
	{"epoll_pwait", PERFAN_WAIT_IDLE},
	{"do_epoll_wait", PERFAN_WAIT_IDLE},
	{"do_select", PERFAN_WAIT_IDLE},
	{"core_sys_select", PERFAN_WAIT_IDLE},
	{"do_sys_poll", PERFAN_WAIT_IDLE},
	{"do_poll", PERFAN_WAIT_IDLE},
	{"_queue_SimpleQueue_get_impl", PERFAN_WAIT_IDLE},
	/* sleeping */
	{"do_nanosleep", PERFAN_WAIT_SLEEP},
	{"hrtimer_nanosleep", PERFAN_WAIT_SLEEP},
	{"common_nsleep", PERFAN_WAIT_SLEEP},
	{"clock_nanosleep", PERFAN_WAIT_SLEEP},
	{"__clock_nanosleep", PERFAN_WAIT_SLEEP},
	{"__nanosleep", PERFAN_WAIT_SLEEP},
	{"nanosleep", PERFAN_WAIT_SLEEP},
	{"usleep", PERFAN_WAIT_SLEEP},
	{"pysleep", PERFAN_WAIT_SLEEP},
	/* the GPU */
	{"cudaStreamSynchronize", PERFAN_WAIT_GPU},
	{"cudaDeviceSynchronize", PERFAN_WAIT_GPU},
	{"cudaEventSynchronize", PERFAN_WAIT_GPU},
	{"cuStreamSynchronize", PERFAN_WAIT_GPU},
	{"cuEventSynchronize", PERFAN_WAIT_GPU},
	{"cuCtxSynchronize", PERFAN_WAIT_GPU},
	/* files, pipes and sockets */
	{"pipe_read", PERFAN_WAIT_IO},
	{"anon_pipe_read", PERFAN_WAIT_IO},
	{"anon_pipe_write", PERFAN_WAIT_IO},
	{"pipe_write", PERFAN_WAIT_IO},
	{"vfs_read", PERFAN_WAIT_IO},
	{"vfs_write", PERFAN_WAIT_IO},
	{"sock_recvmsg", PERFAN_WAIT_IO},
	{"sock_sendmsg", PERFAN_WAIT_IO},
	{"__sys_recvfrom", PERFAN_WAIT_IO},
	{"__sys_sendto", PERFAN_WAIT_IO},
	{"__sys_recvmsg", PERFAN_WAIT_IO},
	{"__sys_sendmsg", PERFAN_WAIT_IO},
	{"__sys_accept4", PERFAN_WAIT_IDLE},
	{"__sys_connect", PERFAN_WAIT_IO},
	{"sk_wait_data", PERFAN_WAIT_IO},
	{"unix_stream_read_generic", PERFAN_WAIT_IO},
	{"tcp_recvmsg", PERFAN_WAIT_IO},
};

/* Python functions (qualified names) that wait for work. */
static const char *const idle_python[] = {
	"Condition.wait",
	"Condition.wait_for",
	"Event.wait",
	"Thread.join",
	"Thread._wait_for_tstate_lock",
	"Queue.get",
	"SimpleQueue.get",
	"Barrier.wait",
	"BaseSelector.select",
	"EpollSelector.select",
	"SelectSelector.select",
	"PollSelector.select",
	"_PollLikeSelector.select",
	"BaseEventLoop._run_once",
	"BaseEventLoop.run_forever",
	"_worker",
};

/* Standard library files whose functions are the mechanism, never the
 * user's blocking site. */
static const char *const stdlib_files[] = {
	"threading.py",     "queue.py", "selectors.py",
	"socketserver.py",  "asyncio/", "concurrent/futures/",
	"multiprocessing/",
};

/* NAME without a compiler's suffix (".isra.0", ".constprop.0", ".part.0"),
 * equal to WANT. */
static int same(const char *name, const char *want)
{
	size_t n = strlen(want);
	if (!strncmp(name, "__GI_", 5)) /* glibc's internal alias */
		name += 5;
	return !strncmp(name, want, n) &&
	       (name[n] == '\0' || name[n] == '.' || name[n] == '@');
}

static uint32_t native_class(const struct perfan_stream_frame *f)
{
	if (f->kind == PERFAN_FRAME_PYTHON || !f->name)
		return PERFAN_WAIT_NONE;
	for (size_t i = 0; i < sizeof(native_rules) / sizeof(*native_rules);
	     i++)
		if (same(f->name, native_rules[i].name))
			return native_rules[i].what;
	return PERFAN_WAIT_NONE;
}

static int in_list(const char *s, size_t len, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncmp(s, list[i], len))
			return 1;
	return 0;
}

static int stdlib_file(const char *file)
{
	if (!file)
		return 0;
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	for (size_t i = 0; i < sizeof(stdlib_files) / sizeof(*stdlib_files);
	     i++) {
		const char *s = stdlib_files[i];
		size_t n = strlen(s);
		if (s[n - 1] == '/' ? strstr(file, s) != NULL
				    : !strcmp(base, s))
			return 1;
	}
	return 0;
}

/* A Python frame's qualified name and file, named as CPython writes it
 * ("py::QUAL:FILE") or as the Python view does ("QUAL (FILE)", the file
 * its module). Returns 0 for any other frame. */
static int python_parts(uint32_t kind, const char *name, const char *module,
			const char **q, size_t *ql, const char **file)
{
	if (kind != PERFAN_FRAME_PYTHON || !name)
		return 0;
	if (perfan_python_frame_split(name, q, ql, file))
		return 1;
	size_t n = strlen(name), m = module ? strlen(module) : 0;
	if (!m || n < m + 3 || strncmp(name + n - m - 1, module, m) ||
	    name[n - 1] != ')' || strncmp(name + n - m - 3, " (", 2))
		return 0;
	*q = name;
	*ql = n - m - 3;
	*file = module;
	return 1;
}

/* Whether F is a Python function that waits for work. */
static int idle_frame(const struct perfan_stream_frame *f)
{
	const char *q, *file;
	size_t ql;
	if (!python_parts(f->kind, f->name, f->module, &q, &ql, &file))
		return 0;
	return in_list(q, ql, idle_python,
		       sizeof(idle_python) / sizeof(*idle_python)) &&
	       (!file || stdlib_file(file));
}

int perfan__wait_user_code(uint32_t kind, const char *name, const char *module)
{
	const char *q, *file = NULL;
	size_t ql;
	switch (kind) {
	case PERFAN_FRAME_PYTHON:
		if (!python_parts(kind, name, module, &q, &ql, &file))
			return 1;
		return !stdlib_file(file);
	case PERFAN_FRAME_NATIVE:
	case PERFAN_FRAME_INLINED:
		return module && !perfan_python_is_runtime(module);
	default: return 0;
	}
}

static int user_frame(const struct perfan_stream_frame *f)
{
	return perfan__wait_user_code(f->kind, f->name, f->module);
}

/* What a frame says on its own, in a byte: its mechanism's class, and
 * whether it is a Python function, one that waits for work, the user's. */
enum {
	T_CLASS = 0x0f,
	T_PYTHON = 0x10,
	T_IDLE = 0x20,
	T_USER = 0x40,
	T_KNOWN = 0x80, /* computed (the cache's mark) */
};

static uint8_t traits(const struct perfan_stream_frame *f)
{
	uint8_t t = (uint8_t)(native_class(f) | T_KNOWN);
	if (f->kind == PERFAN_FRAME_PYTHON)
		t |= T_PYTHON;
	if (idle_frame(f))
		t |= T_IDLE;
	if (user_frame(f))
		t |= T_USER;
	return t;
}

/* F's traits through C's cache by stream frame id (computed when the
 * cache cannot grow). */
static uint8_t cached(struct perfan__waits *c,
		      const struct perfan_stream_frame *f)
{
	if (!c)
		return traits(f);
	if (f->id >= c->n) {
		size_t cap = c->n;
		if (perfan__grow((void **)&c->traits, &cap, (size_t)f->id + 1,
				 1))
			return traits(f);
		memset(c->traits + c->n, 0, cap - c->n);
		c->n = cap;
	}
	if (!c->traits[f->id])
		c->traits[f->id] = traits(f);
	return c->traits[f->id];
}

static int gil_family(uint32_t wait)
{
	return wait == PERFAN_WAIT_GIL || wait == PERFAN_WAIT_GIL_HANDOFF ||
	       wait == PERFAN_WAIT_STW;
}

uint32_t perfan__wait_classify(struct perfan__waits *c,
			       const struct perfan_stream_frame *f, size_t n,
			       uint32_t state, size_t *site)
{
	uint32_t wait = PERFAN_WAIT_NONE;
	size_t i = 0, user = n;
	if (!f)
		n = 0;
	for (; i < n; i++) {
		uint8_t t = cached(c, &f[i]);
		if ((t & T_USER) && user == n)
			user = i;
		if ((wait = t & T_CLASS) != PERFAN_WAIT_NONE) {
			i++;
			break;
		}
	}
	/* the interpreter's own lock around the GIL (take_gil's mutex, its
	 * condition variable) is the GIL: a GIL frame outward, before any
	 * Python or user code, decides */
	if (wait != PERFAN_WAIT_NONE && !gil_family(wait))
		for (size_t k = i; k < n; k++) {
			uint8_t t = cached(c, &f[k]);
			if (t & (T_PYTHON | T_USER))
				break;
			if (gil_family(t & T_CLASS)) {
				wait = t & T_CLASS;
				i = k + 1;
				break;
			}
		}
	/* a lock, or an unnamed wait, under a Python function that waits
	 * for work (before the user's own code) is idle */
	if (wait == PERFAN_WAIT_LOCK || wait == PERFAN_WAIT_NONE) {
		for (size_t k = wait == PERFAN_WAIT_NONE ? 0 : i; k < n; k++) {
			uint8_t t = cached(c, &f[k]);
			if (t & T_IDLE)
				wait = PERFAN_WAIT_IDLE;
			else if ((t & T_USER) && (t & T_PYTHON))
				break;
		}
	}
	if ((wait == PERFAN_WAIT_NONE || wait == PERFAN_WAIT_IO) &&
	    state == PERFAN_OFFCPU_DISK) /* a read in D: the disk */
		wait = PERFAN_WAIT_DISK;
	if (site) {
		for (size_t k = i; user == n && k < n; k++)
			if (cached(c, &f[k]) & T_USER)
				user = k;
		*site = user;
	}
	return wait;
}

uint32_t perfan_wait_classify(const struct perfan_stream_frame *f, size_t n,
			      uint32_t state, size_t *site)
{
	return perfan__wait_classify(NULL, f, n, state, site);
}

/* A profile's frame as the rules read it. */
static uint8_t profile_traits(const perfan_profile *p, perfan_frame_id id)
{
	const struct perfan_frame *pf = perfan_profile_frame_get(p, id);
	struct perfan_stream_frame f = {0};
	if (!pf)
		return T_KNOWN;
	f.name = pf->name;
	f.module = pf->module;
	f.file = pf->file;
	f.line = pf->line;
	f.kind = pf->kind;
	return traits(&f);
}

void perfan_wait_site(const perfan_profile *p, const perfan_frame_id *fr,
		      size_t n, uint32_t wait, size_t *site, size_t *mech)
{
	size_t user = n, idle = n, named = n;
	if (!p || !fr)
		n = user = idle = named = 0;
	for (size_t i = 0; i < n && user == n; i++) {
		uint8_t t = profile_traits(p, fr[i]);
		if (t & T_USER)
			user = i;
		else if (t & T_IDLE)
			idle = i; /* the outermost inside the site */
		else if (named == n && wait &&
			 perfan_profile_frame_get(p, fr[i])->kind !=
				 PERFAN_FRAME_KERNEL &&
			 (t & T_CLASS) == wait)
			named = i;
	}
	if (site)
		*site = user;
	if (mech)
		*mech = wait == PERFAN_WAIT_IDLE && idle < n ? idle : named;
}

void perfan__waits_free(struct perfan__waits *c)
{
	free(c->traits);
	c->traits = NULL;
	c->n = 0;
}

/* Kernel functions that say a wakeup came from no thread. */
static const struct rule wake_rules[] = {
	{"hrtimer_wakeup", PERFAN_WAKE_TIMER},
	{"__hrtimer_run_queues", PERFAN_WAKE_TIMER},
	{"hrtimer_interrupt", PERFAN_WAKE_TIMER},
	{"process_timeout", PERFAN_WAKE_TIMER},
	{"call_timer_fn", PERFAN_WAKE_TIMER},
	{"net_rx_action", PERFAN_WAKE_NETWORK},
	{"__napi_poll", PERFAN_WAKE_NETWORK},
	{"blk_mq_complete_request", PERFAN_WAKE_DISK},
	{"blk_update_request", PERFAN_WAKE_DISK},
	{"bio_endio", PERFAN_WAKE_DISK},
	{"handle_irq_event", PERFAN_WAKE_DEVICE},
	{"__handle_irq_event_percpu", PERFAN_WAKE_DEVICE},
	{"common_interrupt", PERFAN_WAKE_DEVICE},
	{"__do_softirq", PERFAN_WAKE_DEVICE},
	{"irq_exit_rcu", PERFAN_WAKE_DEVICE},
	{"__sysvec_apic_timer_interrupt", PERFAN_WAKE_TIMER},
};

uint32_t perfan_wake_source(int32_t tid, const struct perfan_stream_frame *f,
			    size_t n)
{
	if (!f)
		n = 0;
	/* the innermost rule decides: a timer's softirq is a timer */
	for (size_t i = 0; i < n; i++) {
		if (f[i].kind != PERFAN_FRAME_KERNEL || !f[i].name)
			continue;
		for (size_t k = 0; k < sizeof(wake_rules) / sizeof(*wake_rules);
		     k++)
			if (same(f[i].name, wake_rules[k].name))
				return wake_rules[k].what;
	}
	return tid == 0 ? PERFAN_WAKE_DEVICE : PERFAN_WAKE_THREAD;
}
