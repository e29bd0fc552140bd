/* analysis/classify_rules.c: the rules that turn a group's metrics into a
 * verdict, each threshold with its source: TMA level 1 and 2, IPC with miss
 * and stall ratios, and on-CPU against wall time from software counters. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/classify_internal.h"

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
#define TMA_RET_MOST 0.70
#define TMA_L2 0.10 /* fetch_latency, branch_mispredicts, machine_clears */
#define TMA_FETCH_BW 0.20
#define SRC_TMA "perf pmu-events x86 *-metrics.json MetricThreshold; pmu-tools"

/* The IPC rules of thumb of the course page "CPU and Python Profiling"
 * (section 7, perf for the native side): IPC < 1.0 with high cache misses
 * is memory-bound (pointer chasing), < 1.0 with high branch misses is
 * branchy (interpreter, tokenizer), > 2.5 is well-optimised numeric code;
 * an inference engine process runs at 0.8-1.5 (Python-dominated), and 0.3
 * is pathologically cache-hostile. "High" misses: a ratio per reference
 * misleads, misses per 1000 instructions (MPKI) tell the cost, > 10 is
 * many (Denis Bakhvalov, "Performance Analysis and Tuning on Modern CPUs",
 * ch. 4). IPC >= 2 with few misses of both kinds reads as well-optimised
 * too, with less confidence. */
#define IPC_LOW 1.0
#define IPC_WELL 2.5
#define IPC_GOOD 2.0
#define IPC_HOSTILE 0.3
#define IPC_PY_LO 0.8
#define IPC_PY_HI 1.5
#define MPKI_HIGH 10.0
#define SRC_IPC "course CPU and Python Profiling, IPC rules of thumb"
#define SRC_MPKI "Bakhvalov, Performance Analysis and Tuning, MPKI"

/* On-CPU against wall time (software counters, any machine): the course
 * page "Profiling a slow service": compare CPU time with wall time; close,
 * and a CPU profiler shows where the time goes; much larger wall time, and
 * the work is waiting (a lock, a pool, the disk, another service). Brendan
 * Gregg's off-CPU analysis is the method for the waiting part. Off CPU more
 * than half the wall time is "mostly waiting"; on CPU 90 % of it and more,
 * CPU-bound. perf's own stat-shadow prints the same ratio as "CPUs
 * utilized" (task-clock / elapsed). */
#define WALL_WAITING 0.5
#define WALL_CPU 0.9
#define SRC_WALL "course Profiling a slow service; Gregg, Off-CPU Analysis"

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
	[PERFAN_VERDICT_BACKEND_BOUND] =
		"split the back end into memory and core: perf stat -M "
		"TopdownL2 (or --td-level=2, toplev -l2); memory-bound: perf "
		"mem record, core-bound: look for divides and dependency chains",
	[PERFAN_VERDICT_CPU_BOUND] =
		"profile the CPU time: perfan record -- COMMAND (--python for "
		"Python: DWARF stacks and -X perf), then perfan report and "
		"perfan flamegraph; with hardware counters, perfan classify -- "
		"COMMAND also tells memory, branch or front-end limits",
	[PERFAN_VERDICT_MOSTLY_WAITING] =
		"record where it waits: perfan record --wall -- COMMAND "
		"(--python for Python; sched:sched_switch and "
		"sched:sched_waking with their stacks), then "
		"perfan report --wall perf.data (on-CPU, off-CPU by state and "
		"where each thread blocked) and perfan flamegraph --wall",
};

/* TMA level 1 that contradicts itself. */
static const char next_tma_invalid[] =
	"the top-down figures contradict each other, as when perf's topdown "
	"events were multiplexed or scheduled apart: rerun with the top-down "
	"group alone (perf stat --topdown, or -M TopdownL1 with no other "
	"events) and check each counter's run share";

/* A software verdict between the two: both profiles. */
static const char next_both[] =
	"part on CPU, part waiting: record both, perfan record --wall -- "
	"COMMAND (--python for Python), then perfan report --wall";

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
			g->tma_invalid = 1;
			return 1;
		}
	if (have == 4 && (sum < 0.9 || sum > 1.1)) {
		snprintf(g->reason, CL_REASON_MAX,
			 "TMA level 1 is invalid (classes sum to %.1f %%, not "
			 "100 %%)",
			 100 * sum);
		g->pub.verdict = PERFAN_VERDICT_UNKNOWN;
		g->tma_invalid = 1;
		return 1;
	}
	int nv = 0, v = PERFAN_VERDICT_UNKNOWN;
	double best = 0;
	if (fe > TMA_FE) {
		evidence(g, "tma_frontend_bound", fe, ">", TMA_FE,
			 "slots lost to instruction fetch/decode", SRC_TMA);
		if (m->tma_fetch_latency > TMA_L2)
			evidence(g, "tma_fetch_latency", m->tma_fetch_latency,
				 ">", TMA_L2,
				 "fetch stalls: i-cache, iTLB misses, "
				 "resteers",
				 SRC_TMA);
		if (m->tma_fetch_bandwidth > TMA_FETCH_BW)
			evidence(g, "tma_fetch_bandwidth",
				 m->tma_fetch_bandwidth, ">", TMA_FETCH_BW,
				 "decoders deliver too few uops", SRC_TMA);
		nv++;
		if (fe > best)
			best = fe, v = PERFAN_VERDICT_FRONTEND_BOUND;
	}
	if (bs > TMA_BS) {
		evidence(g, "tma_bad_speculation", bs, ">", TMA_BS,
			 "slots wasted on mispredicted paths", SRC_TMA);
		if (m->tma_branch_mispredicts > TMA_L2)
			evidence(g, "tma_branch_mispredicts",
				 m->tma_branch_mispredicts, ">", TMA_L2,
				 "mispredicted branches", SRC_TMA);
		if (m->tma_machine_clears > TMA_L2)
			evidence(g, "tma_machine_clears", m->tma_machine_clears,
				 ">", TMA_L2,
				 "pipeline flushes: memory ordering, "
				 "self-modifying code",
				 SRC_TMA);
		nv++;
		if (bs > best)
			best = bs, v = PERFAN_VERDICT_BAD_SPECULATION;
	}
	if (be > TMA_BE) {
		double mem = m->tma_memory_bound, core = m->tma_core_bound;
		int bv = isnan(mem) && isnan(core)
				 ? PERFAN_VERDICT_BACKEND_BOUND
				 : PERFAN_VERDICT_MIXED;
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
	if (ret > TMA_RET_MOST && ret > best) {
		/* Most slots retire: what else is over its threshold is the
		 * smaller part (perf's tma_retiring > 0.7 points at heavy
		 * operations and vectorising, not at a stall). */
		evidence(g, "tma_retiring", ret, ">", TMA_RET_MOST,
			 "most slots retire useful work", SRC_TMA);
		v = PERFAN_VERDICT_WELL_OPTIMISED;
		nv = 0;
	} else if (nv == 0 && ret > TMA_RET_WELL) {
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
			 "many cache misses per 1000 instructions", SRC_MPKI);
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
			 "many branch misses per 1000 instructions", SRC_MPKI);
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
			 "high IPC: well-optimised code", SRC_IPC);
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
			 SRC_IPC);
	else
		conf *= 0.85; /* a cause without a low IPC hurts less */
	if (nsig == 0) {
		if (ipc >= IPC_GOOD && have_cache && have_branch) {
			evidence(g, "ipc", ipc, ">=", IPC_GOOD,
				 "good IPC with few misses per 1000 "
				 "instructions",
				 SRC_IPC);
			g->pub.verdict = PERFAN_VERDICT_WELL_OPTIMISED;
			g->pub.confidence = 0.6 * conf;
			snprintf(g->reason, CL_REASON_MAX,
				 "IPC %.2f with no miss or stall rule firing",
				 ipc);
			return;
		}
		if (ipc < IPC_HOSTILE) {
			evidence(g, "ipc", ipc, "<", IPC_HOSTILE,
				 "pathologically cache-hostile", SRC_IPC);
			g->pub.verdict = PERFAN_VERDICT_MEMORY_BOUND;
			g->pub.confidence = 0.5 * conf;
			snprintf(g->reason, CL_REASON_MAX,
				 "IPC %.2f, no miss counter to confirm", ipc);
			return;
		}
		g->pub.verdict = PERFAN_VERDICT_UNKNOWN;
		snprintf(g->reason, CL_REASON_MAX,
			 "IPC %.2f and no rule fired%s%s%s%s", ipc,
			 ipc >= IPC_PY_LO && ipc <= IPC_PY_HI
				 ? " (in the 0.8-1.5 of a Python-dominated "
				   "engine process)"
				 : "",
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

int perfan__classify_system_wide(const char *cmd)
{
	return cmd &&
	       (!strcmp(cmd, "system wide") || !strncmp(cmd, "CPU(s)", 6));
}

static void append(char *buf, const char *fmt, ...)
{
	size_t l = strlen(buf);
	va_list ap;
	if (l + 1 >= CL_REASON_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + l, CL_REASON_MAX - l, fmt, ap);
	va_end(ap);
}

/* From on-CPU time against wall time: a verdict when the hardware gave
 * none (HW_VERDICT 0), else a warning when the run mostly waited. */
static void rules_time(struct cl_group *g, int hw_verdict)
{
	const struct perfan_classify_time *t = &g->pub.time;
	double on = t->on_cpu;
	/* Not of a system-wide run, where the clock counts every CPU's time,
	 * busy or idle: known by its header, or by a cpu-clock (perf -a
	 * counts that) where a task's run has task-clock. */
	if (g->pub.aggr || perfan__classify_system_wide(g->pub.command) ||
	    isnan(on) || (!g->pub.command && !g->a.ok[E_TASK_CLOCK]))
		return;
	if (hw_verdict) {
		if (on < WALL_WAITING)
			snprintf(g->warning, CL_REASON_MAX,
				 "on CPU only %.1f %% of the %.3f s elapsed: "
				 "the verdict is about that part; the rest "
				 "was waiting, which these counters do not "
				 "see: record it with perfan record --wall -- "
				 "COMMAND, read it with perfan report --wall",
				 100 * on, t->elapsed);
		return;
	}
	char hw[CL_REASON_MAX];
	snprintf(hw, sizeof(hw), "%s", g->reason);
	if (on < WALL_WAITING) {
		evidence(g, "on_cpu", on, "<", WALL_WAITING,
			 "off CPU more than half the wall time: waiting on "
			 "I/O, locks, sleeps or other processes",
			 SRC_WALL);
		g->pub.verdict = PERFAN_VERDICT_MOSTLY_WAITING;
		g->pub.next = next_text[PERFAN_VERDICT_MOSTLY_WAITING];
	} else if (on >= WALL_CPU) {
		evidence(g, "on_cpu", on, ">=", WALL_CPU,
			 "on CPU (nearly) all the wall time", SRC_WALL);
		g->pub.verdict = PERFAN_VERDICT_CPU_BOUND;
		g->pub.next = next_text[PERFAN_VERDICT_CPU_BOUND];
	} else {
		g->pub.verdict = PERFAN_VERDICT_MIXED;
		g->pub.next = next_both;
	}
	g->pub.confidence = 0.7;
	snprintf(g->reason, CL_REASON_MAX,
		 "on CPU %.1f %% of the %.3f s elapsed", 100 * on, t->elapsed);
	if (!isnan(t->context_switches_per_sec))
		append(g->reason, "; %.0f context switches per second",
		       t->context_switches_per_sec);
	if (t->sys_share > 0.5)
		append(g->reason,
		       "; %.0f %% of the CPU time in the kernel (system calls, "
		       "page faults)",
		       100 * t->sys_share);
	if (*hw)
		append(g->reason, "; %s", hw);
}

void perfan__classify_rules(struct cl_group *g)
{
	g->pub.verdict = PERFAN_VERDICT_UNKNOWN;
	g->pub.confidence = 0;
	if (!rules_tma(g))
		rules_ipc(g);
	if (g->pub.verdict != PERFAN_VERDICT_UNKNOWN &&
	    g->a.min_running < 100) {
		/* Multiplexed: the counts are estimates from part of the run. */
		g->pub.confidence *= 0.5 + 0.5 * g->a.min_running / 100;
	}
	if (g->pub.verdict == PERFAN_VERDICT_UNKNOWN)
		g->pub.confidence = 0;
	g->pub.next = g->tma_invalid ? next_tma_invalid
				     : next_text[g->pub.verdict];
	int hw = g->pub.verdict != PERFAN_VERDICT_UNKNOWN ||
		 !isnan(g->pub.m.ipc) || !isnan(g->pub.m.tma_retiring);
	rules_time(g, hw);
}
