/* sources/input_all.h: a whole input in memory, inflated when it is gzip
 * (the JSON traces: torch.profiler writes .json.gz), and a peek into a
 * gzip input's first bytes for detection. */
#ifndef PERFAN_SOURCES_INPUT_ALL_H
#define PERFAN_SOURCES_INPUT_ALL_H

#include <stddef.h>
#include <stdint.h>

#include "sources/internal.h"

/* Whether the LEN bytes at BUF start a gzip member (1f 8b 08). */
int perfan__is_gzip(const void *buf, size_t len);

/* The first bytes the gzip data at BUF (LEN bytes, perhaps cut) inflate
 * to, up to CAP, into OUT: their number, 0 when nothing inflates. */
size_t perfan__gunzip_peek(const void *buf, size_t len, char *out, size_t cap);

/* S's whole input from its first byte into *OUT (malloc'd, *LEN bytes,
 * NUL-terminated past them), inflated when it is gzip. More than MAX
 * bytes (inflated) is refused (PERFAN_EUNSUPPORTED); a gzip stream cut
 * short is PERFAN_ETRUNCATED, a damaged one PERFAN_EFORMAT, both
 * "NAME: offset N: ..." (N in the compressed input); a read error
 * PERFAN_EIO. */
int perfan__input_all(perfan_source *s, uint64_t max, char **out, size_t *len);

#endif
