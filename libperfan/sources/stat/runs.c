/* sources/stat/runs.c: the runs of perf stat in one input: where each begins (a
 * header, a "# started on" line, a counter printed again, rows after a
 * "seconds time elapsed"), its figures, and the list perfan_stat_run()
 * gives. */
#include <string.h>

#include "sources/stat/internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/log.h"

static struct perfan__stat_runraw *push(perfan_stat *s, uint32_t line)
{
	if (perfan__grow((void **)&s->rr, &s->rr_cap, s->nrr + 1,
			 sizeof(*s->rr)))
		return NULL;
	struct perfan__stat_runraw *r = &s->rr[s->nrr++];
	memset(r, 0, sizeof(*r));
	r->repeats = 1;
	r->line = line;
	perfan__htab_free(&s->seen);
	return r;
}

struct perfan__stat_runraw *perfan__stat_cur_run(perfan_stat *s)
{
	return s->nrr ? &s->rr[s->nrr - 1] : push(s, 1);
}

/* The current run has rows: the newest row is in it. */
static int has_rows(const perfan_stat *s)
{
	return s->nrr && s->nrows &&
	       s->rows[s->nrows - 1].c.run == (unsigned)(s->nrr - 1);
}

unsigned perfan__stat_row_run(perfan_stat *s, uint32_t line, int *err)
{
	struct perfan__stat_runraw *r = perfan__stat_cur_run(s);
	*err = 0;
	if (r && r->closed && has_rows(s))
		r = push(s, line); /* rows after a footer: another run */
	if (!r)
		*err = 1;
	return (unsigned)(s->nrr - 1);
}

int perfan__stat_run_begin(perfan_stat *s, uint32_t line)
{
	struct perfan__stat_runraw *r = perfan__stat_cur_run(s);
	if (!r)
		return perfan__nomem(s->name);
	if (!has_rows(s) && !r->closed) {
		r->line = line; /* nothing in it yet: it starts here */
		return 0;
	}
	return push(s, line) ? 0 : perfan__nomem(s->name);
}

int perfan__stat_started_on(perfan_stat *s, const struct perfan__stat_line *l)
{
	const char *p = l->p, *e = l->p + l->n;
	while (p < e && (*p == '#' || *p == ' '))
		p++;
	if (e - p < 10 || memcmp(p, "started on", 10))
		return 0;
	return perfan__stat_run_begin(s, l->no);
}

static uint64_t mix(uint64_t h, const char *s)
{
	return perfan__hash_bytes(s ? s : "", s ? strlen(s) : 0, h);
}

static uint64_t row_key(const struct perfan__stat_row *r)
{
	const struct perfan_stat_counter *c = &r->c;
	uint64_t h = mix(mix(mix(0, c->raw_name), c->aggr), c->pmu);
	if (r->interval.n)
		return perfan__hash_bytes(r->interval.p, r->interval.n, h);
	/* JSON gives the time as a number */
	return perfan__hash_bytes(&c->interval, sizeof(c->interval), h);
}

static int str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_counter(const struct perfan__stat_row *a,
			const struct perfan__stat_row *b)
{
	return str_eq(a->c.raw_name, b->c.raw_name) &&
	       str_eq(a->c.aggr, b->c.aggr) && str_eq(a->c.pmu, b->c.pmu) &&
	       a->interval.n == b->interval.n &&
	       (!a->interval.n ||
		!memcmp(a->interval.p, b->interval.p, a->interval.n)) &&
	       a->c.interval == b->c.interval;
}

int perfan__stat_row_done(perfan_stat *s, struct perfan__stat_row *r)
{
	size_t idx = (size_t)(r - s->rows);
	uint64_t key = row_key(r);
	uint64_t *was = perfan__htab_get(&s->seen, key);
	/* The counter again: the output of another run; unless right after
	 * itself, as hybrid machines print an event without its PMU once for
	 * each PMU ("L1-dcache-loads" twice). */
	if (was && *was + 1 < idx && same_counter(&s->rows[*was], r)) {
		if (!push(s, r->c.line))
			return perfan__nomem(s->name);
		r->c.run = (unsigned)(s->nrr - 1);
	}
	return perfan__htab_put(&s->seen, key, idx) ? perfan__nomem(s->name)
						    : 0;
}

void perfan__stat_cpus_utilized(perfan_stat *s,
				const struct perfan__stat_row *r,
				struct perfan__span value,
				struct perfan__span unit)
{
	struct perfan__stat_runraw *run = perfan__stat_cur_run(s);
	if (!run || run->cpus.n || !r->c.event ||
	    strcmp(r->c.event, "task-clock") || r->c.interval >= 0 ||
	    r->interval.n || r->c.aggr || unit.n != 13 ||
	    memcmp(unit.p, "CPUs utilized", 13) ||
	    !perfan__stat_is_num(value.p, value.n))
		return;
	run->cpus = value;
	run->cpus_row = (size_t)(r - s->rows);
}

static int conv(const perfan_stat *s, const struct perfan__span *sp, char dec,
		uint32_t line, double *out)
{
	*out = -1;
	if (!sp->n)
		return 0;
	if (perfan__stat_num(sp->p, sp->n, dec, out))
		return perfan__err(PERFAN_EFORMAT, "%s:%u: bad time \"%.*s\"",
				   s->name, line, (int)sp->n, sp->p);
	return 0;
}

int perfan__stat_runs_finish(perfan_stat *s, char dec)
{
	size_t n = 0, first = 0;
	unsigned *renum = NULL;
	perfan__htab_free(&s->seen);
	if (s->nrr) {
		s->runv = perfan__arena_alloc(&s->arena,
					      s->nrr * sizeof(*s->runv));
		renum = perfan__arena_alloc(&s->arena, s->nrr * sizeof(*renum));
		if (!s->runv || !renum)
			return perfan__nomem(s->name);
	}
	size_t k = 0; /* rows are in run order */
	for (size_t i = 0; i < s->nrr; i++) {
		const struct perfan__stat_runraw *r = &s->rr[i];
		struct perfan_stat_run *o = &s->runv[n];
		size_t count = 0;
		while (k < s->nrows && s->rows[k].c.run == i)
			k++, count++;
		renum[i] = (unsigned)n;
		if (!count)
			continue; /* a header or footer without counters */
		*o = (struct perfan_stat_run){
			.command = r->command,
			.repeats = r->repeats,
			.line = s->rows[first].c.line,
			.first = first,
			.count = count,
		};
		if (conv(s, &r->elapsed, dec, r->elapsed_line, &o->elapsed) ||
		    conv(s, &r->user, dec, r->user_line, &o->user) ||
		    conv(s, &r->sys, dec, r->sys_line, &o->sys))
			return PERFAN_EFORMAT;
		double cpus;
		if (o->elapsed < 0 && r->cpus.n && r->cpus_row < s->nrows &&
		    !perfan__stat_num(r->cpus.p, r->cpus.n, dec, &cpus) &&
		    cpus > 0 && s->rows[r->cpus_row].c.counted)
			o->elapsed = s->rows[r->cpus_row].c.value / 1000 / cpus;
		first += count;
		n++;
	}
	s->nruns = n;
	for (size_t i = 0; i < s->nrows; i++)
		s->rows[i].c.run = renum[s->rows[i].c.run];
	if (n) {
		s->elapsed_v = s->runv[0].elapsed;
		s->user_v = s->runv[0].user;
		s->sys_v = s->runv[0].sys;
		s->runs = s->runv[0].repeats;
	} else if (s->nrr) { /* no counters: the footer alone still tells */
		const struct perfan__stat_runraw *r = &s->rr[0];
		if (conv(s, &r->elapsed, dec, r->elapsed_line, &s->elapsed_v))
			return PERFAN_EFORMAT;
	}
	return 0;
}
