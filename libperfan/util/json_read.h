/* util/json_read.h: a strict JSON (RFC 8259) pull reader over bytes in
 * memory or over a stream read in pieces, for the JSON inputs (speedscope,
 * Kineto traces): the caller walks the document as it expects it, the
 * reader checks every byte on the way (strings, escapes, UTF-8, numbers,
 * nesting up to a depth limit) and skips what the caller does not want,
 * checking it as well. Nothing is allocated but one string buffer, at most
 * as long as the longest string, and for a stream a window of its bytes,
 * as long as the longest value that is not an object or array. Errors are
 * "NAME: offset N (line L): what" (a stream's line: while the place is in
 * the window). */
#ifndef PERFAN_UTIL_JSON_READ_H
#define PERFAN_UTIL_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

/* The deepest nesting any reader accepts; each caller may set less. */
#define PERFAN__JREAD_MAX_DEPTH 256

enum perfan__jread_kind {
	PERFAN__JREAD_OBJECT = 1,
	PERFAN__JREAD_ARRAY,
	PERFAN__JREAD_STRING,
	PERFAN__JREAD_NUMBER,
	PERFAN__JREAD_BOOL, /* true, false */
	PERFAN__JREAD_NULL,
};

/* A stream's next bytes: up to CAP into DST, *GOT of them, fewer than CAP
 * only at its end; 0, or an error code with the last error set (the
 * reader then fails with it). */
typedef int (*perfan__jread_fill)(void *ctx, char *dst, size_t cap,
				  size_t *got);

struct perfan__jread {
	const char *p;    /* the bytes in memory, or the stream's window */
	size_t len, pos;  /* in p */
	const char *name; /* the input, in messages */
	int depth, max_depth;
	/* per open container: 1 until its first member was read */
	unsigned char first[PERFAN__JREAD_MAX_DEPTH + 1];
	char *buf; /* the last string read, decoded, NUL-terminated */
	size_t cap;
	/* Set after init by a reader whose JSON is a part of a larger input
	 * (bpftrace's one message a line): messages count offsets from
	 * BASE_OFF and lines from BASE_LINE (0: 1), and start with PREFIX
	 * (NULL: none) after the place. */
	uint64_t base_off, base_line;
	const char *prefix;
	/* a stream: p is win, holding its bytes from SHIFT on */
	perfan__jread_fill fill;
	void *fill_ctx;
	char *win;
	size_t wcap, window; /* window: its first size (0: 256 KiB) */
	uint64_t shift;
	uint64_t nl; /* newlines before pos */
	int eof, fill_rc, bom;
};

/* A place in the document where a value starts, to read it later (a key
 * order the caller did not expect: speedscope's "profiles" before its
 * "shared"). */
struct perfan__jread_mark {
	size_t pos;
	int depth;
};

/* Read the LEN bytes at P (borrowed for the reader's life), naming them
 * NAME, nesting at most MAX_DEPTH (0 or more than PERFAN__JREAD_MAX_DEPTH:
 * that bound). A UTF-8 byte order mark at the start is skipped. */
void perfan__jread_init(struct perfan__jread *j, const void *p, size_t len,
			const char *name, int max_depth);
/* Read the stream FILL gives (called with CTX), as perfan__jread_init
 * reads bytes in memory; perfan__jread_mark, seek, fork and check are for
 * bytes in memory only. Offsets in messages and those the reader gives
 * count from the stream's first byte. */
void perfan__jread_init_stream(struct perfan__jread *j, perfan__jread_fill fill,
			       void *ctx, const char *name, int max_depth);
void perfan__jread_fini(struct perfan__jread *j);

/* The error CODE with the message "NAME: offset OFF (line L): ..."; a
 * stream's own error instead, when reading it failed. */
int perfan__jread_err(const struct perfan__jread *j, int code, size_t off,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The kind of the next value and its offset (after white space), without
 * reading it; a negative error at the end of the input or on a byte no
 * value starts with. */
int perfan__jread_peek(struct perfan__jread *j, size_t *off);

/* Enter the object or array that comes next (an error if it is anything
 * else; WHAT names what was expected in the message). */
int perfan__jread_object(struct perfan__jread *j, const char *what);
int perfan__jread_array(struct perfan__jread *j, const char *what);

/* The next member of the open object: 1 with its key in *KEY (decoded,
 * borrowed until the next string is read) and KLEN, the reader before its
 * value; 0 at the object's end (closed then); or a negative error. */
int perfan__jread_member(struct perfan__jread *j, const char **key,
			 size_t *klen);

/* 1 when the open array has another element (the reader before it), 0 at
 * its end (closed then), or a negative error. */
int perfan__jread_element(struct perfan__jread *j);

/* The next value as a string (decoded, NUL-terminated, borrowed until the
 * next string is read; *LEN may be NULL, the string may hold NUL bytes),
 * a number, or a boolean; an error naming WHAT for another kind. */
int perfan__jread_string(struct perfan__jread *j, const char *what,
			 const char **s, size_t *len);
int perfan__jread_number(struct perfan__jread *j, const char *what, double *v);
int perfan__jread_bool(struct perfan__jread *j, const char *what, int *v);

/* The next value, a number, as its text in the input (checked as
 * perfan__jread_number checks it; *S borrowed until the reader reads on,
 * not NUL-terminated, *LEN bytes, at offset *OFF when OFF is not NULL):
 * for values a double cannot hold exactly (perfan__decimal_scaled). */
int perfan__jread_number_text(struct perfan__jread *j, const char *what,
			      const char **s, size_t *len, size_t *off);

/* The next value, a number, times 10^SHIFT exactly, rounded half away
 * from zero (perfan__decimal_scaled), in *V, at offset *OFF when OFF is
 * not NULL: 0, or an error naming WHAT (PERFAN_EFORMAT "WHAT N is out of
 * range" for one an int64_t cannot hold so scaled). */
int perfan__jread_scaled(struct perfan__jread *j, const char *what, int shift,
			 int64_t *v, size_t *off);

/* Read and check the next value, whatever it is, and drop it. */
int perfan__jread_skip(struct perfan__jread *j);

/* Where the next value starts, to come back to with perfan__jread_seek:
 * after the mark's value was skipped, a seek reads it again (and what
 * follows it, as it followed). */
void perfan__jread_mark(struct perfan__jread *j, struct perfan__jread_mark *m);
void perfan__jread_seek(struct perfan__jread *j,
			const struct perfan__jread_mark *m);

/* A second reader *DST over SRC's input, before the value at M (its own
 * string buffer; free it with perfan__jread_fini): to read two arrays side
 * by side. */
void perfan__jread_fork(struct perfan__jread *dst,
			const struct perfan__jread *src,
			const struct perfan__jread_mark *m);

/* 0 when only white space follows the top value, else an error. */
int perfan__jread_end(struct perfan__jread *j);

/* Check that the LEN bytes at P are one JSON text. */
int perfan__jread_check(const void *p, size_t len, const char *name,
			int max_depth);

#endif
