/* util/cmp.h: the three-way comparisons that qsort's callbacks are made
 * of: -1, 0 or 1 as A is below, equal to or above B. */
#ifndef PERFAN_UTIL_CMP_H
#define PERFAN_UTIL_CMP_H

#include <stdint.h>

static inline int perfan__cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static inline int perfan__cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static inline int perfan__cmp_f64(double a, double b)
{
	return (a > b) - (a < b);
}

#endif
