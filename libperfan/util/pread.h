/* util/pread.h: N bytes of a file at an offset, read through short reads
 * and interruptions. */
#ifndef PERFAN_UTIL_PREAD_H
#define PERFAN_UTIL_PREAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Up to N bytes of FD at OFF into DST: how many were read, fewer than N
 * only where the file ends; -1 on a read error (errno set). */
ssize_t perfan__pread_full(int fd, void *dst, size_t n, uint64_t off);

#endif
