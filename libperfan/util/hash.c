/* util/hash.c: a byte hash (16 bytes per step, 128-bit multiply folding as
 * in wyhash) and the growth of the id tables. */
#include "util/hash.h"

#include <stdlib.h>

#include <perfan/common.h>

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t load32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* 64x64->128 multiply, halves folded: the mixing step of wyhash. */
static inline uint64_t mum(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

#define K0 0xa0761d6478bd642fULL
#define K1 0xe7037ed1a0b428dbULL
#define K2 0x8ebc6af09c88c6e3ULL

uint64_t perfan__hash_mem(const void *p, size_t n)
{
	const unsigned char *s = p, *end = s + n;
	uint64_t seed = K0 ^ n, a, b;
	if (n <= 16) {
		if (n >= 8) {
			a = load64(s);
			b = load64(end - 8);
		} else if (n >= 4) {
			a = load32(s);
			b = load32(end - 4);
		} else if (n) {
			a = (uint64_t)s[0] << 16 | (uint64_t)s[n >> 1] << 8 |
			    s[n - 1];
			b = 0;
		} else {
			a = b = 0;
		}
	} else {
		while (end - s > 16) {
			seed = mum(load64(s) ^ K1, load64(s + 8) ^ seed);
			s += 16;
		}
		a = load64(end - 16);
		b = load64(end - 8);
	}
	return mum(K1 ^ n, mum(a ^ K1, b ^ seed) ^ K2);
}

int perfan__idtab_reserve(struct perfan__idtab *t)
{
	size_t size = t->slots ? t->mask + 1 : 0;
	if (t->count + 1 <= size / 2)
		return 0;
	size_t nsize = size ? size * 2 : 64;
	/* ids are 32-bit; a table beyond 2^32 slots could not be indexed by
	 * the stored 32-bit hash */
	if (nsize > ((size_t)1 << 32) || nsize > SIZE_MAX / sizeof(*t->slots))
		return PERFAN_ENOMEM;
	struct perfan__idslot *ns = calloc(nsize, sizeof(*ns));
	if (!ns)
		return PERFAN_ENOMEM;
	size_t nmask = nsize - 1;
	for (size_t i = 0; i < size; i++) {
		struct perfan__idslot s = t->slots[i];
		if (!s.id1)
			continue;
		size_t j = s.hash & nmask;
		while (ns[j].id1)
			j = (j + 1) & nmask;
		ns[j] = s;
	}
	free(t->slots);
	t->slots = ns;
	t->mask = nmask;
	return 0;
}

void perfan__idtab_free(struct perfan__idtab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->mask = 0;
	t->count = 0;
}
