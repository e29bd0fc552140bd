/* cli/pstats.c: perfan report on a cProfile dump (pstats.h). */
#include "pstats.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

static int write_pstats(const void *s, FILE *fp, const void *wo)
{
	return perfan_pstats_write(s, fp, wo);
}

int cli_pstats_report(const perfan_pstats *s, const char *name,
		      const char *sort, size_t limit, int json,
		      const char *graph, const char *out, const char *cmd)
{
	struct perfan_pstats_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_pstats_write_opts);
	wo.sort = sort ? perfan_pstats_sort_parse(sort)
		       : PERFAN_PSTATS_SORT_CUMULATIVE;
	if (wo.sort < 0) {
		cli_error(cmd,
			  "--sort: '%s' is none of cumulative, tottime, "
			  "ncalls, name (the keys of a cProfile dump)",
			  sort);
		return 2;
	}
	wo.limit = limit;
	wo.json = json;
	wo.no_callers = graph && strcmp(graph, "caller");
	wo.no_callees = graph && strcmp(graph, "callee");
	wo.name = name;
	return cli_write(cmd, out, 0, write_pstats, s, &wo);
}
