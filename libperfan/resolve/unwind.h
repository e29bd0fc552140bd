/* resolve/unwind.h: the hook for DWARF unwinding of a sample's copied user
 * stack (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER). resolve.c calls it
 * for samples that carry a user stack and no user part in their callchain;
 * unwind.c implements it. */
#ifndef PERFAN_SYMBOLS_UNWIND_H
#define PERFAN_SYMBOLS_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/records.h>

struct perfan__symctx;
struct perfan__thread;

/* Unwind the user stack of sample S of event EV, taken by thread T (whose
 * maps, T->proc->maps, are those at the sample's time; map DSOs give the
 * ELF files through perfan__dso_load). Writes at most MAX user-space
 * addresses to IPS, leaf first: the interrupted pc, then each caller's
 * address as perf's unwinder reports it (return address - 1, so that it
 * falls inside the call instruction). Sets *TRUNCATED to 1 when unwinding
 * stopped before the outermost frame (stack copy too small, no CFI); when
 * it stopped at a read outside the copied stack, a last address of
 * (uint64_t)-1 stands for the frames lost, as perf shows "[unknown]".
 * Returns the number of addresses (0: nothing could be unwound). Per-resolve
 * state (CFI caches) may hang off CTX->unwind. Never prints; log through
 * perfan__symlog. */
size_t perfan__unwind_user(struct perfan__symctx *ctx, struct perfan__thread *t,
			   const struct perfan_event *ev,
			   const struct perfan_sample *s, uint64_t *ips,
			   size_t max, int *truncated);

/* Free whatever perfan__unwind_user left in CTX->unwind. */
void perfan__unwind_free(struct perfan__symctx *ctx);

#endif
