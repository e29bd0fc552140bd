/* sources/stat/text_metrics.c: the metrics perf stat prints in text instead of
 * counts: metric-only tables (--topdown, --metric-only: a row of names,
 * "%  tma_retiring" or the 5.x "retiring  bad speculation ...", then rows
 * of values) and the "# 17.5 %  tma_backend_bound" metrics of the comment
 * column, each made a counter row of unit "%". */
#include <string.h>

#include "sources/stat/internal.h"
#include "util/error.h"
#include "util/log.h"

/* The names perf 4.x-5.x printed for the top-down classes, as tma_ names. */
static const char *const old_names[][2] = {
	{"retiring", "tma_retiring"},
	{"bad speculation", "tma_bad_speculation"},
	{"frontend bound", "tma_frontend_bound"},
	{"backend bound", "tma_backend_bound"},
	{"heavy ops", "tma_heavy_operations"},
	{"light ops", "tma_light_operations"},
	{"br mispredict", "tma_branch_mispredicts"},
	{"machine clears", "tma_machine_clears"},
	{"fetch lat", "tma_fetch_latency"},
	{"fetch bw", "tma_fetch_bandwidth"},
	{"mem bound", "tma_memory_bound"},
	{"core bound", "tma_core_bound"},
};

/* Columns before the metrics: time, and the aggregation's name and count
 * (perf's aggr_header_std). */
static int is_prefix_word(const struct perfan__span *t)
{
	static const char *const w[] = {
		"time", "core", "cpus",  "ctrs",    "socket",   "die",    "cpu",
		"CPU",  "node", "cache", "cluster", "comm-pid", "counts", NULL};
	for (size_t i = 0; w[i]; i++)
		if (perfan__stat_tok_is(t, w[i]))
			return 1;
	return 0;
}

static int is_tma(const struct perfan__span *t)
{
	return t->n > 4 && !memcmp(t->p, "tma_", 4);
}

/* The old name that starts at token I of T, its token count in *N. */
static int old_name(const struct perfan__span *t, size_t nt, size_t i,
		    size_t *n)
{
	for (size_t k = 0; k < sizeof(old_names) / sizeof(old_names[0]); k++) {
		const char *name = old_names[k][0], *sp = strchr(name, ' ');
		size_t first = sp ? (size_t)(sp - name) : strlen(name);
		if (t[i].n != first || memcmp(t[i].p, name, first))
			continue;
		if (!sp) {
			*n = 1;
			return (int)k;
		}
		if (i + 1 < nt && perfan__stat_tok_is(&t[i + 1], sp + 1)) {
			*n = 2;
			return (int)k;
		}
	}
	return -1;
}

int perfan__stat_mo_header(perfan_stat *s, const struct perfan__span *t,
			   size_t nt)
{
	const char *cols[PERFAN__STAT_MAXTOK];
	size_t i = 0, nc = 0;
	int has_time = 0, has_aggr = 0;

	if (nt && perfan__stat_tok_is(&t[0], "#"))
		i++;
	for (; i < nt && is_prefix_word(&t[i]); i++) {
		if (perfan__stat_tok_is(&t[i], "time"))
			has_time = 1;
		else
			has_aggr = 1;
	}
	while (i < nt) {
		size_t n;
		int k;
		if (perfan__stat_tok_is(&t[i], "%") && i + 1 < nt &&
		    is_tma(&t[i + 1])) {
			cols[nc] = perfan__stat_dup(s, t[i + 1].p, t[i + 1].n);
			i += 2;
		} else if (is_tma(&t[i])) {
			cols[nc] = perfan__stat_dup(s, t[i].p, t[i].n);
			i++;
		} else if ((k = old_name(t, nt, i, &n)) >= 0) {
			cols[nc] = old_names[k][1];
			i += n;
		} else {
			return 0;
		}
		if (!cols[nc])
			return perfan__nomem(NULL);
		nc++;
	}
	if (nc < 2)
		return 0;
	s->mo_cols = perfan__arena_alloc(&s->arena, nc * sizeof(*s->mo_cols));
	if (!s->mo_cols)
		return perfan__nomem(NULL);
	memcpy(s->mo_cols, cols, nc * sizeof(*cols));
	s->mo_n = nc;
	s->mo_time = has_time;
	s->mo_aggr = has_aggr;
	return 1;
}

/* A value of a metric-only row: "34.5", "34.5%", "-2.3". */
static int mo_value(const struct perfan__span *t, struct perfan__span *v)
{
	*v = *t;
	if (v->n && v->p[v->n - 1] == '%')
		v->n--;
	return perfan__stat_is_num(v->p, v->n) ||
	       perfan__stat_is_nonfinite(v->p, v->n);
}

int perfan__stat_mo_row(perfan_stat *s, const struct perfan__stat_line *l,
			const struct perfan__span *t, size_t nt)
{
	struct perfan__span vals[PERFAN__STAT_MAXTOK];
	const struct perfan__span *iv = NULL, *ag = NULL, *ac = NULL;
	size_t i = 0, nv = 0;

	if (nt && perfan__stat_is_num(t[0].p, t[0].n) && nt > s->mo_n &&
	    (s->mo_time || nt == s->mo_n + 1))
		iv = &t[i++];
	if (i < nt && perfan__stat_is_aggr(&t[i])) {
		ag = &t[i++];
		if (i < nt && perfan__stat_is_int(&t[i]) &&
		    nt - i - 1 == s->mo_n)
			ac = &t[i++];
	}
	for (; i < nt; i++)
		if (!mo_value(&t[i], &vals[nv++]))
			return 0;
	if (nv != s->mo_n) {
		if (nv && nv < s->mo_n && !l->last_open)
			return perfan__err(PERFAN_EFORMAT,
					   "%s:%u: %zu values under %zu "
					   "metric names",
					   s->name, l->no, nv, s->mo_n);
		return 0; /* not a row, or cut off */
	}
	for (size_t k = 0; k < nv; k++) {
		struct perfan__stat_row *r = perfan__stat_add(s, l->no);
		if (!r)
			return perfan__nomem(NULL);
		r->c.raw_name = r->c.event = s->mo_cols[k];
		r->c.unit = "%";
		r->value = vals[k];
		perfan__stat_vote(s, vals[k].p, vals[k].n);
		if (iv) {
			r->interval = *iv;
			perfan__stat_vote(s, iv->p, iv->n);
		}
		if (ac)
			r->aggr_count = *ac;
		if (ag && !(r->c.aggr = perfan__stat_dup(s, ag->p, ag->n)))
			return perfan__nomem(NULL);
		if (perfan__stat_row_done(s, r))
			return PERFAN_ENOMEM;
	}
	return 1;
}

/* "(cpu_core)" of "TopdownL1 (cpu_core)": the PMU, or NULL. */
static const char *label_pmu(perfan_stat *s, const struct perfan__span *t,
			     size_t nt, int *err)
{
	*err = 0;
	for (size_t i = 1; i < nt && t[i].p[0] != '#'; i++)
		if (t[i].n > 2 && t[i].p[0] == '(' &&
		    t[i].p[t[i].n - 1] == ')' &&
		    !perfan__stat_is_num(t[i].p + 1, t[i].n - 2)) {
			const char *p =
				perfan__stat_dup(s, t[i].p + 1, t[i].n - 2);
			*err = !p;
			return p;
		}
	return NULL;
}

int perfan__stat_comment_metrics(perfan_stat *s,
				 const struct perfan__stat_line *l,
				 const struct perfan__span *t, size_t nt,
				 int kind)
{
	size_t i = 0;

	if (kind == PERFAN__STAT_LABEL) {
		int err;
		s->metric_pmu = label_pmu(s, t, nt, &err);
		if (err)
			return perfan__nomem(NULL);
		s->metric_first = s->nrows;
	} else if (kind == PERFAN__STAT_ROW) {
		s->metric_pmu = s->nrows ? s->rows[s->nrows - 1].c.pmu : NULL;
		s->metric_first = s->nrows;
	}
	while (i < nt && t[i].p[0] != '#')
		i++;
	/* "#" NUMBER "%" tma_NAME ["(RUN%)"] */
	if (i + 3 >= nt || !perfan__stat_tok_is(&t[i], "#") ||
	    !perfan__stat_is_num(t[i + 1].p, t[i + 1].n) ||
	    !perfan__stat_tok_is(&t[i + 2], "%") || !is_tma(&t[i + 3]))
		return 0;
	struct perfan__stat_row *r = perfan__stat_add(s, l->no);
	if (!r)
		return perfan__nomem(NULL);
	r->c.raw_name = r->c.event =
		perfan__stat_dup(s, t[i + 3].p, t[i + 3].n);
	r->c.pmu = s->metric_pmu;
	r->c.unit = "%";
	r->value = t[i + 1];
	perfan__stat_vote(s, t[i + 1].p, t[i + 1].n);
	if (!r->c.event)
		return perfan__nomem(NULL);
	if (i + 4 < nt && t[i + 4].n > 3 && t[i + 4].p[0] == '(' &&
	    t[i + 4].p[t[i + 4].n - 2] == '%' &&
	    t[i + 4].p[t[i + 4].n - 1] == ')' &&
	    perfan__stat_is_num(t[i + 4].p + 1, t[i + 4].n - 3)) {
		/* the run share of the metric group, printed on one line */
		struct perfan__span run = {t[i + 4].p + 1, t[i + 4].n - 3};
		perfan__stat_vote(s, run.p, run.n);
		for (size_t k = s->metric_first; k < s->nrows; k++)
			if (!s->rows[k].running.n && s->rows[k].c.unit &&
			    !strcmp(s->rows[k].c.unit, "%") &&
			    s->rows[k].c.pmu == s->metric_pmu)
				s->rows[k].running = run;
	}
	return perfan__stat_row_done(s, r);
}
