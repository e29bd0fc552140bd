/* render/json.h: the one JSON writer of the sinks: nested objects and
 * arrays, either indented two spaces a level (one item a line) or on one
 * line with ", " between items (a container's items a line each where
 * asked), strings through perfan_json_string. */
#ifndef PERFAN_RENDER_JSON_H
#define PERFAN_RENDER_JSON_H

#include <stdint.h>
#include <stdio.h>

/* Levels told apart; deeper ones (a call graph of a stack deeper than
 * this) share the last level's state. */
#define PERFAN__JSON_DEPTH 8192

struct perfan__json {
	FILE *fp;
	int pretty; /* one item a line, indented; else all on one line */
	int depth;
	int lines; /* the depth of the container opened with _open_lines */
	int tight; /* the depth of the container opened with _open_tight */
	int brk;   /* perfan__json_break's indent, plus 1 */
	unsigned char first[PERFAN__JSON_DEPTH / 8]; /* a bit per level */
	unsigned char array[PERFAN__JSON_DEPTH / 8]; /* '[' (else '{') */
};

void perfan__json_init(struct perfan__json *j, FILE *fp, int pretty);
/* An object ('{') or array ('[') as the value of KEY (NULL in an array
 * or at the top), closed by perfan__json_close with '}' or ']'. */
void perfan__json_open(struct perfan__json *j, const char *key, char c);
void perfan__json_close(struct perfan__json *j, char c);
/* The end of a document: every container still open closed, innermost
 * first, and a newline. */
void perfan__json_end(struct perfan__json *j);
/* In a one-line writer, a container whose items each start a line,
 * indented two spaces, and which closes on a line of its own (when not
 * empty); the items' insides stay on their line. One at a time. */
void perfan__json_open_lines(struct perfan__json *j, const char *key, char c);
/* A container whose items are separated by ',' alone. One at a time. */
void perfan__json_open_tight(struct perfan__json *j, const char *key, char c);
/* In a one-line writer, the next item starts a new line indented INDENT
 * spaces. */
void perfan__json_break(struct perfan__json *j, int indent);
/* Values; a NULL string is null. */
void perfan__json_str(struct perfan__json *j, const char *key, const char *v);
void perfan__json_u64(struct perfan__json *j, const char *key, uint64_t v);
void perfan__json_i64(struct perfan__json *j, const char *key, int64_t v);
/* A number with DIGITS decimals (a non-finite one is null). */
void perfan__json_f64(struct perfan__json *j, const char *key, double v,
		      int digits);
/* A number as %.*g with DIGITS: NaN is null, infinities the strings
 * "inf" and "-inf". */
void perfan__json_g(struct perfan__json *j, const char *key, double v,
		    int digits);
void perfan__json_bool(struct perfan__json *j, const char *key, int v);
void perfan__json_strs(struct perfan__json *j, const char *key,
		       const char *const *v, size_t n);
/* Where a value goes: the separator and KEY; the caller prints it. */
void perfan__json_item(struct perfan__json *j, const char *key);

#endif
