/* python/hotspots_result.h: Python's hot spots as python/hotspots.c makes
 * them and their sink (render/hotspots_write.c) reads them. */
#ifndef PERFAN_PYTHON_HOTSPOTS_RESULT_H
#define PERFAN_PYTHON_HOTSPOTS_RESULT_H

#include <perfan/python.h>

/* A perfan_python_hotspots: its functions, their hot spots in one array,
 * and the names of the functions, which it owns. */
struct perfan_python_hotspots {
	const perfan_profile *p;
	struct perfan_python_hotspots_opts o;
	uint64_t total;
	struct perfan_python_self *funcs;
	size_t nfuncs;
	struct perfan_python_hotspot *spots;
	char **names;
	size_t nnames;
};

#endif
