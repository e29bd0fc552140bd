/* util/prefault.c: a fresh array's pages asked for at once (util/prefault.h). */
#include "util/prefault.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* glibc's calloc maps blocks of 128 KiB and more on their own (its default
 * M_MMAP_THRESHOLD); smaller ones come from the heap, touched already. */
#define FROM ((size_t)128 << 10)

void perfan__prefault(void *p, size_t bytes)
{
	if (!p || bytes < FROM)
		return;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t b = ((uintptr_t)p + bytes) & ~(page - 1);
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_POPULATE_WRITE);
}
