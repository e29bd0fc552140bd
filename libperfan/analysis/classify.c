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
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"

/* ---- event names ----------------------------------------------------------- */

static const struct {
	const char *name;
	enum cl_event e;
} names[] = {
	{"task-clock", E_TASK_CLOCK},
	{"cpu-clock", E_CPU_CLOCK},
	{"context-switches", E_CONTEXT_SWITCHES},
	{"cs", E_CONTEXT_SWITCHES},
	{"cpu-migrations", E_CPU_MIGRATIONS},
	{"migrations", E_CPU_MIGRATIONS},
	{"page-faults", E_PAGE_FAULTS},
	{"faults", E_PAGE_FAULTS},
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
int perfan__classify_event(const char *ev)
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

/* The slot of PMU in A (CL_MAX_PMUS: none, or no room). */
static size_t pmu_slot(struct cl_acc *a, const char *pmu)
{
	size_t i;
	if (!pmu)
		return CL_MAX_PMUS;
	for (i = 0; i < a->npmu; i++)
		if (!strcmp(a->pmu[i].pmu, pmu))
			return i;
	if (a->npmu == CL_MAX_PMUS)
		return CL_MAX_PMUS;
	a->pmu[i] = (struct perfan_classify_pmu){pmu, 0, 0, 0};
	return a->npmu++;
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
	if ((e == E_TASK_CLOCK || e == E_CPU_CLOCK) && c->unit)
		v *= !strcmp(c->unit, "nsec")   ? 1e-6 /* as msec */
		     : !strcmp(c->unit, "usec") ? 1e-3
						: 1;
	size_t slot = is_hw(e) ? pmu_slot(a, c->pmu) : CL_MAX_PMUS;
	if (run > 0 && run < 100) {
		if (unscaled && e < E_TMA_RETIRING)
			v *= 100 / run;
		if (run < a->min_running)
			a->min_running = run;
	}
	a->ok[e] = 1;
	if (is_hw(e))
		a->hw_counted = 1;
	if (e >= E_TMA_RETIRING) { /* a percentage: averaged, not summed */
		a->tma_sum[slot][e - E_TMA_RETIRING] += v;
		a->tma_n[slot][e - E_TMA_RETIRING]++;
		return;
	}
	a->v[e] += v;
	if ((e == E_CYCLES || e == E_INSTRUCTIONS) && slot < CL_MAX_PMUS) {
		int k = e == E_INSTRUCTIONS;
		if (k)
			a->pmu[slot].instructions += v;
		else
			a->pmu[slot].cycles += v;
		a->pmu_ok[slot][k] = 1;
	}
}

/* Each TMA percentage: the mean of its rows per PMU, then across PMUs
 * weighed by their cycles (plain mean when some PMU has none). */
static void tma_mix(struct cl_acc *a)
{
	for (int t = 0; t < CL_NR_TMA; t++) {
		double wsum = 0, w = 0, msum = 0;
		int nslots = 0, weighted = 1;
		for (size_t k = 0; k <= CL_MAX_PMUS; k++) {
			if (!a->tma_n[k][t])
				continue;
			double mean = a->tma_sum[k][t] / a->tma_n[k][t];
			double cyc = k < a->npmu && a->pmu_ok[k][0]
					     ? a->pmu[k].cycles
					     : 0;
			nslots++;
			msum += mean;
			if (cyc > 0) {
				wsum += mean * cyc;
				w += cyc;
			} else {
				weighted = 0;
			}
		}
		if (nslots)
			a->v[E_TMA_RETIRING + t] =
				weighted && w > 0 ? wsum / w : msum / nslots;
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

static void time_metrics(struct cl_group *g)
{
	const struct cl_acc *a = &g->a;
	struct perfan_classify_time *t = &g->pub.time;
	double el = g->elapsed_s > 0 ? g->elapsed_s : NAN;
	int times = g->user_s >= 0 && g->sys_s >= 0 &&
		    (g->user_s > 0 || g->sys_s > 0);
	t->elapsed = el;
	t->user = times ? g->user_s : NAN;
	t->sys = times ? g->sys_s : NAN;
	double clock = a->ok[E_TASK_CLOCK] ? a->v[E_TASK_CLOCK]
					   : get(a, E_CPU_CLOCK);
	/* user and sys are counted in clock ticks: too coarse for short
	 * runs */
	double cpu = !isnan(clock) ? clock / 1000
		     : el >= 0.1   ? t->user + t->sys
				   : NAN;
	t->on_cpu = cpu / el;
	t->sys_share = times ? t->sys / (t->user + t->sys) : NAN;
	t->context_switches_per_sec = get(a, E_CONTEXT_SWITCHES) / el;
	t->cpu_migrations_per_sec = get(a, E_CPU_MIGRATIONS) / el;
	t->page_faults_per_sec = get(a, E_PAGE_FAULTS) / el;
}

static void metrics(struct cl_group *g)
{
	struct cl_acc *a = &g->a;
	struct perfan_classify_metrics *m = &g->pub.m;
	tma_mix(a);
	time_metrics(g);
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

int perfan__classify_finish(struct cl_group *g)
{
	struct perfan_classify_evidence ev[CL_MAX_EVIDENCE];
	char reason[CL_REASON_MAX] = "", warning[CL_REASON_MAX] = "";
	g->ev = ev;
	g->reason = reason;
	g->warning = warning;
	g->pub.m.min_running_pct = g->a.min_running;
	perfan__classify_rules(g);
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
	g->warning = *warning ? strdup(warning) : NULL;
	g->ev = NULL;
	if (g->pub.nr_evidence) {
		size_t sz = g->pub.nr_evidence * sizeof(*ev);
		g->ev = malloc(sz);
		if (g->ev)
			memcpy(g->ev, ev, sz);
	}
	g->pub.reason = g->reason;
	g->pub.warning = g->warning;
	g->pub.evidence = g->ev;
	return !g->reason || (*warning && !g->warning) ||
			       (g->pub.nr_evidence && !g->ev)
		       ? -1
		       : 0;
}

/* Returns 0 or -1 when out of memory. */
static int classify_group(struct cl_group *g)
{
	metrics(g);
	return perfan__classify_finish(g);
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
		for (size_t i = c->base; i < c->n; i++)
			if (group_is(&c->g[i], interval, aggr))
				return &c->g[i];
	if (!ix && perfan__htab_put(&c->index, key, c->n))
		return NULL;
	struct cl_group *g = perfan__classify_push(c);
	if (!g)
		return NULL;
	g->pub.interval = interval;
	g->pub.aggr = aggr;
	return g;
}

struct cl_group *perfan__classify_push(perfan_classify *c)
{
	if (perfan__grow((void **)&c->g, &c->cap, c->n + 1, sizeof(*c->g)))
		return NULL;
	struct cl_group *g = &c->g[c->n++];
	memset(g, 0, sizeof(*g));
	acc_init(&g->a);
	g->user_s = g->sys_s = -1;
	g->pub.interval = -1;
	return g;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int perfan__classify_add(perfan_classify *c,
			 const struct perfan_stat_counter *counters, size_t n,
			 const struct perfan_classify_opts *o,
			 const struct cl_ctx *x)
{
	size_t base = c->n;
	perfan__htab_free(&c->index);
	c->base = base;
	double *stamps = malloc((n ? n : 1) * sizeof(*stamps));
	if (!stamps)
		return PERFAN_ENOMEM;
	size_t nst = 0;
	for (size_t i = 0; i < n && !x->whole_only; i++) {
		const struct perfan_stat_counter *k = &counters[i];
		int e = perfan__classify_event(k->event ? k->event : "");
		if (e < 0)
			continue;
		struct cl_group *g = find_group(c, k->interval, k->aggr);
		if (!g)
			goto nomem;
		acc_add(&g->a, k, e, o->unscaled);
		if (k->interval >= 0)
			stamps[nst++] = k->interval;
	}
	/* The whole: everything summed, or the only group when the input
	 * had neither intervals nor aggregation. */
	if (c->n == base + 1 && c->g[base].pub.interval < 0 &&
	    !c->g[base].pub.aggr) {
		c->g[base].pub.whole = 1;
	} else {
		struct cl_group *w = find_group(c, -2, NULL);
		if (!w)
			goto nomem;
		w->pub.whole = 1;
		w->pub.interval = -1;
		for (size_t i = 0; i < n; i++) {
			int e = perfan__classify_event(
				counters[i].event ? counters[i].event : "");
			if (e >= 0)
				acc_add(&w->a, &counters[i], e, o->unscaled);
			if (e >= 0 && counters[i].interval >= 0 &&
			    x->whole_only)
				stamps[nst++] = counters[i].interval;
		}
	}
	/* Elapsed time: an interval's is the gap to the previous stamp. */
	qsort(stamps, nst, sizeof(*stamps), cmp_double);
	size_t nu = 0;
	for (size_t i = 0; i < nst; i++)
		if (!nu || stamps[i] != stamps[nu - 1])
			stamps[nu++] = stamps[i];
	for (size_t i = base; i < c->n; i++) {
		struct cl_group *g = &c->g[i];
		if (g->pub.whole) {
			g->elapsed_s = o->elapsed > 0 ? o->elapsed
				       : nu           ? stamps[nu - 1]
						      : 0;
			g->user_s = o->user;
			g->sys_s = o->sys;
		} else if (g->pub.interval >= 0) {
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
			g->elapsed_s = o->elapsed;
	}
	free(stamps);
	for (size_t i = base; i < c->n; i++) {
		struct cl_group *g = &c->g[i];
		g->pub.run = x->run;
		g->pub.command = x->command;
		g->pub.pmu = x->pmu;
		if (classify_group(g)) {
			c->n = i + 1; /* free what was made */
			return PERFAN_ENOMEM;
		}
	}
	return 0;
nomem:
	free(stamps);
	return PERFAN_ENOMEM;
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
		return perfan__nomem("classify");
	c->o.sz = sizeof(c->o);
	if (o) {
		size_t sz = o->sz < sizeof(c->o) ? o->sz : sizeof(c->o);
		memcpy(&c->o, o, sz);
		c->o.sz = sizeof(c->o);
	}
	const struct cl_ctx x = {0};
	if (perfan__classify_add(c, counters, n, &c->o, &x)) {
		perfan_classify_free(c);
		return perfan__nomem("classify");
	}
	perfan__classify_done(c);
	*out = c;
	return 0;
}

void perfan__classify_done(perfan_classify *c)
{
	for (size_t i = 0; i < c->n; i++) /* c->g moves no more */
		c->g[i].pub.pmus = c->g[i].a.pmu;
}

void perfan_classify_free(perfan_classify *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->g[i].reason);
		free(c->g[i].warning);
		free(c->g[i].ev);
		free(c->g[i].strings);
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
	for (size_t i = c->n; i > 0; i--)
		if (c->g[i - 1].pub.whole && !c->g[i - 1].pub.pmu)
			return &c->g[i - 1].pub;
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
	case PERFAN_VERDICT_BACKEND_BOUND: return "back-end-bound";
	case PERFAN_VERDICT_GIL_BOUND: return "GIL-bound";
	default: return "unknown";
	}
}
