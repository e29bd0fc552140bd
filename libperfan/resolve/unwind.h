/* resolve/unwind.h: the hook for DWARF unwinding of a sample's copied user
 * stack (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER). resolve.c calls it
 * for samples that carry a user stack and no user part in their callchain;
 * unwind.c implements it. */
#ifndef PERFAN_SYMBOLS_UNWIND_H
#define PERFAN_SYMBOLS_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/records.h>

struct perfan__dso;
struct perfan__proc;
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

/* The recording's architecture as perfan__unwind_user found it (for
 * perfan__unwind_worker_run), or NULL while it is not known. */
const void *perfan__unwind_arch(struct perfan__symctx *ctx);
/* The DSOs perfan__unwind_user loaded and looked up the CFI of since the
 * last call, into *OUT (valid until the next perfan__unwind_user): a
 * worker may read them from now on (perfan__unwind_worker_allow). */
size_t perfan__unwind_fresh(struct perfan__symctx *ctx,
			    struct perfan__dso *const **out);

/* A worker's unwinder: perfan__unwind_user on another thread, reading
 * only what the caller's thread no longer changes: the maps it is given
 * (P->maps and P->old_maps) and the DSOs allowed, whose CFI it reads
 * through its own libelf handles. */
struct perfan__unwind_worker;
int perfan__unwind_worker_new(struct perfan__unwind_worker **out);
/* D was loaded (perfan__unwind_fresh): the worker may read it. */
int perfan__unwind_worker_allow(struct perfan__unwind_worker *w,
				struct perfan__dso *d);
/* perfan__unwind_user of S for architecture ARCH (perfan__unwind_arch) in
 * the maps of P; the same addresses, or *LEAVE set to 1 where the caller's
 * thread must unwind S itself (a DSO not allowed, a frame without CFI that
 * perf maps or jitdumps may explain). */
size_t perfan__unwind_worker_run(struct perfan__unwind_worker *w,
				 const void *arch, const struct perfan__proc *p,
				 const struct perfan_sample *s, uint64_t *ips,
				 size_t max, int *truncated, int *leave);
void perfan__unwind_worker_free(struct perfan__unwind_worker *w);

/* Free whatever perfan__unwind_user left in CTX->unwind. */
void perfan__unwind_free(struct perfan__symctx *ctx);

#endif
