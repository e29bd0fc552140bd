/* render/gil_units.c: the GIL ledger's threads as rows, a pool's threads
 * summed into one (render/gil_units.h). */
#include "render/gil_units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* Whether threads A and B are of one pool. */
static int same_pool(const struct perfan_gil_thread *a,
		     const struct perfan_gil_thread *b)
{
	return a->pool && b->pool && a->pid == b->pid &&
	       !strcmp(a->pool, b->pool);
}

static void add(struct perfan__gil_unit *u, const struct perfan_gil_thread *t)
{
	struct perfan_gil_thread *s = &u->sum;
	u->nr_threads++;
	u->life += t->end > t->start ? t->end - t->start : 0;
	if (u->nr_threads == 1) {
		*s = *t;
		return;
	}
	if (t->start < s->start)
		s->start = t->start;
	if (t->end > s->end)
		s->end = t->end;
	s->wait += t->wait;
	s->wait_blocked += t->wait_blocked;
	s->wait_runq += t->wait_runq;
	s->episodes += t->episodes;
	s->forced += t->forced;
	s->handoff_wait += t->handoff_wait;
	s->on_cpu += t->on_cpu;
	s->hold_samples += t->hold_samples;
	s->probe_wait += t->probe_wait;
	s->probe_hold += t->probe_hold;
	s->probe_episodes += t->probe_episodes;
}

int perfan__gil_units(struct perfan__gil_units *out,
		      const struct perfan_gil_result *g)
{
	memset(out, 0, sizeof(*out));
	size_t n = g->nr_threads;
	out->u = calloc(n ? n : 1, sizeof(*out->u));
	out->of = calloc(n ? n : 1, sizeof(*out->of));
	if (!out->u || !out->of) {
		perfan__gil_units_free(out);
		return perfan__nomem("GIL ledger");
	}
	for (size_t i = 0; i < n; i++) {
		const struct perfan_gil_thread *t = &g->threads[i];
		size_t k = 0;
		while (k < out->n && !same_pool(out->u[k].t, t))
			k++;
		if (k == out->n)
			out->u[out->n++].t = t;
		out->of[i] = k;
		add(&out->u[k], t);
	}
	size_t m = out->n;
	out->blame = calloc(m ? m * (m + 1) : 1, sizeof(*out->blame));
	if (!out->blame) {
		perfan__gil_units_free(out);
		return perfan__nomem("GIL ledger");
	}
	for (size_t w = 0; g->blame && w < n; w++) {
		uint64_t *row = out->blame + out->of[w] * (m + 1);
		for (size_t h = 0; h <= n; h++)
			row[h < n ? out->of[h] : m] +=
				g->blame[w * (n + 1) + h];
	}
	return 0;
}

void perfan__gil_units_free(struct perfan__gil_units *u)
{
	free(u->u);
	free(u->of);
	free(u->blame);
	memset(u, 0, sizeof(*u));
}

void perfan__gil_unit_label(const struct perfan__gil_unit *u, char *buf,
			    size_t n)
{
	const struct perfan_gil_thread *t = u->t;
	if (u->nr_threads > 1)
		snprintf(buf, n, "%s [pool of %zu]", t->pool, u->nr_threads);
	else
		snprintf(buf, n, "%s %d/%d",
			 t->name   ? t->name
			 : t->comm ? t->comm
				   : "?",
			 (int)t->pid, (int)t->tid);
}
