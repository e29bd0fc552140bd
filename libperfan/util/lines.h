/* util/lines.h: reading text input line by line from a FILE * in blocks
 * (growing to 1 MiB), with line numbers for messages and a bound on line length so
 * that a stream without newlines cannot take all memory. */
#ifndef PERFAN_UTIL_LINES_H
#define PERFAN_UTIL_LINES_H

#include <stdint.h>
#include <stdio.h>

struct perfan__lines {
	FILE *fp;
	const char *name; /* for messages */
	char *buf;
	size_t cap, start, end;
	size_t max_line;
	uint64_t lineno; /* of the line last returned, from 1 */
	uint64_t base;   /* the input's offset of buf[0] */
	int eof;
	int filled; /* the last read filled the buffer: the input goes on */
	/* keep mode (perfan__lines_keep) */
	int keep;
	char *retired, *spare;
	size_t retired_cap, spare_cap;
};

/* MAX_LINE 0 means 64 MiB. NAME is borrowed. Reading starts at FP's
 * current position. Returns 0 or PERFAN_ENOMEM. */
int perfan__lines_init(struct perfan__lines *l, FILE *fp, const char *name,
		       size_t max_line);

/* The next line, without its '\n' (a '\r' before it is kept; the line is
 * not NUL-terminated), valid until the next call. Returns 1, 0 at the end
 * of input, or a negative error (read failure, line too long, a NUL byte
 * in it: "NAME: offset OFF (line LINE): a NUL byte at column N", OFF the
 * line's) with the message set. */
int perfan__lines_next(struct perfan__lines *l, const char **line, size_t *len);

/* Keep mode: the lines returned stay valid until their buffer is taken
 * and given back. When a read needs room in a buffer that holds lines
 * already returned, that buffer is not overwritten but retired, and the
 * line returned next comes from a new one: take the retired buffer
 * (perfan__lines_retired) after each call, before the next. */
void perfan__lines_keep(struct perfan__lines *l);

/* The buffer retired by the last perfan__lines_next, or NULL; it is the
 * caller's now (free it, or give it back), and *CAP its size. */
char *perfan__lines_retired(struct perfan__lines *l, size_t *cap);

/* A buffer of CAP bytes for a later read to use instead of a new one
 * (taken over: freed by perfan__lines_free if not used). */
void perfan__lines_give(struct perfan__lines *l, char *buf, size_t cap);

/* Frees the buffers, the retired one that was not taken too. */
void perfan__lines_free(struct perfan__lines *l);

#endif
