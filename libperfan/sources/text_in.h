/* sources/text_in.h: an input's text read in pieces from its first byte,
 * gzip inflated on the way (torch.profiler writes .json.gz), and a peek
 * into a gzip input's first bytes for detection. */
#ifndef PERFAN_SOURCES_TEXT_IN_H
#define PERFAN_SOURCES_TEXT_IN_H

#include <stddef.h>
#include <stdint.h>

#include "sources/internal.h"

/* Whether the LEN bytes at BUF start a gzip member (1f 8b 08). */
int perfan__is_gzip(const void *buf, size_t len);

/* The first bytes the gzip data at BUF (LEN bytes, perhaps cut) inflate
 * to, up to CAP, into OUT: their number, 0 when nothing inflates. */
size_t perfan__gunzip_peek(const void *buf, size_t len, char *out, size_t cap);

struct perfan__text_in;

/* S's text from its first byte, inflated when it is gzip, in pieces of
 * perfan__text_read; more than MAX bytes of text is refused. Returns 0 or
 * PERFAN_ENOMEM / PERFAN_EIO naming the input. */
int perfan__text_open(perfan_source *s, uint64_t max,
		      struct perfan__text_in **out);

/* Up to CAP next bytes of the text into DST, *GOT of them: fewer than CAP
 * only at the end (0 there). Errors, naming the input: a gzip stream cut
 * short PERFAN_ETRUNCATED and a damaged one PERFAN_EFORMAT, "NAME:
 * offset N: ..." with N in the compressed input; more than MAX bytes
 * PERFAN_EUNSUPPORTED; a read error PERFAN_EIO. A reader of the JSON
 * pull reader's fill (IN a struct perfan__text_in). */
int perfan__text_read(void *in, char *dst, size_t cap, size_t *got);

/* Whether IN inflates gzip. */
int perfan__text_gzip(const struct perfan__text_in *in);

void perfan__text_close(struct perfan__text_in *in);

#endif
