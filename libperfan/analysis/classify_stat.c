/* analysis/classify_stat.c: perfan_classify_stat: what perf stat printed,
 * classified run by run with each run's own times and command, one PMU at
 * a time on hybrid CPUs, and several runs of one command read together
 * where their events complement each other. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/classify.h>

#include "analysis/classify_internal.h"
#include "util/error.h"
#include "util/log.h"

/* A PMU whose counters ran less than this share of the time is read as
 * too little to weigh with the others (perf scales its counts up by
 * 100 / share; intel-hybrid.txt in perf's documentation explains it). */
#define PMU_RAN_LITTLE 10.0

static int is_hw_counter(const struct perfan_stat_counter *k)
{
	return perfan__classify_event(k->event ? k->event : "") >= E_CYCLES;
}

/* The hardware PMUs named in the run's counters, at most CL_MAX_PMUS. */
static size_t run_pmus(const struct perfan_stat_counter *k, size_t n,
		       const char **pmus)
{
	size_t np = 0;
	for (size_t i = 0; i < n; i++) {
		if (!k[i].pmu || !is_hw_counter(&k[i]))
			continue;
		size_t j;
		for (j = 0; j < np && strcmp(pmus[j], k[i].pmu); j++)
			;
		if (j == np && np < CL_MAX_PMUS)
			pmus[np++] = k[i].pmu;
	}
	return np;
}

static int set_warning(struct cl_group *g, const char *text)
{
	size_t old = g->warning ? strlen(g->warning) : 0;
	char *w = malloc(old + strlen(text) + 3);
	if (!w)
		return -1;
	if (old)
		snprintf(w, old + strlen(text) + 3, "%s; %s", text, g->warning);
	else
		strcpy(w, text);
	free(g->warning);
	g->warning = w;
	g->pub.warning = w;
	return 0;
}

/* One whole per PMU after the run's groups, and a warning on the run's
 * whole (at WHOLE) when some PMU ran too little. */
static int per_pmu(perfan_classify *c, const struct perfan_stat_counter *k,
		   size_t n, const struct perfan_classify_opts *o,
		   const struct cl_ctx *x, size_t whole)
{
	const char *pmus[CL_MAX_PMUS];
	size_t np = run_pmus(k, n, pmus);
	if (np < 2)
		return 0;
	struct perfan_stat_counter *sub = malloc(n * sizeof(*sub));
	if (!sub)
		return PERFAN_ENOMEM;
	char little[CL_REASON_MAX] = "";
	for (size_t p = 0; p < np; p++) {
		size_t ns = 0;
		for (size_t i = 0; i < n; i++)
			if (k[i].pmu ? !strcmp(k[i].pmu, pmus[p])
				     : !is_hw_counter(&k[i]))
				sub[ns++] = k[i];
		struct cl_ctx px = *x;
		px.pmu = pmus[p];
		px.whole_only = 1;
		if (perfan__classify_add(c, sub, ns, o, &px)) {
			free(sub);
			return PERFAN_ENOMEM;
		}
		double ran = c->g[c->n - 1].pub.m.min_running_pct;
		size_t l = strlen(little);
		if (ran < PMU_RAN_LITTLE && l + 1 < sizeof(little))
			snprintf(little + l, sizeof(little) - l,
				 "%s%s's counters ran only %.2f %% of the time",
				 l ? ", " : "", pmus[p], ran);
	}
	free(sub);
	if (!*little)
		return 0;
	char text[2 * CL_REASON_MAX];
	snprintf(text, sizeof(text),
		 "%s: perf scaled their counts up from that little, and this "
		 "reading weighs every PMU by its cycles; trust each PMU's own "
		 "verdict instead",
		 little);
	return set_warning(&c->g[whole], text) ? PERFAN_ENOMEM : 0;
}

/* The metrics as an array of doubles, min_running_pct left out. */
#define NR_METRICS                                                             \
	(offsetof(struct perfan_classify_metrics, min_running_pct) /           \
	 sizeof(double))
#define NR_TIMES (sizeof(struct perfan_classify_time) / sizeof(double))
_Static_assert(sizeof(struct perfan_classify_metrics) ==
		       (NR_METRICS + 1) * sizeof(double),
	       "perfan_classify_metrics is all doubles");
_Static_assert(sizeof(struct perfan_classify_time) == 8 * sizeof(double),
	       "perfan_classify_time is all doubles");

/* How many metrics and times M and T know. */
static size_t known_of(const struct perfan_classify_metrics *m,
		       const struct perfan_classify_time *t)
{
	const double *mv = &m->cycles, *tv = &t->elapsed;
	size_t n = 0;
	for (size_t i = 0; i < NR_METRICS; i++)
		n += !isnan(mv[i]);
	for (size_t i = 0; i < NR_TIMES; i++)
		n += !isnan(tv[i]);
	return n;
}

static size_t known(const struct perfan_classify_group *g)
{
	return known_of(&g->m, &g->time);
}

static int same_command(const struct perfan_classify_group *a,
			const struct perfan_classify_group *b)
{
	return a->command && b->command && !strcmp(a->command, b->command) &&
	       !perfan__classify_system_wide(a->command);
}

/* Runs of one command read together, each metric from the first run that
 * has it, when that knows more than any of the runs alone. WHOLES are the
 * runs' wholes (indexes into c->g). */
static int combine(perfan_classify *c, const size_t *wholes, size_t nr)
{
	unsigned char *used = calloc(nr ? nr : 1, 1);
	if (!used)
		return PERFAN_ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		if (used[i])
			continue;
		const struct perfan_classify_group *first =
			&c->g[wholes[i]].pub;
		struct perfan_classify_metrics m = first->m;
		struct perfan_classify_time t = first->time;
		double *mv = &m.cycles, *tv = &t.elapsed;
		size_t best = known(first), nsame = 1, kn;
		char runs[128];
		int hw_counted = c->g[wholes[i]].a.hw_counted,
		    hw_missing = c->g[wholes[i]].a.hw_missing;
		double ran = first->m.min_running_pct;
		snprintf(runs, sizeof(runs), "%u", first->run + 1);
		for (size_t j = i + 1; j < nr; j++) {
			const struct cl_group *o = &c->g[wholes[j]];
			if (!same_command(first, &o->pub))
				continue;
			used[j] = 1;
			nsame++;
			const double *om = &o->pub.m.cycles,
				     *ot = &o->pub.time.elapsed;
			for (size_t k = 0; k < NR_METRICS; k++)
				if (isnan(mv[k]))
					mv[k] = om[k];
			for (size_t k = 0; k < NR_TIMES; k++)
				if (isnan(tv[k]))
					tv[k] = ot[k];
			if ((kn = known(&o->pub)) > best)
				best = kn;
			hw_counted |= o->a.hw_counted;
			hw_missing |= o->a.hw_missing;
			if (o->pub.m.min_running_pct < ran)
				ran = o->pub.m.min_running_pct;
			size_t l = strlen(runs);
			snprintf(runs + l, sizeof(runs) - l, "+%u",
				 o->pub.run + 1);
		}
		size_t nk = known_of(&m, &t);
		if (nsame < 2 || nk <= best)
			continue; /* nothing the runs do not tell alone */
		const char *command = first->command;
		unsigned run = first->run;
		struct cl_group *g = perfan__classify_push(c);
		if (!g) {
			free(used);
			return PERFAN_ENOMEM;
		}
		g->pub.whole = 1;
		g->pub.combined = 1;
		g->pub.run = run;
		g->pub.command = command;
		g->pub.m = m;
		g->pub.time = t;
		g->a.min_running = ran;
		g->a.hw_counted = hw_counted;
		g->a.hw_missing = hw_missing;
		if (perfan__classify_finish(g)) {
			free(used);
			return PERFAN_ENOMEM;
		}
		char *r = malloc(strlen(g->reason) + 160);
		if (!r) {
			free(used);
			return PERFAN_ENOMEM;
		}
		sprintf(r,
			"runs %s of one command read together, each metric "
			"from one run: %s",
			runs, g->reason);
		free(g->reason);
		g->reason = r;
		g->pub.reason = r;
	}
	free(used);
	return 0;
}

int perfan_classify_stat(perfan_classify **out, const perfan_stat *s,
			 const struct perfan_classify_opts *o)
{
	*out = NULL;
	size_t nr = perfan_stat_nr_runs(s), n = perfan_stat_nr_counters(s);
	if (!nr || !n)
		return perfan__err(PERFAN_EINVAL, "classify: no counters");
	perfan_classify *c = calloc(1, sizeof(*c));
	struct perfan_stat_counter *cs = malloc(n * sizeof(*cs));
	size_t *wholes = malloc(nr * sizeof(*wholes));
	int rc = 0;
	if (!c || !cs || !wholes)
		goto nomem;
	c->o = PERFAN_OPTS_INIT(struct perfan_classify_opts);
	if (o)
		c->o.unscaled = o->unscaled;
	/* The counters' strings live in S; classify keeps pointers only. */
	for (size_t i = 0; i < n; i++)
		cs[i] = *perfan_stat_counter(s, i);
	for (size_t i = 0; i < nr && !rc; i++) {
		const struct perfan_stat_run *r = perfan_stat_run(s, i);
		struct perfan_classify_opts co = c->o;
		co.elapsed = r->elapsed;
		co.user = r->user;
		co.sys = r->sys;
		struct cl_ctx x = {(unsigned)i, r->command, NULL, 0};
		rc = perfan__classify_add(c, cs + r->first, r->count, &co, &x);
		wholes[i] = c->n - 1; /* the run's whole is its last group */
		if (!rc)
			rc = per_pmu(c, cs + r->first, r->count, &co, &x,
				     wholes[i]);
	}
	if (!rc)
		rc = combine(c, wholes, nr);
	if (rc)
		goto nomem;
	perfan__classify_done(c);
	free(cs);
	free(wholes);
	*out = c;
	return 0;
nomem:
	perfan_classify_free(c);
	free(cs);
	free(wholes);
	return perfan__nomem("classify");
}
