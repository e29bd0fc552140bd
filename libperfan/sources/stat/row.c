/* sources/stat/row.c: the row toolbox the text, CSV and JSON readers share:
 * a new row, a counter's defaults, a string kept in the result, a value
 * kept for later conversion, and an event's name and modifiers. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/stat/internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

struct perfan__stat_row *perfan__stat_add(perfan_stat *s, uint32_t line)
{
	struct perfan__stat_row *r;

	if (perfan__grow((void **)&s->rows, &s->cap, s->nrows + 1,
			 sizeof(*s->rows)))
		return NULL;
	int err;
	unsigned run = perfan__stat_row_run(s, line, &err);
	if (err)
		return NULL;
	r = &s->rows[s->nrows++];
	memset(r, 0, sizeof(*r));
	perfan__stat_defaults(&r->c);
	r->c.line = line;
	r->c.run = run;
	return r;
}

void perfan__stat_defaults(struct perfan_stat_counter *c)
{
	c->supported = 1;
	c->counted = 1;
	c->running_pct = 100;
	c->variance_pct = -1;
	c->interval = -1;
}

char *perfan__stat_dup(perfan_stat *s, const char *p, size_t n)
{
	return perfan__arena_strndup(&s->arena, p, n);
}

int perfan__stat_value(struct perfan__stat_row *r, const char *p, size_t n)
{
	if (n >= 15 && !memcmp(p, "<not supported>", 15)) {
		r->c.supported = 0;
		r->c.counted = 0;
		return 1;
	}
	if (n >= 13 && !memcmp(p, "<not counted>", 13)) {
		r->c.counted = 0;
		return 1;
	}
	if (!perfan__stat_is_num(p, n) && !perfan__stat_is_nonfinite(p, n))
		return 0;
	r->value.p = p;
	r->value.n = n;
	return 1;
}

/* Event modifiers: the letters perf accepts after ':' (or the last '/'). */
static int is_modifiers(const char *p, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!strchr("ukhIGHpPSDWebR", p[i]) || !p[i])
			return 0;
	return 1;
}

int perfan__stat_name(perfan_stat *s, struct perfan_stat_counter *c)
{
	const char *raw = c->raw_name, *slash = strchr(raw, '/'), *colon;
	size_t n = strlen(raw);

	if (slash && slash > raw && strrchr(raw, '/') > slash) {
		const char *last = strrchr(raw, '/');
		const char *mod = last + 1;
		c->pmu = perfan__stat_dup(s, raw, (size_t)(slash - raw));
		c->event = perfan__stat_dup(s, slash + 1,
					    (size_t)(last - slash - 1));
		if (*mod == ':')
			mod++;
		if (is_modifiers(mod, strlen(mod)))
			c->modifiers = perfan__stat_dup(s, mod, strlen(mod));
		return c->pmu && c->event ? 0 : PERFAN_ENOMEM;
	}
	colon = strrchr(raw, ':');
	if (colon && is_modifiers(colon + 1, strlen(colon + 1))) {
		c->modifiers =
			perfan__stat_dup(s, colon + 1, strlen(colon + 1));
		n = (size_t)(colon - raw);
	}
	/* 2.6.31 printed the unit into the name. */
	if (n > 6 && !memcmp(raw + n - 6, "-msecs", 6)) {
		n -= 6;
		c->unit = "msec";
	}
	c->event = perfan__stat_dup(s, raw, n);
	if (!c->unit &&
	    (!strcmp(c->event, "task-clock") || !strcmp(c->event, "cpu-clock")))
		c->unit = "msec"; /* perf prints these in msec, named or not */
	return c->event ? 0 : PERFAN_ENOMEM;
}
