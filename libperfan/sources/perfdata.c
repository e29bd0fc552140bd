/* sources/perfdata.c: the perf.data format in the registry: known by its
 * magic and handed out as the reader, for the stream, the fold (load/ runs
 * it: the registry sits below the resolver) and the time views. */
#include "sources/internal.h"

#include <string.h>

static int detect(const void *buf, size_t len)
{
	return len >= 8 &&
	       (!memcmp(buf, "PERFILE2", 8) || !memcmp(buf, "2ELIFREP", 8));
}

const struct perfan__format perfan__format_perfdata = {
	.name = "perf.data",
	.caps = PERFAN_SOURCE_RECORDS | PERFAN_SOURCE_EVENTS |
		PERFAN_SOURCE_FRAMES,
	.detect = detect,
};
