/* stat/text.c: perf stat's default output, one line at a time: counter
 * rows with their optional time, aggregation and unit columns, and the
 * "(N runs)" and "seconds time elapsed" lines; anything else is noise. */
#include <stdlib.h>
#include <string.h>

#include "stat/internal.h"
#include "util/error.h"

#define MAXTOK 32

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Split on blanks. A single space followed by exactly three digits inside
 * a number is a grouping mark (fr_FR and others), not a column break. */
static size_t tokenize(const char *p, size_t n, struct perfan__span *t)
{
	size_t i = 0, nt = 0;

	while (i < n && nt < MAXTOK) {
		size_t b;
		while (i < n && is_space(p[i]))
			i++;
		if (i >= n)
			break;
		b = i;
		for (;;) {
			while (i < n && !is_space(p[i]))
				i++;
			if (i + 4 <= n && p[i] == ' ' && is_digit(p[i - 1]) &&
			    is_digit(p[i + 1]) && is_digit(p[i + 2]) &&
			    is_digit(p[i + 3]) &&
			    (i + 4 == n || !is_digit(p[i + 4])) &&
			    perfan__stat_is_num(p + b, i - b) &&
			    (i + 4 == n || is_space(p[i + 4]) ||
			     p[i + 4] == ',' || p[i + 4] == '.')) {
				i++;
				continue;
			}
			break;
		}
		t[nt].p = p + b;
		t[nt].n = i - b;
		nt++;
	}
	return nt;
}

static int tok_is(const struct perfan__span *t, const char *s)
{
	return t->n == strlen(s) && !memcmp(t->p, s, t->n);
}

static int is_int(const struct perfan__span *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!is_digit(t->p[i]))
			return 0;
	return t->n > 0;
}

/* "S0-D0-C1", "S0", "N0", "CPU3", "S0-D0-L2-ID0", "bash-2466": the -A and
 * --per-* prefixes. */
static int is_aggr(const struct perfan__span *t)
{
	const char *p = t->p;
	size_t n = t->n, i;

	if (!n || perfan__stat_is_num(p, n))
		return 0;
	if (n > 3 && !memcmp(p, "CPU", 3) &&
	    is_int(&(struct perfan__span){p + 3, n - 3}))
		return 1;
	if ((p[0] == 'S' || p[0] == 'N') && n > 1 && is_digit(p[1])) {
		for (i = 1; i < n; i++)
			if (!is_digit(p[i]) && p[i] != '-' &&
			    !strchr("SDCNLI", p[i]))
				return 0;
		return 1;
	}
	/* comm-pid of --per-thread */
	for (i = n; i > 0 && is_digit(p[i - 1]); i--)
		;
	return i > 1 && i < n && p[i - 1] == '-';
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
		if (tok_is(t, units[i]))
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

/* "seconds time elapsed", "seconds user", "seconds sys". */
static int footer(perfan_stat *s, const struct perfan__stat_line *l,
		  struct perfan__span *t, size_t nt)
{
	size_t i;

	if (!nt || !perfan__stat_is_num(t[0].p, t[0].n))
		return 0;
	for (i = 1; i < nt && !tok_is(&t[i], "seconds"); i++)
		;
	if (i >= nt - 1 || i > 3)
		return 0;
	perfan__stat_vote(s, t[0].p, t[0].n);
	if (tok_is(&t[i + 1], "time") && i + 2 < nt &&
	    tok_is(&t[i + 2], "elapsed")) {
		s->elapsed = t[0];
		s->elapsed_line = l->no;
	} else if (tok_is(&t[i + 1], "user")) {
		s->user = t[0];
		s->user_line = l->no;
	} else if (tok_is(&t[i + 1], "sys")) {
		s->sys = t[0];
		s->sys_line = l->no;
	} else {
		return 0;
	}
	return 1;
}

/* "Performance counter stats for 'x' (5 runs):" */
static void header(perfan_stat *s, const struct perfan__stat_line *l)
{
	const char *p = l->p, *e = l->p + l->n, *q;

	while (e > p && (is_space(e[-1]) || e[-1] == ':'))
		e--;
	if (e - p < 7 || memcmp(e - 6, " runs)", 6))
		return;
	q = e - 6;
	while (q > p && is_digit(q[-1]))
		q--;
	if (q > p && q[-1] == '(' && q < e - 6)
		s->runs = (unsigned)strtoul(q, NULL, 10);
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
		while (q < close && is_space(*q))
			q++;
		if (close - q > 2 && q[0] == '+' && q[1] == '-') {
			q += 2;
			while (q < close && is_space(*q))
				q++;
			num = q;
			while (q < close && *q != '%' && !is_space(*q))
				q++;
			if (perfan__stat_is_num(num, (size_t)(q - num))) {
				r->variance.p = num;
				r->variance.n = (size_t)(q - num);
				perfan__stat_vote(s, num, r->variance.n);
			}
		} else {
			num = q;
			while (q < close && *q != '%' && !is_space(*q))
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

int perfan__stat_text_line(perfan_stat *s, const struct perfan__stat_line *l)
{
	struct perfan__span t[MAXTOK], *iv = NULL, *ag = NULL, *ac = NULL, *val,
				       *unit = NULL, *ev;
	struct perfan__stat_row *r;
	size_t nt, i = 0, nvt = 1, vlen;
	const char *rest, *e = l->p + l->n;

	nt = tokenize(l->p, l->n, t);
	if (!nt || t[0].p[0] == '#')
		return 0;
	if (tok_is(&t[0], "Performance") && nt > 3 &&
	    tok_is(&t[1], "counter")) {
		header(s, l);
		return 0;
	}
	if (footer(s, l, t, nt))
		return 0;

	if (nt == 2 && perfan__stat_is_num(t[0].p, t[0].n) &&
	    is_value_start(&t[1]) && !l->last_open && !s->suspect_line &&
	    (memchr(t[0].p, '.', t[0].n) || memchr(t[0].p, ',', t[0].n)))
		s->suspect_line = l->no;

	/* [time] [aggregate [count]] value [unit] event [# comment] [(x%)] */
	if (nt >= 3 && perfan__stat_is_num(t[0].p, t[0].n) &&
	    (is_value_start(&t[1]) || is_aggr(&t[1])))
		iv = &t[i++];
	if (i < nt && is_aggr(&t[i])) {
		ag = &t[i++];
		if (i + 1 < nt && is_int(&t[i]) && is_value_start(&t[i + 1]))
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
	if (i < nt && tok_is(&t[i], "(msec)")) {
		unit = &t[i];
		rest = t[i].p + t[i].n;
		i++;
	}
	/* Only a comment or percentages may follow; else it is prose. */
	if (i < nt && t[i].p[0] != '#' && t[i].p[0] != '(' && t[i].p[0] != '[')
		return 0;

	r = perfan__stat_add(s, l->no);
	if (!r)
		return perfan__err(PERFAN_ENOMEM, "out of memory");
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
			return perfan__err(PERFAN_ENOMEM, "out of memory");
	}
	if (ac)
		r->aggr_count = *ac;
	r->c.raw_name = perfan__stat_dup(s, ev->p, ev->n);
	if (!r->c.raw_name || perfan__stat_name(s, &r->c))
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	if (unit)
		r->c.unit = tok_is(unit, "(msec)")
				    ? "msec"
				    : perfan__stat_dup(s, unit->p, unit->n);
	if (tail(s, r, rest, e)) {
		if (l->last_open) {
			s->nrows--; /* cut off mid-row: drop it */
			return 0;
		}
		return perfan__err(PERFAN_EFORMAT,
				   "%s:%u: counter row with an unclosed '('",
				   s->name, l->no);
	}
	return 0;

incomplete:
	if (l->last_open)
		return 0;
	return perfan__err(PERFAN_EFORMAT,
			   "%s:%u: counter row without an event name", s->name,
			   l->no);
}
