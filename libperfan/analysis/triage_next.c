/* analysis/triage_next.c: what one recording could not answer, each with
 * the command that records it, worst first: call graphs, Python
 * functions, symbols, waiting (perfan_threads_advice), counters, a run to
 * compare with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/gil.h>

#include "analysis/triage_internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

static int add(struct perfan_triage *t, int topic, const char *why,
	       const char *command)
{
	if (perfan__grow((void **)&t->next, &t->capnext, t->nnext + 1,
			 sizeof(*t->next)))
		return perfan__nomem("triage");
	char *w = strdup(why), *c = command ? strdup(command) : NULL;
	if (!w || (command && !c)) {
		free(w);
		free(c);
		return perfan__nomem("triage");
	}
	t->next[t->nnext++] = (struct perfan_triage_next){w, c, topic};
	return 0;
}

/* An advice message of perfan_threads_advice: its text, and the perf
 * command at its end. */
static int advice(int level, const char *msg, void *payload)
{
	struct perfan_triage *t = payload;
	(void)level;
	const char *cmd = strstr(msg, "sudo perfan record");
	if (!cmd)
		cmd = strstr(msg, "perfan record");
	if (!cmd)
		cmd = strstr(msg, "perf ");
	if (!cmd)
		return add(t, PERFAN_TRIAGE_WAITING, msg, NULL);
	size_t n = (size_t)(cmd - msg);
	while (n && (msg[n - 1] == ' ' || msg[n - 1] == ':'))
		n--;
	char why[1024];
	snprintf(why, sizeof(why), "%.*s", (int)n, msg);
	return add(t, PERFAN_TRIAGE_WAITING, why, cmd);
}

int perfan__triage_next(struct perfan_triage *t)
{
	const struct perfan_triage_in *in = &t->in;
	/* CPython keeps no frame pointers: -g loses its frames */
	int python = in->python_functions || in->python_interpreter;
	int rc = 0;
	if (!in->has_cpu)
		rc = add(t, PERFAN_TRIAGE_ON_CPU,
			 "no on-CPU samples: where the CPU time goes cannot be "
			 "told",
			 python ? "perfan record --wall --python -- COMMAND "
				  "(the CPU clock, DWARF stacks, and the "
				  "sched events for waiting)"
				: "perfan record --wall -- COMMAND (the CPU "
				  "clock, and the sched events for waiting)");
	if (!rc && in->has_cpu && !in->callchains)
		rc = add(t, PERFAN_TRIAGE_CALLS,
			 "no call graphs: the plateaus are functions alone, "
			 "without who called them",
			 python ? "perfan record --python -- COMMAND (DWARF "
				  "stacks: CPython keeps no frame pointers, -g "
				  "loses its frames)"
				: "perfan record -- COMMAND (frame pointers; "
				  "for libraries without them, --python's "
				  "DWARF stacks)");
	if (!rc && in->python_interpreter && !in->python_functions)
		rc = add(t, PERFAN_TRIAGE_PYTHON,
			 "Python shows as the interpreter "
			 "(_PyEval_EvalFrameDefault), not as its functions",
			 "perfan record --python -- python3.12 SCRIPT (it "
			 "adds -X perf, Python 3.12 or later, and records "
			 "DWARF stacks: -g loses the Python frames of an "
			 "interpreter built without frame pointers)");
	if (!rc && in->frames && in->frames_unresolved * 10 > in->frames) {
		char why[256];
		snprintf(why, sizeof(why), "%llu of %llu frames have no symbol",
			 (unsigned long long)in->frames_unresolved,
			 (unsigned long long)in->frames);
		rc = add(t, PERFAN_TRIAGE_SYMBOLS, why,
			 "perf buildid-cache, or the programs' debug packages "
			 "(apt-get install PACKAGE-dbgsym), then perfan triage "
			 "--debug-dir or --symfs");
	}
	if (!rc && in->offcpu) {
		struct perfan_threads_advice_opts ao =
			PERFAN_OPTS_INIT(struct perfan_threads_advice_opts);
		ao.view = PERFAN_VIEW_OFFCPU;
		ao.python = python;
		ao.gil_probes = in->gil && in->gil->probes_seen;
		rc = perfan_threads_advice_ext(in->offcpu, &ao, advice, t);
	} else if (!rc) {
		rc = add(t, PERFAN_TRIAGE_WAITING,
			 "no off-CPU time: whether threads wait, and where, "
			 "cannot be told",
			 python ? "perfan record --wall --python -- COMMAND "
				  "(sched:sched_switch and sched:sched_waking "
				  "with DWARF stacks)"
				: "perfan record --wall -- COMMAND "
				  "(sched:sched_switch and sched:sched_waking "
				  "with their stacks)");
	}
	if (!rc && !in->classify)
		rc = add(t, PERFAN_TRIAGE_COUNTERS,
			 "no counters: whether the CPU is stalled (IPC, cache "
			 "and branch misses) cannot be told",
			 "perf stat -e cycles,instructions,cache-references,"
			 "cache-misses,branches,branch-misses -o stat.txt -- "
			 "COMMAND, then perfan triage --stat stat.txt");
	if (!rc && !in->diff)
		rc = add(t, PERFAN_TRIAGE_COMPARE,
			 "nothing to compare with: what changed since a good "
			 "run cannot be told",
			 "record the good run the same way, then perfan triage "
			 "--before before.data");
	return rc;
}
