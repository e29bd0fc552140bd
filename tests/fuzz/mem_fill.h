/* mem_fill.h: bytes in memory given as a stream (perfan__jread_fill), for
 * the targets that check a stream reads as the same bytes in memory do. */
#ifndef PERFAN_TESTS_MEM_FILL_H
#define PERFAN_TESTS_MEM_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct mem_fill {
	const uint8_t *p;
	size_t n, at;
};

static inline int mem_fill(void *ctx, char *dst, size_t cap, size_t *got)
{
	struct mem_fill *m = ctx;
	size_t k = m->n - m->at < cap ? m->n - m->at : cap;
	if (k)
		memcpy(dst, m->p + m->at, k);
	m->at += k;
	*got = k;
	return 0;
}

/* MSG without its " (line N)" (in place): a stream's message may not know
 * the line when the place left its window. */
static inline char *mem_fill_no_line(char *msg)
{
	char *l = strstr(msg, " (line ");
	char *e = l ? strchr(l, ')') : NULL;
	if (e)
		memmove(l, e + 1, strlen(e + 1) + 1);
	return msg;
}

#endif
