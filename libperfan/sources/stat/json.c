/* sources/stat/json.c: perf stat -j output, one flat JSON object per line:
 * counter-value (a string, or "<not supported>"), unit, event,
 * event-runtime, pcnt-running, metric-*, interval, variance and the
 * aggregation keys (core, socket, die, node, cpu, thread, cache,
 * aggregate-number). */
#include <stdlib.h>
#include <string.h>

#include "sources/stat/internal.h"
#include "util/error.h"
#include "util/log.h"

struct cur {
	const char *p, *e;
};

static void ws(struct cur *c)
{
	while (c->p < c->e && strchr(" \t\r", *c->p))
		c->p++;
}

/* A JSON string into *OUT (escapes other than \" \\ \/ kept as written:
 * perf's keys and event names have none). */
static int str(perfan_stat *s, struct cur *c, struct perfan__span *raw,
	       char **out)
{
	const char *b;
	char *o;
	size_t n = 0;

	ws(c);
	if (c->p >= c->e || *c->p != '"')
		return -1;
	b = ++c->p;
	while (c->p < c->e && *c->p != '"') {
		if (*c->p == '\\' && c->p + 1 < c->e)
			c->p++;
		c->p++;
	}
	if (c->p >= c->e)
		return -1;
	raw->p = b;
	raw->n = (size_t)(c->p - b);
	c->p++;
	if (!out)
		return 0;
	o = perfan__arena_alloc(&s->arena, raw->n + 1);
	if (!o)
		return -2;
	for (const char *q = b; q < b + raw->n; q++) {
		if (*q == '\\' && q + 1 < b + raw->n)
			q++;
		o[n++] = *q;
	}
	o[n] = 0;
	*out = o;
	return 0;
}

/* A bare value (number, true, false, null): its text. */
static int bare(struct cur *c, struct perfan__span *raw)
{
	ws(c);
	raw->p = c->p;
	while (c->p < c->e && !strchr(",} \t", *c->p))
		c->p++;
	raw->n = (size_t)(c->p - raw->p);
	return raw->n ? 0 : -1;
}

static double num(const struct perfan__span *v)
{
	char buf[64];

	if (!v->n || v->n >= sizeof(buf))
		return -1;
	memcpy(buf, v->p, v->n);
	buf[v->n] = 0;
	return strtod(buf, NULL);
}

static int key_is(const struct perfan__span *k, const char *s)
{
	return k->n == strlen(s) && !memcmp(k->p, s, k->n);
}

int perfan__stat_json_line(perfan_stat *s, const struct perfan__stat_line *l)
{
	struct cur c = {l->p, l->p + l->n};
	struct perfan__stat_row row, *r;
	struct perfan__span value = {0}, mvalue = {0}, munit = {0};
	int have_event = 0, have_value = 0, rc;

	ws(&c);
	if (c.p < c.e && *c.p == '#')
		return perfan__stat_started_on(s, l);
	if (c.p >= c.e || *c.p != '{')
		return 0; /* program output */
	c.p++;
	memset(&row, 0, sizeof(row));
	perfan__stat_defaults(&row.c);
	row.c.line = l->no;
	for (;;) {
		struct perfan__span k, v;
		char *sv = NULL;
		int is_str;
		ws(&c);
		if (c.p < c.e && *c.p == '}')
			break;
		if (str(s, &c, &k, NULL))
			goto bad;
		ws(&c);
		if (c.p >= c.e || *c.p != ':')
			goto bad;
		c.p++;
		ws(&c);
		is_str = c.p < c.e && *c.p == '"';
		rc = is_str ? str(s, &c, &v, &sv) : bare(&c, &v);
		if (rc == -2)
			return perfan__nomem(NULL);
		if (rc)
			goto bad;
		if (key_is(&k, "counter-value")) {
			value = v;
			have_value = 1;
		} else if (key_is(&k, "event")) {
			row.c.raw_name = sv;
			have_event = sv != NULL;
		} else if (key_is(&k, "metric-value")) {
			mvalue = v;
		} else if (key_is(&k, "metric-unit")) {
			munit = v;
		} else if (key_is(&k, "unit")) {
			row.c.unit = sv && *sv ? sv : NULL;
		} else if (key_is(&k, "pcnt-running")) {
			row.c.running_pct = num(&v);
		} else if (key_is(&k, "variance")) {
			row.c.variance_pct = num(&v);
		} else if (key_is(&k, "interval")) {
			row.c.interval = num(&v);
		} else if (key_is(&k, "aggregate-number")) {
			row.c.aggr_count = num(&v);
		} else if (key_is(&k, "core") || key_is(&k, "socket") ||
			   key_is(&k, "die") || key_is(&k, "node") ||
			   key_is(&k, "cpu") || key_is(&k, "thread") ||
			   key_is(&k, "cache")) {
			row.c.aggr = is_str ? sv
					    : perfan__stat_dup(s, v.p, v.n);
		}
		ws(&c);
		if (c.p < c.e && *c.p == ',') {
			c.p++;
			continue;
		}
		if (c.p < c.e && *c.p == '}')
			break;
		goto bad;
	}
	struct perfan__span tma;
	int is_tma = perfan__stat_tma_unit(munit.p, munit.n, &tma);
	if (!have_event || !have_value) /* a metric-only line */
		return is_tma ? perfan__stat_metric_row(s, &row, l->no, mvalue,
							tma)
			      : 0;
	r = perfan__stat_add(s, l->no);
	if (!r)
		return perfan__nomem(NULL);
	row.c.run = r->c.run;
	*r = row;
	if (!perfan__stat_value(r, value.p, value.n))
		return perfan__err(PERFAN_EFORMAT,
				   "%s:%u: bad counter-value \"%.*s\"", s->name,
				   l->no, (int)value.n, value.p);
	perfan__stat_vote(s, value.p, value.n);
	if (perfan__stat_name(s, &r->c))
		return perfan__nomem(NULL);
	rc = perfan__stat_row_done(s, r);
	if (!rc)
		perfan__stat_cpus_utilized(s, &s->rows[s->nrows - 1], mvalue,
					   munit);
	if (rc || !is_tma)
		return rc;
	r = &s->rows[s->nrows - 1];
	return perfan__stat_metric_row(s, r, l->no, mvalue, tma);
bad:
	if (l->last_open)
		return 0; /* cut off */
	return perfan__err(PERFAN_EFORMAT,
			   "%s:%u: bad JSON object at column %zu", s->name,
			   l->no, (size_t)(c.p - l->p) + 1);
}
