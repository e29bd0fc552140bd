/* sources/perfdata/tracing.h: the reader's tracepoint formats, for the
 * stream that reads tracepoint fields (stream/stream.c) beyond
 * perfan/perfdata.h; the rest of the reader's insides stay in internal.h. */
#ifndef PERFAN_PERFDATA_TRACING_H
#define PERFAN_PERFDATA_TRACING_H

#include <perfan/perfdata.h>

struct tep_handle;

/* tracing.c: the formats, or NULL when the file has none; freed with PD. */
struct tep_handle *perfan__perfdata_tep(struct perfan_perfdata *pd);
/* Changes when the formats are parsed again (pipe mode's TRACING_DATA
 * arriving late): what was found in the last TEP is stale. */
unsigned perfan__perfdata_tep_gen(const struct perfan_perfdata *pd);

#endif
