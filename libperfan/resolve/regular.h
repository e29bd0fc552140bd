/* resolve/regular.h: opening a file the resolver found by name (a binary,
 * a jitdump) for reading, only when it is a regular file. */
#ifndef PERFAN_RESOLVE_REGULAR_H
#define PERFAN_RESOLVE_REGULAR_H

#include <stdint.h>

/* A read-only descriptor of the regular file at PATH, its size in *SIZE;
 * a FIFO or device named like one is refused without blocking. Returns the
 * descriptor, or PERFAN_ENOTFOUND (PERFAN_ENOMEM) when it cannot be opened,
 * PERFAN_EFORMAT when it is not a regular file; no message is set. */
int perfan__open_regular(const char *path, uint64_t *size);

#endif
