/* cli/args.h: the options every command that reads profiles shares
 * (filters, weights, where symbols are found, the Python and time views)
 * into the library's perfan_load_opts, their --help lines, and the
 * printing of what the library advises. */
#ifndef PERFAN_CLI_ARGS_H
#define PERFAN_CLI_ARGS_H

#include <stdint.h>

#include <perfan/perfan.h>

#include "opt.h"

/* The shared options as tables of cli/opt.h, for a perfan_load_opts
 * (CLI_TABLE(cli_load_table, lo)): all of them, or a part. */
extern const struct cli_opt cli_load_table[];
extern const struct cli_opt cli_filter_table[]; /* event, pid, tid, ... */
extern const struct cli_opt cli_event_table[];
extern const struct cli_opt cli_comm_cpu_time_table[];
extern const struct cli_opt cli_symbols_table[]; /* symfs ... jitdump-dir */
extern const struct cli_opt cli_threads_table[];
extern const struct cli_opt cli_views_table[];  /* python, off-cpu, wall */
extern const struct cli_opt cli_python_table[]; /* python */

/* The --help lines of --event. */
#define CLI_EVENT_HELP                                                         \
	"\nonly samples of event NAME; in a perf.data, of\n"                   \
	"the one event whose name starts with NAME (an\n"                      \
	"error names its events when none or several\n"                        \
	"do)\n"                                                                \
	"bpftrace: the map NAME (@name); speedscope\n"                         \
	"JSON: time, bytes or samples"

/* perfan_load_opts_set for a table entry (LO a perfan_load_opts). */
int cli_set_load(void *lo, const char *name, const char *value);
/* perfan_flamegraph_opts_set, perfan_diff_opts_set,
 * perfan_scaling_opts_set and perfan_report_opts_set the same way. */
int cli_set_fg(void *fo, const char *name, const char *value);
int cli_set_diff(void *d, const char *name, const char *value);
int cli_set_scaling(void *so, const char *name, const char *value);
int cli_set_report(void *rep, const char *name, const char *value);

/* Defaults for command CMD: every sample, weighed by period; warnings,
 * advice and a progress line on stderr as "perfan CMD: ...". */
void cli_args_init(struct perfan_load_opts *o, const char *cmd);

/* A perfan_load_opts advice callback: "perfan CMD: " errors, warnings and
 * notes (PAYLOAD is CMD). */
int cli_advice(int level, const char *msg, void *payload);

/* Read PATH with O into a new *L, with the error printed as "perfan CMD:
 * ...". Returns the exit status, 0 or 1; *L is NULL only when no handle
 * could be made (then nothing was read). */
int cli_read(perfan_load **l, const char *path,
	     const struct perfan_load_opts *o, const char *cmd);

/* The same for perfan_load_read into L (another input added). */
int cli_read_more(perfan_load *l, const char *path, const char *cmd);

#endif
