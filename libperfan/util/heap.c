/* util/heap.c: the process's heap asked to grow in large steps backed by
 * huge pages (perfan_heap_tune, perfan/common.h). */
#define _GNU_SOURCE /* MADV_HUGEPAGE */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <perfan/common.h>

#include "util/heap.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)
/* Each growth of the heap by brk reserves this much beyond the request:
 * address space only, until touched. */
#define TOP_PAD (64 << 20)
/* glibc's largest mmap threshold (half its 64 MiB arena heap): blocks below
 * it come from the heap, and so from its huge pages. */
#define MMAP_FROM (32 << 20)
/* what the first allocation asks for: more than a fresh heap's spare top
 * (128 KiB), so that the heap grows by TOP_PAD at once */
#define FIRST (1 << 20)

/* A block that keeps the heap's next allocations off the 4 KiB pages at
 * its start (below): held for the process's life, its pages given back. */
static void *head;

static uintptr_t huge_up(uintptr_t a)
{
	return (a + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/* The heap's allocations start at a 2 MiB boundary past its top's header
 * at P + FIRST: one block from P (the top's start, after P was freed) up
 * to that boundary. Below it, the heap's first bytes (below its first
 * boundary) can only be 4 KiB pages, and the growth wrote that header
 * before the advice: a 4 KiB page faulted in a 2 MiB range keeps the
 * whole range in 4 KiB pages, each fault about 12 us on this VM. */
static void skip_head(uintptr_t p, uintptr_t hi)
{
	uintptr_t past = huge_up(p + FIRST + 64);
	if (head || past >= hi)
		return;
	/* a chunk of N + 8 rounded up to 16, its header 16 before P: the
	 * next one's header at PAST */
	head = malloc(past - p + sizeof(size_t));
	if (!head)
		return;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)head + page - 1) & ~(page - 1);
	uintptr_t b = past & ~(page - 1);
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_DONTNEED);
}

int perfan_heap_tune(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
	/* every thread allocates from the one heap advised below (the
	 * others would grow arenas of their own, in 4 KiB pages) */
	if (!mallopt(M_ARENA_MAX, 1) || !mallopt(M_TOP_PAD, TOP_PAD) ||
	    !mallopt(M_TRIM_THRESHOLD, 2 * TOP_PAD) ||
	    !mallopt(M_MMAP_THRESHOLD, MMAP_FROM))
		return PERFAN_EUNSUPPORTED;
	/* the heap's end (the program break) before and after */
	uintptr_t lo = (uintptr_t)sbrk(0);
	void *volatile p = malloc(FIRST); /* volatile: kept, not elided */
	uintptr_t hi = (uintptr_t)sbrk(0);
	free(p);
	/* the whole huge pages of what this growth added: a page faulted in
	 * there is one 2 MiB page, one fault where there were 512 */
	uintptr_t from = huge_up(lo);
	if (!p || hi <= from)
		return PERFAN_EUNSUPPORTED;
	if (madvise((void *)from, hi - from, MADV_HUGEPAGE))
		return PERFAN_EUNSUPPORTED; /* a kernel without them */
	skip_head((uintptr_t)p, hi);
	return 0;
#else
	return PERFAN_EUNSUPPORTED;
#endif
}

int perfan__heap_huge(void)
{
	return head != NULL;
}
