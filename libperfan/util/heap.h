/* util/heap.h: whether the process's heap grows on huge pages
 * (util/heap.c, perfan_heap_tune in perfan/common.h). */
#ifndef PERFAN_UTIL_HEAP_H
#define PERFAN_UTIL_HEAP_H

/* 1 once perfan_heap_tune has put the heap on huge pages: a block from
 * malloc then shares a 2 MiB page with the heap's others, where a mapping
 * of its own faults in a page of its own. */
int perfan__heap_huge(void);

#endif
