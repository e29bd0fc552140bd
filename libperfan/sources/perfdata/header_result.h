/* sources/perfdata/header_result.h: a perf.data's header as
 * perfan_header_read (sources/perfdata/header_read.c) holds it for its
 * sink (render/header_text.c): the reader, its header read. */
#ifndef PERFAN_SOURCES_PERFDATA_HEADER_RESULT_H
#define PERFAN_SOURCES_PERFDATA_HEADER_RESULT_H

#include <perfan/header.h>

struct perfan_header {
	perfan_perfdata *pd;
};

#endif
