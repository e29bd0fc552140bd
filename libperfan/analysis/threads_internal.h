/* analysis/threads_internal.h: the per-thread table's insides, shared by
 * threads.c (the analysis) and threads_write.c (its text and JSON). */
#ifndef PERFAN_ANALYSIS_THREADS_INTERNAL_H
#define PERFAN_ANALYSIS_THREADS_INTERNAL_H

#include <perfan/threads.h>

#include "util/htab.h"

/* A row's call sites while they are collected. */
struct rowx {
	struct perfan_thread_site *sites;
	size_t n, cap;
	struct perfan__htab index; /* (wait << 32 | caller) -> site */
};

struct perfan_threads {
	struct perfan_threads_opts o;
	const perfan_profile *p;
	struct perfan_thread_row *rows;
	struct rowx *x; /* per row */
	size_t nrows;
	uint32_t states;
};

#endif
