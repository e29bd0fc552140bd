/* analysis/threads_internal.h: what analysis/threads.c keeps of a row
 * while it collects the row's call sites. */
#ifndef PERFAN_ANALYSIS_THREADS_INTERNAL_H
#define PERFAN_ANALYSIS_THREADS_INTERNAL_H

#include "analysis/threads_result.h"

#include "util/htab.h"

/* A row's call sites while they are collected. */
struct rowx {
	struct perfan_thread_site *sites;
	size_t n, cap;
	struct perfan__htab index; /* (wait << 32 | caller) -> site */
};

#endif
