/* sources/perfdata/open_path.h: a perf.data opened by path for one pass that
 * needs no time order, as perfan_header_read and perfan_recstats_read do. */
#ifndef PERFAN_SOURCES_PERFDATA_OPEN_PATH_H
#define PERFAN_SOURCES_PERFDATA_OPEN_PATH_H

#include <perfan/header.h>
#include <perfan/perfdata.h>

/* *PD = the perf.data at PATH ("-": standard input), read unordered, its
 * warnings to OPTS's log; SKIP_SAMPLE_FIELDS as in perfan_perfdata_opts.
 * 0, or PERFAN_EINVAL (options this version does not know) or the reader's
 * error, *PD then NULL. FUNC names the caller in messages. */
int perfan__perfdata_open_path(perfan_perfdata **pd, const char *path,
			       const struct perfan_header_read_opts *opts,
			       int skip_sample_fields, const char *func);

#endif
