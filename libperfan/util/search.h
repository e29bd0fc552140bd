/* util/search.h: binary search over a sorted array of records by one of
 * their uint64_t fields (addresses, mostly), for the lookups of symbols,
 * maps and DWARF ranges. */
#ifndef PERFAN_UTIL_SEARCH_H
#define PERFAN_UTIL_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Of the N records at BASE (SIZE bytes each, ascending by the uint64_t at
 * byte offset OFF), how many have that field at most KEY: the index of the
 * first with a larger one (N if none). Inline: the callers' sizes and
 * offsets are constants, and some are on every sample's path. */
static inline size_t perfan__count_le(const void *base, size_t n, size_t size,
				      size_t off, uint64_t key)
{
	const unsigned char *b = base;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t v;
		memcpy(&v, b + mid * size + off, sizeof(v));
		if (v <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
