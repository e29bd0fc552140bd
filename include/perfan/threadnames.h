/* perfan/threadnames.h: a name a person knows each thread by, its role
 * and its pool: the name the thread gave itself (its comm when it differs
 * from its process's, as Python 3.14 and pthread_setname_np set it), else
 * the Python function it was started to run (Thread.run -> engine_loop:
 * "engine_loop"), else its comm; threads of one process started to run
 * the same function, or named by one pattern (ThreadPoolExecutor-0_1,
 * ThreadPoolExecutor-0_2), form a pool. Read from the stacks of a profile
 * with a process frame per thread (PERFAN_ROOT_PID_TID). */
#ifndef PERFAN_THREADNAMES_H
#define PERFAN_THREADNAMES_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/common.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_thread_names perfan_thread_names;

/* Where a thread's name came from. */
enum perfan_thread_name_source {
	PERFAN_THREAD_NAME_COMM = 0,  /* its comm, as its process's */
	PERFAN_THREAD_NAME_SET = 1,   /* a comm of its own */
	PERFAN_THREAD_NAME_ENTRY = 2, /* the function it was started to run */
};

#define PERFAN_NO_POOL ((size_t)-1)

/* One thread. Strings are owned by the names. */
struct perfan_thread_name {
	int32_t pid, tid;
	const char *comm; /* its last comm, as recorded */
	const char *name; /* what to call it */
	/* What it was started to run: the first Python function of its
	 * stacks past threading's own start-up (Thread._bootstrap,
	 * _bootstrap_inner and threading's Thread.run): "engine_loop",
	 * "ThreadingMixIn.process_request_thread", "_worker"; "main" for a
	 * process's first thread (tid == pid); NULL when its stacks do not
	 * say. */
	const char *role;
	uint32_t source; /* enum perfan_thread_name_source */
	size_t pool;     /* its pool's index, or PERFAN_NO_POOL */
};

/* Threads of one process with one role, or one name pattern. */
struct perfan_thread_pool {
	int32_t pid;
	/* the role ("ThreadingMixIn.process_request_thread"), or the
	 * pattern ("ThreadPoolExecutor-0_*": each run of digits a '*') */
	const char *name;
	size_t nr_threads; /* at least 2 */
};

struct perfan_thread_names_opts {
	size_t sz;
	/* The fewest threads that form a pool; 0: 2. */
	size_t min_pool;
	/* No pools. */
	int no_pools;
};

/* The names of the threads of P, a profile whose stacks start at a
 * process frame per thread (perfan_profile_process_frame with
 * PERFAN_ROOT_PID_TID; others are left out): the native view, where
 * Python functions are CPython's "py::QUALNAME:FILE" frames (kind
 * PERFAN_FRAME_PYTHON). A role is the heaviest first Python function
 * past start-up over the thread's stacks, those that reach the thread's
 * start (threading's Thread._bootstrap, or the main thread's first
 * Python frame) preferred over stacks cut short. Threads in the order of
 * (pid, tid). P is not kept. Returns 0, PERFAN_EINVAL, PERFAN_ENOMEM.
 * Free with perfan_thread_names_free. */
PERFAN_API int
perfan_thread_names_new(perfan_thread_names **out, const perfan_profile *p,
			const struct perfan_thread_names_opts *opts);
PERFAN_API void perfan_thread_names_free(perfan_thread_names *n);

PERFAN_API size_t perfan_thread_names_nr(const perfan_thread_names *n);
PERFAN_API const struct perfan_thread_name *
perfan_thread_names_get(const perfan_thread_names *n, size_t i);
/* Thread TID of process PID (PID -1: any), or NULL when P had no stack
 * of it. */
PERFAN_API const struct perfan_thread_name *
perfan_thread_names_find(const perfan_thread_names *n, int32_t pid,
			 int32_t tid);
PERFAN_API size_t perfan_thread_names_nr_pools(const perfan_thread_names *n);
PERFAN_API const struct perfan_thread_pool *
perfan_thread_names_pool(const perfan_thread_names *n, size_t i);

#ifdef __cplusplus
}
#endif

#endif
