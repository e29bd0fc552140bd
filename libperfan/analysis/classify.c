/* analysis/classify.c: perf stat counters into metrics recomputed from the
 * raw counts (never perf's comment column, which can disagree with its own
 * counts) and a verdict from rules whose thresholds cite their source. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/classify.h>

#include "analysis/classify_internal.h"
#include "util/error.h"
#include "util/htab.h"

/* ---- thresholds -------------------------------------------------------------
 * perf's own, from tools/perf/util/stat-shadow.c get_ratio_color(): a ratio
 * is coloured yellow/magenta/red ("normal/high/very high") at
 *   GRC_CACHE_MISSES (also used for branch, L1, LLC and TLB misses) 5/10/20 %,
 *   GRC_STALLED_CYCLES_FE (frontend cycles idle)                    10/30/50 %,
 *   GRC_STALLED_CYCLES_BE (backend cycles idle)                     20/50/75 %.
 */
#define PERF_MISS_WARN 0.05
#define PERF_MISS_HIGH 0.10
#define PERF_MISS_VHIGH 0.20
#define PERF_FE_HIGH 0.30
#define PERF_BE_HIGH 0.50
#define SRC_PERF "perf tools/perf/util/stat-shadow.c get_ratio_color()"

/* TMA level 1/2: the MetricThreshold of perf's Intel metric files
 * (tools/perf/pmu-events/arch/x86/<cpu>/<cpu>-metrics.json; pmu-tools
 * toplev uses the same): tma_frontend_bound > 0.15, tma_bad_speculation
 * > 0.15, tma_backend_bound > 0.2, "tma_memory_bound > 0.2 &
 * tma_backend_bound > 0.2", tma_core_bound > 0.1 (fetch_bandwidth > 0.1
 * or 0.2, branch_mispredicts and machine_clears > 0.1 are shown, not
 * used). perf flags "tma_retiring > 0.7 | tma_heavy_operations > 0.1"
 * (0.75 in the E-core files) as worth vectorising; the issue reads
 * retiring > 0.5 with no other class over threshold as well-used slots. */
#define TMA_FE 0.15
#define TMA_BS 0.15
#define TMA_BE 0.20
#define TMA_MEM 0.20
#define TMA_CORE 0.10
#define TMA_RET_WELL 0.50
#define SRC_TMA "perf pmu-events x86 *-metrics.json MetricThreshold; pmu-tools"

/* The IPC rules of thumb of perfan issue 7 (Denis Bakhvalov, "Performance
 * Analysis and Tuning on Modern CPUs", ch. 4; Brendan Gregg, "CPI/IPC"):
 * IPC < 1 is low (stalled), IPC > 2.5 is well-optimised code; a miss per
 * reference ratio alone misleads, misses per 1000 instructions (MPKI) tell
 * the cost: > 10 cache or branch misses per kinsn is "many". */
#define IPC_LOW 1.0
#define IPC_WELL 2.5
#define IPC_GOOD 2.0
#define MPKI_HIGH 10.0
#define SRC_ISSUE "perfan issue 7 IPC rules of thumb"

/* ---- event names ----------------------------------------------------------- */

static const struct {
	const char *name;
	enum cl_event e;
} names[] = {
	{"task-clock", E_TASK_CLOCK},
	{"cpu-clock", E_CPU_CLOCK},
	{"cycles", E_CYCLES},
	{"cpu-cycles", E_CYCLES},
	{"instructions", E_INSTRUCTIONS},
	{"branches", E_BRANCHES},
	{"branch-instructions", E_BRANCHES},
	{"branch-misses", E_BRANCH_MISSES},
	{"cache-references", E_CACHE_REFS},
	{"cache-misses", E_CACHE_MISSES},
	{"l1-dcache-loads", E_L1D_LOADS},
	{"l1-dcache-load-misses", E_L1D_MISSES},
	{"llc-loads", E_LLC_LOADS},
	{"llc-load-misses", E_LLC_MISSES},
	{"dtlb-loads", E_DTLB_LOADS},
	{"dtlb-load-misses", E_DTLB_MISSES},
	{"itlb-loads", E_ITLB_LOADS},
	{"itlb-load-misses", E_ITLB_MISSES},
	{"stalled-cycles-frontend", E_STALL_FE},
	{"idle-cycles-frontend", E_STALL_FE},
	{"stalled-cycles-backend", E_STALL_BE},
	{"idle-cycles-backend", E_STALL_BE},
	{"slots", E_SLOTS},
	{"topdown-total-slots", E_SLOTS},
	{"topdown-retiring", E_TD_RETIRING},
	{"topdown-bad-spec", E_TD_BAD_SPEC},
	{"topdown-fe-bound", E_TD_FE_BOUND},
	{"topdown-be-bound", E_TD_BE_BOUND},
	{"topdown-heavy-ops", E_TD_HEAVY_OPS},
	{"topdown-br-mispredict", E_TD_BR_MISPREDICT},
	{"topdown-fetch-lat", E_TD_FETCH_LAT},
	{"topdown-mem-bound", E_TD_MEM_BOUND},
	/* metrics, after "tma_" is dropped and blanks/dashes become '_' */
	{"retiring", E_TMA_RETIRING},
	{"bad_speculation", E_TMA_BAD_SPEC},
	{"frontend_bound", E_TMA_FE_BOUND},
	{"backend_bound", E_TMA_BE_BOUND},
	{"memory_bound", E_TMA_MEM_BOUND},
	{"core_bound", E_TMA_CORE_BOUND},
	{"fetch_latency", E_TMA_FETCH_LAT},
	{"fetch_bandwidth", E_TMA_FETCH_BW},
	{"branch_mispredicts", E_TMA_BR_MISPREDICT},
	{"machine_clears", E_TMA_MACHINE_CLEARS},
	{"light_operations", E_TMA_LIGHT_OPS},
	{"heavy_operations", E_TMA_HEAVY_OPS},
};

/* The event's meaning, or -1. Tolerates a PMU ("cpu_core/cycles/") and
 * modifiers (":u") left in the name. */
static int event_id(const char *ev)
{
	char buf[96];
	const char *s = ev, *slash = strchr(ev, '/');
	if (slash && slash[1]) {
		s = slash + 1;
	}
	size_t n = 0;
	for (; *s && *s != ':' && *s != '/' && n + 1 < sizeof(buf); s++)
		buf[n++] = (char)tolower((unsigned char)*s);
	buf[n] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(buf, names[i].name))
			return names[i].e;
	/* metric spellings: tma_backend_bound, "backend bound",
	 * "Backend_Bound", "bad speculation" */
	char *m = buf;
	if (!strncmp(m, "tma_", 4))
		m += 4;
	for (char *p = m; *p; p++)
		if (*p == ' ' || *p == '-')
			*p = '_';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e >= E_TMA_RETIRING && !strcmp(m, names[i].name))
			return names[i].e;
	return -1;
}

static int is_hw(int e)
{
	return e >= E_CYCLES && e != -1;
}

/* ---- accumulation ---------------------------------------------------------- */

static void acc_init(struct cl_acc *a)
{
	memset(a, 0, sizeof(*a));
	a->min_running = 100;
}

static void acc_add(struct cl_acc *a, const struct perfan_stat_counter *c,
		    int e, int unscaled)
{
	if (!c->supported || !c->counted) {
		a->bad[e] = 1;
		if (is_hw(e))
			a->hw_missing = 1;
		return;
	}
	/* perf stat --topdown before slot counts printed percentages under
	 * the same names: those are metrics, not counts. */
	if (e >= E_TD_RETIRING && e <= E_TD_MEM_BOUND && c->unit &&
	    !strcmp(c->unit, "%"))
		e = e - E_TD_RETIRING + E_TMA_RETIRING;
	double v = c->value;
	double run = c->running_pct;
	if (run > 0 && run < 100) {
		if (unscaled)
			v *= 100 / run;
		if (run < a->min_running)
			a->min_running = run;
	}
	a->v[e] += v;
	a->ok[e] = 1;
	if (is_hw(e))
		a->hw_counted = 1;
	if ((e == E_CYCLES || e == E_INSTRUCTIONS) && c->pmu &&
	    !strncmp(c->pmu, "cpu_", 4)) {
		size_t i;
		for (i = 0; i < a->npmu; i++)
			if (!strcmp(a->pmu[i].pmu, c->pmu))
				break;
		if (i == a->npmu) {
			if (a->npmu == CL_MAX_PMUS)
				return;
			a->npmu++;
			a->pmu[i].pmu = c->pmu;
			a->pmu[i].cycles = a->pmu[i].instructions = 0;
		}
		int k = e == E_INSTRUCTIONS;
		if (k)
			a->pmu[i].instructions += v;
		else
			a->pmu[i].cycles += v;
		a->pmu_ok[i][k] = 1;
	}
}

/* ---- metrics --------------------------------------------------------------- */

static double get(const struct cl_acc *a, int e)
{
	return a->ok[e] ? a->v[e] : NAN;
}

static double ratio(const struct cl_acc *a, int num, int den)
{
	double n = get(a, num), d = get(a, den);
	return d > 0 ? n / d : NAN;
}

static double per_kinsn(const struct cl_acc *a, int num)
{
	double n = get(a, num), d = get(a, E_INSTRUCTIONS);
	return d > 0 ? 1000 * n / d : NAN;
}

static void metrics(struct cl_group *g)
{
	struct cl_acc *a = &g->a;
	struct perfan_classify_metrics *m = &g->pub.m;
	m->cycles = get(a, E_CYCLES);
	m->instructions = get(a, E_INSTRUCTIONS);
	m->ipc = ratio(a, E_INSTRUCTIONS, E_CYCLES);
	m->cpi = ratio(a, E_CYCLES, E_INSTRUCTIONS);
	m->cache_miss_ratio = ratio(a, E_CACHE_MISSES, E_CACHE_REFS);
	m->cache_mpki = per_kinsn(a, E_CACHE_MISSES);
	m->branch_miss_ratio = ratio(a, E_BRANCH_MISSES, E_BRANCHES);
	m->branch_mpki = per_kinsn(a, E_BRANCH_MISSES);
	m->l1d_miss_ratio = ratio(a, E_L1D_MISSES, E_L1D_LOADS);
	m->llc_miss_ratio = ratio(a, E_LLC_MISSES, E_LLC_LOADS);
	m->dtlb_miss_ratio = ratio(a, E_DTLB_MISSES, E_DTLB_LOADS);
	m->itlb_miss_ratio = ratio(a, E_ITLB_MISSES, E_ITLB_LOADS);
	m->fe_stall_ratio = ratio(a, E_STALL_FE, E_CYCLES);
	m->be_stall_ratio = ratio(a, E_STALL_BE, E_CYCLES);
	double clock = a->ok[E_TASK_CLOCK] ? a->v[E_TASK_CLOCK]
					   : get(a, E_CPU_CLOCK);
	m->cpus_utilized = g->elapsed_s > 0 && clock >= 0
				   ? clock / (1000 * g->elapsed_s)
				   : NAN;
	if (isnan(clock))
		m->cpus_utilized = NAN;

	/* TMA from slot counts: each class over the slots (or, without a
	 * slots count, over the four classes' sum). Level 2 splits follow
	 * perf's metric files: core = be - mem, fetch_bw = fe - fetch_lat,
	 * machine_clears = bad_spec - br_mispredict, light = ret - heavy. */
	double ret = get(a, E_TD_RETIRING), bs = get(a, E_TD_BAD_SPEC),
	       fe = get(a, E_TD_FE_BOUND), be = get(a, E_TD_BE_BOUND);
	double slots = get(a, E_SLOTS);
	if (!isnan(ret) && !isnan(fe) && !isnan(be) && !isnan(bs)) {
		if (!(slots > 0))
			slots = ret + bs + fe + be;
		if (slots > 0) {
			m->tma_retiring = ret / slots;
			m->tma_bad_speculation = bs / slots;
			m->tma_frontend_bound = fe / slots;
			m->tma_backend_bound = be / slots;
			double heavy = get(a, E_TD_HEAVY_OPS) / slots,
			       brm = get(a, E_TD_BR_MISPREDICT) / slots,
			       flat = get(a, E_TD_FETCH_LAT) / slots,
			       mem = get(a, E_TD_MEM_BOUND) / slots;
			m->tma_heavy_operations = heavy;
			m->tma_light_operations = m->tma_retiring - heavy;
			m->tma_branch_mispredicts = brm;
			m->tma_machine_clears = m->tma_bad_speculation - brm;
			m->tma_fetch_latency = flat;
			m->tma_fetch_bandwidth = m->tma_frontend_bound - flat;
			m->tma_memory_bound = mem;
			m->tma_core_bound = m->tma_backend_bound - mem;
			return;
		}
	}
	/* TMA metrics as perf printed them: percentages. */
	m->tma_retiring = get(a, E_TMA_RETIRING) / 100;
	m->tma_bad_speculation = get(a, E_TMA_BAD_SPEC) / 100;
	m->tma_frontend_bound = get(a, E_TMA_FE_BOUND) / 100;
	m->tma_backend_bound = get(a, E_TMA_BE_BOUND) / 100;
	m->tma_memory_bound = get(a, E_TMA_MEM_BOUND) / 100;
	m->tma_core_bound = get(a, E_TMA_CORE_BOUND) / 100;
	m->tma_fetch_latency = get(a, E_TMA_FETCH_LAT) / 100;
	m->tma_fetch_bandwidth = get(a, E_TMA_FETCH_BW) / 100;
	m->tma_branch_mispredicts = get(a, E_TMA_BR_MISPREDICT) / 100;
	m->tma_machine_clears = get(a, E_TMA_MACHINE_CLEARS) / 100;
	m->tma_light_operations = get(a, E_TMA_LIGHT_OPS) / 100;
	m->tma_heavy_operations = get(a, E_TMA_HEAVY_OPS) / 100;
}

/* ---- rules ----------------------------------------------------------------- */

static void evidence(struct cl_group *g, const char *metric, double value,
		     const char *op, double threshold, const char *rule,
		     const char *source)
{
	if (g->pub.nr_evidence == CL_MAX_EVIDENCE)
		return;
	g->ev[g->pub.nr_evidence++] = (struct perfan_classify_evidence){
		metric, value, op, threshold, rule, source};
}

static const char *const next_text[] = {
	[PERFAN_VERDICT_UNKNOWN] =
		"count cycles, instructions, branches, branch-misses, "
		"cache-references, cache-misses and stalled-cycles-* (perfan "
		"classify -- COMMAND does) on a machine with a hardware PMU",
	[PERFAN_VERDICT_MEMORY_BOUND] =
		"find the missing loads: perf record -e cache-misses (or perf "
		"mem record); look at data layout, access order, working-set "
		"size and prefetching; toplev -l2 splits L1/L2/L3/DRAM bound",
	[PERFAN_VERDICT_BAD_SPECULATION] =
		"find the mispredicted branches: perf record -e branch-misses "
		"(or -b for LBR); make them predictable (sorted data, "
		"branchless selects, fewer indirect calls) or use PGO",
	[PERFAN_VERDICT_FRONTEND_BOUND] =
		"the core starves for instructions: count "
		"L1-icache-load-misses and iTLB-load-misses; reduce code size "
		"and jumps in hot paths (inlining, PGO, BOLT, huge pages for "
		"text)",
	[PERFAN_VERDICT_CORE_BOUND] =
		"the execution units are the limit: look for divides, long "
		"dependency chains and port pressure (perf stat --topdown, "
		"toplev -l3); vectorise or break the chains",
	[PERFAN_VERDICT_WELL_OPTIMISED] =
		"the core is used well: gains now come from doing less work "
		"(algorithm, vectorisation, parallelism), not from stalls",
	[PERFAN_VERDICT_MIXED] =
		"several causes at once: split them with perf stat --topdown "
		"(TopdownL1/L2 metrics) or toplev, then profile the largest",
};

/* From TMA level 1 (and 2). Returns 1 when it decided. */
static int rules_tma(struct cl_group *g)
{
	const struct perfan_classify_metrics *m = &g->pub.m;
	double ret = m->tma_retiring, bs = m->tma_bad_speculation,
	       fe = m->tma_frontend_bound, be = m->tma_backend_bound;
	int have = !isnan(ret) + !isnan(bs) + !isnan(fe) + !isnan(be);
	if (have < 3)
		return 0;
	double sum = (isnan(ret) ? 0 : ret) + (isnan(bs) ? 0 : bs) +
		     (isnan(fe) ? 0 : fe) + (isnan(be) ? 0 : be);
	double vals[4] = {ret, bs, fe, be};
	for (int i = 0; i < 4; i++)
		if (vals[i] < 0 || vals[i] > 1.0) {
			snprintf(g->reason, CL_REASON_MAX,
				 "TMA level 1 is invalid (a class at %.1f %%, "
				 "outside 0-100 %%; sum %.1f %%)",
				 100 * vals[i], 100 * sum);
			g->pub.verdict = PERFAN_VERDICT_UNKNOWN;
			return 1;
		}
	if (have == 4 && (sum < 0.9 || sum > 1.1)) {
		snprintf(g->reason, CL_REASON_MAX,
			 "TMA level 1 is invalid (classes sum to %.1f %%, not "
			 "100 %%)",
			 100 * sum);
		g->pub.verdict = PERFAN_VERDICT_UNKNOWN;
		return 1;
	}
	int nv = 0, v = PERFAN_VERDICT_UNKNOWN;
	double best = 0;
	if (fe > TMA_FE) {
		evidence(g, "tma_frontend_bound", fe, ">", TMA_FE,
			 "slots lost to instruction fetch/decode", SRC_TMA);
		nv++;
		if (fe > best)
			best = fe, v = PERFAN_VERDICT_FRONTEND_BOUND;
	}
	if (bs > TMA_BS) {
		evidence(g, "tma_bad_speculation", bs, ">", TMA_BS,
			 "slots wasted on mispredicted paths", SRC_TMA);
		nv++;
		if (bs > best)
			best = bs, v = PERFAN_VERDICT_BAD_SPECULATION;
	}
	if (be > TMA_BE) {
		double mem = m->tma_memory_bound, core = m->tma_core_bound;
		int bv = PERFAN_VERDICT_MIXED;
		if (mem > TMA_MEM && !(core > mem)) {
			evidence(g, "tma_memory_bound", mem, ">", TMA_MEM,
				 "back end waits for data", SRC_TMA);
			bv = PERFAN_VERDICT_MEMORY_BOUND;
		} else if (core > TMA_CORE) {
			evidence(g, "tma_core_bound", core, ">", TMA_CORE,
				 "back end limited by execution units",
				 SRC_TMA);
			bv = PERFAN_VERDICT_CORE_BOUND;
		}
		evidence(g, "tma_backend_bound", be, ">", TMA_BE,
			 "slots stalled in the back end", SRC_TMA);
		nv++;
		if (be > best)
			best = be, v = bv;
	}
	if (nv == 0 && ret > TMA_RET_WELL) {
		evidence(g, "tma_retiring", ret, ">", TMA_RET_WELL,
			 "most slots retire useful work", SRC_TMA);
		v = PERFAN_VERDICT_WELL_OPTIMISED;
	} else if (nv > 1) {
		/* Several classes over threshold: name the largest only when
		 * it clearly dominates. */
		double second = 0;
		double cls[3] = {fe > TMA_FE ? fe : 0, bs > TMA_BS ? bs : 0,
				 be > TMA_BE ? be : 0};
		for (int i = 0; i < 3; i++)
			if (cls[i] < best && cls[i] > second)
				second = cls[i];
		if (best < 1.5 * second)
			v = PERFAN_VERDICT_MIXED;
	}
	if (v == PERFAN_VERDICT_UNKNOWN) {
		snprintf(g->reason, CL_REASON_MAX,
			 "no TMA level 1 class over its threshold");
		return 1;
	}
	g->pub.verdict = v;
	g->pub.confidence = have == 4 ? 0.9 : 0.7;
	snprintf(g->reason, CL_REASON_MAX,
		 "TMA level 1: retiring %.1f %%, bad speculation %.1f %%, "
		 "front-end bound %.1f %%, back-end bound %.1f %%",
		 100 * ret, 100 * bs, 100 * fe, 100 * be);
	return 1;
}

static void rules_ipc(struct cl_group *g)
{
	const struct perfan_classify_metrics *m = &g->pub.m;
	const struct cl_acc *a = &g->a;
	double ipc = m->ipc;
	if (isnan(ipc)) {
		if (a->hw_missing && !a->hw_counted)
			snprintf(g->reason, CL_REASON_MAX,
				 "no hardware counters: every hardware event "
				 "is <not supported> or <not counted>");
		else if (!a->hw_counted)
			snprintf(g->reason, CL_REASON_MAX,
				 "no cycles or instructions in the input "
				 "(software, tracepoint or raw events only)");
		else
			snprintf(
				g->reason, CL_REASON_MAX,
				"no IPC: needs both cycles and instructions "
				"counted (%s%s)",
				a->ok[E_CYCLES] ? "" : "cycles missing",
				a->ok[E_INSTRUCTIONS]
					? ""
					: (a->ok[E_CYCLES]
						   ? "instructions missing"
						   : ", instructions missing"));
		g->pub.verdict = PERFAN_VERDICT_UNKNOWN;
		return;
	}

	int mem = 0, branch = 0, fe = 0, be = 0;
	if (m->cache_mpki > MPKI_HIGH) {
		evidence(g, "cache_mpki", m->cache_mpki, ">", MPKI_HIGH,
			 "many cache misses per 1000 instructions", SRC_ISSUE);
		mem = 1;
	}
	if (m->cache_miss_ratio > PERF_MISS_VHIGH && !mem)
		/* The matrix-multiply case: a high ratio of few misses. */
		evidence(g, "cache_miss_ratio", m->cache_miss_ratio, ">",
			 PERF_MISS_VHIGH,
			 "high per reference, but few per 1000 instructions: "
			 "not memory-bound by itself",
			 SRC_PERF);
	if (m->branch_miss_ratio > PERF_MISS_WARN) {
		evidence(g, "branch_miss_ratio", m->branch_miss_ratio, ">",
			 PERF_MISS_WARN, "many branches mispredicted",
			 SRC_PERF);
		branch = 1;
	}
	if (m->branch_mpki > MPKI_HIGH) {
		evidence(g, "branch_mpki", m->branch_mpki, ">", MPKI_HIGH,
			 "many branch misses per 1000 instructions", SRC_ISSUE);
		branch = 1;
	}
	if (m->fe_stall_ratio > PERF_FE_HIGH) {
		evidence(g, "fe_stall_ratio", m->fe_stall_ratio, ">",
			 PERF_FE_HIGH, "front end idle for many cycles",
			 SRC_PERF);
		fe = 1;
	}
	if (m->be_stall_ratio > PERF_BE_HIGH) {
		evidence(g, "be_stall_ratio", m->be_stall_ratio, ">",
			 PERF_BE_HIGH, "back end idle for many cycles",
			 SRC_PERF);
		be = 1;
	}
	if (m->llc_miss_ratio > PERF_MISS_VHIGH)
		evidence(g, "llc_miss_ratio", m->llc_miss_ratio, ">",
			 PERF_MISS_VHIGH, "many LLC loads miss", SRC_PERF);
	if (m->dtlb_miss_ratio > PERF_MISS_VHIGH)
		evidence(g, "dtlb_miss_ratio", m->dtlb_miss_ratio, ">",
			 PERF_MISS_VHIGH, "many dTLB loads miss", SRC_PERF);
	if (m->itlb_miss_ratio > PERF_MISS_VHIGH)
		evidence(g, "itlb_miss_ratio", m->itlb_miss_ratio, ">",
			 PERF_MISS_VHIGH, "many iTLB loads miss", SRC_PERF);

	/* What is missing lowers the confidence of whatever is decided. */
	int have_cache = !isnan(m->cache_mpki);
	int have_branch = !isnan(m->branch_miss_ratio) ||
			  !isnan(m->branch_mpki);
	int have_stall = !isnan(m->fe_stall_ratio) || !isnan(m->be_stall_ratio);
	double conf = 0.9;
	conf *= have_cache ? 1 : 0.85;
	conf *= have_branch ? 1 : 0.85;
	conf *= have_stall ? 1 : 0.9;

	if (ipc >= IPC_WELL) {
		evidence(g, "ipc", ipc, ">=", IPC_WELL,
			 "high IPC: well-optimised code", SRC_ISSUE);
		g->pub.verdict = PERFAN_VERDICT_WELL_OPTIMISED;
		g->pub.confidence = conf;
		snprintf(g->reason, CL_REASON_MAX, "IPC %.2f >= %.1f", ipc,
			 IPC_WELL);
		return;
	}
	/* Back-end stalls are memory when the cache misses are many, the core
	 * when the cache counters show few; without them they stay open. */
	int core = be && !mem && have_cache;
	int open_be = be && !mem && !have_cache;
	int nsig = mem + branch + fe + core + open_be;
	if (ipc < IPC_LOW)
		evidence(g, "ipc", ipc, "<", IPC_LOW, "low IPC: stalled",
			 SRC_ISSUE);
	else
		conf *= 0.85; /* a cause without a low IPC hurts less */
	if (nsig == 0) {
		if (ipc >= IPC_GOOD && have_cache && have_branch) {
			evidence(g, "ipc", ipc, ">=", IPC_GOOD,
				 "good IPC with few misses per 1000 "
				 "instructions",
				 SRC_ISSUE);
			g->pub.verdict = PERFAN_VERDICT_WELL_OPTIMISED;
			g->pub.confidence = 0.6 * conf;
			snprintf(g->reason, CL_REASON_MAX,
				 "IPC %.2f with no miss or stall rule firing",
				 ipc);
			return;
		}
		g->pub.verdict = PERFAN_VERDICT_UNKNOWN;
		snprintf(g->reason, CL_REASON_MAX,
			 "IPC %.2f and no rule fired%s%s%s", ipc,
			 have_cache ? "" : "; no cache-misses counter",
			 have_branch ? "" : "; no branch-misses counter",
			 have_stall ? "" : "; no stalled-cycles counters");
		return;
	}
	int v = PERFAN_VERDICT_MIXED;
	if (nsig == 1)
		v = mem      ? PERFAN_VERDICT_MEMORY_BOUND
		    : branch ? PERFAN_VERDICT_BAD_SPECULATION
		    : fe     ? PERFAN_VERDICT_FRONTEND_BOUND
		    : core   ? PERFAN_VERDICT_CORE_BOUND
			     : PERFAN_VERDICT_MIXED;
	g->pub.verdict = v;
	g->pub.confidence = conf;
	snprintf(g->reason, CL_REASON_MAX, "IPC %.2f; %s%s%s%s%s", ipc,
		 mem ? "many cache misses " : "",
		 branch ? "many branch misses " : "",
		 fe ? "front end idle " : "",
		 core ? "back end idle with few cache misses " : "",
		 open_be ? "back end idle (memory or core: no cache counters) "
			 : "");
	size_t l = strlen(g->reason);
	if (l && g->reason[l - 1] == ' ')
		g->reason[l - 1] = 0;
}

/* Returns 0 or -1 when out of memory. */
static int classify_group(struct cl_group *g)
{
	struct perfan_classify_evidence ev[CL_MAX_EVIDENCE];
	char reason[CL_REASON_MAX] = "";
	g->ev = ev;
	g->reason = reason;
	metrics(g);
	g->pub.verdict = PERFAN_VERDICT_UNKNOWN;
	g->pub.confidence = 0;
	if (!rules_tma(g))
		rules_ipc(g);
	g->pub.m.min_running_pct = g->a.min_running;
	if (g->pub.verdict != PERFAN_VERDICT_UNKNOWN &&
	    g->a.min_running < 100) {
		/* Multiplexed: the counts are estimates from part of the run. */
		g->pub.confidence *= 0.5 + 0.5 * g->a.min_running / 100;
	}
	if (g->pub.verdict == PERFAN_VERDICT_UNKNOWN)
		g->pub.confidence = 0;
	g->pub.next = next_text[g->pub.verdict];
	/* Per-PMU IPC only matters when there are several (hybrid). */
	for (size_t i = 0; i < g->a.npmu; i++) {
		struct perfan_classify_pmu *p = &g->a.pmu[i];
		p->ipc = g->a.pmu_ok[i][0] && g->a.pmu_ok[i][1] && p->cycles > 0
				 ? p->instructions / p->cycles
				 : NAN;
		if (!g->a.pmu_ok[i][0])
			p->cycles = NAN;
		if (!g->a.pmu_ok[i][1])
			p->instructions = NAN;
	}
	g->pub.nr_pmus = g->a.npmu;
	g->reason = strdup(reason);
	g->ev = NULL;
	if (g->pub.nr_evidence) {
		size_t sz = g->pub.nr_evidence * sizeof(*ev);
		g->ev = malloc(sz);
		if (g->ev)
			memcpy(g->ev, ev, sz);
	}
	g->pub.reason = g->reason;
	g->pub.evidence = g->ev;
	return !g->reason || (g->pub.nr_evidence && !g->ev) ? -1 : 0;
}

/* ---- groups ---------------------------------------------------------------- */

static int same_aggr(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* (interval, aggregation) to a 64-bit key for the index of groups. */
static uint64_t group_key(double interval, const char *aggr)
{
	uint64_t h = 1469598103934665603ull, bits;
	memcpy(&bits, &interval, sizeof(bits));
	for (int i = 0; i < 8; i++) {
		h ^= (bits >> (8 * i)) & 0xff;
		h *= 1099511628211ull;
	}
	for (const unsigned char *p = (const unsigned char *)aggr; p && *p;
	     p++) {
		h ^= *p;
		h *= 1099511628211ull;
	}
	return h ^ (aggr ? 0x9e3779b97f4a7c15ull : 0);
}

static int group_is(const struct cl_group *g, double interval, const char *aggr)
{
	return !g->pub.whole && g->pub.interval == interval &&
	       same_aggr(g->pub.aggr, aggr);
}

/* The group of (INTERVAL, AGGR), made if new. Interval and per-CPU input
 * has many groups: an index keeps this linear in the rows. */
static struct cl_group *find_group(perfan_classify *c, double interval,
				   const char *aggr)
{
	uint64_t key = group_key(interval, aggr);
	uint64_t *ix = perfan__htab_get(&c->index, key);
	if (ix && group_is(&c->g[*ix], interval, aggr))
		return &c->g[*ix];
	if (ix) /* a hash collision: rare, search */
		for (size_t i = 0; i < c->n; i++)
			if (group_is(&c->g[i], interval, aggr))
				return &c->g[i];
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct cl_group *g = realloc(c->g, cap * sizeof(*g));
		if (!g)
			return NULL;
		c->g = g;
		c->cap = cap;
	}
	if (!ix && perfan__htab_put(&c->index, key, c->n))
		return NULL;
	struct cl_group *g = &c->g[c->n++];
	memset(g, 0, sizeof(*g));
	acc_init(&g->a);
	g->pub.interval = interval;
	g->pub.aggr = aggr;
	return g;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int perfan_classify_new(perfan_classify **out,
			const struct perfan_stat_counter *counters, size_t n,
			const struct perfan_classify_opts *o)
{
	*out = NULL;
	if (!counters || n == 0)
		return perfan__err(PERFAN_EINVAL, "classify: no counters");
	perfan_classify *c = calloc(1, sizeof(*c));
	if (!c)
		return perfan__err(PERFAN_ENOMEM, "classify: out of memory");
	c->o.sz = sizeof(c->o);
	if (o) {
		size_t sz = o->sz < sizeof(c->o) ? o->sz : sizeof(c->o);
		memcpy(&c->o, o, sz);
		c->o.sz = sizeof(c->o);
	}
	double *stamps = malloc(n * sizeof(*stamps));
	if (!stamps)
		goto nomem;
	size_t nst = 0;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_stat_counter *k = &counters[i];
		int e = event_id(k->event ? k->event : "");
		if (e < 0)
			continue;
		struct cl_group *g = find_group(c, k->interval, k->aggr);
		if (!g)
			goto nomem;
		acc_add(&g->a, k, e, c->o.unscaled);
		if (k->interval >= 0)
			stamps[nst++] = k->interval;
	}
	/* The whole: everything summed, or the only group when the input
	 * had neither intervals nor aggregation. */
	if (c->n == 1 && c->g[0].pub.interval < 0 && !c->g[0].pub.aggr) {
		c->g[0].pub.whole = 1;
	} else {
		struct cl_group *w = find_group(c, -2, NULL);
		if (!w)
			goto nomem;
		w->pub.whole = 1;
		w->pub.interval = -1;
		for (size_t i = 0; i < n; i++) {
			int e = event_id(counters[i].event ? counters[i].event
							   : "");
			if (e >= 0)
				acc_add(&w->a, &counters[i], e, c->o.unscaled);
		}
	}
	/* Elapsed time: an interval's is the gap to the previous stamp. */
	qsort(stamps, nst, sizeof(*stamps), cmp_double);
	size_t nu = 0;
	for (size_t i = 0; i < nst; i++)
		if (!nu || stamps[i] != stamps[nu - 1])
			stamps[nu++] = stamps[i];
	for (size_t i = 0; i < c->n; i++) {
		struct cl_group *g = &c->g[i];
		if (g->pub.whole)
			g->elapsed_s = c->o.elapsed > 0 ? c->o.elapsed
				       : nu             ? stamps[nu - 1]
							: 0;
		else if (g->pub.interval >= 0) {
			/* the first stamp >= this one, by bisection */
			size_t lo = 0, hi = nu;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (stamps[mid] < g->pub.interval)
					lo = mid + 1;
				else
					hi = mid;
			}
			double prev = lo ? stamps[lo - 1] : 0;
			g->elapsed_s = g->pub.interval - prev;
		} else
			g->elapsed_s = c->o.elapsed;
	}
	free(stamps);
	for (size_t i = 0; i < c->n; i++) {
		c->g[i].pub.pmus = c->g[i].a.pmu;
		if (classify_group(&c->g[i])) {
			c->n = i + 1; /* free what was made */
			perfan_classify_free(c);
			return perfan__err(PERFAN_ENOMEM,
					   "classify: out of memory");
		}
	}
	*out = c;
	return 0;
nomem:
	free(stamps);
	perfan_classify_free(c);
	return perfan__err(PERFAN_ENOMEM, "classify: out of memory");
}

void perfan_classify_free(perfan_classify *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->g[i].reason);
		free(c->g[i].ev);
	}
	free(c->g);
	perfan__htab_free(&c->index);
	free(c);
}

size_t perfan_classify_nr_groups(const perfan_classify *c)
{
	return c->n;
}

const struct perfan_classify_group *
perfan_classify_group(const perfan_classify *c, size_t i)
{
	return i < c->n ? &c->g[i].pub : NULL;
}

const struct perfan_classify_group *
perfan_classify_whole(const perfan_classify *c)
{
	return &c->g[c->n - 1].pub;
}

const char *perfan_verdict_name(int v)
{
	switch (v) {
	case PERFAN_VERDICT_MEMORY_BOUND: return "memory-bound";
	case PERFAN_VERDICT_BAD_SPECULATION: return "bad-speculation";
	case PERFAN_VERDICT_FRONTEND_BOUND: return "front-end-bound";
	case PERFAN_VERDICT_CORE_BOUND: return "core-bound";
	case PERFAN_VERDICT_WELL_OPTIMISED: return "well-optimised";
	case PERFAN_VERDICT_MIXED: return "mixed";
	case PERFAN_VERDICT_CPU_BOUND: return "cpu-bound";
	case PERFAN_VERDICT_MOSTLY_WAITING: return "mostly-waiting";
	default: return "unknown";
	}
}
