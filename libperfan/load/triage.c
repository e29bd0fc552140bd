/* load/triage.c: perfan_load_triage, the first look at one recording made
 * from its inputs: the on-CPU view and its plateaus, the off-CPU view read
 * again from the same input when the recording has switches, a perf stat
 * verdict, the change since runs before; of a GPU profiler's trace, its
 * CPU time's plateaus and its GPU analysis instead of the views of a perf
 * recording; the triage owns them. */
#include "load/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/classify.h>
#include <perfan/diff.h>
#include <perfan/gil.h>
#include <perfan/gpu.h>
#include <perfan/python.h>
#include <perfan/report.h>
#include <perfan/stat.h>
#include <perfan/threads.h>
#include <perfan/timeline.h>
#include <perfan/triage.h>

#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

/* What the inputs gave, freed with the triage (release). */
struct inputs {
	perfan_load *cpu, *wait;
	perfan_load **before, **after; /* after: NULL for the triaged one */
	size_t nbefore, nafter;
	double *nsamp; /* samples behind each run's column */
	struct perfan_diff_run *runs;
	perfan_report *plateaus;
	perfan_threads *threads;
	perfan_gil *gil; /* the GIL ledger, and the load that read it */
	perfan_load *gil_load;
	perfan_timeline *timeline; /* and the load that read it */
	perfan_load *timeline_load;
	perfan_stat *stat;
	perfan_classify *classify;
	perfan_diff *diff;
	/* the thread the Amdahl bounds are on */
	perfan_load *bycpu; /* the on-CPU view, a root per thread */
	perfan_report *bound_rows;
	size_t bound_column;
	int32_t bound_pid, bound_tid;
	const char *bound_comm;
	uint64_t bound_total;
	size_t bound_threads;
	/* the flame graphs: both merged (the off-CPU view's threads under a
	 * root per command) or both a root per thread (bycpu, wait) */
	int per_thread;
	perfan_profile *wait_merged;
	perfan_gpu *gpu; /* a trace's GPU analysis */
};

static void release(void *payload)
{
	struct inputs *in = payload;
	perfan_diff_free(in->diff);
	for (size_t i = 0; in->before && i < in->nbefore; i++)
		perfan_load_free(in->before[i]);
	free(in->before);
	for (size_t i = 0; in->after && i < in->nafter; i++)
		perfan_load_free(in->after[i]);
	free(in->after);
	free(in->nsamp);
	free(in->runs);
	perfan_classify_free(in->classify);
	perfan_stat_free(in->stat);
	perfan_threads_free(in->threads);
	perfan_gil_free(in->gil);
	perfan_load_free(in->gil_load);
	perfan_timeline_free(in->timeline);
	perfan_load_free(in->timeline_load);
	perfan_report_free(in->plateaus);
	perfan_load_free(in->wait);
	perfan_report_free(in->bound_rows);
	perfan_gpu_free(in->gpu); /* before the trace it reads, in cpu */
	perfan_load_free(in->bycpu);
	perfan_load_free(in->cpu);
	perfan_profile_free(in->wait_merged);
	free(in);
}

/* The second reading's warnings: the first gave them. */
static void quiet_log(enum perfan_log_level level, const char *msg,
		      void *payload)
{
	(void)level;
	(void)msg;
	(void)payload;
}

/* The off-CPU view, when the recording has switches (its events say so),
 * read from the input the on-CPU view read; its summary says what it
 * lacks either way, and a read that fails is said as advice. */
static int load_wait(struct inputs *in, const struct perfan_load_opts *opts,
		     int all)
{
	if (!perfan_offcpu_recorded(perfan_load_reader(in->cpu)))
		return 0; /* nothing to read it from: the triage says so */
	struct perfan_load_opts lo = *opts;
	lo.time_view = PERFAN_VIEW_OFFCPU;
	lo.root = PERFAN_ROOT_PID_TID;
	lo.log = quiet_log;
	lo.quiet_advice = PERFAN_LOAD_QUIET_VIEW;
	int rc = perfan_load_again(&in->wait, in->cpu, &lo);
	if (!in->wait)
		return rc;
	if (rc < 0)
		perfan__load_advise(in->wait, PERFAN_ADVICE_ERROR, "%s",
				    perfan_error_last());
	const perfan_offcpu *oc = perfan_load_offcpu(in->wait);
	if (rc || !oc)
		return 0; /* the triage says what is missing */
	const struct perfan_offcpu_summary *s = perfan_offcpu_summary(oc);
	if (!s->sched_switch && !s->switch_records && !s->offcpu_time)
		return 0;
	struct perfan_threads_opts to = PERFAN_THREADS_OPTS_INIT;
	to.skip_idle = 1;
	to.names = perfan_load_thread_names(in->wait);
	to.all = all;
	/* ranked: the page shows the busiest first, the rest folded */
	to.sort = opts->thread_sort ? opts->thread_sort
				    : PERFAN_THREADS_SORT_ON_CPU;
	/* the call sites are read from the kernel's frames of the waits */
	int rc2 = perfan_threads_new(
		&in->threads, in->wait->waits ? in->wait->waits : in->wait->p,
		s, &to);
	if (!rc2)
		rc2 = perfan__load_gil_beside(&in->gil, &in->gil_load,
					      in->wait);
	return rc2 ? rc2
		   : perfan__load_timeline_beside(
			     &in->timeline, &in->timeline_load, in->wait, all);
}

/* PATH ("-": standard input), perf stat output, and its verdict. */
static int load_stat(struct inputs *in, const char *path)
{
	int std = !strcmp(path, "-");
	FILE *fp = std ? stdin : fopen(path, "r");
	if (!fp)
		return perfan__err(errno == ENOENT ? PERFAN_ENOTFOUND
						   : PERFAN_EIO,
				   "%s: %s", path, strerror(errno));
	struct perfan_stat_parse_opts po =
		PERFAN_OPTS_INIT(struct perfan_stat_parse_opts);
	po.name = std ? "standard input" : path;
	int rc = perfan_stat_read(&in->stat, fp, &po);
	if (!std)
		fclose(fp);
	struct perfan_classify_opts co =
		PERFAN_OPTS_INIT(struct perfan_classify_opts);
	return rc ? rc : perfan_classify_stat(&in->classify, in->stat, &co);
}

/* The column of on-CPU time: --event's, else a CPU clock or cycles, else
 * the first of another event that is no tracepoint (instructions, cache
 * misses); SIZE_MAX when there is none (a recording of sched_switch
 * alone). */
static size_t cpu_column(const perfan_load *l, const char *name)
{
	static const char *const clocks[] = {"cpu-clock", "task-clock",
					     "cycles"};
	const perfan_profile *p = l->p;
	size_t n = perfan_profile_nr_columns(p);
	if (l->o.filter.event)
		return perfan_load_column(l, NULL, name);
	for (size_t k = 0; k < sizeof(clocks) / sizeof(*clocks); k++)
		for (size_t c = 0; c < n; c++) {
			const char *cn = perfan_profile_column_name(p, c);
			if (cn && strstr(cn, clocks[k]) &&
			    perfan_profile_total(p, c))
				return c;
		}
	for (size_t c = 0; c < n; c++) {
		const char *cn = perfan_profile_column_name(p, c);
		if (cn && !strchr(cn, ':') && perfan_profile_total(p, c))
			return c;
	}
	return SIZE_MAX;
}

/* The busiest thread on CPU in column COL of P (a root per thread, or
 * by comm) into IN's bound_*, a thread's roots under each of its comms
 * summed; how many threads had weight there; 0 when a root stands for
 * several threads (by comm). */
static size_t busiest(struct inputs *in, const perfan_profile *p, size_t col)
{
	const perfan_node_id *kids;
	size_t n = perfan_profile_node_children(p, PERFAN_ROOT_NODE, &kids);
	size_t nthreads = 0;
	in->bound_total = 0;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, kids[i]));
		if (!perfan_profile_node_total(p, kids[i], col))
			continue;
		if (f->kind != PERFAN_FRAME_PROCESS || f->tid < 0)
			return 0;
		uint64_t w = 0;
		size_t first = i;
		for (size_t k = 0; k < n; k++) {
			const struct perfan_frame *g = perfan_profile_frame_get(
				p, perfan_profile_node_frame(p, kids[k]));
			if (g->kind != PERFAN_FRAME_PROCESS || g->tid != f->tid)
				continue;
			uint64_t gw =
				perfan_profile_node_total(p, kids[k], col);
			if (gw && k < first)
				first = k;
			w += gw;
		}
		if (first != i)
			continue; /* counted at its first root */
		nthreads++;
		if (w > in->bound_total) {
			in->bound_total = w;
			in->bound_pid = f->pid;
			in->bound_tid = f->tid;
			in->bound_comm = f->comm;
		}
	}
	return nthreads;
}

/* The on-CPU view read again with a root per thread, quietly. */
static int load_bycpu(struct inputs *in, const struct perfan_load_opts *opts)
{
	struct perfan_load_opts lo = *opts;
	lo.root = PERFAN_ROOT_PID_TID;
	lo.log = quiet_log; /* the first reading gave its warnings */
	lo.advice = NULL;
	lo.progress = NULL;
	return perfan_load_again(&in->bycpu, in->cpu, &lo);
}

/* The profiles the flame graphs are drawn of, by one rule: threads
 * merged, the on-CPU view's roots by command and the off-CPU view's
 * threads put under them too; or a root per thread in both, named by the
 * thread table's names. */
static int load_graphs(struct inputs *in, struct perfan_triage_in *ti,
		       const struct perfan_load_opts *opts, const char *name)
{
	ti->filter = &in->cpu->o.filter;
	ti->per_thread = in->per_thread;
	ti->kernel_detail = opts->kernel_detail;
	if (in->per_thread) {
		if (!in->bycpu && ti->has_cpu && load_bycpu(in, opts)) {
			perfan_load_free(in->bycpu); /* drawn merged, then */
			in->bycpu = NULL;
		}
		if (in->bycpu) {
			ti->cpu_graph = in->bycpu->p;
			ti->cpu_graph_column = cpu_column(in->bycpu, name);
			if (ti->cpu_graph_column == SIZE_MAX)
				ti->cpu_graph = NULL;
		}
		ti->wait_graph = ti->wait;
		ti->names = perfan_load_thread_names(in->wait ? in->wait
							      : in->bycpu);
		return 0;
	}
	if (!ti->wait)
		return 0;
	static const struct perfan__reshape merge = {.root = PERFAN_ROOT_COMM};
	int rc = perfan__load_reshape(&in->wait_merged, ti->wait, &merge);
	ti->wait_graph = in->wait_merged;
	return rc;
}

/* The thread the plateaus' Amdahl bounds are on: the one that does the
 * work, the busiest on CPU (the only one under --tid). A recording of
 * one thread is its own; of several, the on-CPU view is read again with
 * a root per thread, and its rows by thread give each plateau's weight
 * in the busiest. */
static int load_bound(struct inputs *in, const struct perfan_load_opts *opts,
		      size_t col, const char *name)
{
	if (col == SIZE_MAX)
		return 0;
	in->bound_threads = busiest(in, in->cpu->p, col);
	if (in->bound_threads == 1)
		return 0; /* the plateaus are that thread's */
	int rc = load_bycpu(in, opts);
	if (rc) {
		/* no bound is better than none at all: the plateaus keep
		 * theirs where they hold */
		in->bound_total = 0;
		return 0;
	}
	size_t bc = cpu_column(in->bycpu, name);
	in->bound_threads = bc == SIZE_MAX ? 0 : busiest(in, in->bycpu->p, bc);
	if (!in->bound_threads)
		return 0;
	struct perfan_report_opts ro =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	ro.sort = "pid,dso,sym";
	in->bound_column = bc;
	return perfan_report_new(&in->bound_rows, in->bycpu->p, &ro);
}

/* Run I of the comparison from the recording NAME: loaded into *SLOT,
 * or the triaged recording itself (PATH) when NAME is it. */
static int load_run(struct inputs *in, size_t i, perfan_load **slot,
		    const char *name, const char *path,
		    const struct perfan_load_opts *opts)
{
	perfan_load *l = in->cpu;
	if (strcmp(name, path)) {
		int rc = perfan_load_open(slot, name, opts);
		if (rc)
			return rc;
		l = *slot;
	}
	size_t col = perfan_load_column(l, NULL, name);
	if (col == SIZE_MAX)
		return perfan__err(PERFAN_EINVAL,
				   "%s: no on-CPU samples to compare", name);
	in->runs[i] = (struct perfan_diff_run){l->p, col, name};
	in->nsamp[i] = perfan_load_nr_samples(l, col);
	return 0;
}

/* The runs before, each whole, against the runs after (the triaged
 * recording PATH alone when none are given), as perfan diff compares
 * them. Returns 0, PERFAN_LOAD_ADVISED, or a negative error. */
static int load_before(struct inputs *in, const char *path,
		       const struct perfan_load_opts *opts,
		       const struct perfan_load_triage_opts *to)
{
	size_t nb = to->nr_before, na = to->nr_after ? to->nr_after : 1;
	in->before = calloc(nb, sizeof(*in->before));
	in->after = calloc(na, sizeof(*in->after));
	in->runs = calloc(nb + na, sizeof(*in->runs));
	in->nsamp = calloc(nb + na, sizeof(*in->nsamp));
	if (!in->before || !in->after || !in->runs || !in->nsamp)
		return perfan__nomem("triage");
	in->nbefore = nb;
	in->nafter = na;
	int rc = 0;
	for (size_t i = 0; i < nb && !rc; i++)
		rc = load_run(in, i, &in->before[i], to->before[i], path, opts);
	for (size_t i = 0; i < na && !rc; i++)
		rc = load_run(in, nb + i, &in->after[i],
			      to->nr_after ? to->after[i] : path, path, opts);
	if (rc)
		return rc;
	struct perfan_diff_opts dopts =
		PERFAN_OPTS_INIT(struct perfan_diff_opts);
	dopts.nr_samples = in->nsamp;
	return perfan_diff_new(&in->diff, in->runs, nb, in->runs + nb, na,
			       &dopts);
}

/* Whether the plateaus have callers: a call graph was recorded. */
static int has_callers(const perfan_report *r, size_t col)
{
	if (col >= perfan_report_nr_columns(r))
		return 0;
	for (size_t i = 0; i < perfan_report_nr_rows(r, col); i++) {
		const struct perfan_report_row *row =
			perfan_report_row(r, col, i);
		if (row->total > row->self)
			return 1;
	}
	return 0;
}

/* The triage of what IN holds, the recording named NAME. */
static int triage(perfan_triage **out, struct inputs *in, const char *name)
{
	const struct perfan_load_info *res = &in->cpu->info;
	struct perfan_triage_in ti = PERFAN_OPTS_INIT(struct perfan_triage_in);
	ti.name = name;
	ti.plateaus = in->plateaus;
	ti.cpu = in->cpu->p;
	ti.wait = perfan_load_profile(in->wait);
	ti.column = cpu_column(in->cpu, name);
	ti.has_cpu = ti.column != SIZE_MAX;
	ti.threads = in->threads;
	ti.offcpu = in->wait && in->wait->offcpu
			    ? perfan_offcpu_summary(in->wait->offcpu)
			    : NULL;
	ti.classify = in->classify;
	ti.gil = in->gil ? perfan_gil_result(in->gil) : NULL;
	ti.timeline = perfan_timeline_result(in->timeline);
	ti.diff = in->diff;
	ti.callchains = has_callers(in->plateaus, ti.column);
	ti.frames = res->resolve.frames;
	ti.frames_unresolved = res->resolve.frames_unresolved;
	ti.python_functions = perfan_python_present(ti.cpu);
	ti.python_interpreter = perfan__load_has_interpreter(ti.cpu);
	ti.bound_rows = in->bound_rows;
	ti.bound_column = in->bound_column;
	ti.bound_pid = in->bound_pid;
	ti.bound_tid = in->bound_tid;
	ti.bound_comm = in->bound_comm;
	ti.bound_total = in->bound_total;
	ti.bound_threads = in->bound_threads;
	ti.gpu = in->gpu;
	int rc = load_graphs(in, &ti, &in->cpu->o, name);
	if (rc)
		return rc;
	struct perfan_triage_opts o =
		PERFAN_OPTS_INIT(struct perfan_triage_opts);
	o.release = release;
	o.release_payload = in;
	return perfan_triage_new(out, &ti, &o);
}

int perfan_load_triage(perfan_triage **out, const char *path,
		       const struct perfan_load_opts *opts,
		       const struct perfan_load_triage_opts *topts)
{
	if (!out || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_triage: an argument is NULL");
	*out = NULL;
	struct perfan_load_triage_opts to;
	int rc = PERFAN__OPTS_COPY(to, topts);
	struct inputs *in = rc ? NULL : calloc(1, sizeof(*in));
	if (!in)
		return rc ? rc : perfan__nomem("triage");
	in->per_thread = to.per_thread;
	struct perfan_load_opts lo = opts ? *opts : PERFAN_LOAD_OPTS_INIT;
	lo.root = PERFAN_ROOT_COMM;
	struct perfan_report_opts ro =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	ro.sort = "dso,sym";
	ro.no_children = 1;
	rc = perfan_load_new(&in->cpu, &lo);
	if (!rc) {
		/* the off-CPU view reads it again: a stream is kept */
		in->cpu->o.keep_input = 1;
		rc = perfan_load_read(in->cpu, path);
	}
	if (!rc)
		rc = perfan_report_new(&in->plateaus, in->cpu->p, &ro);
	/* a GPU profiler's trace: its GPU analysis, as perfan gpu's; the
	 * views of a perf recording do not apply */
	const perfan_trace *trace = rc ? NULL : perfan_load_trace(in->cpu);
	if (trace)
		rc = perfan_gpu_new(&in->gpu, trace, to.gpu);
	if (!rc && !trace)
		rc = load_bound(in, &lo, cpu_column(in->cpu, path),
				in->cpu->info.name ? in->cpu->info.name : path);
	if (!rc && !trace)
		rc = load_wait(in, &lo, to.all_threads);
	if (!rc && to.stat)
		rc = load_stat(in, to.stat);
	/* a Python process whose computing threads wait for the GIL: its
	 * software verdict is GIL-bound */
	if (!rc && in->classify && in->gil)
		rc = perfan_classify_gil(in->classify,
					 perfan_gil_result(in->gil));
	if (!rc && to.nr_before)
		rc = load_before(in, path, &lo, &to);
	if (!rc)
		rc = triage(out, in,
			    in->cpu->info.name ? in->cpu->info.name : path);
	if (rc)
		release(in);
	return rc;
}
