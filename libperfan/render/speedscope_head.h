/* render/speedscope_head.h: the opening of a speedscope file, shared by
 * the profile's sink (speedscope.c) and the trace's (speedscope_trace.c). */
#ifndef PERFAN_RENDER_SPEEDSCOPE_HEAD_H
#define PERFAN_RENDER_SPEEDSCOPE_HEAD_H

#include <stdint.h>

#include "render/json.h"

/* The file's object opened, its $schema, exporter, NAME and, when ACTIVE
 * is not negative, activeProfileIndex. */
void perfan__speedscope_head(struct perfan__json *j, const char *name,
			     int64_t active);

#endif
