/* analysis/gpucrit_trace.h: the trace a critical path was found in, for
 * its writers in render/. */
#ifndef PERFAN_ANALYSIS_GPUCRIT_TRACE_H
#define PERFAN_ANALYSIS_GPUCRIT_TRACE_H

#include <perfan/gpucrit.h>

const perfan_trace *perfan__gpucrit_trace(const perfan_gpucrit *c);

#endif
