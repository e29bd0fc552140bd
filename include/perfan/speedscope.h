/* perfan/speedscope.h: the speedscope sink: a profile written as
 * speedscope's JSON file format (https://www.speedscope.app), one sampled
 * profile per thread. */
#ifndef PERFAN_SPEEDSCOPE_H
#define PERFAN_SPEEDSCOPE_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/profile.h>
#include <perfan/threadnames.h>
#include <perfan/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfan_speedscope_write_opts {
	size_t sz;
	/* The weight column written. */
	size_t column;
	/* The file's name (speedscope's title), and the name of the profile
	 * that holds the stacks without a process root; NULL: "perfan". */
	const char *name;
	/* The threads' names (perfan/threadnames.h; NULL: none): the
	 * profile of a thread named by what it was started to run
	 * (PERFAN_THREAD_NAME_ENTRY) is named "NAME-PID/TID". */
	const perfan_thread_names *names;
};

/* Write column O->column of P to OUT as a speedscope file: each process
 * frame (PERFAN_FRAME_PROCESS) at the root of stacks is a sampled profile
 * named by it, the stacks without one go together into one more profile
 * named O->name; the other frames are shared.frames (name; file, or else
 * the module; line), each distinct one once. When P keeps samples with
 * times (perfan_profile_opts.keep_samples), each profile is one sample per
 * kept sample of the column, in time order (equal times in the order
 * kept), weighed as kept; otherwise one sample per distinct stack with its
 * self weight, in the trie's order. Weights are in the column's unit:
 * "nanoseconds" for ns and for a clock event's period (perfan_pprof_unit),
 * "bytes", else "none". Each profile starts at 0 and ends at the sum of
 * its weights; activeProfileIndex is the heaviest one. Returns 0,
 * PERFAN_EINVAL (no such column, bad options), PERFAN_ENOMEM, PERFAN_EIO
 * (writing failed). */
PERFAN_API int
perfan_speedscope_write(const perfan_profile *p, FILE *out,
			const struct perfan_speedscope_write_opts *o);

/* Since 0.2. Trace T (perfan/trace.h) to OUT as a speedscope file of
 * "evented" profiles, its timelines: one per CPU thread and one per GPU
 * stream, in the trace's order of threads, named "COMM-PID/TID" (the
 * command as perfan_trace_profile takes it; "?" when the trace names
 * none) and "GPU D stream S". Each span is opened ("O") at its start and
 * closed ("C") at its end, in ns from the trace's first event, nested as
 * perfan_trace_profile nests them (a span inside the innermost one that
 * holds its start, cut to its end); spans of no duration are left out.
 * Frames are the spans' names, each once. O->name is the file's name
 * (NULL: "perfan"); the column and names options are not read.
 * activeProfileIndex is the thread whose outermost spans last longest.
 * Returns 0, PERFAN_EINVAL, PERFAN_ENOMEM, PERFAN_EIO. */
PERFAN_API int
perfan_speedscope_trace_write(const perfan_trace *t, FILE *out,
			      const struct perfan_speedscope_write_opts *o);

#ifdef __cplusplus
}
#endif
#endif
