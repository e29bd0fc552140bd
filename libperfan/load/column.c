/* load/column.c: which column of a loaded profile a command shows, and
 * what it holds. */
#include "load/internal.h"

#include <stdint.h>
#include <string.h>

#include <perfan/perfdata.h>
#include <perfan/threads.h>

/* How much column COL of L's profile looks like the profile a user wants
 * when no --event says: 0 a CPU clock (cpu-clock, task-clock, cycles), 1
 * another sampling event, 2 a tracepoint or probe (sched_waking, a uprobe),
 * which perf report would show first but nobody profiles by; and its
 * event's place in the recording's list (SIZE_MAX unknown) in *AT. */
static int rank(const perfan_load *l, size_t col, size_t *at)
{
	enum { TRACEPOINT = 2 }; /* PERF_TYPE_TRACEPOINT, probes' too */
	const perfan_perfdata *pd = perfan_load_reader(l);
	const char *name = perfan_profile_column_name(l->p, col);
	*at = SIZE_MAX;
	for (size_t e = 0; pd && name && e < perfan_perfdata_nr_events(pd);
	     e++) {
		const struct perfan_event *ev = perfan_perfdata_event(pd, e);
		if (ev->name && !strcmp(ev->name, name)) {
			*at = ev->index;
			if (ev->attr.type == TRACEPOINT)
				return 2;
			break;
		}
	}
	return perfan_profile_column_kind(l->p, col) == PERFAN_COLUMN_CPU ? 0
									  : 1;
}

size_t perfan_load_column(const perfan_load *l, const char *skip,
			  const char *name)
{
	const perfan_profile *p = l->p;
	const char *event = l->o.filter.event;
	size_t n = perfan_profile_nr_columns(p), pick = n, with = 0, first = n;
	int best = 3;
	size_t best_at = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		const char *cname = perfan_profile_column_name(p, i);
		if (skip && !strcmp(cname, skip))
			continue;
		if (first == n)
			first = i;
		if (event && !strcmp(cname, event))
			return i;
		if (!perfan_profile_total(p, i))
			continue;
		with++;
		/* the best rank, the first event of the recording within
		 * it (else the first column) */
		size_t at;
		int r = rank(l, i, &at);
		if (r < best || (r == best && at < best_at)) {
			best = r;
			best_at = at;
			pick = i;
		}
	}
	if (with > 1)
		perfan__load_advise((perfan_load *)l, PERFAN_ADVICE_WARN,
				    "%s has samples of %zu events; these are "
				    "of %s (--event NAME for another)",
				    name ? name : l->info.name, with,
				    perfan_profile_column_name(p, pick));
	return pick < n ? pick : first < n ? first : 0;
}

size_t perfan_load_nr_columns(const perfan_load *l)
{
	return l ? perfan_profile_nr_columns(l->p) : 0;
}

uint64_t perfan_load_total(const perfan_load *l, size_t col)
{
	if (!l || col >= perfan_profile_nr_columns(l->p))
		return 0;
	return perfan_profile_total(l->p, col);
}

double perfan_load_nr_samples(const perfan_load *l, size_t col)
{
	const perfan_profile *p = l->p;
	size_t with_weight = 0, n = perfan_profile_nr_columns(p);
	if (col >= n)
		return 0;
	const char *unit = perfan_profile_column_unit(p, col);
	for (size_t c = 0; c < n; c++)
		with_weight += perfan_profile_total(p, c) > 0;
	if (!unit || strcmp(unit, "period") || with_weight != 1)
		return 0;
	if (l->info.resolve.samples)
		return (double)(l->info.resolve.samples -
				l->info.resolve.samples_filtered);
	return (double)l->info.script.samples;
}

int perfan_load_base_column(const perfan_load *l)
{
	const char *name = l->o.before_column;
	for (size_t i = 0; name && i < perfan_profile_nr_columns(l->p); i++)
		if (!strcmp(perfan_profile_column_name(l->p, i), name))
			return perfan_profile_total(l->p, i) ? (int)i : -1;
	return -1;
}
