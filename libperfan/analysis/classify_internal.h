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
	E_CONTEXT_SWITCHES,
	E_CPU_MIGRATIONS,
	E_PAGE_FAULTS,
	E_CYCLES, /* hardware events from here on */
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
#define CL_NR_TMA (E_NR - E_TMA_RETIRING)

struct cl_acc {
	double v[E_NR];
	unsigned char ok[E_NR];  /* some row counted */
	unsigned char bad[E_NR]; /* some row <not supported>/<not counted> */
	double min_running;
	int hw_counted, hw_missing;
	size_t npmu;
	struct perfan_classify_pmu pmu[CL_MAX_PMUS];
	unsigned char pmu_ok[CL_MAX_PMUS][2];
	/* TMA percentages per PMU (the last: none named): averaged, then
	 * weighed across PMUs by their cycles. */
	double tma_sum[CL_MAX_PMUS + 1][CL_NR_TMA];
	unsigned tma_n[CL_MAX_PMUS + 1][CL_NR_TMA];
};

struct cl_group {
	struct perfan_classify_group pub;
	struct cl_acc a;
	/* Exact-size copies of classify_group()'s scratch: interval and
	 * per-CPU input makes many groups. */
	struct perfan_classify_evidence *ev;
	char *reason;
	char *warning;
	double elapsed_s, user_s, sys_s; /* <= 0 / < 0: unknown */
	int tma_invalid;                 /* TMA level 1 contradicts itself */
	char *strings; /* the GIL evidence's texts (perfan_classify_gil) */
};

struct perfan_classify {
	struct cl_group *g;
	size_t n, cap;
	size_t base; /* the first group of this perfan__classify_add */
	struct perfan__htab index; /* group_key() to index in g, from base */
	struct perfan_classify_opts o;
};

/* What a set of counters is, for perfan__classify_add. */
struct cl_ctx {
	unsigned run;
	const char *command;
	const char *pmu; /* the counters are of this PMU (and software) */
	int whole_only;  /* make only the whole, no interval/aggr groups */
};

/* classify.c */
/* The meaning of event name EV (enum cl_event), or -1. */
int perfan__classify_event(const char *ev);
/* Classify N counters into new groups of C (see perfan_classify_new). 0 or
 * PERFAN_ENOMEM. */
int perfan__classify_add(perfan_classify *c,
			 const struct perfan_stat_counter *counters, size_t n,
			 const struct perfan_classify_opts *o,
			 const struct cl_ctx *x);
/* A group whose metrics are set: the rules, then its strings copied out of
 * the scratch. 0 or -1 when out of memory. */
int perfan__classify_finish(struct cl_group *g);
/* Once every group is made: point each group's pmus at its own. */
void perfan__classify_done(perfan_classify *c);
/* A new, empty group at the end of C, or NULL. */
struct cl_group *perfan__classify_push(perfan_classify *c);

/* classify_rules.c */
/* CMD, a run's target, is not a task: "system wide", "CPU(s) 0-3". */
int perfan__classify_system_wide(const char *cmd);
/* G's verdict, confidence, reason, evidence, warning and next from its
 * metrics. G->reason and G->warning are scratch of CL_REASON_MAX bytes. */
void perfan__classify_rules(struct cl_group *g);

#endif
