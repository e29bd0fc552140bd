/* perfan/record.h: perfan record: the perf commands that record what
 * perfan's analyses need (a plan, from the options and the host's facts),
 * and running them. */
#ifndef PERFAN_RECORD_H
#define PERFAN_RECORD_H

#include <stdio.h>

#include <perfan/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A host fact not known (read it, or leave its check out). */
#define PERFAN_RECORD_UNKNOWN (-1000)

struct perfan_record_opts {
	size_t sz;
	/* sched:sched_switch and sched:sched_waking with their stacks, and
	 * --switch-events (every switch-in and switch-out of the target's
	 * threads: exact on-CPU intervals without -a): off-CPU and
	 * wall-clock views, wakers, the timeline */
	int wall;
	/* the target is Python: DWARF stacks (CPython keeps no frame
	 * pointers), and -X perf added to a python COMMAND run without it */
	int python;
	/* the GIL's probes on the target's libpython: take_gil, a plain
	 * uprobe on take_gil's ret (take_gil__return), drop_gil */
	int gil;
	int32_t pid;       /* the process to attach to; 0: run ARGV */
	char *const *argv; /* COMMAND ARGS..., NULL-terminated */
	/* seconds; 0: until COMMAND exits (or, with PID, until interrupted) */
	double duration;
	unsigned freq;      /* cpu-clock Hz; 0: 999 (499 with DWARF stacks) */
	const char *output; /* default "perf.data" */
	const char *perf;   /* the perf executable; default "perf" */
	/* bytes of stack copied per sample with DWARF; 0: 16384 */
	unsigned stack_size;
};

/* What the plan depends on besides the options: read from this system by
 * perfan_record_host_read, or given by the caller (tests pin them). */
struct perfan_record_host {
	size_t sz;
	int paranoid;     /* kernel.perf_event_paranoid, or UNKNOWN */
	int euid;         /* or UNKNOWN */
	uint64_t cap_eff; /* effective capabilities (CapEff), a bitmask */
	/* the target's command line (with PID: /proc/PID/cmdline, else
	 * the options' ARGV), NULL-terminated, or NULL */
	char *const *target_argv;
	/* the target's environment (NAME=VALUE: /proc/PID/environ, or
	 * perfan's own for a COMMAND), NULL-terminated, or NULL */
	char *const *target_env;
	/* the file holding the target's interpreter: the libpython it maps
	 * (/proc/PID/maps) or needs (the executable's DT_NEEDED, as ld.so
	 * finds it), or the executable linked with it; NULL: unknown */
	const char *libpython;
	/* the offset of take_gil's ret in LIBPYTHON, or 0: find it */
	uint64_t take_gil_ret;
};

/* Fill H from this system for the target of O (allocating its strings:
 * free them with perfan_record_host_free). A fact that cannot be read is
 * left UNKNOWN or NULL, and the plan then says so. Returns 0 or
 * PERFAN_ENOMEM / PERFAN_EINVAL. */
PERFAN_API int perfan_record_host_read(struct perfan_record_host *h,
				       const struct perfan_record_opts *o);
PERFAN_API void perfan_record_host_free(struct perfan_record_host *h);

enum perfan_record_step_kind {
	PERFAN_RECORD_STEP_PROBE = 0,   /* perf probe: add one probe */
	PERFAN_RECORD_STEP_RECORD = 1,  /* perf record */
	PERFAN_RECORD_STEP_CLEANUP = 2, /* perf probe -d: always run */
};

struct perfan_record_step {
	int kind;          /* enum perfan_record_step_kind */
	char *const *argv; /* NULL-terminated */
};

struct perfan_record_plan_result {
	size_t nr_steps; /* in order; the cleanup ones run even on failure */
	const struct perfan_record_step *steps;
	int dwarf;         /* DWARF stacks (else frame pointers) */
	int python_target; /* the target runs Python with its perf support */
	int added_xperf;   /* -X perf was added to the COMMAND */
	/* seconds after which perfan_record_run stops perf record with
	 * SIGINT (a COMMAND's --duration); 0: none (with PID the record
	 * step itself ends then: -p PID -- sleep S) */
	double duration;
	/* what to run next, e.g. "perfan triage perf.data" */
	const char *next;
	/* notes for the user (e.g. "the process was not started with -X
	 * perf: ..."), in order */
	size_t nr_notes;
	const char *const *notes;
};

typedef struct perfan_record_plan perfan_record_plan;

/* The perf commands for O on host H. Returns 0, or PERFAN_EINVAL for
 * options that do not go together (no target, PID and ARGV both, ...) and
 * PERFAN_EUNSUPPORTED when the host forbids the recording (e.g.
 * perf_event_paranoid too high for a user without CAP_PERFMON; the --gil
 * probes as non-root; no libpython found), with a message that says
 * exactly what to change. *OUT is NULL then. */
PERFAN_API int perfan_record_plan_new(perfan_record_plan **out,
				      const struct perfan_record_opts *o,
				      const struct perfan_record_host *h);
PERFAN_API const struct perfan_record_plan_result *
perfan_record_plan_result(const perfan_record_plan *p);
PERFAN_API void perfan_record_plan_free(perfan_record_plan *p);

/* P's commands as a shell would take them, one a line (--dry-run). */
PERFAN_API int perfan_record_plan_write(const perfan_record_plan *p, FILE *fp);

struct perfan_record_run_opts {
	size_t sz;
	/* where the probe commands' output goes (perf probe's chatter);
	 * -1: /dev/null */
	int log_fd;
};

/* Run P: its probe steps, perf record (SIGINT to perf after the plan's
 * duration; SIGINT and SIGTERM sent to perfan's process while perf runs
 * reach perf, which stops and writes its file), then the cleanup steps,
 * whatever happened. Returns perf record's exit status (0 on success, and
 * after perf stopped by the SIGINT it was sent), or
 * a negative error when a step could not start or a probe could not be
 * added (the message names the command). */
PERFAN_API int perfan_record_run(const perfan_record_plan *p,
				 const struct perfan_record_run_opts *o);

#ifdef __cplusplus
}
#endif
#endif
