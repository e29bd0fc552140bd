/* analysis/classify_stat.c: perfan_classify_stat: what perf stat printed,
 * classified run by run with each run's own times and command. */
#include <stdlib.h>

#include <perfan/classify.h>

#include "analysis/classify_internal.h"
#include "util/error.h"

int perfan_classify_stat(perfan_classify **out, const perfan_stat *s,
			 const struct perfan_classify_opts *o)
{
	*out = NULL;
	const struct perfan_stat_run *r = perfan_stat_run(s, 0);
	if (!r || !r->count)
		return perfan__err(PERFAN_EINVAL, "classify: no counters");
	struct perfan_classify_opts co =
		PERFAN_OPTS_INIT(struct perfan_classify_opts);
	if (o)
		co.unscaled = o->unscaled;
	co.elapsed = r->elapsed;
	co.user = r->user;
	co.sys = r->sys;
	size_t n = perfan_stat_nr_counters(s);
	struct perfan_stat_counter *cs = malloc(n * sizeof(*cs));
	if (!cs)
		return perfan__err(PERFAN_ENOMEM, "classify: out of memory");
	for (size_t i = 0; i < n; i++)
		cs[i] = *perfan_stat_counter(s, i);
	/* The counters' strings live in S; classify keeps pointers only. */
	int rc = perfan_classify_new(out, cs, n, &co);
	free(cs);
	if (rc)
		return rc;
	for (size_t i = 0; i < (*out)->n; i++) /* each group is of run 0 */
		(*out)->g[i].pub.command = r->command;
	return 0;
}
