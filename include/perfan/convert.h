/* perfan/convert.h: a loaded profile written in another tool's format,
 * chosen by name or by the output file's name: pprof, speedscope JSON or
 * folded stacks. */
#ifndef PERFAN_CONVERT_H
#define PERFAN_CONVERT_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/load.h>

#ifdef __cplusplus
extern "C" {
#endif

enum perfan_convert_format {
	PERFAN_CONVERT_NONE = 0,
	PERFAN_CONVERT_PPROF,      /* profile.proto, gzipped */
	PERFAN_CONVERT_FOLDED,     /* one line per distinct stack */
	PERFAN_CONVERT_SPEEDSCOPE, /* speedscope's file format */
};

/* The format named NAME ("pprof", "speedscope", "folded"), or -1. Since
 * 0.2. */
PERFAN_API int perfan_convert_format_parse(const char *name);

/* The format a file called PATH is in by its ending (.pb.gz or .pprof,
 * .speedscope.json, .folded), or PERFAN_CONVERT_NONE. Since 0.2. */
PERFAN_API int perfan_convert_format_of_path(const char *path);

struct perfan_convert_write_opts {
	size_t sz;
	int format;    /* enum perfan_convert_format */
	size_t column; /* the weights written (pprof: the default one) */
};

/* L's profile in FORMAT on FP: folded stacks of COLUMN; speedscope JSON
 * of COLUMN named after the input's file; pprof with every column and,
 * from the perf.data reader that read L, the recording's facts (command
 * line, build-ids, times, period). Since 0.2. Returns 0, PERFAN_EINVAL
 * (no format), PERFAN_EIO, PERFAN_ENOMEM. */
PERFAN_API int perfan_convert_write(const perfan_load *l, FILE *fp,
				    const struct perfan_convert_write_opts *o);

#ifdef __cplusplus
}
#endif
#endif
