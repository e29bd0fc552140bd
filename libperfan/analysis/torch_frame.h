/* analysis/torch_frame.h: whether a Python frame of a trace is torch's own
 * profiler's (analysis/torch_frame.c). */
#ifndef PERFAN_ANALYSIS_TORCH_FRAME_H
#define PERFAN_ANALYSIS_TORCH_FRAME_H

#include <stddef.h>

/* Whether the frame S[0..LEN) of a trace's Python stack (a
 * python_function's name or one entry of a cpu_op's `Call stack`, both
 * "FILE(LINE): FUNCTION" as torch writes them) is in torch's profiler: its
 * FILE under torch/profiler/ (profile's __enter__, __exit__, step) or
 * torch/autograd/profiler*.py (record_function's __init__, __enter__,
 * __exit__). A frame without a file (a built-in) is not. */
int perfan__torch_profiler_frame(const char *s, size_t len);

#endif
