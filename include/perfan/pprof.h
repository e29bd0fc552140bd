/* perfan/pprof.h: the pprof sink: a profile written as profile.proto,
 * gzipped, as pprof, Pyroscope, Parca and Grafana read it. */
#ifndef PERFAN_PPROF_H
#define PERFAN_PPROF_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/features.h>
#include <perfan/perfdata.h>
#include <perfan/profile.h>
#include <perfan/threadnames.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Facts a profile does not hold, from the recording (all optional; zero
 * or NULL: unknown). Strings and arrays are borrowed for the call. */
struct perfan_pprof_write_opts {
	size_t sz;
	/* The column pprof shows by default (default_sample_type), plus 1;
	 * 0: pprof's own default (the last column). */
	size_t default_column;
	/* The command that recorded, one comment "perf record ..." */
	size_t cmdline_argc;
	const char *const *cmdline_argv;
	/* Further comments, one each. */
	size_t nr_comments;
	const char *const *comments;
	/* Wall-clock time of the first sample since the epoch, and how long
	 * the recording lasted, in ns. */
	int64_t time_nanos, duration_nanos;
	/* The sampling event and its period ("cpu-clock", "nanoseconds",
	 * 1000000); period_type NULL: none. */
	const char *period_type, *period_unit;
	int64_t period;
	/* Build-ids of the modules: a frame's module that is the last path
	 * component of an entry's filename gets that entry's build-id and
	 * path in its mapping. */
	size_t nr_build_ids;
	const struct perfan_build_id_entry *build_ids;
	/* gzip level 1..9; 0: 6 */
	int level;
	/* The threads' names (perfan/threadnames.h; NULL: none): the
	 * samples of a thread with a name of its own (not its comm) get the
	 * labels "thread_name" and, where known, "role". */
	const perfan_thread_names *names;
};

/* Fill O's recording facts from perf.data PD's header: the command line
 * (CMDLINE), build-ids (BUILD_ID), time and duration (SAMPLE_TIME, and
 * CLOCK_DATA for the wall clock), the first event's period. Pointers are
 * borrowed from PD. O's other fields are left as they are; PD NULL (an
 * input that is not a perf.data) leaves O as it is. Returns 0. */
PERFAN_API int
perfan_pprof_opts_from_perfdata(struct perfan_pprof_write_opts *o,
				const perfan_perfdata *pd);

/* pprof's unit for a column's unit: "samples" -> "count", "ns" ->
 * "nanoseconds", "period" -> "nanoseconds" for the clock events
 * (cpu-clock, task-clock), else "count"; others as they are. */
PERFAN_API const char *perfan_pprof_unit(const char *column, const char *unit);

/* Write P to OUT as a gzipped profile.proto: a sample type per column
 * (its name, perfan_pprof_unit), one sample per stack with self weight,
 * leaf first. The profile keeps no addresses, so a location is one
 * distinct frame with the frames inlined into it as extra Line entries
 * (innermost first), address 0, and a mapping per module (with its
 * build-id from O); a function is a distinct name and file. Process
 * frames (PERFAN_FRAME_PROCESS) are no locations: they give the sample's
 * labels, "comm" and "thread" (the frame's name, "comm-PID/TID") and
 * numeric "pid" and "tid" where known. Returns 0, PERFAN_EINVAL (bad
 * options), PERFAN_EUNSUPPORTED (a weight past INT64_MAX, pprof's
 * values being signed), PERFAN_ENOMEM, PERFAN_EIO (writing failed). */
PERFAN_API int perfan_pprof_write(const perfan_profile *p, FILE *out,
				  const struct perfan_pprof_write_opts *o);

#ifdef __cplusplus
}
#endif
#endif
