/* util/grow.h: growing a malloc'd array by doubling. */
#ifndef PERFAN_UTIL_GROW_H
#define PERFAN_UTIL_GROW_H

#include <stddef.h>

/* Grow *P (of *CAP elements of SIZE bytes) to hold at least NEED elements,
 * doubling from 16. Returns 0, or PERFAN_ENOMEM with *P unchanged. */
int perfan__grow(void **p, size_t *cap, size_t need, size_t size);

/* Grow the N parallel arrays *P[i] (elements of SIZE[i] bytes), which share
 * one capacity *CAP, to hold at least NEED elements each, doubling from 16.
 * Returns 0, or PERFAN_ENOMEM with *CAP unchanged (arrays grown before the
 * failure keep their larger size, which is harmless). */
int perfan__grow_each(void **const p[], const size_t size[], size_t n,
		      size_t *cap, size_t need);

#endif
