/* trace/root.c: the root frame of a trace's thread or stream. */
#include "trace/root.h"

#include <stdio.h>
#include <string.h>

/* A CPU thread's command, in BUF (N bytes) when cut out of its name. */
static const char *thread_comm(const struct perfan_trace_thread *th, char *buf,
			       size_t n)
{
	const char *name = th->name;
	if (!name)
		return th->process;
	size_t len = strlen(name);
	const char *open = strstr(name, " (");
	if (!strncmp(name, "thread ", 7) && open && len &&
	    name[len - 1] == ')' && open + 2 < name + len - 1) {
		snprintf(buf, n, "%.*s", (int)(name + len - 1 - (open + 2)),
			 open + 2);
		return buf;
	}
	return name;
}

int perfan__trace_root(perfan_profile *p, const struct perfan_trace_thread *th,
		       int root, perfan_frame_id *out)
{
	char buf[256];
	const char *comm;
	if (th->device < 0) {
		comm = thread_comm(th, buf, sizeof(buf));
	} else {
		snprintf(buf, sizeof(buf), "GPU %d stream %lld",
			 (int)th->device, (long long)th->stream);
		comm = buf;
	}
	return perfan_profile_process_frame(p, out,
					    (enum perfan_process_root)root,
					    comm, perfan__trace_id32(th->pid),
					    perfan__trace_id32(th->tid));
}
