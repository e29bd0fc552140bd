/* render/gpu_text.h: the GPU analysis as text (render/gpu_text.c), for
 * perfan_gpu_write. */
#ifndef PERFAN_RENDER_GPU_TEXT_H
#define PERFAN_RENDER_GPU_TEXT_H

#include <stdio.h>

#include <perfan/gpu.h>

void perfan__gpu_text(const perfan_gpu *g, FILE *fp);

#endif
