/* sources/stat/metric_row.c: a top-down metric perf printed instead of a count
 * ("30.5" with metric unit "% tma_retiring") made a counter row of unit
 * "%", for every reader. */
#include <string.h>

#include "sources/stat/internal.h"
#include "util/error.h"
#include "util/log.h"

int perfan__stat_tma_unit(const char *p, size_t n, struct perfan__span *name)
{
	while (n && (*p == ' ' || *p == '%'))
		p++, n--;
	while (n && p[n - 1] == ' ')
		n--;
	if (n <= 4 || memcmp(p, "tma_", 4))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] == ' ')
			return 0;
	name->p = p;
	name->n = n;
	return 1;
}

int perfan__stat_metric_row(perfan_stat *s, const struct perfan__stat_row *on,
			    uint32_t line, struct perfan__span value,
			    struct perfan__span name)
{
	if (!perfan__stat_is_num(value.p, value.n))
		return 0; /* "nan", or nothing: no reading */
	struct perfan__stat_row *r = perfan__stat_add(s, line);
	if (!r)
		return perfan__nomem(NULL);
	r->c.raw_name = r->c.event = perfan__stat_dup(s, name.p, name.n);
	if (!r->c.event)
		return perfan__nomem(NULL);
	r->c.unit = "%";
	r->value = value;
	perfan__stat_vote(s, value.p, value.n);
	if (on) { /* the counter row it was printed with */
		r->c.pmu = on->c.pmu;
		r->c.aggr = on->c.aggr;
		r->c.interval = on->c.interval;
		r->interval = on->interval;
		r->aggr_count = on->aggr_count;
		r->c.aggr_count = on->c.aggr_count;
	}
	return perfan__stat_row_done(s, r);
}
