/* analysis/classify_internal.h: what classify.c builds and classify_write.c
 * prints. */
#ifndef PERFAN_CLASSIFY_INTERNAL_H
#define PERFAN_CLASSIFY_INTERNAL_H

#include <perfan/classify.h>

#include "util/htab.h"

#define CL_MAX_EVIDENCE 16
#define CL_MAX_PMUS 4
#define CL_REASON_MAX 384

/* The events classify reads, by their meaning. */
enum cl_event {
	E_TASK_CLOCK,
	E_CPU_CLOCK,
	E_CYCLES,
	E_INSTRUCTIONS,
	E_BRANCHES,
	E_BRANCH_MISSES,
	E_CACHE_REFS,
	E_CACHE_MISSES,
	E_L1D_LOADS,
	E_L1D_MISSES,
	E_LLC_LOADS,
	E_LLC_MISSES,
	E_DTLB_LOADS,
	E_DTLB_MISSES,
	E_ITLB_LOADS,
	E_ITLB_MISSES,
	E_STALL_FE,
	E_STALL_BE,
	/* topdown slot counts (Ice Lake and later: perf stat --topdown) */
	E_SLOTS,
	E_TD_RETIRING,
	E_TD_BAD_SPEC,
	E_TD_FE_BOUND,
	E_TD_BE_BOUND,
	E_TD_HEAVY_OPS,
	E_TD_BR_MISPREDICT,
	E_TD_FETCH_LAT,
	E_TD_MEM_BOUND,
	/* TMA metrics printed as percentages (tma_*, old --topdown columns);
	 * the first eight in the order of the E_TD_* above. */
	E_TMA_RETIRING,
	E_TMA_BAD_SPEC,
	E_TMA_FE_BOUND,
	E_TMA_BE_BOUND,
	E_TMA_HEAVY_OPS,
	E_TMA_BR_MISPREDICT,
	E_TMA_FETCH_LAT,
	E_TMA_MEM_BOUND,
	E_TMA_CORE_BOUND,
	E_TMA_FETCH_BW,
	E_TMA_MACHINE_CLEARS,
	E_TMA_LIGHT_OPS,
	E_NR
};

struct cl_acc {
	double v[E_NR];
	unsigned char ok[E_NR];  /* some row counted */
	unsigned char bad[E_NR]; /* some row <not supported>/<not counted> */
	double min_running;
	int hw_counted, hw_missing;
	size_t npmu;
	struct perfan_classify_pmu pmu[CL_MAX_PMUS];
	unsigned char pmu_ok[CL_MAX_PMUS][2];
};

struct cl_group {
	struct perfan_classify_group pub;
	struct cl_acc a;
	/* Exact-size copies of classify_group()'s scratch: interval and
	 * per-CPU input makes many groups. */
	struct perfan_classify_evidence *ev;
	char *reason;
	double elapsed_s;
};

struct perfan_classify {
	struct cl_group *g;
	size_t n, cap;
	struct perfan__htab index; /* group_key() to index in g */
	struct perfan_classify_opts o;
};

#endif
