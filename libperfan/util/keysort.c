/* util/keysort.c: a stable LSD radix sort of keyed items, a byte per pass
 * over the bytes in which the keys differ (a trace's times span a few
 * bytes), and an order applied in place by following its cycles. */
#include "util/keysort.h"

#include <stdlib.h>
#include <string.h>

#include <perfan/common.h>

/* the key as an unsigned whose order is the signed key's */
static inline uint64_t ukey(int64_t k)
{
	return (uint64_t)k ^ (UINT64_C(1) << 63);
}

int perfan__keysort(struct perfan__keyed *v, size_t n)
{
	size_t desc = 0;
	for (size_t i = 1; i < n; i++)
		desc += v[i].key < v[i - 1].key;
	if (!desc)
		return 0;
	uint64_t differ = 0, first = ukey(v[0].key);
	for (size_t i = 1; i < n; i++)
		differ |= ukey(v[i].key) ^ first;
	struct perfan__keyed *tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return PERFAN_ENOMEM;
	struct perfan__keyed *from = v, *to = tmp;
	for (unsigned shift = 0; shift < 64; shift += 8) {
		if (!((differ >> shift) & 0xff))
			continue;
		size_t count[256] = {0};
		for (size_t i = 0; i < n; i++)
			count[(ukey(from[i].key) >> shift) & 0xff]++;
		size_t sum = 0;
		for (size_t b = 0; b < 256; b++) {
			size_t c = count[b];
			count[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[(ukey(from[i].key) >> shift) & 0xff]++] =
				from[i];
		struct perfan__keyed *x = from;
		from = to;
		to = x;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	free(tmp);
	return 0;
}

void perfan__keysort_apply(void *a, size_t size, struct perfan__keyed *v,
			   size_t n)
{
	unsigned char *p = a, hold[256], *big = NULL;
	/* the item held while its cycle moves; NULL (no room for a large
	 * one): the cycle is walked by swaps */
	unsigned char *t = size <= sizeof(hold) ? hold : (big = malloc(size));
	for (size_t i = 0; i < n; i++) {
		if (v[i].at == i)
			continue;
		/* the cycle through I: I takes what is at V[I].at, which
		 * takes what is at its V[].at, ..., back to I */
		if (t)
			memcpy(t, p + i * size, size);
		size_t j = i;
		while (v[j].at != i) {
			size_t k = v[j].at;
			if (t) {
				memcpy(p + j * size, p + k * size, size);
			} else {
				for (size_t b = 0; b < size; b++) {
					unsigned char c = p[j * size + b];
					p[j * size + b] = p[k * size + b];
					p[k * size + b] = c;
				}
			}
			v[j].at = (uint32_t)j;
			j = k;
		}
		if (t)
			memcpy(p + j * size, t, size);
		v[j].at = (uint32_t)j;
	}
	free(big);
}

void perfan__sort_unless_sorted(void *base, size_t n, size_t size,
				int (*cmp)(const void *, const void *))
{
	const char *p = base;
	size_t i = 1;
	while (i < n && cmp(p + (i - 1) * size, p + i * size) <= 0)
		i++;
	if (i < n)
		qsort(base, n, size, cmp);
}
