/* cli/input.h: the input of commands that take perf.data, perf script text
 * or folded stacks: opened once, its first bytes peeked to tell which, and
 * then read from the start as a text stream or as a perf.data (anything
 * but a regular file through a thread that gives the peeked bytes back,
 * then the rest). */
#ifndef PERFAN_CLI_INPUT_H
#define PERFAN_CLI_INPUT_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <perfan/perfan.h>

struct cli_input {
	FILE *fp; /* as opened, once */
	const char *name;
	int is_stdin;
	int regular;   /* a regular file: it can be read again from 0 */
	int kind;      /* PERFAN_INPUT_* of perfan_input_detect */
	uint64_t size; /* of a regular file, else 0 */
	char *peek;
	size_t npeek, off; /* peeked bytes, and how many were given again */
	/* called with the bytes read past the peek (progress), may be NULL */
	void (*on_read)(size_t n);
	pthread_t feeder;
	int feeding, feed_fd, pipe_fd;
	char *feed_buf;
	FILE *text;
};

/* Open PATH ("-": standard input), peek and detect. Errors are printed as
 * "perfan CMD: ..."; returns 0 or -1. */
int cli_input_open(struct cli_input *in, const char *path, const char *cmd);
/* The text from its first byte (NULL and errno on failure); closed by
 * cli_input_close. */
FILE *cli_input_text(struct cli_input *in);
/* A failure already explained on stderr: no PERFAN_E* code is this. */
#define CLI_REPORTED (-1000)

/* Open the perf.data reader on it. Returns 0, a PERFAN_E* code (message
 * in perfan_error_last) or CLI_REPORTED after printing an error itself. */
int cli_input_perfdata(struct cli_input *in, perfan_perfdata **pd,
		       const struct perfan_perfdata_opts *opts,
		       const char *cmd);
/* Release everything; call after perfan_perfdata_free. */
void cli_input_close(struct cli_input *in);

#endif
