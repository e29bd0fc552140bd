/* cli/pstats.h: cProfile dumps in the commands, by their content. A stopgap
 * for issue 13 (branch i13-pstats): the input registry (i13-registry) is
 * to detect and open them; these two calls and their hooks in cmd_report.c
 * and cmd_flamegraph.c then go. */
#ifndef PERFAN_CLI_PSTATS_H
#define PERFAN_CLI_PSTATS_H

#include <perfan/perfan.h>

/* Is PATH a pstats dump? Only a regular file is looked at: "-", FIFOs
 * and /dev/stdin cannot be peeked here and given back. 1 or 0. */
int cli_pstats_detect(const char *path);

/* perfan report on a dump: pstats' table with the notes, then the caller
 * and callee tables. SORT: -s as given (cumulative, tottime, ncalls,
 * name; NULL: cumulative). GRAPH: -g as given: NULL both tables, "caller"
 * the callers', "callee" the callees', "none" neither. Returns the exit
 * status. */
int cli_pstats_report(const char *path, const char *sort, size_t limit,
		      int json, const char *graph, const char *out,
		      const char *cmd);

/* The flame graph estimate of a dump into *P, with a note on stderr that it
 * is an approximation; *SUBTITLE, when NULL, is set to say so in the
 * graph. Returns 0 or 1 (printed). */
int cli_pstats_profile(perfan_profile **p, const char *path,
		       const char **subtitle, const char *cmd);

#endif
