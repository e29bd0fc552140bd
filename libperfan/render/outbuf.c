/* render/outbuf.c: text gathered in a buffer of its own and written in
 * large pieces, which stdio passes straight to write(2)
 * (render/outbuf.h). */
#include "render/outbuf.h"

#include <stdlib.h>
#include <string.h>

#include <perfan/common.h>

/* The buffer starts at 64 KiB and doubles each time it fills, up to
 * 1 MiB: a short output costs little. */
#define OUT_FIRST (1u << 16)
#define OUT_MAX (1u << 20)

int perfan__outbuf_open(struct perfan__outbuf *o, FILE *fp)
{
	*o = (struct perfan__outbuf){.fp = fp, .cap = OUT_FIRST};
	o->buf = malloc(o->cap);
	return o->buf ? 0 : PERFAN_ENOMEM;
}

void perfan__outbuf_flush(struct perfan__outbuf *o)
{
	if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->fp) != o->len)
		o->failed = 1;
	o->len = 0;
}

void perfan__outbuf_put(struct perfan__outbuf *o, const char *s, size_t n)
{
	if (o->len + n > o->cap) {
		perfan__outbuf_flush(o);
		char *nb = o->cap < OUT_MAX ? realloc(o->buf, o->cap * 2)
					    : NULL;
		if (nb) {
			o->buf = nb;
			o->cap *= 2;
		}
		if (n > o->cap) {
			if (!o->failed && fwrite(s, 1, n, o->fp) != n)
				o->failed = 1;
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

int perfan__outbuf_close(struct perfan__outbuf *o)
{
	perfan__outbuf_flush(o);
	free(o->buf);
	o->buf = NULL;
	o->cap = 0;
	return o->failed ? PERFAN_EIO : 0;
}
