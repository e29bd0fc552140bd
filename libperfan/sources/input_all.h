/* sources/input_all.h: a whole input's text in memory, inflated when it is
 * gzip, for the formats read as one document (speedscope, the autograd
 * profiler's JSON). */
#ifndef PERFAN_SOURCES_INPUT_ALL_H
#define PERFAN_SOURCES_INPUT_ALL_H

#include <stddef.h>
#include <stdint.h>

#include "sources/internal.h"

/* S's whole text from its first byte into *OUT (malloc'd, *LEN bytes,
 * NUL-terminated past them), inflated when it is gzip; the errors of
 * perfan__text_read (more than MAX bytes: PERFAN_EUNSUPPORTED). */
int perfan__input_all(perfan_source *s, uint64_t max, char **out, size_t *len);

#endif
