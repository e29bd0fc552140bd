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
	/* what is not known (a pid or tid below 0) is named as perf script
	 * text's reader names it: a pid "?", a tid left out */
	char p_[16];
	if (pid >= 0)
		snprintf(p_, sizeof(p_), "%d", pid);
	else
		snprintf(p_, sizeof(p_), "?");
	if (root == PERFAN_ROOT_PID_TID && tid < 0)
		root = PERFAN_ROOT_PID;
	switch (root) {
	case PERFAN_ROOT_PID: snprintf(buf, sizeof(buf), "%s-%s", c, p_); break;
	case PERFAN_ROOT_PID_TID:
		snprintf(buf, sizeof(buf), "%s-%s/%d", c, p_, tid);
		break;
	default: snprintf(buf, sizeof(buf), "%s", c); break;
	}
	int err = perfan_profile_frame(p, out, buf, NULL, NULL, 0,
				       PERFAN_FRAME_PROCESS);
	if (!err)
		err = perfan_profile_frame_thread(p, *out, pid, tid);
	return err;
}
