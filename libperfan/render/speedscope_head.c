/* render/speedscope_head.c: the opening of a speedscope file. */
#include "render/speedscope_head.h"

#include "config.h"

void perfan__speedscope_head(struct perfan__json *j, const char *name,
			     int64_t active)
{
	perfan__json_open(j, NULL, '{');
	perfan__json_str(j, "$schema",
			 "https://www.speedscope.app/file-format-schema.json");
	perfan__json_str(j, "exporter", "perfan@" PERFAN_VERSION_STRING);
	perfan__json_str(j, "name", name);
	if (active >= 0)
		perfan__json_i64(j, "activeProfileIndex", active);
}
