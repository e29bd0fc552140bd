/* util/keysort.h: sorts that use the order already there: a stable sort of
 * items by a 64-bit signed key (an LSD radix sort over the key bytes that
 * vary) and an array put in the order found, in place (large records, a
 * trace's events, moved once); qsort skipped on sorted input. */
#ifndef PERFAN_UTIL_KEYSORT_H
#define PERFAN_UTIL_KEYSORT_H

#include <stddef.h>
#include <stdint.h>

/* An item to sort: its key and its place in the array being ordered. */
struct perfan__keyed {
	int64_t key;
	uint32_t at;
};

/* Sort V[0..N) by key; items of equal keys keep their order. Returns 0 or
 * PERFAN_ENOMEM (V unchanged). */
int perfan__keysort(struct perfan__keyed *v, size_t n);

/* Put A's N items of SIZE bytes each in the order of V (sorted: item k of
 * the result is the one that was at V[k].at, each place named once),
 * moving each once. V's contents are spent. */
void perfan__keysort_apply(void *a, size_t size, struct perfan__keyed *v,
			   size_t n);

/* qsort (BASE, N, SIZE, CMP), after a pass that finds BASE in order
 * already (the common case for spans collected in time order): then it
 * is left as it is. */
void perfan__sort_unless_sorted(void *base, size_t n, size_t size,
				int (*cmp)(const void *, const void *));

#endif
