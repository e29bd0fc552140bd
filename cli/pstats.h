/* cli/pstats.h: perfan report on a cProfile dump: pstats' own table and
 * the caller and callee tables, with report's options mapped onto them. */
#ifndef PERFAN_CLI_PSTATS_H
#define PERFAN_CLI_PSTATS_H

#include <stddef.h>

#include <perfan/perfan.h>

/* Write the report of DUMP (read from NAME) to OUT (NULL: standard
 * output). SORT: -s as given (cumulative, tottime, ncalls, name; NULL:
 * cumulative). GRAPH: -g as given: NULL both tables, "caller" the
 * callers', "callee" the callees', "none" neither. Returns the exit
 * status (errors printed as "perfan CMD: ..."). */
int cli_pstats_report(const perfan_pstats *dump, const char *name,
		      const char *sort, size_t limit, int json,
		      const char *graph, const char *out, const char *cmd);

#endif
