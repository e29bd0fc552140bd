/* mem_fill.h: bytes in memory given as a stream (perfan__jread_fill), for
 * the targets that check a stream reads as the same bytes in memory do. */
#ifndef PERFAN_TESTS_MEM_FILL_H
#define PERFAN_TESTS_MEM_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* Whether the stream's message GOT says what memory's MSG said: the same,
 * or without MSG's " (line N)" (a stream may not know the line once the
 * place left its window). Prints both when not. */
static inline int mem_fill_same_message(const char *msg, const char *got)
{
	char want[1024];
	snprintf(want, sizeof(want), "%s", msg);
	if (!strcmp(want, got))
		return 1;
	char *l = strstr(want, " (line ");
	char *e = l ? strchr(l, ')') : NULL;
	if (e)
		memmove(l, e + 1, strlen(e + 1) + 1);
	if (!strstr(got, " (line ") && !strcmp(want, got))
		return 1;
	fprintf(stderr, "memory: %s\nstream: %s\n", msg, got);
	return 0;
}

#endif
