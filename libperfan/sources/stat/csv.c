/* sources/stat/csv.c: perf stat -x SEP output: finding SEP (any string) from the
 * rows it fits, then reading [time,][aggregate,[count,]]value,unit,event,
 * [variance%,]run-time,pcnt[,metric,metric-unit]; and the --topdown table
 * of perf 4.x (a header row naming the columns). */
#include <stdlib.h>
#include <string.h>

#include "sources/stat/internal.h"
#include "util/error.h"
#include "util/log.h"

#define MAXF 40

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alnum(char c)
{
	return is_digit(c) || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

static struct perfan__span trim(const char *p, size_t n)
{
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	return (struct perfan__span){p, n};
}

static size_t split(const char *p, size_t n, const char *sep,
		    struct perfan__span *f)
{
	size_t sl = strlen(sep), nf = 0;
	const char *e = p + n;

	for (;;) {
		const char *q = p;
		while (q + sl <= e && memcmp(q, sep, sl))
			q++;
		if (q + sl > e)
			q = e;
		if (nf == MAXF)
			return nf;
		f[nf++] = trim(p, (size_t)(q - p));
		if (q >= e)
			return nf;
		p = q + sl;
	}
}

static int is_value(const struct perfan__span *f)
{
	return perfan__stat_is_num(f->p, f->n) ||
	       perfan__stat_is_nonfinite(f->p, f->n) ||
	       (f->n == 15 && !memcmp(f->p, "<not supported>", 15)) ||
	       (f->n == 13 && !memcmp(f->p, "<not counted>", 13));
}

static int is_event(const struct perfan__span *f)
{
	return f->n && (((f->p[0] | 32) >= 'a' && (f->p[0] | 32) <= 'z') ||
			f->p[0] == '_');
}

static int is_unit(const struct perfan__span *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (is_digit(f->p[i]) || f->p[i] == ' ')
			return 0;
	return 1;
}

static int is_runtime(const struct perfan__span *f)
{
	size_t i;

	if (f->n && f->p[f->n - 1] == '%')
		return perfan__stat_is_num(f->p, f->n - 1);
	for (i = 0; i < f->n; i++)
		if (!is_digit(f->p[i]))
			return 0;
	return f->n > 0;
}

/* The index of the value field if F is a counter row, else -1. */
static int fit(const struct perfan__span *f, size_t nf)
{
	size_t k;

	for (k = 0; k <= 3 && k + 3 < nf; k++) {
		if (is_value(&f[k]) && is_unit(&f[k + 1]) &&
		    is_event(&f[k + 2]) && is_runtime(&f[k + 3]))
			return (int)k;
	}
	return -1;
}

/* The header of perf 4.x's --topdown table: no empty column. */
static int is_topdown_header(const struct perfan__span *f, size_t nf)
{
	size_t i;
	int found = 0;

	struct perfan__span tma;
	for (i = 0; i < nf; i++) {
		if (!f[i].n)
			return 0;
		if ((f[i].n == 8 && !memcmp(f[i].p, "retiring", 8)) ||
		    perfan__stat_tma_unit(f[i].p, f[i].n, &tma))
			found = 1;
	}
	return found;
}

const char *perfan__stat_csv_sep(perfan_stat *s, const char *text, size_t len)
{
	/* Candidates: the runs of punctuation after the first field of
	 * each line, and their prefixes. */
	struct cand {
		char sep[8];
		unsigned score;
	} c[32];
	size_t nc = 0, i, best = 0;
	const char *p = text, *end = text + len;
	unsigned lines = 0;

	while (p < end && lines < 200) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *q = p;
		lines++;
		while (q < e && (is_alnum(*q) || strchr(" .-_<>:/", *q)))
			q++;
		/* a space alone is a separator only right after a field */
		for (size_t n = 1; n < 8 && q + n <= e; n++) {
			size_t j;
			if (is_alnum(q[n - 1]) || q[n - 1] == '<')
				break;
			for (j = 0; j < nc; j++)
				if (strlen(c[j].sep) == n &&
				    !memcmp(c[j].sep, q, n))
					break;
			if (j == nc && nc < 32) {
				memcpy(c[nc].sep, q, n);
				c[nc].sep[n] = 0;
				c[nc++].score = 0;
			}
		}
		p = nl ? nl + 1 : end;
	}
	for (i = 0; i < nc; i++) {
		struct perfan__span f[MAXF];
		lines = 0;
		for (p = text; p < end && lines < 200;) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = (size_t)((nl ? nl : end) - p), nf;
			lines++;
			nf = split(p, n, c[i].sep, f);
			if (nf > 1 &&
			    (fit(f, nf) >= 0 || is_topdown_header(f, nf)))
				c[i].score++;
			p = nl ? nl + 1 : end;
		}
		if (c[i].score > c[best].score ||
		    (c[i].score == c[best].score &&
		     strlen(c[i].sep) < strlen(c[best].sep)))
			best = i;
	}
	if (!nc || !c[best].score)
		return NULL;
	return perfan__stat_dup(s, c[best].sep, strlen(c[best].sep));
}

static int bad(const struct perfan__span *sp)
{
	return sp->n && !perfan__stat_is_num(sp->p, sp->n);
}

/* Topdown table rows: one counter per column after time/core/cpus. */
static int topdown_row(perfan_stat *s, const struct perfan__stat_line *l,
		       const struct perfan__span *f, size_t nf)
{
	static const char *const names[][2] = {
		{"retiring", "topdown-retiring"},
		{"bad speculation", "topdown-bad-spec"},
		{"frontend bound", "topdown-fe-bound"},
		{"backend bound", "topdown-be-bound"},
	};
	struct perfan__span iv = {0}, ag = {0}, cnt = {0};
	size_t i, j, first = s->nrows;

	for (i = 0; i < s->td_n && i < nf; i++) {
		const char *h = s->td_cols[i];
		struct perfan__span tma;
		if (!strcmp(h, "time")) {
			iv = f[i];
		} else if (!strcmp(h, "cpus") || !strcmp(h, "ctrs")) {
			cnt = f[i];
		} else if (!strcmp(h, "core") || !strcmp(h, "socket") ||
			   !strcmp(h, "die") || !strcmp(h, "cpu") ||
			   !strcmp(h, "cache") || !strcmp(h, "cluster") ||
			   !strcmp(h, "node") || !strcmp(h, "comm-pid")) {
			ag = f[i];
		} else {
			struct perfan__stat_row *r = perfan__stat_add(s, l->no);
			if (!r)
				return perfan__nomem(NULL);
			r->c.raw_name = h;
			r->c.event = h;
			for (j = 0; j < 4; j++)
				if (!strcmp(h, names[j][0]))
					r->c.event = names[j][1];
			if (perfan__stat_tma_unit(h, strlen(h), &tma))
				r->c.event = tma.p; /* "%  tma_retiring" */
			r->c.unit = "%";
			if (!f[i].n)
				r->c.counted = 0;
			else if (!perfan__stat_value(r, f[i].p, f[i].n)) {
				if (l->last_open) {
					s->nrows = first; /* cut off */
					return 0;
				}
				return perfan__err(
					PERFAN_EFORMAT,
					"%s:%u: bad value \"%.*s\" for %s",
					s->name, l->no, (int)f[i].n, f[i].p, h);
			}
			perfan__stat_vote(s, f[i].p, f[i].n);
			r->interval = iv;
			r->aggr_count = cnt;
			if (ag.n &&
			    !(r->c.aggr = perfan__stat_dup(s, ag.p, ag.n)))
				return perfan__nomem(NULL);
			if (perfan__stat_row_done(s, r))
				return PERFAN_ENOMEM;
		}
	}
	return 0;
}

int perfan__stat_csv_line(perfan_stat *s, const struct perfan__stat_line *l,
			  const char *sep)
{
	struct perfan__span f[MAXF];
	struct perfan__stat_row *r;
	size_t nf, j = 0, m;
	int k;

	if (!l->n)
		return 0;
	if (l->p[0] == '#')
		return perfan__stat_started_on(s, l);
	nf = split(l->p, l->n, sep, f);
	if (nf > 1 && is_topdown_header(f, nf)) {
		if (perfan__stat_run_begin(s, l->no))
			return perfan__nomem(NULL);
		s->td_cols =
			perfan__arena_alloc(&s->arena, nf * sizeof(char *));
		if (!s->td_cols)
			return perfan__nomem(NULL);
		for (j = 0; j < nf; j++)
			if (!(s->td_cols[j] =
				      perfan__stat_dup(s, f[j].p, f[j].n)))
				return perfan__nomem(NULL);
		s->td_n = nf;
		return 0;
	}
	k = fit(f, nf);
	struct perfan__span tma;
	if (k < 0 && nf > 2 &&
	    perfan__stat_tma_unit(f[nf - 1].p, f[nf - 1].n, &tma))
		/* ",,,,,,,30.5,% tma_retiring": a metric of the row before */
		return perfan__stat_metric_row(
			s, s->nrows ? &s->rows[s->nrows - 1] : NULL, l->no,
			f[nf - 2], tma);
	if (k < 0) {
		if (s->td_n && nf > 1)
			return topdown_row(s, l, f, nf);
		/* Starts like a row but is not one: cut off, or broken. */
		if (nf > 1 && is_value(&f[0]) && !l->last_open)
			return perfan__err(PERFAN_EFORMAT,
					   "%s:%u: not a whole counter row "
					   "(%zu fields with separator \"%s\")",
					   s->name, l->no, nf, sep);
		return 0;
	}
	r = perfan__stat_add(s, l->no);
	if (!r)
		return perfan__nomem(NULL);
	if (k > 0 && perfan__stat_is_num(f[0].p, f[0].n) &&
	    !is_runtime(&f[0])) {
		r->interval = f[0];
		perfan__stat_vote(s, f[0].p, f[0].n);
		j = 1;
	}
	if (j < (size_t)k && !(r->c.aggr = perfan__stat_dup(s, f[j].p, f[j].n)))
		return perfan__nomem(NULL);
	if (j < (size_t)k)
		j++;
	if (j < (size_t)k)
		r->aggr_count = f[j];
	perfan__stat_value(r, f[k].p, f[k].n);
	perfan__stat_vote(s, f[k].p, f[k].n);
	if (f[k + 1].n &&
	    !(r->c.unit = perfan__stat_dup(s, f[k + 1].p, f[k + 1].n)))
		return perfan__nomem(NULL);
	r->c.raw_name = perfan__stat_dup(s, f[k + 2].p, f[k + 2].n);
	if (!r->c.raw_name || perfan__stat_name(s, &r->c))
		return perfan__nomem(NULL);
	m = (size_t)k + 3;
	/* -r: the variance comes before the run time (perf 6.1) */
	if (f[m].n && f[m].p[f[m].n - 1] == '%') {
		r->variance = (struct perfan__span){f[m].p, f[m].n - 1};
		perfan__stat_vote(s, f[m].p, f[m].n - 1);
		m++;
	}
	m++; /* run time */
	if (m < nf && f[m].n) {
		r->running = f[m];
		perfan__stat_vote(s, f[m].p, f[m].n);
	}
	if (bad(&r->running) || bad(&r->variance) || bad(&r->aggr_count)) {
		if (l->last_open) {
			s->nrows--; /* cut off */
			return 0;
		}
		return perfan__err(PERFAN_EFORMAT,
				   "%s:%u: bad number in a counter row",
				   s->name, l->no);
	}
	int rc = perfan__stat_row_done(s, r);
	if (!rc && m + 2 < nf)
		perfan__stat_cpus_utilized(s, &s->rows[s->nrows - 1], f[m + 1],
					   f[m + 2]);
	if (rc || m + 2 >= nf ||
	    !perfan__stat_tma_unit(f[m + 2].p, f[m + 2].n, &tma))
		return rc;
	return perfan__stat_metric_row(s, &s->rows[s->nrows - 1], l->no,
				       f[m + 1], tma);
}
