/* annotate_inl.h: helpers inlined into annotate.c's hot functions, so that
 * their instructions carry this file's lines under an inline call site. */
#ifndef ANNOTATE_INL_H
#define ANNOTATE_INL_H

#include <stdint.h>

static inline uint32_t mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static inline int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

#endif
