/* profile/root.c: the process frame at the root of a thread's stacks, as
 * stackcollapse-perf.pl names it (spaces in the comm made '_'). */
#include <stdio.h>

#include "profile/root.h"

int perfan__process_root(perfan_profile *p, enum perfan_process_root root,
			 const char *comm, int32_t pid, int32_t tid,
			 perfan_frame_id *out)
{
	char c[64], buf[128];
	if (comm)
		snprintf(c, sizeof(c), "%s", comm);
	else
		snprintf(c, sizeof(c), ":%d", tid);
	for (char *s = c; *s; s++)
		if (*s == ' ')
			*s = '_';
	switch (root) {
	case PERFAN_ROOT_PID: snprintf(buf, sizeof(buf), "%s-%d", c, pid); break;
	case PERFAN_ROOT_PID_TID:
		snprintf(buf, sizeof(buf), "%s-%d/%d", c, pid, tid);
		break;
	default: snprintf(buf, sizeof(buf), "%s", c); break;
	}
	int err = perfan_profile_frame(p, out, buf, NULL, NULL, 0,
				       PERFAN_FRAME_PROCESS);
	if (!err)
		err = perfan_profile_frame_thread(p, *out, pid, tid);
	return err;
}
