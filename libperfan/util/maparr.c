/* util/maparr.c: a growable array in a mapping of its own
 * (util/maparr.h). */
#define _GNU_SOURCE /* mremap */
#include "util/maparr.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <perfan/common.h>

#include "util/heap.h"

#define FIRST ((size_t)1 << 20)
#define HUGE_PAGE ((size_t)2 << 20)
/* From this size on, huge pages asked for (transparent huge pages in
 * "madvise" mode): a first touch faults once per 2 MiB, not per 4 KiB. */
#define HUGE_FROM ((size_t)8 << 20)
/* An array that wants huge pages at once (PERFAN__MAPARR_EAGER) stays in
 * the heap up to this size while the heap is on huge pages: it shares a
 * 2 MiB page with the heap's other blocks, where a mapping of its own
 * would fault in and zero a 2 MiB page of its own to hold a few hundred
 * KB (the callchain memo of a short recording: 4-6 MiB less at the peak
 * of a report of 10 to 30 MB recordings). */
#define HEAP_BELOW ((size_t)1 << 20)
#define HEAP_FIRST ((size_t)64 << 10)

/* Room for NEED bytes in the heap, for an array there or not yet grown. */
static int grow_in_heap(struct perfan__maparr *a, size_t need)
{
	size_t n = a->bytes ? a->bytes : HEAP_FIRST;
	while (n < need)
		n *= 2;
	void *p = realloc(a->p, n);
	if (!p)
		return PERFAN_ENOMEM;
	a->p = p;
	a->bytes = n;
	a->in_heap = 1;
	return 0;
}

int perfan__maparr_grow(struct perfan__maparr *a, size_t need)
{
	if (need <= a->bytes)
		return 0;
	if (a->huge_from == PERFAN__MAPARR_EAGER && need <= HEAP_BELOW &&
	    (a->in_heap || (!a->p && perfan__heap_huge())))
		return grow_in_heap(a, need);
	size_t huge = a->huge_from ? a->huge_from : HUGE_FROM;
	/* an array that wants huge pages at once starts as one */
	size_t n = a->bytes ? a->bytes : huge <= HUGE_PAGE ? HUGE_PAGE : FIRST;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return PERFAN_ENOMEM;
		n *= 2;
	}
	/* an array grown to huge pages is mapped anew, as a fresh one is: a
	 * length of whole huge pages is put at a huge page's address, where
	 * they can back it (mremap keeps the old address, which may not be
	 * one); its bytes are copied once */
	int anew = !a->p || a->in_heap || (a->bytes < huge && n >= huge);
	void *p = anew ? mmap(NULL, n, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
		       : mremap(a->p, a->bytes, n, MREMAP_MAYMOVE);
	if (p == MAP_FAILED)
		return PERFAN_ENOMEM;
#ifdef MADV_HUGEPAGE
	if (n >= huge) /* before the copy touches the pages */
		madvise(p, n, MADV_HUGEPAGE); /* a hint: refused is fine */
#endif
	if (anew && a->p) {
		memcpy(p, a->p, a->bytes);
		if (a->in_heap)
			free(a->p);
		else
			munmap(a->p, a->bytes);
	}
	a->in_heap = 0;
	a->p = p;
	a->bytes = n;
	return 0;
}

void perfan__maparr_free(struct perfan__maparr *a)
{
	if (a->in_heap)
		free(a->p);
	else if (a->p)
		munmap(a->p, a->bytes);
	a->in_heap = 0;
	a->p = NULL;
	a->bytes = 0; /* huge_from stays */
}
