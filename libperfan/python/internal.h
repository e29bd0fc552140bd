/* python/internal.h: what the Python views and the Python hot spots share:
 * where a stack's Python function's own time starts, and its name (and
 * the hot spots' layout, python/hotspots_result.h). */
#ifndef PERFAN_PYTHON_INTERNAL_H
#define PERFAN_PYTHON_INTERNAL_H

#include <stddef.h>

#include <perfan/profile.h>
#include <perfan/python.h>

#include "python/hotspots_result.h"

/* Of PATH (DEPTH frames of P, outermost first): *LAST_PY the index of the
 * innermost Python frame, and *FOREIGN the first frame after it that is
 * not the runtime's (perfan_python_is_runtime); DEPTH where there is
 * none. The frames between the two are the Python function's own time. */
void perfan__python_split(const perfan_profile *p, const perfan_frame_id *path,
			  size_t depth, size_t *last_py, size_t *foreign);

/* A py::QUALNAME:FILE frame's name in the Python views, "QUALNAME (FILE)",
 * into *OUT (malloc'd) and its FILE into *FILE (borrowed from F); *OUT
 * NULL for other frames. Returns 0, -1 out of memory. */
int perfan__python_name(const struct perfan_frame *f, char **out,
			const char **file);

#endif
