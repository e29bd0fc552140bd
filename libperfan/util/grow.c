/* util/grow.c: growing a malloc'd array by doubling. */
#include "util/grow.h"

#include <stdint.h>
#include <stdlib.h>

#include <perfan/common.h>

int perfan__grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return PERFAN_ENOMEM;
		n *= 2;
	}
	void *np = realloc(*p, n * size);
	if (!np)
		return PERFAN_ENOMEM;
	*p = np;
	*cap = n;
	return 0;
}
