/* cli/cli.h: what the subcommands of the perfan command share. */
#ifndef PERFAN_CLI_H
#define PERFAN_CLI_H

#include <stddef.h>
#include <stdio.h>

/* Each subcommand: parse ARGV (ARGV[0] is its name), run, return the exit
 * status: 0 ok, 1 failure, 2 usage. */
int cmd_annotate(int argc, char **argv);
int cmd_critical(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_gpu(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_gil(int argc, char **argv);
int cmd_classify(int argc, char **argv);
int cmd_collapse(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_header(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_scaling(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_triage(int argc, char **argv);

/* The machine perfan runs on, as the PERFAN_HOST_* environment variables
 * pin it (each unset one: the real fact). Valid until the next call. */
struct perfan_host;
const struct perfan_host *cli_host(void);

/* "perfan NAME: message" on stderr, and "perfan NAME: warning: message";
 * control characters and broken UTF-8 in the message (text from inputs)
 * are escaped as perfan_text_escape does. */
void cli_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cli_warn(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "perfan NAME: note: message": what a result does not measure. */
void cli_note(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Standard input ("-") is one input of a command at most: S (zeroed
 * first) keeps which input NAME took it. PATH (NULL: not given) is the
 * input NAME. Returns 0, or -1 after printing "perfan CMD: '-' (standard
 * input) is given for both NAME and NAME" (or "twice for NAME"): a usage
 * error, exit status 2. */
struct cli_stdin {
	const char *taken_by;
};
int cli_stdin_take(const char *cmd, struct cli_stdin *s, const char *name,
		   const char *path);

/* -o OUT_PATH must not be one of the N INPUTS ("-": standard input): the
 * same file (device and inode, symlinks followed). Returns 0, or -1 after
 * printing "perfan CMD: -o OUT is the input IN". */
int cli_output_guard(const char *cmd, const char *out_path,
		     const char *const *inputs, size_t n);

/* The temporary file beside PATH that -o writes (PATH.tmpXXXXXX, made by
 * mkstemp): its file descriptor, its name in *TMP (to free), or -1 and
 * errno. Until cli_tmp_finish, SIGINT, SIGTERM, SIGHUP or SIGPIPE (those
 * not ignored or handled already) removes it, then kills the command as
 * it would have (exit status 128 + the signal). One at a time. */
int cli_tmp_create(const char *path, char **tmp);
/* Rename TMP over PATH, or remove it (PATH NULL, or the rename failed),
 * and no longer remove it on a signal. 0, or -1 and the rename's errno. */
int cli_tmp_finish(const char *tmp, const char *path);

/* Write X to OUT_PATH (NULL or "-": stdout) through cli_output with
 * WRITE(X, fp, OPTS), a sink (perfan_X_write) or a wrapper of one, after
 * work that ended with STATUS: a failure then, of WRITE (printed as
 * "perfan CMD: " and perfan_error_last()) or of writing keeps no file.
 * A failure of the output is printed as one line "perfan CMD: OUT_PATH:
 * what failed: strerror" ("standard output" for NULL or "-"). Every -o
 * goes through here. Returns the exit status: STATUS, or 1 on a failure
 * here. */
int cli_write(const char *cmd, const char *out_path, int status,
	      int (*write)(const void *x, FILE *fp, const void *opts),
	      const void *x, const void *opts);

/* Write a result to OUT_PATH (NULL or "-": stdout) through cli_output:
 * WRITE(ARG, fp) returns 0 or a PERFAN_E* code (perfan_error_last says
 * why); after a failure of it or of writing, no file is kept and the
 * error is printed as "perfan CMD: ...". Returns the exit status, 0 or
 * 1. */
int cli_write_result(const char *cmd, const char *out_path,
		     int (*write)(const void *arg, FILE *fp), const void *arg);

/* Write the flame graph of P to OUT_PATH (NULL or "-": stdout) as
 * cli_output does, after a load that ended with STATUS (a failed one keeps
 * no file). Returns the exit status: STATUS, or 1 on a failure here. */
struct perfan_profile;
struct perfan_flamegraph_opts;
/* Whether OUT_PATH names an SVG file (ends in ".svg"): the flame graph a
 * command writes there instead of its text. */
int cli_svg_path(const char *out_path);
int cli_write_flamegraph(const char *cmd, const struct perfan_profile *p,
			 const struct perfan_flamegraph_opts *fo,
			 const char *out_path, int status);

#endif
