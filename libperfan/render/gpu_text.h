/* render/gpu_text.h: the GPU analysis as text (render/gpu_text.c), for
 * perfan_gpu_write. */
#ifndef PERFAN_RENDER_GPU_TEXT_H
#define PERFAN_RENDER_GPU_TEXT_H

#include <stdio.h>

#include <perfan/gpu.h>

void perfan__gpu_text(const perfan_gpu *g, FILE *fp);

/* The step S's verdict in one line ("CPU-bound: the GPU was idle N % of
 * the step, M % of it waiting for the host, mostly in FUNCTION"), without
 * its end of line; KW the kernel-wait threshold (ns). */
void perfan__gpu_verdict_text(FILE *fp, const struct perfan_gpu_step *s,
			      int64_t kw);
/* Idle time IDLE[c] of TOTAL and the gaps N[c] per class, on one line
 * without its end. */
void perfan__gpu_idle_text(FILE *fp, const int64_t *idle, const uint64_t *n,
			   int64_t total);

#endif
