/* perfan/dump.h: every thread at one moment of a recording, as py-spy dump
 * shows a live process: its state (running, or off the CPU and why), since
 * when, and its stack (its last sample's, or the one it left the CPU
 * with). */
#ifndef PERFAN_DUMP_H
#define PERFAN_DUMP_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/perfdata.h>
#include <perfan/resolve.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One frame of a thread's stack, leaf first; strings owned by the dump. */
struct perfan_dump_frame {
	const char *name;   /* function ("py::QUALNAME:FILE" for Python) */
	const char *module; /* short DSO name, or NULL */
	uint64_t addr;      /* as perf script prints it (map-relative in a
			       file, absolute in the kernel) */
};

/* One thread alive at the moment. */
struct perfan_dump_thread {
	int32_t pid, tid;
	const char *comm;
	/* 1: on the CPU (or runnable without a recorded switch-out); 0:
	 * off the CPU */
	int running;
	/* off the CPU: its state (enum perfan_offcpu_state) and wait class
	 * (enum perfan_wait_class); woken: a wakeup came, it waits for a
	 * CPU since WOKEN */
	uint32_t state, wait;
	int woken;
	uint64_t woken_at;
	/* in this state since (ns, perf's clock): the switch-out, or the
	 * end of its last off-CPU interval (its start when none) */
	uint64_t since;
	/* the stack: the switch-out's while off the CPU, else the last
	 * on-CPU sample's at or before the moment (none: 0 frames);
	 * STACK_TIME its record's time */
	size_t nr_frames;
	const struct perfan_dump_frame *frames;
	uint64_t stack_time;
	/* What to call it (perfan/threadnames.h, from its stacks over the
	 * whole recording: the name it gave itself, or the function it was
	 * started to run; else its comm), that function ("main" for a
	 * process's first thread; NULL: not known), and its pool's name
	 * (NULL: none) */
	const char *name;
	const char *role;
	const char *pool;
};

struct perfan_dump_result {
	uint64_t at;         /* the moment */
	uint64_t start, end; /* the recording's first and last times */
	size_t nr_threads;   /* sorted by pid, then tid */
	const struct perfan_dump_thread *threads;
};

struct perfan_dump_opts {
	size_t sz;
	uint64_t at; /* ns, perf's clock; 0: the end of the recording */
	int32_t pid; /* only this process; -1 or 0: all */
};

typedef struct perfan_dump perfan_dump;

/* Read PD's stream (resolved as RO says; its filters do not apply) and
 * take every thread alive at OPTS->at. Returns 0 or a negative error
 * (*OUT NULL then); PERFAN_EINVAL for a moment outside the recording. */
PERFAN_API int perfan_dump_perfdata(perfan_dump **out, perfan_perfdata *pd,
				    const struct perfan_resolve_opts *ro,
				    const struct perfan_dump_opts *opts);
PERFAN_API void perfan_dump_free(perfan_dump *d);
PERFAN_API const struct perfan_dump_result *
perfan_dump_result(const perfan_dump *d);

enum perfan_dump_format {
	PERFAN_DUMP_TEXT = 0,
	PERFAN_DUMP_JSON = 1,
};

struct perfan_dump_write_opts {
	size_t sz;
	int format; /* enum perfan_dump_format */
};

/* Write the threads: text (a header line per thread, "NAME pid/tid:
 * running for X ms" or "off-CPU (CLASS, or STATE) for X ms", NAME "name
 * (pool POOL)" for a thread of a pool, then its stack, Python functions
 * as "QUALNAME (FILE)") or JSON ({"dump": {"at", "start", "end",
 * "threads": [{"comm", "pid", "tid", "name", "role", "pool", "state"
 * ("running" or the off-CPU state's name), "class", "woken_at", "since",
 * "stack_time", "frames": [{"name", "module", "addr"}]}]}}). Returns 0,
 * PERFAN_EINVAL or PERFAN_EIO. */
PERFAN_API int perfan_dump_write(const perfan_dump *d, FILE *fp,
				 const struct perfan_dump_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
