/* cli/pstats.c: perfan report on a cProfile dump (pstats.h). */
#include "pstats.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_pstats_report(const perfan_pstats *s, const char *name,
		      const char *sort, size_t limit, int json,
		      const char *graph, const char *out, const char *cmd)
{
	struct perfan_pstats_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_pstats_write_opts);
	struct cli_output o;
	int status = 0;

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
	if (cli_output_open(&o, out)) {
		cli_error(cmd, "cannot write %s: %s", out, strerror(errno));
		return 1;
	}
	if (!json)
		fprintf(o.fp, "# perfan report of %s (a cProfile dump)\n#\n",
			name);
	if (perfan_pstats_write(s, o.fp, &wo)) {
		cli_error(cmd, "%s", perfan_error_last());
		status = 1;
	}
	if (cli_output_close(&o, !status) && !status) {
		cli_error(cmd, "cannot write %s",
			  out ? out : "standard output");
		status = 1;
	}
	return status;
}
