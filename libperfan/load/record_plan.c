/* load/record_plan.c: perfan record's plan: the perf probe and perf record
 * commands for the options, on a host whose facts are given. */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/record.h>

#include "load/record_plan.h"
#include "resolve/gilret.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

#define CAP_SYS_ADMIN_ 21
#define CAP_IPC_LOCK_ 14
#define CAP_PERFMON_ 38
#define GROUP "probe_perfan"

/* ---- building -------------------------------------------------------- */

/* A string owned by the plan (every one is kept in P->strs). */
static char *keep(perfan_record_plan *p, char *s)
{
	if (!s || perfan__grow((void **)&p->strs, &p->cap_strs, p->nr_strs + 1,
			       sizeof(*p->strs))) {
		free(s);
		p->failed = 1;
		return NULL;
	}
	return p->strs[p->nr_strs++] = s;
}

static char *fmt(perfan_record_plan *p, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	char *s = NULL;
	if (vasprintf(&s, f, ap) < 0)
		s = NULL;
	va_end(ap);
	return keep(p, s);
}

/* The argv being built. */
struct args {
	char **v;
	size_t n, cap;
};

/* (S copied: the plan outlives the options and the host facts) */
static void arg(perfan_record_plan *p, struct args *a, const char *s)
{
	s = s ? keep(p, strdup(s)) : NULL;
	if (!s ||
	    perfan__grow((void **)&a->v, &a->cap, a->n + 2, sizeof(*a->v))) {
		p->failed = 1;
		return;
	}
	a->v[a->n++] = (char *)s;
	a->v[a->n] = NULL;
}

static void step(perfan_record_plan *p, int kind, struct args *a)
{
	if (p->failed || perfan__grow((void **)&p->steps, &p->cap_steps,
				      p->res.nr_steps + 1, sizeof(*p->steps))) {
		free(a->v);
		p->failed = 1;
		return;
	}
	p->steps[p->res.nr_steps++] =
		(struct perfan_record_step){kind, (char *const *)a->v};
	*a = (struct args){0};
}

static void note(perfan_record_plan *p, char *s)
{
	if (!s || perfan__grow((void **)&p->notes, &p->cap_notes,
			       p->res.nr_notes + 1, sizeof(*p->notes))) {
		p->failed = 1;
		return;
	}
	p->notes[p->res.nr_notes++] = s;
}

/* ---- the target ------------------------------------------------------ */

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int is_python(const char *argv0)
{
	return argv0 && !strncmp(base(argv0), "python", 6);
}

/* ARGV runs Python with its perf support: -X perf, -X perf_jit (or
 * -Xperf), or PYTHONPERFSUPPORT / PYTHON_PERF_JIT_SUPPORT set in ENV. */
int perfan__record_python_target(char *const *argv, char *const *env)
{
	for (size_t i = 1; argv && argv[0] && argv[i]; i++) {
		const char *x = NULL;
		if (!strcmp(argv[i], "-X") && argv[i + 1])
			x = argv[i + 1];
		else if (!strncmp(argv[i], "-X", 2))
			x = argv[i] + 2;
		if (x && (!strcmp(x, "perf") || !strcmp(x, "perf_jit")))
			return 1;
		if (argv[i][0] != '-')
			break; /* the script: the rest are its arguments */
		if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "-m"))
			break;
	}
	for (size_t i = 0; env && env[i]; i++)
		if ((!strncmp(env[i], "PYTHONPERFSUPPORT=", 18) &&
		     strcmp(env[i] + 18, "0") && env[i][18]) ||
		    (!strncmp(env[i], "PYTHON_PERF_JIT_SUPPORT=", 24) &&
		     strcmp(env[i] + 24, "0") && env[i][24]))
			return 1;
	return 0;
}

/* ---- permissions ----------------------------------------------------- */

static int has_cap(const struct perfan_record_host *h, int cap)
{
	return (h->cap_eff >> cap) & 1;
}

#define PERFMON_FIX                                                            \
	"run perfan record as root (sudo), or give perf the capability: "      \
	"sudo setcap cap_perfmon,cap_sys_ptrace,cap_syslog=ep $(command -v "   \
	"perf)"

/* 0, or the error saying what to change. */
static int check_access(const struct perfan_record_opts *o,
			const struct perfan_record_host *h)
{
	int root = h->euid == 0;
	int perfmon = has_cap(h, CAP_PERFMON_) || has_cap(h, CAP_SYS_ADMIN_);
	int par = h->paranoid;
	if (o->gil && !root && h->euid != PERFAN_RECORD_UNKNOWN)
		return perfan__err(
			PERFAN_EUNSUPPORTED,
			"--gil adds uprobes with perf probe, which writes "
			"/sys/kernel/tracing/uprobe_events: only root can; "
			"run sudo perfan record --gil ... (or leave --gil out: "
			"GIL waits are then told from the stacks, without "
			"the exact hold and wait times)");
	if (root || perfmon || par == PERFAN_RECORD_UNKNOWN)
		return 0;
	if (par > 2)
		return perfan__err(
			PERFAN_EUNSUPPORTED,
			"kernel.perf_event_paranoid is %d: perf is off for "
			"users without CAP_PERFMON. Allow it: sudo sysctl "
			"kernel.perf_event_paranoid=%d (add "
			"kernel.perf_event_paranoid = %d to /etc/sysctl.d/ "
			"to keep it), or " PERFMON_FIX,
			par, o->wall ? -1 : 1, o->wall ? -1 : 1);
	if (o->wall && par > -1)
		return perfan__err(
			PERFAN_EUNSUPPORTED,
			"kernel.perf_event_paranoid is %d: --wall records "
			"the sched_switch and sched_waking tracepoints, which "
			"a user without CAP_PERFMON may record only at -1. "
			"Allow it: sudo sysctl kernel.perf_event_paranoid=-1 "
			"(and read access to /sys/kernel/tracing), or " PERFMON_FIX,
			par);
	if (par == 2)
		return perfan__err(
			PERFAN_EUNSUPPORTED,
			"kernel.perf_event_paranoid is 2: a user without "
			"CAP_PERFMON may record user space only, so every "
			"stack would stop at the kernel. Allow it: sudo sysctl "
			"kernel.perf_event_paranoid=1, or " PERFMON_FIX);
	return 0;
}

/* ---- the plan -------------------------------------------------------- */

/* A cleanup step: perf probe -d of every probe of GROUP. */
static void remove_probes(perfan_record_plan *p, const char *perf)
{
	struct args a = {0};
	arg(p, &a, perf);
	arg(p, &a, "probe");
	arg(p, &a, "-q");
	arg(p, &a, "-d");
	arg(p, &a, GROUP ":*");
	step(p, PERFAN_RECORD_STEP_CLEANUP, &a);
}

static int gil_steps(perfan_record_plan *p, const struct perfan_record_host *h,
		     const char *perf)
{
	if (!h->libpython)
		return perfan__err(
			PERFAN_EUNSUPPORTED,
			"--gil: cannot tell which libpython the target runs "
			"(not a python executable, or a script that starts "
			"one?): record its python with -p PID, whose maps "
			"name it, or run python itself as the COMMAND");
	uint64_t off = h->take_gil_ret;
	if (!off) {
		int err = perfan__gil_ret_offset(h->libpython, &off);
		if (err)
			return err;
	}
	/* probes a run killed before its cleanup left behind */
	remove_probes(p, perf);
	struct args a = {0};
	/* take_gil's entry, its return as a plain uprobe on the ret (a
	 * uretprobe, take_gil%return, replaces the return address on the
	 * stack: DWARF unwinding from inside take_gil stops there, losing
	 * the Python frames), drop_gil's entry */
	const char *spec[3] = {
		GROUP ":take_gil=take_gil",
		fmt(p, GROUP ":take_gil__return=take_gil+%llu",
		    (unsigned long long)off),
		GROUP ":drop_gil=drop_gil",
	};
	for (int i = 0; i < 3; i++) {
		arg(p, &a, perf);
		arg(p, &a, "probe");
		arg(p, &a, "-q");
		arg(p, &a, "-x");
		arg(p, &a, h->libpython);
		arg(p, &a, spec[i]);
		step(p, PERFAN_RECORD_STEP_PROBE, &a);
	}
	return 0;
}

static void record_step(perfan_record_plan *p,
			const struct perfan_record_opts *o,
			const struct perfan_record_host *h, const char *perf)
{
	struct args a = {0};
	arg(p, &a, perf);
	arg(p, &a, "record");
	arg(p, &a, "-o");
	arg(p, &a, o->output);
	/* zstd: DWARF stacks compress ~40x; -z drops the BUILD_ID
	 * feature, --buildid-mmap puts the build-ids in the MMAP2 records */
	arg(p, &a, "-z");
	arg(p, &a, "--buildid-mmap");
	/* 64 MB buffers against lost records, where locking them is allowed */
	if (h->euid == 0 || has_cap(h, CAP_IPC_LOCK_)) {
		arg(p, &a, "-m");
		arg(p, &a, "64M");
	}
	/* perf's clock is the one Python's perf_jit dumps and the
	 * application's logs (time.monotonic) use */
	arg(p, &a, "-k");
	arg(p, &a, "CLOCK_MONOTONIC");
	if (p->res.dwarf) {
		arg(p, &a, "--call-graph");
		arg(p, &a,
		    fmt(p, "dwarf,%u", o->stack_size ? o->stack_size : 16384u));
	} else {
		arg(p, &a, "--call-graph");
		arg(p, &a, "fp");
	}
	/* the clock by its own frequency: -F would sample the tracepoints
	 * and probes too (perf 6.1) */
	unsigned freq = o->freq ? o->freq : p->res.dwarf ? 499u : 999u;
	arg(p, &a, "-e");
	arg(p, &a, fmt(p, "cpu-clock/freq=%u/", freq));
	if (o->wall) {
		/* every switch-in and switch-out of the target's threads:
		 * exact on-CPU intervals without -a */
		arg(p, &a, "--switch-events");
		arg(p, &a, "-e");
		arg(p, &a, "sched:sched_switch");
		arg(p, &a, "-e");
		arg(p, &a, "sched:sched_waking");
	}
	if (o->gil) {
		static const char *const ev[] = {GROUP ":take_gil",
						 GROUP ":take_gil__return",
						 GROUP ":drop_gil"};
		for (int i = 0; i < 3; i++) {
			arg(p, &a, "-e");
			arg(p, &a, ev[i]);
		}
	}
	if (o->pid > 0) {
		arg(p, &a, "-p");
		arg(p, &a, fmt(p, "%d", (int)o->pid));
		/* perf's own way to stop after S seconds: it records PID
		 * while sleep runs (no signal that could reach perf before
		 * it is ready) */
		if (o->duration > 0) {
			arg(p, &a, "--");
			arg(p, &a, "sleep");
			arg(p, &a, fmt(p, "%g", o->duration));
		}
	} else {
		arg(p, &a, "--");
		char *const *v = o->argv;
		if (o->python && !p->res.python_target) {
			if (is_python(v[0])) {
				arg(p, &a, v[0]);
				arg(p, &a, "-X");
				arg(p, &a, "perf");
				v++;
				p->res.added_xperf = 1;
				p->res.python_target = 1;
			} else {
				/* a wrapper that starts python: 3.12+ take
				 * the perf trampolines from the environment */
				arg(p, &a, "env");
				arg(p, &a, "PYTHONPERFSUPPORT=1");
				p->res.python_target = 1;
				note(p, fmt(p,
					    "%s is not a python executable: "
					    "PYTHONPERFSUPPORT=1 is set "
					    "for it, so that the Python "
					    "3.12+ it starts keeps its "
					    "Python frames",
					    base(v[0])));
			}
		}
		for (; *v; v++)
			arg(p, &a, *v);
	}
	step(p, PERFAN_RECORD_STEP_RECORD, &a);
}

int perfan_record_plan_new(perfan_record_plan **out,
			   const struct perfan_record_opts *opts,
			   const struct perfan_record_host *host)
{
	if (out)
		*out = NULL;
	if (!out || !opts || !host)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_record_plan_new: NULL argument");
	struct perfan_record_opts o;
	struct perfan_record_host h;
	int err = PERFAN__OPTS_COPY(o, opts);
	if (!err)
		err = PERFAN__OPTS_COPY(h, host);
	if (err)
		return err;
	int has_cmd = o.argv && o.argv[0];
	if (o.pid > 0 && has_cmd)
		return perfan__err(PERFAN_EINVAL,
				   "record: -p PID or a COMMAND, not both");
	if (o.pid <= 0 && !has_cmd)
		return perfan__err(PERFAN_EINVAL,
				   "record: nothing to record: give -p PID "
				   "or -- COMMAND [ARGS...]");
	if (o.duration < 0)
		return perfan__err(PERFAN_EINVAL,
				   "record: --duration must be positive");
	if (!o.output || !*o.output)
		o.output = "perf.data";
	const char *perf = o.perf && *o.perf ? o.perf : "perf";
	if ((err = check_access(&o, &h)))
		return err;

	perfan_record_plan *p = calloc(1, sizeof(*p));
	if (!p)
		return perfan__nomem("record plan");
	/* (with PID, sleep ends the recording: see record_step) */
	p->res.duration = o.pid > 0 ? 0 : o.duration;
	p->res.python_target = perfan__record_python_target(
		h.target_argv ? h.target_argv : o.argv, h.target_env);
	p->res.dwarf = o.python || p->res.python_target;
	if (o.python && !p->res.python_target && o.pid > 0)
		note(p, fmt(p,
			    "process %d was not started with -X perf (nor "
			    "PYTHONPERFSUPPORT=1): its Python functions "
			    "will be missing from the stacks. Start it "
			    "with python3 -X perf (3.12+), or call "
			    "sys.activate_stack_trampoline(\"perf\") in "
			    "it, then record again",
			    (int)o.pid));
	if (o.gil && (err = gil_steps(p, &h, perf))) {
		perfan_record_plan_free(p);
		return err;
	}
	record_step(p, &o, &h, perf);
	if (o.gil)
		remove_probes(p, perf);
	p->res.next = fmt(p, "perfan triage %s", o.output);
	if (p->failed) {
		perfan_record_plan_free(p);
		return perfan__nomem("record plan");
	}
	p->res.steps = p->steps;
	p->res.notes = (const char *const *)p->notes;
	*out = p;
	return 0;
}

const struct perfan_record_plan_result *
perfan_record_plan_result(const perfan_record_plan *p)
{
	return p ? &p->res : NULL;
}

void perfan_record_plan_free(perfan_record_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->res.nr_steps; i++)
		free((void *)p->steps[i].argv);
	for (size_t i = 0; i < p->nr_strs; i++)
		free(p->strs[i]);
	free(p->strs);
	free(p->steps);
	free(p->notes);
	free(p);
}
