/* perfan/classify.h: perf stat counters turned into a diagnosis: metrics
 * recomputed from the raw counts, rules with their thresholds and sources,
 * and a verdict with its evidence, per interval / aggregation and whole. */
#ifndef PERFAN_CLASSIFY_H
#define PERFAN_CLASSIFY_H

#include <stddef.h>
#include <stdio.h>

#include <perfan/common.h>
#include <perfan/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

enum perfan_verdict {
	PERFAN_VERDICT_UNKNOWN = 0,
	PERFAN_VERDICT_MEMORY_BOUND = 1,
	PERFAN_VERDICT_BAD_SPECULATION = 2, /* branchy */
	PERFAN_VERDICT_FRONTEND_BOUND = 3,
	PERFAN_VERDICT_CORE_BOUND = 4,
	PERFAN_VERDICT_WELL_OPTIMISED = 5,
	PERFAN_VERDICT_MIXED = 6,
	/* software counters only (no hardware counters): */
	PERFAN_VERDICT_CPU_BOUND = 7,      /* on CPU most of the wall time */
	PERFAN_VERDICT_MOSTLY_WAITING = 8, /* off CPU most of the wall time */
	/* TMA level 1 back-end bound, with no level 2 to split memory from
	 * core: */
	PERFAN_VERDICT_BACKEND_BOUND = 9,
	/* software counters and a recording's GIL ledger (perfan_classify_gil):
	 * the Python threads that compute wait mostly for the GIL */
	PERFAN_VERDICT_GIL_BOUND = 10,
};

/* "memory-bound", "bad-speculation", "front-end-bound", "core-bound",
 * "well-optimised", "mixed", "cpu-bound", "mostly-waiting",
 * "back-end-bound", "GIL-bound", "unknown". */
PERFAN_API const char *perfan_verdict_name(int verdict);

/* Metrics recomputed from the counts. A metric whose counters are absent,
 * <not supported> or <not counted> is NAN. Ratios are fractions (0.05 is
 * 5 %), *_mpki per 1000 instructions. */
struct perfan_classify_metrics {
	double cycles, instructions; /* summed over PMUs, maybe scaled */
	double ipc, cpi;
	double cache_miss_ratio, cache_mpki;   /* per reference, per kinsn */
	double branch_miss_ratio, branch_mpki; /* per branch, per kinsn */
	double l1d_miss_ratio, llc_miss_ratio;
	double dtlb_miss_ratio, itlb_miss_ratio;
	double fe_stall_ratio, be_stall_ratio; /* stalled cycles per cycle */
	double cpus_utilized; /* task-clock msec / elapsed msec */
	/* TMA level 1 and 2, fractions of slots. */
	double tma_retiring, tma_bad_speculation, tma_frontend_bound,
		tma_backend_bound;
	double tma_memory_bound, tma_core_bound, tma_fetch_latency,
		tma_fetch_bandwidth, tma_branch_mispredicts, tma_machine_clears,
		tma_light_operations, tma_heavy_operations;
	double min_running_pct; /* lowest run share of a counter used, 100 */
};

/* IPC of one PMU of a hybrid CPU (cpu_core, cpu_atom). */
struct perfan_classify_pmu {
	const char *pmu;
	double cycles, instructions, ipc; /* ipc NAN without both */
};

/* One rule that fired (or, for well-optimised, held). */
struct perfan_classify_evidence {
	const char *metric; /* "ipc", "cache_mpki", "tma_backend_bound", ... */
	double value;
	const char *op; /* "<", ">", ">=" */
	double threshold;
	const char *rule;   /* what it means */
	const char *source; /* where the threshold comes from */
};

/* Where the wall time went, from a run's footer and software counters,
 * which every machine has. NAN where not printed. */
struct perfan_classify_time {
	double elapsed, user, sys; /* seconds */
	double on_cpu;    /* CPU time (task-clock, else user + sys) / elapsed */
	double sys_share; /* sys / (user + sys) */
	double context_switches_per_sec, cpu_migrations_per_sec,
		page_faults_per_sec;
};

struct perfan_classify_group {
	double interval;  /* the -I timestamp, or -1 */
	const char *aggr; /* "S0-C0", "CPU3", ... or NULL */
	int whole;        /* 1: every counter of the run (or PMU) summed */
	struct perfan_classify_metrics m;
	size_t nr_pmus; /* 0 unless hybrid */
	const struct perfan_classify_pmu *pmus;
	int verdict;        /* enum perfan_verdict */
	double confidence;  /* 0..1 */
	const char *reason; /* why unknown, or a one-line summary */
	const char *next;   /* what to measure or look at next */
	size_t nr_evidence;
	const struct perfan_classify_evidence *evidence;
	unsigned run;        /* the input's run (perfan_stat_run), from 0 */
	const char *command; /* that run's command, or NULL */
	const char *pmu;     /* one PMU of a hybrid CPU ("cpu_core"), or NULL:
			        every PMU */
	int combined;        /* 1: several runs of one command read together */
	struct perfan_classify_time time;
	const char *warning; /* what makes the verdict less sure, or NULL */
};

typedef struct perfan_classify perfan_classify;

struct perfan_classify_opts {
	size_t sz;
	/* The counts are raw, as `perf stat --no-scale` prints them: scale
	 * each by 100 / running_pct. By default they are not rescaled, since
	 * perf stat prints counts already scaled to the whole run time. */
	int unscaled;
	/* "N seconds time elapsed", for CPUs utilised; <= 0: unknown. */
	double elapsed;
	/* "N seconds user" and "sys"; both 0 (the default) or < 0:
	 * unknown. */
	double user, sys;
};

/* Classify N counters (as perfan_stat_counter() returns them, or made up):
 * one group per (interval, aggregation) present, plus the whole. The
 * counters' strings must outlive C. Returns 0, PERFAN_EINVAL (N == 0),
 * PERFAN_ENOMEM. */
PERFAN_API int perfan_classify_new(perfan_classify **out,
				   const struct perfan_stat_counter *counters,
				   size_t n,
				   const struct perfan_classify_opts *o);
/* Classify what perf stat printed, each run on its own (with its command,
 * elapsed, user and sys), and together where runs of one command measured
 * events that complement each other. O's elapsed, user and sys are taken
 * from each run. Returns as perfan_classify_new. */
PERFAN_API int perfan_classify_stat(perfan_classify **out, const perfan_stat *s,
				    const struct perfan_classify_opts *o);
PERFAN_API void perfan_classify_free(perfan_classify *c);

struct perfan_gil_result; /* perfan/gil.h */

/* Read the software verdicts (cpu-bound, mostly-waiting, mixed) of C's
 * whole groups again with G, the GIL ledger of a recording of the same
 * run: a thread is GIL-bound when its GIL wait is over half its off-CPU
 * time and over 20 % of its life; when the GIL-bound threads of G's
 * process ran at least half of its on-CPU time (the threads that compute
 * wait for the GIL), the verdict is GIL-bound, with each GIL-bound
 * thread's wait as evidence. Hardware verdicts stay. Returns 0,
 * PERFAN_EINVAL (NULL arguments) or PERFAN_ENOMEM. */
PERFAN_API int perfan_classify_gil(perfan_classify *c,
				   const struct perfan_gil_result *g);

/* Groups in input order: each run's intervals and aggregations, its
 * whole, then (hybrid) one whole per PMU; last, any combined reading of
 * several runs. Borrowed from C. perfan_classify_whole() is the last group
 * that is a whole of every PMU: the combined reading, or the last run's. */
PERFAN_API size_t perfan_classify_nr_groups(const perfan_classify *c);
PERFAN_API const struct perfan_classify_group *
perfan_classify_group(const perfan_classify *c, size_t i);
PERFAN_API const struct perfan_classify_group *
perfan_classify_whole(const perfan_classify *c);

enum perfan_classify_format {
	PERFAN_CLASSIFY_TEXT = 0,
	PERFAN_CLASSIFY_JSON = 1,
};

struct perfan_classify_write_opts {
	size_t sz;
	int format; /* enum perfan_classify_format */
};

/* Write every group: text or a JSON object. Returns 0, PERFAN_EINVAL (a NULL
 * argument, an unknown format) or PERFAN_EIO. OPTS NULL: text. */
PERFAN_API int
perfan_classify_write(const perfan_classify *c, FILE *fp,
		      const struct perfan_classify_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
