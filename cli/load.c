/* cli/load.c: one input into a profile through the library's registry of
 * sources, whatever its format, with the shared filters and symbol options, a progress line and the warnings and
 * errors a person needs; and two folded files as one differential
 * profile. */
#include "load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

void cli_load_init(struct cli_load_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->filter = PERFAN_FILTER_INIT;
	o->root = PERFAN_ROOT_COMM;
	o->python_view = -1;
	o->folded_annotations = 1; /* _[k] kernel frames and the like */
	o->threads = cli_default_threads();
}

int cli_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

int cli_parse_threads(const char *arg, int *out, const char *cmd)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (end == arg || *end || n < 1 || n > 1024) {
		fprintf(stderr,
			"perfan %s: --threads: '%s' is not a number of "
			"threads (1 to 1024)\n",
			cmd, arg);
		return -1;
	}
	*out = (int)n;
	return 0;
}

/* ---- options ------------------------------------------------------------- */

int cli_filter_set(struct perfan_filter *f, const char *name, const char *arg,
		   const char *cmd)
{
	if (perfan_filter_set(f, name, arg)) {
		cli_error(cmd, "%s", perfan_error_last());
		return -1;
	}
	return 0;
}

/* The filter an option of the shared set is, or NULL. */
static const char *filter_name(int opt)
{
	switch (opt) {
	case CLI_LOAD_O_PID: return "pid";
	case CLI_LOAD_O_TID: return "tid";
	case CLI_LOAD_O_CPU: return "cpu";
	case CLI_LOAD_O_COMM: return "comm";
	case CLI_LOAD_O_TIME: return "time";
	case CLI_LOAD_O_EVENT: return "event";
	default: return NULL;
	}
}

int cli_load_option(struct cli_load_opts *o, int opt, const char *arg,
		    const char *cmd)
{
	const char *bad = NULL, *filter = filter_name(opt);
	if (filter)
		return cli_filter_set(&o->filter, filter, arg, cmd) ? -1 : 1;
	switch (opt) {
	case CLI_LOAD_O_SAMPLES: o->samples = 1; break;
	case CLI_LOAD_O_PERIOD: o->samples = 0; break;
	case CLI_LOAD_O_INLINE: o->inline_frames = 1; break;
	case CLI_LOAD_O_SYMFS: o->symfs = arg; break;
	case CLI_LOAD_O_DEBUG_DIR: o->debug_dir = arg; break;
	case CLI_LOAD_O_BUILDID_DIR: o->buildid_dir = arg; break;
	case CLI_LOAD_O_KALLSYMS: o->kallsyms = arg; break;
	case CLI_LOAD_O_PERF_MAP_DIR: o->perf_map_dir = arg; break;
	case CLI_LOAD_O_JITDUMP_DIR: o->jitdump_dir = arg; break;
	case CLI_LOAD_O_OFFCPU: o->time_view = PERFAN_VIEW_OFFCPU; break;
	case CLI_LOAD_O_WALL: o->time_view = PERFAN_VIEW_WALL; break;
	case CLI_LOAD_O_LINENO: o->lineno = 1; break;
	case CLI_LOAD_O_THREADS:
		if (cli_parse_threads(arg, &o->threads, cmd))
			return -1;
		break;
	case CLI_LOAD_O_PYTHON:
		o->python_view = perfan_python_view_parse(arg);
		if (o->python_view < 0)
			bad = "--python: '%s' is none of native, mixed, python";
		break;
	default: return 0;
	}
	if (bad) {
		fprintf(stderr, "perfan %s: ", cmd);
		fprintf(stderr, bad, arg);
		fputc('\n', stderr);
		return -1;
	}
	return 1;
}

/* ---- the three inputs ------------------------------------------------------ */

void cli_load_resolve_opts(struct perfan_resolve_opts *ro,
			   const struct cli_load_opts *o)
{
	*ro = PERFAN_RESOLVE_OPTS_INIT;
	ro->symfs = o->symfs;
	ro->debug_dir = o->debug_dir;
	ro->buildid_dir = o->buildid_dir;
	ro->kallsyms = o->kallsyms;
	ro->perf_map_dir = o->perf_map_dir;
	ro->jitdump_dir = o->jitdump_dir;
	ro->inline_frames = o->inline_frames;
	ro->root = o->root;
	ro->weight = o->samples ? PERFAN_WEIGHT_SAMPLES : PERFAN_WEIGHT_PERIOD;
	ro->filter = o->filter;
	ro->addrs = o->addrs;
	ro->log = o->log ? o->log : cli_progress_log;
	ro->host = cli_host();
}

/* ---- off-CPU and wall-clock time ------------------------------------------- */

struct advice {
	const char *cmd;
	int errors;
};

static int print_advice(int level, const char *msg, void *payload)
{
	struct advice *a = payload;
	if (level == PERFAN_ADVICE_ERROR) {
		cli_error(a->cmd, "%s", msg);
		a->errors++;
	} else if (level == PERFAN_ADVICE_WARN) {
		cli_warn(a->cmd, "%s", msg);
	} else {
		cli_note(a->cmd, "%s", msg);
	}
	return 0;
}

int cli_load_offcpu(perfan_profile *p, perfan_perfdata *pd,
		    const struct perfan_resolve_opts *ro, int view,
		    const char *cmd, int quiet, perfan_offcpu **keep,
		    struct perfan_resolve_stats *st)
{
	struct perfan_offcpu_opts oo =
		PERFAN_OPTS_INIT(struct perfan_offcpu_opts);
	perfan_offcpu *an = NULL;
	if (ro->weight == PERFAN_WEIGHT_SAMPLES)
		cli_warn(cmd, "--samples does not apply to --off-cpu and "
			      "--wall: their weights are ns");
	int rc = perfan_offcpu_profile(p, pd, ro, view, &oo, &an, st);
	const struct perfan_offcpu_summary *s = an ? perfan_offcpu_summary(an)
						   : NULL;
	struct advice a = {.cmd = cmd};
	if (!rc && s && !quiet)
		perfan_threads_advice(s, view, print_advice, &a);
	if (keep)
		*keep = an;
	else
		perfan_offcpu_free(an);
	return rc ? rc : a.errors ? CLI_REPORTED : 0;
}

void cli_load_offcpu_input_error(const char *cmd, const char *name)
{
	cli_error(cmd,
		  "%s is not a perf.data: --off-cpu and --wall read the "
		  "switches perf record writes there (perf record -e "
		  "sched:sched_switch -e sched:sched_wakeup -e "
		  "cpu-clock/freq=999/ -g)",
		  name);
}

/* The source's options for O: the shared ones, and each format's. */
static void source_opts(struct perfan_source_opts *so,
			const struct cli_load_opts *o,
			const struct perfan_resolve_opts *ro)
{
	*so = PERFAN_OPTS_INIT(struct perfan_source_opts);
	so->root = o->root;
	so->count_samples = o->samples;
	so->event = o->filter.event;
	so->log = ro->log;
	so->on_read = cli_progress_add;
	so->script.kernel = o->kernel;
	so->script.jit = o->jit;
	so->script.addrs = o->addrs;
	so->script.compat = o->compat;
	so->folded.process_root = o->folded_process_root;
	so->folded.annotations = o->folded_annotations;
	so->folded.before_column = o->before_column;
	so->folded.prune = o->folded_prune;
	so->pyspy.lineno = o->lineno;
	so->threads = o->threads;
	so->perfdata.resolve = ro;
}

/* An input whose stacks are estimated (a cProfile dump) says so. */
static void estimated_note(const char *name, const char *cmd)
{
	cli_note(cmd,
		 "%s is a cProfile dump, which keeps call counts and times "
		 "per caller, not stacks: the stacks shown are estimated as "
		 "flameprof does, each function's time split over its "
		 "callers by their cumulative time (an approximation)",
		 name);
}

/* PD's samples or, with --off-cpu or --wall, its time profile. */
static int from_records(perfan_profile *p, perfan_source *src,
			const struct perfan_resolve_opts *ro,
			const struct cli_load_opts *o, const char *cmd,
			struct cli_load_result *res)
{
	struct perfan_perfdata_opts po =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	po.log = ro->log;
	po.threads = o->threads;
	perfan_perfdata *pd = NULL;
	int rc = perfan_source_perfdata(src, &pd, &po);
	if (!rc)
		rc = cli_load_offcpu(p, pd, ro, o->time_view, cmd,
				     o->quiet_advice,
				     o->keep_offcpu ? &res->offcpu : NULL,
				     &res->rst);
	perfan_perfdata_free(pd);
	return rc;
}

static int load(perfan_profile *p, const char *path,
		const struct cli_load_opts *o, const char *cmd,
		struct cli_load_result *res);

/* The options of perf.data given for an input that is not one. */
static void warn_options(const struct cli_load_opts *o, unsigned caps,
			 const char *name, const char *cmd)
{
	if (o->warn_options) {
		o->warn_options(o, caps, name, cmd);
		return;
	}
	if (!(caps & PERFAN_SOURCE_RECORDS) &&
	    (o->filter.pid >= 0 || o->filter.tid >= 0 || o->filter.cpu >= 0 ||
	     o->filter.comm || o->filter.time_start || o->filter.time_end ||
	     o->inline_frames || o->symfs || o->debug_dir || o->buildid_dir ||
	     o->kallsyms ||
	     (o->filter.event && !(caps & PERFAN_SOURCE_EVENTS))))
		cli_warn(cmd,
			 "%s is not a perf.data: --pid, "
			 "--tid, --comm, --cpu, --time, --inline, --symfs, "
			 "--debug-dir, --buildid-dir and --kallsyms (and "
			 "--event, but for perf script text) do not apply",
			 name);
}

/* Say so when a Python recording cannot show Python functions: stacks in
 * the interpreter without Python frames (Python ran without -X perf), or
 * with only the innermost one (frame pointers through a libpython built
 * without them, or perf's own unwinding). */
static void python_check(const perfan_profile *p, const char *name,
			 const char *cmd)
{
	size_t nn = perfan_profile_nr_nodes(p);
	if (!perfan_profile_nr_columns(p))
		return;
	uint64_t interp = 0, with = 0, deep = 0;
	for (perfan_node_id n = 1; n < nn; n++) {
		uint64_t w = perfan_profile_node_self(p, n, 0);
		if (!w)
			continue;
		int py = 0, lib = 0;
		for (perfan_node_id x = n; x != PERFAN_ROOT_NODE;
		     x = perfan_profile_node_parent(p, x)) {
			const struct perfan_frame *f = perfan_profile_frame_get(
				p, perfan_profile_node_frame(p, x));
			py += f->kind == PERFAN_FRAME_PYTHON;
			lib |= f->module && strstr(f->module, "libpython");
		}
		interp += lib ? w : 0;
		with += py ? w : 0;
		deep += py > 1 ? w : 0;
	}
	if (interp < 20 || deep * 2 >= interp)
		return;
	if (!with)
		cli_warn(cmd,
			 "%s: no Python function is on "
			 "these stacks: Python ran without -X perf, or the "
			 "stacks were taken with frame pointers (-g) through a "
			 "libpython built without them; run python 3.12+ with "
			 "-X perf (3.13+: -X perf_jit) and record with perf "
			 "record --call-graph dwarf,65528",
			 name);
	else
		cli_warn(cmd,
			 "%s: %llu of %llu samples in the "
			 "interpreter show fewer than two Python functions (a "
			 "libpython without frame pointers under perf record "
			 "-g?): record with --call-graph dwarf,65528 for whole "
			 "Python stacks",
			 name, (unsigned long long)(interp - deep),
			 (unsigned long long)interp);
}

/* The Python view O asks for, in place of *P. */
static int python_view(perfan_profile **p, const struct cli_load_opts *o,
		       const char *cmd)
{
	if (o->python_view == PERFAN_PY_NATIVE || !perfan_python_present(*p))
		return 0;
	perfan_profile *v;
	if (perfan_python_view(&v, *p,
			       o->python_view < 0 ? PERFAN_PY_PYTHON
						  : o->python_view)) {
		cli_error(cmd, "%s", perfan_error_last());
		return 1;
	}
	if (o->native) {
		perfan_profile_free(*o->native);
		*o->native = *p;
	} else {
		perfan_profile_free(*p);
	}
	*p = v;
	return 0;
}

static int load_whole(perfan_profile **p, const char *path,
		      const struct cli_load_opts *o, const char *cmd,
		      struct cli_load_result *res);

int cli_load(perfan_profile **p, const char *path,
	     const struct cli_load_opts *o, const char *cmd,
	     struct cli_load_result *res)
{
	int rc = load_whole(p, path, o, cmd, res);
	if (res->caps & PERFAN_SOURCE_RECORDS)
		python_check(*p, res->name, cmd);
	return python_view(p, o, cmd) ? 1 : rc;
}

/* cli_load without the Python view. */
static int load_whole(perfan_profile **p, const char *path,
		      const struct cli_load_opts *o, const char *cmd,
		      struct cli_load_result *res)
{
	int rc = load(*p, path, o, cmd, res);
	if (rc != PERFAN_EUNSUPPORTED)
		return rc ? 1 : 0;
	/* pruning met an unsorted file: read it whole */
	if (!strcmp(path, "-")) {
		cli_error(cmd, "%s", perfan_error_last());
		return 1;
	}
	if (res->size >= 64 << 20) /* worth knowing when it is large */
		cli_warn(cmd,
			 "%s is not sorted: read again "
			 "whole (sorted with LC_ALL=C sort it takes less "
			 "memory)",
			 res->name);
	perfan_profile *fresh;
	if (perfan_profile_new(&fresh, NULL)) {
		cli_error(cmd, "%s", perfan_error_last());
		return 1;
	}
	perfan_profile_free(*p);
	*p = fresh;
	struct cli_load_opts whole = *o;
	whole.folded_prune = 0;
	return load(*p, path, &whole, cmd, res) ? 1 : 0;
}

/* As cli_load_one, but a pruned read of folded stacks that met lines out
 * of order returns PERFAN_EUNSUPPORTED, unprinted. */
static int load(perfan_profile *p, const char *path,
		const struct cli_load_opts *o, const char *cmd,
		struct cli_load_result *res)
{
	memset(res, 0, sizeof(*res));
	res->name = strcmp(path, "-") ? path : "<stdin>";
	struct perfan_resolve_opts ro;
	cli_load_resolve_opts(&ro, o);
	ro.progress = cli_progress_at;
	struct perfan_source_opts so;
	source_opts(&so, o, &ro);
	perfan_source *src;
	if (perfan_source_open(&src, path, &so)) {
		cli_error(cmd, "%s", perfan_error_last());
		return 1;
	}
	res->size = perfan_source_size(src);
	res->format = perfan_source_format(src);
	unsigned caps = res->caps = perfan_source_caps(src);
	warn_options(o, caps, res->name, cmd);
	if (o->time_view && !(caps & PERFAN_SOURCE_RECORDS)) {
		cli_load_offcpu_input_error(cmd, res->name);
		perfan_source_free(src);
		return 1;
	}
	res->read = 1;
	cli_progress_start(cmd, res->name, res->size);
	struct perfan_source_stats st;
	memset(&st, 0, sizeof(st));
	int rc = o->time_view ? from_records(p, src, &ro, o, cmd, res)
		 : o->calls && (caps & PERFAN_SOURCE_CALLS)
			 ? perfan_source_pstats(src, o->calls)
			 : perfan_source_load(src, p, &st);
	if (!rc && !o->calls && (caps & PERFAN_SOURCE_ESTIMATED))
		estimated_note(res->name, cmd);
	if (!o->time_view) {
		res->rst = st.resolve;
		res->sst = st.script;
	}
	cli_progress_end();
	perfan_source_free(src);
	if (rc == PERFAN_EUNSUPPORTED && (caps & PERFAN_SOURCE_PRUNED) &&
	    o->folded_prune > 0)
		return rc;
	if (rc && rc != CLI_REPORTED)
		cli_error(cmd, "%s", perfan_error_last());
	return rc ? 1 : 0;
}

int cli_load_one(perfan_profile *p, const char *path,
		 const struct cli_load_opts *o, const char *cmd,
		 struct cli_load_result *res)
{
	struct cli_load_opts whole = *o;
	whole.folded_prune = 0;
	return load(p, path, &whole, cmd, res);
}

/* ---- two folded files as one -------------------------------------------- */

/* Open BEFORE (SRC[0]) and AFTER (SRC[1]) with O's options pruned by
 * PRUNE. Returns 1 when both are of a format read in pairs, in regular
 * files, 0 when not, -1 after an error (printed). */
static int open_pair(perfan_source *src[2], const char *before,
		     const char *after, const struct cli_load_opts *o,
		     double prune, const char *cmd)
{
	src[0] = src[1] = NULL;
	/* peeking at a pipe would take bytes cli_load then lacks */
	struct stat sb;
	if (!strcmp(before, "-") || !strcmp(after, "-") || stat(before, &sb) ||
	    !S_ISREG(sb.st_mode) || stat(after, &sb) || !S_ISREG(sb.st_mode))
		return 0;
	struct perfan_resolve_opts ro;
	cli_load_resolve_opts(&ro, o);
	struct perfan_source_opts so;
	source_opts(&so, o, &ro);
	so.folded.prune = prune;
	if (perfan_source_open(&src[0], before, &so) ||
	    perfan_source_open(&src[1], after, &so)) {
		cli_error(cmd, "%s", perfan_error_last());
		return -1;
	}
	for (int i = 0; i < 2; i++)
		if (!perfan_source_size(src[i]) ||
		    !(perfan_source_caps(src[i]) & PERFAN_SOURCE_PAIRED) ||
		    perfan_source_format(src[i]) !=
			    perfan_source_format(src[1 - i]))
			return 0;
	return 1;
}

/* Both opened inputs into P. Returns 0 or a PERFAN_E* code. */
static int read_pair(perfan_profile *p, perfan_source *src[2], const char *cmd)
{
	char what[160];
	snprintf(what, sizeof(what), "%s and %s", perfan_source_name(src[0]),
		 perfan_source_name(src[1]));
	cli_progress_start(cmd, what,
			   perfan_source_size(src[0]) +
				   perfan_source_size(src[1]));
	int rc = perfan_source_load_pair(p, src[0], src[1], CLI_LOAD_BEFORE,
					 CLI_LOAD_AFTER);
	cli_progress_end();
	return rc;
}

static void close_pair(perfan_source *src[2])
{
	perfan_source_free(src[0]);
	perfan_source_free(src[1]);
	src[0] = src[1] = NULL;
}

/* A new profile with the columns of a differential graph. */
static int pair_profile(perfan_profile **out, const char *cmd)
{
	*out = NULL;
	if (perfan_profile_new(out, NULL) ||
	    perfan_profile_add_column(*out, CLI_LOAD_AFTER, "samples") < 0 ||
	    perfan_profile_add_column(*out, CLI_LOAD_BEFORE, "samples") < 0) {
		cli_error(cmd, "%s", perfan_error_last());
		perfan_profile_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

int cli_load_folded_pair(perfan_profile **p, const char *before,
			 const char *after, const struct cli_load_opts *o,
			 const char *cmd)
{
	perfan_source *src[2];
	perfan_profile *np = NULL;
	if (o->time_view)
		return -1; /* each alone: perf.data, or the error saying so */
	int k = open_pair(src, before, after, o, o->folded_prune, cmd), rc = 0;
	if (k > 0) {
		warn_options(o, perfan_source_caps(src[0]),
			     perfan_source_name(src[0]), cmd);
		warn_options(o, perfan_source_caps(src[1]),
			     perfan_source_name(src[1]), cmd);
		rc = pair_profile(&np, cmd) ? CLI_REPORTED
					    : read_pair(np, src, cmd);
	}
	uint64_t size = perfan_source_size(src[0]) + perfan_source_size(src[1]);
	close_pair(src);
	if (k <= 0)
		return k < 0 ? 1 : -1;
	if (rc == PERFAN_EUNSUPPORTED && o->folded_prune > 0) {
		/* pruning met a file out of order: read both whole */
		if (size >= 64 << 20)
			cli_warn(cmd,
				 "%s and %s are not both "
				 "sorted: read again whole (sorted with "
				 "LC_ALL=C sort they take less memory)",
				 before, after);
		perfan_profile_free(np);
		np = NULL;
		k = open_pair(src, before, after, o, 0, cmd);
		rc = k <= 0 || pair_profile(&np, cmd) ? CLI_REPORTED
						      : read_pair(np, src, cmd);
		close_pair(src);
		if (k == 0) /* changed under us */
			cli_error(cmd, "%s and %s are no longer folded stacks",
				  before, after);
	}
	if (rc && rc != CLI_REPORTED)
		cli_error(cmd, "%s", perfan_error_last());
	if (np) { /* what was read before an error too */
		perfan_profile_free(*p);
		*p = np;
	}
	return rc ? 1 : 0;
}

double cli_load_prune_for(const struct perfan_flamegraph_opts *fo)
{
	if (fo->reverse || fo->flamechart)
		return 0;
	double mw = fo->minwidth < 0 ? 0.1 : fo->minwidth;
	double px = (fo->width > 0 ? fo->width : 1200) - 20;
	return fo->minwidth_percent ? mw / 100 : px > 0 ? mw / px : 0;
}

size_t cli_load_pick_column(const perfan_profile *p, const char *event,
			    const char *skip, const char *name, const char *cmd)
{
	size_t n = perfan_profile_nr_columns(p), pick = n, with = 0, first = n;
	for (size_t i = 0; i < n; i++) {
		const char *cname = perfan_profile_column_name(p, i);
		if (skip && !strcmp(cname, skip))
			continue;
		if (first == n)
			first = i;
		if (event && !strcmp(cname, event))
			return i;
		if (perfan_profile_total(p, i)) {
			with++;
			if (pick == n)
				pick = i;
		}
	}
	if (with > 1)
		cli_warn(cmd,
			 "%s has samples of %zu events; "
			 "these are of %s (--event NAME for another)",
			 name, with, perfan_profile_column_name(p, pick));
	return pick < n ? pick : first < n ? first : 0;
}
