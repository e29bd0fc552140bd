/* util/prefault.h: a fresh zeroed array's pages asked for at once,
 * writable, before its first touch. A hash table probes before it stores:
 * its first read of a page maps the shared zero page, its first write then
 * copies it and, with a second thread running, flushes the other CPU's
 * TLB; one call in place of two faults and an interrupt per page. */
#ifndef PERFAN_UTIL_PREFAULT_H
#define PERFAN_UTIL_PREFAULT_H

#include <stddef.h>

/* The whole pages inside P[0..BYTES), when BYTES is large enough for calloc
 * to have mapped them fresh; a hint: where the kernel cannot (before Linux
 * 5.14), the pages come on first touch as before. */
void perfan__prefault(void *p, size_t bytes);

#endif
