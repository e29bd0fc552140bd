/* resolve/jit.h: the JIT code of each process, named from its jitdump and
 * its perf map (jit.c), for the resolver and the unwinder. */
#ifndef PERFAN_SYMBOLS_JIT_H
#define PERFAN_SYMBOLS_JIT_H

#include <stdint.h>

#include "resolve/jitdump.h"
#include "resolve/perfmap.h"

struct perfan__symctx;
struct perfan__proc;

/* An MMAP of FILENAME by process PID: a jitdump's (a file named
 * jit-PID.dump, PID that of the mapping process, as perf inject
 * recognises it) makes it the dump of that process. 0 or PERFAN_ENOMEM. */
int perfan__jit_mmap(struct perfan__symctx *ctx, int32_t pid,
		     const char *filename);

/* The JIT code at ADDR, in the anonymous executable memory of process PROC
 * (which may be NULL) whose map was made by process DSO_PID, at TIME (ns
 * in the recording's clock; UINT64_MAX: the last loaded). Looked up in
 * the jitdump and then the perf map of PROC's process, then of its parent
 * and further ancestors (a forked child runs the code its parent
 * compiled, and names only its own in its own files), then of DSO_PID.
 * Files are read on first use. *FROM (may be NULL) gets the code map the
 * entry belongs to, for its module name and frame cache. NULL when none
 * names ADDR. */
const struct perfan__jitsym *perfan__jit_find(struct perfan__symctx *ctx,
					      const struct perfan__proc *proc,
					      int32_t dso_pid, uint64_t addr,
					      uint64_t time,
					      struct perfan__jitmap **from);

/* The unwind tables a jitdump has for the code at ADDR, searched as
 * perfan__jit_find searches (see perfan__jitdump_unwind for the outputs,
 * which may be NULL). 0 or PERFAN_ENOTFOUND. */
int perfan__jit_unwind(struct perfan__symctx *ctx,
		       const struct perfan__proc *proc, int32_t dso_pid,
		       uint64_t addr, uint64_t time, const uint8_t **eh_frame,
		       size_t *len, uint64_t *eh_frame_base,
		       uint64_t *code_start, uint64_t *code_end);

void perfan__jit_free(struct perfan__symctx *ctx);

#endif
