/* check_heap.c: perfan_heap_tune (util/heap.c): after it, a block of the
 * main thread and one of a second thread both lie in a mapping advised for
 * huge pages; where it says it could not, the reason is one this build or
 * this kernel gives. The heap's first bytes, below its first 2 MiB
 * boundary, cannot be a huge page: a block is looked at 6 MiB in. */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

#include "testutil.h"
#include "util/heap.h"
#include "util/maparr.h"

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
#define UNDER_ASAN 1 /* its allocator ignores mallopt */
#else
#define UNDER_ASAN 0
#endif

/* The VmFlags of the mapping of /proc/self/smaps holding address A: 1 if they have
 * "hg" (MADV_HUGEPAGE), 0 if not; the mapping must be found. */
static int advised_huge(uintptr_t a)
{
	FILE *fp = fopen("/proc/self/smaps", "r");
	ck_assert_ptr_nonnull(fp);
	char line[512];
	int inside = 0, found = -1;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			inside = a >= lo && a < hi;
			continue;
		}
		if (inside && !strncmp(line, "VmFlags:", 8)) {
			found = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(fp);
	ck_assert_msg(found >= 0, "no mapping holds %#lx", (unsigned long)a);
	return found;
}

/* Whether the kernel gives transparent huge pages where advised. */
static int thp_on(void)
{
	FILE *fp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";
	if (fp) {
		if (!fgets(line, sizeof(line), fp))
			line[0] = '\0';
		fclose(fp);
	}
	return *line && !strstr(line, "[never]");
}

/* /proc/vmstat's count of huge-page faults that fell back to 4 KiB pages
 * (no free 2 MiB of memory), 0 if not read. */
static unsigned long thp_fallbacks(void)
{
	FILE *fp = fopen("/proc/vmstat", "r");
	char line[128];
	unsigned long n = 0;
	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "thp_fault_fallback %lu", &n) == 1)
			break;
	if (fp)
		fclose(fp);
	return n;
}

/* How many of the 4 KiB pages of the 2 MiB range holding A are in memory. */
static size_t resident_pages(uintptr_t a)
{
	uintptr_t lo = a & ~(uintptr_t)((2 << 20) - 1);
	unsigned char vec[512];
	ck_assert_int_eq(mincore((void *)lo, 2 << 20, vec), 0);
	size_t n = 0;
	for (size_t i = 0; i < sizeof(vec); i++)
		n += vec[i] & 1;
	return n;
}

#define BLOCK (8 << 20) /* as large as a profile's arrays */
#define SMALL (64 << 10)
#define INSIDE (6 << 20)

static void *thread_block(void *arg)
{
	(void)arg;
	return malloc(BLOCK);
}

START_TEST(test_blocks_in_huge_pages)
{
	/* before: a fresh block is in 4 KiB pages (nothing asked for more) */
	char *before = malloc(BLOCK);
	ck_assert_ptr_nonnull(before);
	int rc = perfan_heap_tune();
	if (rc) {
		ck_assert_int_eq(rc, PERFAN_EUNSUPPORTED);
		ck_assert_msg(
			UNDER_ASAN ||
				access("/sys/kernel/mm/transparent_hugepage",
				       F_OK) != 0,
			"perfan_heap_tune refused with huge pages "
			"present and glibc's allocator in use");
		free(before);
		return;
	}
	ck_assert_int_eq(advised_huge((uintptr_t)before + INSIDE), 0);
	/* the first block after it lies in the advised heap, not below its
	 * first 2 MiB boundary, and in a range that takes a huge page: none
	 * of it was faulted in 4 KiB pages before the advice (touching one
	 * page then faults in all 512) */
	unsigned long fell = thp_fallbacks();
	char *first = malloc(SMALL);
	ck_assert_ptr_nonnull(first);
	ck_assert_int_eq(advised_huge((uintptr_t)first), 1);
	memset(first, 1, SMALL);
	if (thp_on() && thp_fallbacks() == fell)
		ck_assert_uint_eq(resident_pages((uintptr_t)first), 512);
	free(first);
	/* the same block now comes from the heap the call advised */
	char *big = malloc(BLOCK);
	ck_assert_ptr_nonnull(big);
	memset(big, 1, BLOCK); /* touched: still the same mapping */
	ck_assert_int_eq(advised_huge((uintptr_t)big + INSIDE), 1);
	/* another thread's allocations come from the same heap, not from an
	 * arena of 4 KiB pages of its own */
	pthread_t th;
	char *other = NULL;
	ck_assert_int_eq(pthread_create(&th, NULL, thread_block, NULL), 0);
	ck_assert_int_eq(pthread_join(th, (void **)&other), 0);
	ck_assert_ptr_nonnull(other);
	ck_assert_int_eq(advised_huge((uintptr_t)other + INSIDE), 1);
	free(other);
	free(big);
	free(before);
}
END_TEST

/* An array that wants huge pages at once (util/maparr) starts in the heap
 * while it is small and the heap is on huge pages, a block that shares the
 * heap's 2 MiB pages; past 1 MiB it moves to a mapping of its own, its
 * bytes kept. Without the heap on huge pages it starts as a mapping of one
 * 2 MiB page. */
START_TEST(test_eager_array_in_heap)
{
	int tuned = !perfan_heap_tune();
	ck_assert_int_eq(perfan__heap_huge(), tuned);
	struct perfan__maparr e = {.huge_from = PERFAN__MAPARR_EAGER};
	ck_assert_int_eq(perfan__maparr_grow(&e, 100000), 0);
	if (!tuned) {
		ck_assert_int_eq(e.in_heap, 0);
		ck_assert_uint_eq(e.bytes, (size_t)2 << 20);
		perfan__maparr_free(&e);
		return;
	}
	ck_assert_int_eq(e.in_heap, 1);
	ck_assert_uint_ge(e.bytes, 100000);
	ck_assert_uint_lt(e.bytes, (size_t)1 << 20);
	ck_assert_int_eq(advised_huge((uintptr_t)e.p), 1);
	/* a block of the heap: malloc_usable_size knows it */
	ck_assert_uint_ge(malloc_usable_size(e.p), e.bytes);
	size_t n = (size_t)1 << 20; /* as far as the heap keeps it */
	ck_assert_int_eq(perfan__maparr_grow(&e, n), 0);
	ck_assert_int_eq(e.in_heap, 1);
	uint32_t *v = e.p;
	for (size_t i = 0; i < n / 4; i++)
		v[i] = (uint32_t)i * 2654435761u;
	ck_assert_int_eq(perfan__maparr_grow(&e, n + 1), 0);
	ck_assert_int_eq(e.in_heap, 0);
	ck_assert_uint_eq(e.bytes, (size_t)2 << 20);
	v = e.p;
	for (size_t i = 0; i < n / 4; i++)
		ck_assert_uint_eq(v[i], (uint32_t)i * 2654435761u);
	perfan__maparr_free(&e);
	ck_assert_ptr_null(e.p);
	ck_assert_int_eq(e.in_heap, 0);
	ck_assert_uint_eq(e.huge_from, PERFAN__MAPARR_EAGER);
}
END_TEST

static Suite *heap_suite(void)
{
	Suite *s = suite_create("heap");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_blocks_in_huge_pages);
	tcase_add_test(tc, test_eager_array_in_heap);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(heap_suite)
