/* profile/root.h: the process frame at the root of a thread's stacks
 * ("comm", "comm-pid", "comm-pid/tid"), named one way for every fold over
 * the stream (stream/fold.c, analysis/offcpu_profile.c). */
#ifndef PERFAN_PROFILE_ROOT_H
#define PERFAN_PROFILE_ROOT_H

#include <perfan/profile.h>
#include <perfan/resolve.h>

/* Intern the process frame of thread PID/TID named COMM (NULL: never
 * named, ":TID" as perf shows it) for ROOT (not PERFAN_ROOT_NONE), with
 * its thread attribute. Returns 0 and sets *OUT, or a negative error. */
int perfan__process_root(perfan_profile *p, enum perfan_process_root root,
			 const char *comm, int32_t pid, int32_t tid,
			 perfan_frame_id *out);

#endif
