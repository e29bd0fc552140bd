/* util/opts.c: options structs checked and copied (util/opts.h). */
#include "util/opts.h"

#include <string.h>

#include "util/error.h"

int perfan__opts_copy(void *dst, size_t dst_sz, const void *src, size_t src_sz,
		      const char *func)
{
	memset(dst, 0, dst_sz);
	if (src) {
		const unsigned char *s = src;
		for (size_t i = dst_sz; i < src_sz; i++)
			if (s[i])
				return perfan__err(
					PERFAN_EINVAL,
					"%s: options of %zu bytes set a field "
					"this version does not know (non-zero "
					"bytes past its %zu)",
					func, src_sz, dst_sz);
		memcpy(dst, src, src_sz < dst_sz ? src_sz : dst_sz);
	}
	memcpy(dst, &dst_sz, sizeof(dst_sz)); /* the first field, sz */
	return 0;
}
