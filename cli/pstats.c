/* cli/pstats.c: cProfile dumps in perfan report and perfan flamegraph,
 * detected by content; see pstats.h for why this is a file of its own. */
#include "pstats.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

int cli_pstats_detect(const char *path)
{
	unsigned char b[8];
	size_t n;
	FILE *fp;
	struct stat st;
	/* Only a regular file can be peeked and read again: a FIFO or
	 * /dev/stdin would lose the bytes to whoever reads it next. */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode) ||
	    !(fp = fopen(path, "rb")))
		return 0;
	n = fread(b, 1, sizeof(b), fp);
	fclose(fp);
	return perfan_pstats_detect(b, n);
}

static perfan_pstats *open_dump(const char *path, const char *cmd)
{
	perfan_pstats *s = NULL;
	if (perfan_pstats_read_path(&s, path, NULL)) {
		cli_error(cmd, "%s", perfan_error_last());
		return NULL;
	}
	return s;
}

int cli_pstats_report(const char *path, const char *sort, size_t limit,
		      int json, const char *graph, const char *out,
		      const char *cmd)
{
	struct perfan_pstats_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_pstats_write_opts);
	struct cli_output o;
	perfan_pstats *s;
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
	if (!(s = open_dump(path, cmd)))
		return 1;
	if (cli_output_open(&o, out)) {
		cli_error(cmd, "cannot write %s: %s", out, strerror(errno));
		perfan_pstats_free(s);
		return 1;
	}
	if (!json)
		fprintf(o.fp, "# perfan report of %s (a cProfile dump)\n#\n",
			path);
	if (perfan_pstats_write(s, o.fp, &wo)) {
		cli_error(cmd, "%s", perfan_error_last());
		status = 1;
	}
	if (cli_output_close(&o, !status) && !status) {
		cli_error(cmd, "cannot write %s",
			  out ? out : "standard output");
		status = 1;
	}
	perfan_pstats_free(s);
	return status;
}

int cli_pstats_profile(perfan_profile **p, const char *path,
		       const char **subtitle, const char *cmd)
{
	perfan_pstats *s = open_dump(path, cmd);
	if (!s)
		return 1;
	perfan_profile_free(*p);
	*p = NULL;
	int rc = perfan_pstats_profile(s, p);
	perfan_pstats_free(s);
	if (rc) {
		cli_error(cmd, "%s: %s", path, perfan_error_last());
		return 1;
	}
	cli_note(cmd,
		 "%s is a cProfile dump, which keeps call counts and times "
		 "per caller, not stacks: the stacks drawn are estimated as "
		 "flameprof does, each function's time split over its "
		 "callers by their cumulative time (an approximation)",
		 path);
	if (!*subtitle)
		*subtitle = "estimated from cProfile's caller edges, as "
			    "flameprof does: an approximation";
	return 0;
}
