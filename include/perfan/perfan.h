/* perfan/perfan.h: the whole public API of libperfan, in the order data
 * flows through it (DESIGN.md): each header may use those above it. */
#ifndef PERFAN_PERFAN_H
#define PERFAN_PERFAN_H

/* util: error codes, options, the log, text from inputs, the host */
#include <perfan/common.h>
#include <perfan/host.h>
#include <perfan/text.h>
/* profile: the model every stage builds or reads */
#include <perfan/profile.h>
/* sources: perf stat, perf.data, and every other input by one registry */
#include <perfan/features.h>
#include <perfan/filter.h>
#include <perfan/folded.h>
#include <perfan/perfdata.h>
#include <perfan/pstats.h>
#include <perfan/records.h>
#include <perfan/script.h>
#include <perfan/source.h>
#include <perfan/stat.h>
/* resolve: addresses to functions, lines and modules */
#include <perfan/resolve.h>
/* stream: the resolved samples, one at a time */
#include <perfan/stream.h>
/* python: CPython's frames in a profile */
#include <perfan/python.h>
/* analysis: what the profiles mean */
#include <perfan/annotate.h>
#include <perfan/classify.h>
#include <perfan/critical.h>
#include <perfan/diff.h>
#include <perfan/dump.h>
#include <perfan/gil.h>
#include <perfan/gpu.h>
#include <perfan/keyavg.h>
#include <perfan/offcpu.h>
#include <perfan/report.h>
#include <perfan/scaling.h>
#include <perfan/threadnames.h>
#include <perfan/threads.h>
#include <perfan/timeline.h>
#include <perfan/triage.h>
#include <perfan/waits.h>
/* load: any input to a profile, with the filters */
#include <perfan/load.h>
#include <perfan/record.h>
/* render: every sink */
#include <perfan/convert.h>
#include <perfan/flamegraph.h>
#include <perfan/gpucrit.h>
#include <perfan/header.h>
#include <perfan/pprof.h>
#include <perfan/speedscope.h>
#include <perfan/trace.h>

#endif
