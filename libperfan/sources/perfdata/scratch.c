/* sources/perfdata/scratch.c: memory that lives as long as the record being
 * decoded (the batch's on the reader thread): aligned host-order copies of
 * arrays and strings for records.c and sample.c. */
#include "sources/perfdata/internal.h"

#include <stdlib.h>
#include <string.h>

void *perfan__scratch_alloc(struct perfan_perfdata *pd, size_t n)
{
	size_t need = (n + 15) & ~(size_t)15;
	if (need < n || need > ((size_t)1 << 40))
		return NULL;
	if (perfan__pipe_filling())
		return perfan__pipe_alloc(need);
	if (pd->scratch_cap - pd->scratch_used < need) {
		size_t ncap = pd->scratch_cap ? pd->scratch_cap * 2 : 65536;
		while (ncap < need)
			ncap *= 2;
		uint8_t *nb = aligned_alloc(16, ncap);
		if (!nb)
			return NULL;
		/* pointers already handed out for this record stay valid:
		 * the old buffer is retired until the next record */
		if (pd->scratch_used && pd->nretired < 8) {
			pd->retired[pd->nretired++] = pd->scratch;
		} else if (pd->scratch_used) {
			free(nb);
			return NULL;
		} else {
			free(pd->scratch);
		}
		pd->scratch = nb;
		pd->scratch_cap = ncap;
		pd->scratch_used = 0;
	}
	void *r = pd->scratch + pd->scratch_used;
	pd->scratch_used += need;
	return r;
}

void perfan__scratch_reset(struct perfan_perfdata *pd)
{
	if (perfan__pipe_filling())
		return; /* the batch's memory goes with the batch */
	for (size_t i = 0; i < pd->nretired; i++)
		free(pd->retired[i]);
	pd->nretired = 0;
	pd->scratch_used = 0;
}

const uint64_t *perfan__scratch_u64s(struct perfan_perfdata *pd,
				     const uint8_t *p, size_t n)
{
	if (!p || !n)
		return NULL;
	if (!pd->swap && ((uintptr_t)p & 7) == 0)
		return (const uint64_t *)(const void *)p;
	uint64_t *o = perfan__scratch_alloc(pd, n * 8);
	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++)
		o[i] = perfan__u64(p + i * 8, pd->swap);
	return o;
}

const char *perfan__scratch_str(struct perfan_perfdata *pd, const uint8_t *p,
				size_t maxlen)
{
	if (!p)
		return "";
	size_t n = strnlen((const char *)p, maxlen);
	if (n < maxlen)
		return (const char *)p;
	char *o = perfan__scratch_alloc(pd, n + 1);
	if (!o)
		return "";
	memcpy(o, p, n);
	o[n] = '\0';
	return o;
}
