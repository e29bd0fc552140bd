/* perfan/perfan.h: the whole public API of libperfan. */
#ifndef PERFAN_PERFAN_H
#define PERFAN_PERFAN_H

#include <perfan/annotate.h>
#include <perfan/classify.h>
#include <perfan/common.h>
#include <perfan/convert.h>
#include <perfan/diff.h>
#include <perfan/features.h>
#include <perfan/filter.h>
#include <perfan/flamegraph.h>
#include <perfan/folded.h>
#include <perfan/header.h>
#include <perfan/host.h>
#include <perfan/load.h>
#include <perfan/offcpu.h>
#include <perfan/perfdata.h>
#include <perfan/pprof.h>
#include <perfan/profile.h>
#include <perfan/pstats.h>
#include <perfan/python.h>
#include <perfan/records.h>
#include <perfan/report.h>
#include <perfan/resolve.h>
#include <perfan/scaling.h>
#include <perfan/script.h>
#include <perfan/source.h>
#include <perfan/speedscope.h>
#include <perfan/stat.h>
#include <perfan/stream.h>
#include <perfan/text.h>
#include <perfan/threads.h>
#include <perfan/triage.h>

#endif
