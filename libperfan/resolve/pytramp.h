/* resolve/pytramp.h: the stack effect of CPython's perf trampolines, for
 * the unwinder (resolve/pytramp.c). */
#ifndef PERFAN_SYMBOLS_PYTRAMP_H
#define PERFAN_SYMBOLS_PYTRAMP_H

#include <stdint.h>

#define PERFAN__PYTRAMP_MAX 64 /* bytes of a trampoline we understand */

struct perfan__pytramps;
struct perfan__symctx;
struct perfan__thread;
struct perfan__map;

/* Whether PC, in the anonymous executable memory MAP of thread T, lies in
 * a trampoline copied from the libpython T has mapped (x86-64); if so,
 * *CFA_SP gets the CFA minus the stack pointer at PC (the return address
 * is at CFA - 8). ENTRY is the trampoline's start from a perf map or
 * jitdump, or 0 (the arena's packing then gives it). For a caller's frame
 * PC is the return address itself. The templates are cached in *PP
 * (created on first use, freed with perfan__pytramps_free). 0 or -1. */
int perfan__pytramp_cfa(struct perfan__pytramps **pp,
			struct perfan__symctx *ctx,
			const struct perfan__thread *t,
			const struct perfan__map *map, uint64_t pc,
			uint64_t entry, int64_t *cfa_sp);
void perfan__pytramps_free(struct perfan__pytramps *p);

#endif
