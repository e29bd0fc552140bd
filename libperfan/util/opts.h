/* util/opts.h: copying a caller's options struct whatever its version:
 * the fields both know are copied, newer ones stay zero. */
#ifndef PERFAN_UTIL_OPTS_H
#define PERFAN_UTIL_OPTS_H

#include <string.h>

/* DST = *SRC as far as SRC->sz and sizeof(DST) allow; all zero for a NULL
 * SRC. DST.sz is set to its own size. */
#define PERFAN__OPTS_COPY(dst, src)                                            \
	do {                                                                   \
		memset(&(dst), 0, sizeof(dst));                                \
		if (src) {                                                     \
			size_t n_ = (src)->sz < sizeof(dst) ? (src)->sz        \
							    : sizeof(dst);     \
			memcpy(&(dst), (src), n_);                             \
		}                                                              \
		(dst).sz = sizeof(dst);                                        \
	} while (0)

#endif
