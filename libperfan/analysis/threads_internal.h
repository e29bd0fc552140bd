/* analysis/threads_internal.h: what analysis/threads.c keeps of a row
 * while it collects the row's call sites. */
#ifndef PERFAN_ANALYSIS_THREADS_INTERNAL_H
#define PERFAN_ANALYSIS_THREADS_INTERNAL_H

#include "analysis/threads_result.h"

#include "util/htab.h"

/* What a site is found by beside its wait and caller. */
struct sitekey {
	uint32_t wait_class;
	perfan_frame_id site, mech;
};

/* A row's call sites while they are collected. */
struct rowx {
	struct perfan_thread_site *sites;
	size_t n, cap;
	/* (wait << 32 | caller), or a classed site's (class << 32 |
	 * site) -> its first site */
	struct perfan__htab index;
	/* per site, the next of the same key with another mechanism
	 * (SIZE_MAX: none) */
	size_t *next;
	/* on-CPU self weight by frame, and the heaviest frame so far */
	struct perfan__htab self;
	perfan_frame_id top;
	uint64_t top_self;
};

#endif
