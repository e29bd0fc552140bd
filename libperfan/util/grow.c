/* util/grow.c: growing a malloc'd array by doubling. */
#include "util/grow.h"

#include <stdint.h>
#include <stdlib.h>

#include <perfan/common.h>

int perfan__grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	return perfan__grow_each(&p, &size, 1, cap, need);
}

int perfan__grow_each(void **const p[], const size_t size[], size_t n,
		      size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 16;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return PERFAN_ENOMEM;
		c *= 2;
	}
	for (size_t i = 0; i < n; i++) {
		if (c > SIZE_MAX / size[i])
			return PERFAN_ENOMEM;
		void *np = realloc(*p[i], c * size[i]);
		if (!np)
			return PERFAN_ENOMEM;
		*p[i] = np;
	}
	*cap = c;
	return 0;
}
