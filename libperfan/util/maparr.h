/* util/maparr.h: a growable array in a mapping of its own, for the
 * largest arrays (a trace's events): grown by mremap, which moves no byte
 * and touches no page, where realloc copies the array into fresh pages;
 * backed by huge pages once large, where the kernel gives them on
 * request. An array that wants huge pages at once lives in the heap while
 * it is small and the heap is on huge pages (util/heap.h). Its bytes past
 * those written are not zeroed. */
#ifndef PERFAN_UTIL_MAPARR_H
#define PERFAN_UTIL_MAPARR_H

#include <stddef.h>

struct perfan__maparr {
	void *p;      /* NULL until grown */
	size_t bytes; /* mapped */
	/* Huge pages asked for from this many bytes mapped on (0: 8 MiB). An
	 * array that is filled as soon as it is grown (kallsyms, the resolved
	 * callchains) gains from its first byte on (PERFAN__MAPARR_EAGER: it
	 * starts as one 2 MiB page): a page fault costs microseconds in a
	 * virtual machine (10.7 us for each 4 KiB zeroed page on this one). */
	size_t huge_from;
	int in_heap; /* p is from malloc (an early array, small) */
};

#define PERFAN__MAPARR_EAGER ((size_t)1)

/* Room for NEED bytes at a->p (the bytes there kept, perhaps moved):
 * 0, or PERFAN_ENOMEM with *A as it was. */
int perfan__maparr_grow(struct perfan__maparr *a, size_t need);

void perfan__maparr_free(struct perfan__maparr *a);

#endif
