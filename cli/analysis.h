/* cli/analysis.h: what the commands that run one analysis over one
 * perf.data share (annotate, critical, dump, gil, timeline): the one file
 * on the command line, and the load -> analysis -> write -> free run. */
#ifndef PERFAN_CLI_ANALYSIS_H
#define PERFAN_CLI_ANALYSIS_H

#include <stdio.h>

#include <perfan/perfan.h>

#include "opt.h"

/* An analysis, as a command runs it. */
struct cli_analysis {
	const char *cmd;
	/* *OUT: the result of PATH read by L with OPTS (perfan_load_X) */
	int (*run)(void **out, perfan_load *l, const char *path,
		   const void *opts);
	/* RESULT to FP in FORMAT (perfan_X_write) */
	int (*write)(const void *result, FILE *fp, int format);
	void (*free)(void *result);
	/* With -o FILE.svg: the result's profile for a flame graph titled
	 * TITLE (NULL: none, NO_PROFILE said), or PROFILE NULL: the result
	 * goes to any file as it is */
	const perfan_profile *(*profile)(const void *result);
	const char *title, *no_profile;
	/* What the result says beside its output (NULL: nothing), on
	 * stderr; non-zero: the exit status is 1 */
	int (*check)(const void *result, const char *path);
};

/* The static X_run, X_write and X_free of a cli_analysis for
 * perfan_load_X, perfan_X_write (struct perfan_X_write_opts {sz,
 * format}) and perfan_X_free. */
#define CLI_ANALYSIS_FNS(X)                                                    \
	static int X##_run(void **out, perfan_load *l, const char *path,       \
			   const void *opts)                                   \
	{                                                                      \
		perfan_##X *r = NULL;                                          \
		int rc = perfan_load_##X(&r, l, path, opts);                   \
		*out = r;                                                      \
		return rc;                                                     \
	}                                                                      \
	static int X##_write(const void *r, FILE *fp, int format)              \
	{                                                                      \
		struct perfan_##X##_write_opts wo = {sizeof(wo), format};      \
		return perfan_##X##_write(r, fp, &wo);                         \
	}                                                                      \
	static void X##_free(void *r)                                          \
	{                                                                      \
		perfan_##X##_free(r);                                          \
	}

/* ARGV parsed by OPTIONS into O (cli_opt_parse; HEAD the --help text's
 * head), and the one perf.data it must end with in *PATH, not *OUT (-o,
 * a field of O). Returns the exit status, or -1 to go on. */
int cli_one_perfdata(const char *cmd, int argc, char **argv,
		     const struct cli_opt *options, void *o, const char *head,
		     const char *const *out, const char **path);

/* The Python view a command's flame graph is drawn in: LO's, python by
 * default (enum perfan_python_view). */
int cli_python_view(const struct perfan_load_opts *lo);

/* A's result on PATH, read with the load options LO and A's OPTS, written
 * to OUT (NULL or "-": stdout) in FORMAT, or its flame graph to an SVG
 * OUT. Returns the exit status. */
int cli_analysis_run(const struct cli_analysis *a,
		     const struct perfan_load_opts *lo, const char *path,
		     const void *opts, int format, const char *out);

#endif
