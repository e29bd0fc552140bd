/* analysis/threads_result.h: the per-thread table as analysis/threads.c
 * makes it and its sink (render/threads_write.c) reads it. */
#ifndef PERFAN_ANALYSIS_THREADS_RESULT_H
#define PERFAN_ANALYSIS_THREADS_RESULT_H

#include <perfan/threads.h>

struct rowx; /* analysis/threads_internal.h: call sites being collected */

struct perfan_threads {
	struct perfan_threads_opts o;
	const perfan_profile *p;
	struct perfan_thread_row *rows;
	struct rowx *x; /* per row, then per pool */
	size_t nrows;
	uint32_t states;
	struct perfan_thread_pool_row *pools;
	size_t npools;
	size_t left_threads, left_procs; /* of a system-wide table */
};

#endif
