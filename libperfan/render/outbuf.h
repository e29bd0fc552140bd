/* render/outbuf.h: text gathered in a buffer of its own and written in
 * large pieces (render/outbuf.c), for the writers of many short lines:
 * folded stacks, report rows. */
#ifndef PERFAN_RENDER_OUTBUF_H
#define PERFAN_RENDER_OUTBUF_H

#include <stddef.h>
#include <stdio.h>

struct perfan__outbuf {
	FILE *fp;
	char *buf;
	size_t len, cap;
	int failed; /* a write fell short */
};

/* An empty buffer for FP: 0, or PERFAN_ENOMEM. */
int perfan__outbuf_open(struct perfan__outbuf *o, FILE *fp);
/* N bytes of S; what does not fit goes out first. */
void perfan__outbuf_put(struct perfan__outbuf *o, const char *s, size_t n);
/* What is gathered, to FP (before anything else is written to FP). */
void perfan__outbuf_flush(struct perfan__outbuf *o);
/* Flushed and freed: 0, or PERFAN_EIO when a write fell short. */
int perfan__outbuf_close(struct perfan__outbuf *o);

#endif
