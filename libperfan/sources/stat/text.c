/* sources/stat/text.c: perf stat's default output, one line at a time: counter
 * rows with their optional time, aggregation and unit columns, and the
 * "(N runs)" and "seconds time elapsed" lines; anything else is noise. */
#include <stdlib.h>
#include <string.h>

#include "sources/stat/internal.h"
#include "util/error.h"
#include "util/log.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A clock count printed without its unit as a whole number of
 * nanoseconds ("5,685,451,288"), not msec with decimals ("8,487.46",
 * "1.388670"): groups of three digits after the first, or 7 digits. */
static int ns_count(const char *p, size_t n)
{
	size_t seps = 0, last = 0, digits = 0;
	for (size_t i = 0; i < n; i++) {
		if (is_digit(p[i])) {
			digits++;
			last++;
		} else if (p[i] == ',' || p[i] == '.' || p[i] == '\'') {
			if (seps && last != 3)
				return 0;
			seps++;
			last = 0;
		} else {
			return 0;
		}
	}
	return seps ? seps >= 2 && last == 3 : digits >= 7;
}

static int is_value_start(const struct perfan__span *t)
{
	return perfan__stat_is_num(t->p, t->n) ||
	       perfan__stat_is_nonfinite(t->p, t->n) ||
	       (t->n >= 4 && !memcmp(t->p, "<not", 4));
}

static const char *const units[] = {"msec", "usec", "nsec",   "ns",  "us",
				    "ms",   "sec",  "Joules", "J",   "MiB",
				    "MB",   "KiB",  "kB",     "GiB", "GB",
				    "%",    "W",    "Watts",  NULL};

static int is_unit(const struct perfan__span *t)
{
	size_t i;

	for (i = 0; units[i]; i++)
		if (perfan__stat_tok_is(t, units[i]))
			return 1;
	return 0;
}

static int is_event(const struct perfan__span *t)
{
	size_t i;

	if (!t->n || !(t->p[0] == '_' || (t->p[0] | 32) >= 'a') ||
	    ((t->p[0] | 32) > 'z' && t->p[0] != '_'))
		return 0;
	for (i = 0; i < t->n; i++) {
		char c = t->p[i];
		if (!(is_digit(c) || ((c | 32) >= 'a' && (c | 32) <= 'z') ||
		      strchr("_-.:/=,@", c)))
			return 0;
	}
	return 1;
}

/* "seconds time elapsed", "seconds user", "seconds sys": 1 if it was one,
 * -1 when out of memory. */
static int footer(perfan_stat *s, const struct perfan__stat_line *l,
		  struct perfan__span *t, size_t nt)
{
	size_t i;

	if (!nt || !perfan__stat_is_num(t[0].p, t[0].n))
		return 0;
	for (i = 1; i < nt && !perfan__stat_tok_is(&t[i], "seconds"); i++)
		;
	if (i >= nt - 1 || i > 3)
		return 0;
	struct perfan__stat_runraw *r = perfan__stat_cur_run(s);
	if (!r)
		return -1;
	perfan__stat_vote(s, t[0].p, t[0].n);
	if (perfan__stat_tok_is(&t[i + 1], "time") && i + 2 < nt &&
	    perfan__stat_tok_is(&t[i + 2], "elapsed")) {
		r->elapsed = t[0];
		r->elapsed_line = l->no;
		r->closed = 1;
	} else if (perfan__stat_tok_is(&t[i + 1], "user")) {
		r->user = t[0];
		r->user_line = l->no;
	} else if (perfan__stat_tok_is(&t[i + 1], "sys")) {
		r->sys = t[0];
		r->sys_line = l->no;
	} else {
		return 0;
	}
	return 1;
}

/* "Performance counter stats for 'x' (5 runs):", "... for 'system wide':",
 * "... for process id '4463':": a run begins, of that command. 0 or
 * PERFAN_ENOMEM. */
static int header(perfan_stat *s, const struct perfan__stat_line *l)
{
	const char *p = l->p, *e = l->p + l->n, *q;
	struct perfan__stat_runraw *r;

	if (perfan__stat_run_begin(s, l->no) || !(r = perfan__stat_cur_run(s)))
		return PERFAN_ENOMEM;
	while (e > p && (perfan__stat_is_space(e[-1]) || e[-1] == ':'))
		e--;
	if (e - p >= 7 && !memcmp(e - 6, " runs)", 6)) {
		q = e - 6;
		while (q > p && is_digit(q[-1]))
			q--;
		if (q > p && q[-1] == '(' && q < e - 6) {
			r->repeats = (unsigned)strtoul(q, NULL, 10);
			e = q - 1;
			while (e > p && perfan__stat_is_space(e[-1]))
				e--;
		}
	}
	q = p;
	while (q + 4 <= e && memcmp(q, " for", 4))
		q++;
	if (q + 4 > e)
		return 0;
	q += 4;
	while (q < e && perfan__stat_is_space(*q))
		q++;
	if (e - q >= 2 && *q == '\'' && e[-1] == '\'')
		q++, e--; /* 'make -j4': the command itself */
	if (e > q && !(r->command = perfan__stat_dup(s, q, (size_t)(e - q))))
		return PERFAN_ENOMEM;
	return 0;
}

/* "( +- 3.4% )", "(38.46%)", "[100.00%]" after the event. Returns 0, or 1
 * when a parenthesis is left open. */
static int tail(perfan_stat *s, struct perfan__stat_row *r, const char *p,
		const char *e)
{
	while (p < e) {
		const char *open = p, *close, *q, *num;
		char want;
		while (open < e && *open != '(' && *open != '[')
			open++;
		if (open >= e)
			return 0;
		want = *open == '(' ? ')' : ']';
		close = memchr(open, want, (size_t)(e - open));
		if (!close)
			return 1;
		q = open + 1;
		while (q < close && perfan__stat_is_space(*q))
			q++;
		if (close - q > 2 && q[0] == '+' && q[1] == '-') {
			q += 2;
			while (q < close && perfan__stat_is_space(*q))
				q++;
			num = q;
			while (q < close && *q != '%' &&
			       !perfan__stat_is_space(*q))
				q++;
			if (perfan__stat_is_num(num, (size_t)(q - num))) {
				r->variance.p = num;
				r->variance.n = (size_t)(q - num);
				perfan__stat_vote(s, num, r->variance.n);
			}
		} else {
			num = q;
			while (q < close && *q != '%' &&
			       !perfan__stat_is_space(*q))
				q++;
			if (q < close && *q == '%' &&
			    perfan__stat_is_num(num, (size_t)(q - num))) {
				r->running.p = num;
				r->running.n = (size_t)(q - num);
				perfan__stat_vote(s, num, r->running.n);
			}
		}
		p = close + 1;
	}
	return 0;
}

/* A counter row: [time] [aggregate [count]] value [unit] event [# comment]
 * [(x%)]. A line that is none is skipped (0). */
static int counter_row(perfan_stat *s, const struct perfan__stat_line *l,
		       struct perfan__span *t, size_t nt)
{
	struct perfan__span *iv = NULL, *ag = NULL, *ac = NULL, *val,
			    *unit = NULL, *ev;
	struct perfan__stat_row *r;
	size_t i = 0, nvt = 1, vlen;
	const char *rest, *e = l->p + l->n;

	if (nt == 2 && perfan__stat_is_num(t[0].p, t[0].n) &&
	    is_value_start(&t[1]) && !l->last_open && !s->suspect_line &&
	    (memchr(t[0].p, '.', t[0].n) || memchr(t[0].p, ',', t[0].n)))
		s->suspect_line = l->no;

	if (nt >= 3 && perfan__stat_is_num(t[0].p, t[0].n) &&
	    (is_value_start(&t[1]) || perfan__stat_is_aggr(&t[1])))
		iv = &t[i++];
	if (i < nt && perfan__stat_is_aggr(&t[i])) {
		ag = &t[i++];
		if (i + 1 < nt && perfan__stat_is_int(&t[i]) &&
		    is_value_start(&t[i + 1]))
			ac = &t[i++];
	}
	if (i >= nt || !is_value_start(&t[i]))
		return 0; /* not a counter row: program output, a warning */
	val = &t[i++];
	vlen = val->n;
	if (val->n >= 4 && !memcmp(val->p, "<not", 4) &&
	    val->p[val->n - 1] != '>') {
		if (i >= nt)
			goto incomplete;
		nvt = 2; /* "<not" "supported>" */
		vlen = (size_t)(t[i].p + t[i].n - val->p);
		i++;
	}
	if (i + 1 < nt && is_unit(&t[i]) && is_event(&t[i + 1]))
		unit = &t[i++];
	if (i >= nt) {
		if (iv || ag || nvt == 2)
			goto incomplete;
		return 0; /* a lone number: program output */
	}
	ev = &t[i++];
	if (!is_event(ev))
		return 0;
	rest = ev->p + ev->n;
	if (i < nt && perfan__stat_tok_is(&t[i], "(msec)")) {
		unit = &t[i];
		rest = t[i].p + t[i].n;
		i++;
	}
	/* Only a comment or percentages may follow; else it is prose. */
	if (i < nt && t[i].p[0] != '#' && t[i].p[0] != '(' && t[i].p[0] != '[')
		return 0;

	r = perfan__stat_add(s, l->no);
	if (!r)
		return perfan__nomem(NULL);
	if (!perfan__stat_value(r, val->p, vlen))
		return perfan__err(PERFAN_EFORMAT, "%s:%u: bad count \"%.*s\"",
				   s->name, l->no, (int)val->n, val->p);
	if (nvt == 1)
		perfan__stat_vote(s, val->p, val->n);
	if (iv) {
		r->interval = *iv;
		perfan__stat_vote(s, iv->p, iv->n);
	}
	if (ag) {
		r->c.aggr = perfan__stat_dup(s, ag->p, ag->n);
		if (!r->c.aggr)
			return perfan__nomem(NULL);
	}
	if (ac)
		r->aggr_count = *ac;
	r->c.raw_name = perfan__stat_dup(s, ev->p, ev->n);
	if (!r->c.raw_name || perfan__stat_name(s, &r->c))
		return perfan__nomem(NULL);
	if (unit)
		r->c.unit = perfan__stat_tok_is(unit, "(msec)")
				    ? "msec"
				    : perfan__stat_dup(s, unit->p, unit->n);
	else if (r->c.unit && ns_count(val->p, val->n))
		r->c.unit = "nsec"; /* perf 6.2-6.4 lost the msec */
	if (tail(s, r, rest, e)) {
		if (l->last_open) {
			s->nrows--; /* cut off mid-row: drop it */
			return 0;
		}
		return perfan__err(PERFAN_EFORMAT,
				   "%s:%u: counter row with an unclosed '('",
				   s->name, l->no);
	}
	return perfan__stat_row_done(s, r);

incomplete:
	if (l->last_open)
		return 0;
	return perfan__err(PERFAN_EFORMAT,
			   "%s:%u: counter row without an event name", s->name,
			   l->no);
}

int perfan__stat_text_line(perfan_stat *s, const struct perfan__stat_line *l)
{
	struct perfan__span t[PERFAN__STAT_MAXTOK];
	size_t nt = perfan__stat_tokenize(l->p, l->n, t), before = s->nrows;
	int rc;

	if (!nt)
		return 0;
	if ((rc = perfan__stat_mo_header(s, t, nt)) != 0)
		return rc < 0 ? rc : 0;
	if (t[0].p[0] == '#')
		return perfan__stat_comment_metrics(s, l, t, nt,
						    PERFAN__STAT_CONT);
	if (perfan__stat_tok_is(&t[0], "Performance") && nt > 3 &&
	    perfan__stat_tok_is(&t[1], "counter")) {
		s->mo_n = 0; /* a new run: its own layout */
		s->metric_pmu = NULL;
		return header(s, l) ? perfan__nomem(NULL) : 0;
	}
	rc = footer(s, l, t, nt);
	if (rc)
		return rc < 0 ? perfan__nomem(NULL) : 0;
	if (s->mo_n && (rc = perfan__stat_mo_row(s, l, t, nt)) != 0)
		return rc < 0 ? rc : 0;
	rc = counter_row(s, l, t, nt);
	if (rc)
		return rc;
	return perfan__stat_comment_metrics(
		s, l, t, nt,
		s->nrows > before ? PERFAN__STAT_ROW : PERFAN__STAT_LABEL);
}
