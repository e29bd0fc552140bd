/* util/lines.c: lines handed out in place from one growing buffer of block
 * reads. (Mapping a regular file instead saves no time here and counts
 * the whole file in the process's resident memory.) */
#include "util/lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/log.h"

/* A read's buffer starts at FIRST_BLOCK and doubles, while reads fill it,
 * up to BLOCK: a short input costs 64 KiB, a long one is read in 1 MiB
 * blocks. */
#define FIRST_BLOCK (1u << 16)
#define BLOCK (1u << 20)

int perfan__lines_init(struct perfan__lines *l, FILE *fp, const char *name,
		       size_t max_line)
{
	memset(l, 0, sizeof(*l));
	l->fp = fp;
	l->name = name ? name : "input";
	l->max_line = max_line ? max_line : ((size_t)64 << 20);
	l->cap = FIRST_BLOCK;
	l->buf = malloc(l->cap);
	if (!l->buf)
		return perfan__nomem(l->name);
	return 0;
}

void perfan__lines_free(struct perfan__lines *l)
{
	free(l->buf);
	free(l->retired);
	free(l->spare);
	l->buf = l->retired = l->spare = NULL;
}

void perfan__lines_keep(struct perfan__lines *l)
{
	l->keep = 1;
}

char *perfan__lines_retired(struct perfan__lines *l, size_t *cap)
{
	char *b = l->retired;
	*cap = l->retired_cap;
	l->retired = NULL;
	return b;
}

void perfan__lines_give(struct perfan__lines *l, char *buf, size_t cap)
{
	if (l->spare && l->spare_cap >= cap) {
		free(buf);
		return;
	}
	free(l->spare);
	l->spare = buf;
	l->spare_cap = cap;
}

/* Keep mode: move the unread bytes to a buffer of their own and retire
 * the one that holds the lines returned. */
static int retire(struct perfan__lines *l)
{
	char *nb = NULL;
	size_t ncap = l->cap;
	if (l->spare && l->spare_cap >= ncap) {
		nb = l->spare;
		ncap = l->spare_cap;
		l->spare = NULL;
	} else if (!(nb = malloc(ncap))) {
		return perfan__nomem(l->name);
	}
	memcpy(nb, l->buf + l->start, l->end - l->start);
	free(l->retired); /* not taken: the caller did not want it */
	l->retired = l->buf;
	l->retired_cap = l->cap;
	l->buf = nb;
	l->cap = ncap;
	return 0;
}

static int too_long(struct perfan__lines *l)
{
	return perfan__err(PERFAN_EFORMAT,
			   "%s:%llu: line longer than %zu bytes", l->name,
			   (unsigned long long)l->lineno + 1, l->max_line);
}

/* A NUL byte in a text line: no text format has one, and C strings would
 * cut the names at it without a word. */
static int nul_byte(struct perfan__lines *l, const char *s, size_t len)
{
	const char *z = memchr(s, '\0', len);
	if (!z)
		return 0;
	return perfan__err_at(PERFAN_EFORMAT, l->name, l->base + l->start,
			      l->lineno + 1,
			      "a NUL byte at column %zu: not a text line",
			      (size_t)(z - s) + 1);
}

/* Read more after the unread bytes, moved to the front. Returns bytes read
 * (0 at the end) or a negative error. */
static long fill(struct perfan__lines *l)
{
	if (l->start) {
		if (!l->keep)
			memmove(l->buf, l->buf + l->start, l->end - l->start);
		else if (retire(l))
			return PERFAN_ENOMEM;
		l->end -= l->start;
		l->base += l->start;
		l->start = 0;
	}
	if (l->end == l->cap || (l->cap < BLOCK && l->filled)) {
		if (l->end == l->cap && l->cap > l->max_line)
			return too_long(l);
		size_t ncap = l->cap * 2;
		char *nb = realloc(l->buf, ncap);
		if (!nb)
			return perfan__nomem(l->name);
		l->buf = nb;
		l->cap = ncap;
	}
	size_t want = l->cap - l->end;
	size_t n = fread(l->buf + l->end, 1, want, l->fp);
	l->filled = n == want;
	if (n == 0 && ferror(l->fp))
		return perfan__err(PERFAN_EIO, "%s: read error: %s", l->name,
				   strerror(errno));
	l->end += n;
	return (long)n;
}

int perfan__lines_next(struct perfan__lines *l, const char **line, size_t *len)
{
	for (;;) {
		const char *s = l->buf + l->start;
		const char *nl = memchr(s, '\n', l->end - l->start);
		if (nl) {
			*line = s;
			*len = (size_t)(nl - s);
			if (*len > l->max_line)
				return too_long(l);
			if (nul_byte(l, s, *len))
				return PERFAN_EFORMAT;
			l->start += *len + 1;
			l->lineno++;
			return 1;
		}
		if (l->eof) {
			if (l->start == l->end)
				return 0;
			/* a last line without '\n' */
			*line = s;
			*len = l->end - l->start;
			if (*len > l->max_line)
				return too_long(l);
			if (nul_byte(l, s, *len))
				return PERFAN_EFORMAT;
			l->start = l->end;
			l->lineno++;
			return 1;
		}
		long n = fill(l);
		if (n < 0)
			return (int)n;
		if (n == 0)
			l->eof = 1;
	}
}
