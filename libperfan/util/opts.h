/* util/opts.h: taking a caller's options struct whatever its version, as
 * libbpf's OPTS_VALID does: the fields both know are copied, newer ones
 * stay zero, and a struct from a newer caller is refused when a field
 * this version does not know is set (its bytes past ours are not zero). */
#ifndef PERFAN_UTIL_OPTS_H
#define PERFAN_UTIL_OPTS_H

#include <stddef.h>

/* DST = *SRC as far as SRC->sz and sizeof(DST) allow; all zero for a NULL
 * SRC; DST.sz is set to its own size. 0, or PERFAN_EINVAL naming the
 * calling function when SRC->sz is larger than DST and the bytes past
 * DST's size are not all zero (DST is zeroed then). */
#define PERFAN__OPTS_COPY(dst, src)                                            \
	perfan__opts_copy(&(dst), sizeof(dst), (src), (src) ? (src)->sz : 0,   \
			  __func__)

int perfan__opts_copy(void *dst, size_t dst_sz, const void *src, size_t src_sz,
		      const char *func);

#endif
