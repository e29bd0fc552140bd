/* cli/runs.h: the runs of -b BEFORE... and -a AFTER... on a command line,
 * as perfan diff and perfan triage take them. */
#ifndef PERFAN_CLI_RUNS_H
#define PERFAN_CLI_RUNS_H

#include <stddef.h>

#include "opt.h"

/* A growing list of borrowed file names. */
struct cli_list {
	char **v;
	size_t n, cap;
};

/* Add ARG to L, each of its comma-separated parts (ARG is cut at the
 * commas). 0, or -1 out of memory. */
int cli_list_add(struct cli_list *l, char *arg);

/* cli_stdin_take of each file of L, the input NAME. 0, or -1 (printed). */
struct cli_stdin;
int cli_list_stdin(const char *cmd, struct cli_stdin *s, const char *name,
		   const struct cli_list *l);

/* Take the runs of -b and -a (the options of TABLE whose short names they
 * are) out of ARGV: each takes the files after it up to the next option,
 * as a shell's glob or braces give them (getopt would take only the
 * first); --before=FILE and -bFILE too, and commas. The rest, in order,
 * goes to REST (argc + 1 slots) for getopt_long; options that take an
 * argument keep it, so that "--title -b" stays a title. Returns 0, 2
 * after a usage error (said as CMD's, with HEAD), 1 out of memory. */
int cli_take_runs(const char *cmd, const char *head, int argc, char **argv,
		  const struct cli_opt *table, struct cli_list *before,
		  struct cli_list *after, char **rest, int *nrest);

/* A command that takes runs: ARGV's runs of -b and -a taken out
 * (cli_take_runs), then RUN on the rest and them. The exit status. */
int cli_with_runs(const char *cmd, const char *head, int argc, char **argv,
		  const struct cli_opt *table,
		  int (*run)(int argc, char **argv, struct cli_list *before,
			     struct cli_list *after));

#endif
