/* load/load.c: perfan_load: one input after another into a profile through
 * the registry of sources: the fold of a perf.data through the resolver or
 * its time view (off-CPU, wall), text formats as their readers read them,
 * an unsorted folded file read pruned started again whole, the Python
 * view; what the input cannot answer goes to the caller's advice
 * callback. */
#include "load/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/annotate.h>
#include <perfan/critical.h>
#include <perfan/dump.h>
#include <perfan/gil.h>
#include <perfan/offcpu.h>
#include <perfan/python.h>
#include <perfan/threads.h>
#include <perfan/timeline.h>

#include "sources/read.h"
#include "util/error.h"
#include "util/opts.h"

/* ---- options ------------------------------------------------------------- */

void perfan_load_resolve_opts(struct perfan_resolve_opts *ro,
			      const struct perfan_load_opts *o)
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
	ro->weight = o->count_samples ? PERFAN_WEIGHT_SAMPLES
				      : PERFAN_WEIGHT_PERIOD;
	/* the filter: the stream applies it, for the fold and the time view */
	if (o->filter.sz)
		ro->filter = o->filter;
	ro->addrs = o->addrs;
	ro->log = o->log;
	ro->log_payload = o->log_payload;
	ro->host = o->host;
}

static void on_read(uint64_t n, void *payload)
{
	const perfan_load *l = payload;
	if (l->o.progress)
		l->o.progress(PERFAN_LOAD_READ, l->info.name, n,
			      l->o.progress_payload);
}

static void on_offset(uint64_t off, void *payload)
{
	const perfan_load *l = payload;
	if (l->o.progress)
		l->o.progress(PERFAN_LOAD_AT, l->info.name, off,
			      l->o.progress_payload);
}

static void progress(const perfan_load *l, int what, uint64_t value)
{
	if (l->o.progress)
		l->o.progress(what, l->info.name, value, l->o.progress_payload);
}

void perfan__load_source_opts(struct perfan_source_opts *so,
			      const perfan_load *l,
			      const struct perfan_resolve_opts *ro,
			      double prune)
{
	const struct perfan_load_opts *o = &l->o;
	*so = PERFAN_OPTS_INIT(struct perfan_source_opts);
	so->root = o->root;
	so->count_samples = o->count_samples;
	so->event = ro->filter.event;
	so->log = ro->log;
	so->log_payload = ro->log_payload;
	so->on_read = on_read;
	so->read_payload = (void *)l;
	so->script.kernel = o->kernel;
	so->script.jit = o->jit;
	so->script.addrs = o->addrs;
	so->script.compat = o->compat;
	so->folded.process_root = o->folded_process_root;
	so->folded.annotations = o->folded_annotations;
	so->folded.before_column = o->before_column;
	so->folded.prune = prune;
	so->pyspy.lineno = o->lineno;
	so->threads = o->threads;
	so->perfdata.resolve = ro;
}

/* ---- the handle ------------------------------------------------------------ */

int perfan__load_profile_new(const perfan_load *l, perfan_profile **out)
{
	struct perfan_profile_opts po =
		PERFAN_OPTS_INIT(struct perfan_profile_opts);
	po.keep_samples = l->o.keep_samples;
	return perfan_profile_new(out, &po);
}

int perfan_load_new(perfan_load **out, const struct perfan_load_opts *opts)
{
	if (!out)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_new: out is NULL");
	*out = NULL;
	perfan_load *l = calloc(1, sizeof(*l));
	if (!l)
		return perfan__err(PERFAN_ENOMEM, "out of memory");
	int rc = 0;
	if (opts)
		rc = PERFAN__OPTS_COPY(l->o, opts);
	else
		l->o = PERFAN_LOAD_OPTS_INIT;
	if (!l->o.filter.sz)
		l->o.filter = PERFAN_FILTER_INIT;
	if (!rc)
		rc = perfan__load_profile_new(l, &l->p);
	if (rc) {
		free(l);
		return rc;
	}
	*out = l;
	return 0;
}

void perfan_load_free(perfan_load *l)
{
	if (!l)
		return;
	perfan_profile_free(l->p);
	perfan_profile_free(l->native);
	perfan_profile_free(l->waits);
	perfan_pstats_free(l->calls);
	perfan_offcpu_free(l->offcpu);
	perfan_trace_free(l->trace);
	perfan_thread_names_free(l->names);
	perfan_perfdata_free(l->time_pd);
	perfan_source_free(l->src);
	free(l->period_event);
	free(l);
}

perfan_profile *perfan_load_profile(const perfan_load *l)
{
	return l ? l->p : NULL;
}

perfan_profile *perfan_load_native(const perfan_load *l)
{
	return l ? l->native : NULL;
}

const perfan_thread_names *perfan_load_thread_names(const perfan_load *l)
{
	return l ? l->names : NULL;
}

perfan_pstats *perfan_load_calls(const perfan_load *l)
{
	return l ? l->calls : NULL;
}

perfan_offcpu *perfan_load_offcpu(const perfan_load *l)
{
	return l ? l->offcpu : NULL;
}

const perfan_trace *perfan_load_trace(const perfan_load *l)
{
	return l ? l->trace : NULL;
}

const struct perfan_load_info *perfan_load_info(const perfan_load *l)
{
	return l ? &l->info : NULL;
}

const perfan_perfdata *perfan_load_reader(const perfan_load *l)
{
	if (!l)
		return NULL;
	return l->time_pd ? l->time_pd : perfan_source_reader(l->src);
}

/* ---- off-CPU and wall-clock time ------------------------------------------- */

/* P is a Python program's, by its frames, or by its threads' names when
 * the time view has no frame to tell (a recording without switches). */
static int python_threads(const perfan_profile *p,
			  const struct perfan_offcpu_summary *s)
{
	if (perfan__load_python_recording(p))
		return 1;
	for (size_t i = 0; i < s->nr_threads; i++)
		if (s->threads[i].comm &&
		    !strncmp(s->threads[i].comm, "python", 6))
			return 1;
	return 0;
}

/* PD's time profile into P, and what the recording cannot answer. */
static int time_view(perfan_load *l, perfan_profile *p, perfan_perfdata *pd,
		     const struct perfan_resolve_opts *ro)
{
	struct perfan_offcpu_opts oo =
		PERFAN_OPTS_INIT(struct perfan_offcpu_opts);
	perfan_offcpu *an = NULL;
	int view = l->o.time_view;
	if (ro->weight == PERFAN_WEIGHT_SAMPLES)
		perfan__load_advise(l, PERFAN_ADVICE_WARN,
				    "--samples does not apply to --off-cpu and "
				    "--wall: their weights are ns");
	int rc = perfan_offcpu_profile(p, pd, ro, view, &oo, &an,
				       &l->info.resolve);
	const struct perfan_offcpu_summary *s = an ? perfan_offcpu_summary(an)
						   : NULL;
	int errors = l->advice_errors;
	if (!rc && s && !(l->o.quiet_advice & PERFAN_LOAD_QUIET_VIEW))
		perfan__load_time_advice(l, s, view, python_threads(p, s));
	perfan_offcpu_free(l->offcpu);
	l->offcpu = an;
	return rc ? rc : l->advice_errors > errors ? PERFAN_LOAD_ADVISED : 0;
}

/* SRC's records as the time view. */
static int from_records(perfan_load *l, perfan_profile *p, perfan_source *src,
			const struct perfan_resolve_opts *ro)
{
	struct perfan_perfdata_opts po =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	po.log = ro->log;
	po.log_payload = ro->log_payload;
	po.threads = l->o.threads;
	int rc = perfan_source_perfdata(src, &l->time_pd, &po);
	if (!rc)
		rc = time_view(l, p, l->time_pd, ro);
	return rc; /* the reader stays (perfan_load_reader) */
}

/* ---- one input --------------------------------------------------------------- */

int perfan__load_opened(perfan_load *l, const struct perfan_load_info *info)
{
	const struct perfan_load_opts *o = &l->o;
	if (o->opened)
		return o->opened(info, o->opened_payload);
	const struct perfan_filter *f = &o->filter;
	unsigned caps = info->caps;
	if (!(caps & PERFAN_SOURCE_RECORDS) &&
	    (f->pid >= 0 || f->tid >= 0 || f->cpu >= 0 || f->comm ||
	     f->time_start || f->time_end || o->inline_frames || o->symfs ||
	     o->debug_dir || o->buildid_dir || o->kallsyms ||
	     (f->event && !(caps & PERFAN_SOURCE_EVENTS))))
		perfan__load_advise(
			l, PERFAN_ADVICE_WARN,
			"%s is not a perf.data: --pid, "
			"--tid, --comm, --cpu, --time, --inline, --symfs, "
			"--debug-dir, --buildid-dir and --kallsyms (and "
			"--event, but for perf script text) do not apply",
			info->name);
	return 0;
}

/* A new read of the input named NAME: what the last one kept goes. */
static void begin(perfan_load *l, const char *name)
{
	struct perfan_load_info *in = &l->info;
	size_t inputs = in->inputs;
	memset(in, 0, sizeof(*in));
	in->inputs = inputs;
	in->name = name;
	perfan_perfdata_free(l->time_pd);
	perfan_source_free(l->src);
	l->time_pd = NULL;
	l->src = NULL;
}

/* The resolver's and the source's options of L, folded pruned by PRUNE
 * (SO points to RO). */
static void read_opts(perfan_load *l, struct perfan_resolve_opts *ro,
		      struct perfan_source_opts *so, double prune)
{
	perfan_load_resolve_opts(ro, &l->o);
	ro->progress = on_offset;
	ro->progress_payload = l;
	perfan__load_source_opts(so, l, ro, prune);
}

/* The stacks and strings of the input just read into P cut to the
 * profile's caps (since STACKS0 and NAMES0), each said once. */
static void cuts(perfan_load *l, const perfan_profile *p, uint64_t stacks0,
		 uint64_t names0)
{
	uint64_t stacks, names;
	perfan_profile_cuts(p, &stacks, &names);
	if (stacks > stacks0)
		perfan__load_advise(
			l, PERFAN_ADVICE_WARN,
			"%s: %llu stacks deeper than %d frames were cut to "
			"their %d frames nearest the root",
			l->info.name, (unsigned long long)(stacks - stacks0),
			PERFAN_MAX_STACK_DEPTH, PERFAN_MAX_STACK_DEPTH);
	if (names > names0)
		perfan__load_advise(l, PERFAN_ADVICE_WARN,
				    "%s: %llu names longer than %d bytes were "
				    "cut to that length",
				    l->info.name,
				    (unsigned long long)(names - names0),
				    PERFAN_MAX_NAME);
}

/* SRC, opened with RO, into P; L->info says what it was, L keeps SRC. */
static int read_src(perfan_load *l, perfan_profile *p, perfan_source *src,
		    const struct perfan_resolve_opts *ro)
{
	struct perfan_load_info *in = &l->info;
	in->size = perfan_source_size(src);
	in->format = perfan_source_format(src);
	unsigned caps = in->caps = perfan_source_caps(src);
	int rc = perfan__load_opened(l, in);
	if (!rc && l->o.time_view && !(caps & PERFAN_SOURCE_RECORDS))
		rc = perfan__err(PERFAN_EINVAL,
				 "%s is not a perf.data: --off-cpu and --wall "
				 "read the switches perf record writes there "
				 "(perfan record --wall -- COMMAND)",
				 in->name);
	if (rc) {
		perfan_source_free(src);
		return rc;
	}
	l->src = src;
	in->read = 1;
	in->inputs++;
	progress(l, PERFAN_LOAD_START, in->size);
	struct perfan_source_stats st;
	memset(&st, 0, sizeof(st));
	uint64_t stacks0, names0;
	perfan_profile_cuts(p, &stacks0, &names0);
	if (l->o.time_view) {
		rc = from_records(l, p, src, ro);
	} else if (l->o.want_calls && (caps & PERFAN_SOURCE_CALLS)) {
		perfan_pstats_free(l->calls);
		l->calls = NULL;
		rc = perfan_source_pstats(src, &l->calls);
	} else if (caps & PERFAN_SOURCE_TRACE) {
		/* the trace is kept for what reads it (speedscope's
		 * timelines, the GPU analysis), the profile made of it
		 * unless only the trace is read */
		perfan_trace_free(l->trace);
		rc = perfan_source_trace(src, &l->trace);
		if (!rc && !l->trace_only)
			rc = perfan_trace_profile(l->trace, p, l->o.root);
	} else {
		rc = perfan_source_load(src, p, &st);
	}
	if (!rc && !l->o.want_calls && (caps & PERFAN_SOURCE_ESTIMATED))
		perfan__load_advise(
			l, PERFAN_ADVICE_NOTE,
			"%s is a cProfile dump, which keeps call counts and "
			"times per caller, not stacks: the stacks shown are "
			"estimated as flameprof does, each function's time "
			"split over its callers by their cumulative time (an "
			"approximation)",
			in->name);
	if (!l->o.time_view) {
		in->resolve = st.resolve;
		in->script = st.script;
	}
	cuts(l, p, stacks0, names0);
	progress(l, PERFAN_LOAD_END, 0);
	return rc;
}

/* PATH into P, folded pruned by PRUNE. */
static int read_one(perfan_load *l, perfan_profile *p, const char *path,
		    double prune)
{
	begin(l, strcmp(path, "-") ? path : "<stdin>");
	struct perfan_resolve_opts ro;
	struct perfan_source_opts so;
	read_opts(l, &ro, &so, prune);
	perfan_source *src;
	int rc = perfan_source_open(&src, path, &so);
	if (rc)
		return rc;
	if (l->o.keep_input)
		perfan__source_keep(src);
	return read_src(l, p, src, &ro);
}

static int open_reader(perfan_load *l);

/* PATH opened as a perf.data for an analysis that reads its stream
 * itself (annotate, the GIL ledger): L's reader (perfan_load_reader) and
 * *RO, the resolver's options L's stand for. */
static int open_perfdata(perfan_load *l, const char *path,
			 struct perfan_resolve_opts *ro)
{
	begin(l, strcmp(path, "-") ? path : "<stdin>");
	struct perfan_source_opts so;
	read_opts(l, ro, &so, 0);
	int rc = perfan_source_open(&l->src, path, &so);
	return rc ? rc : open_reader(l);
}

/* L's source as a perf.data reader (perfan_load_reader). */
static int open_reader(perfan_load *l)
{
	int rc;
	struct perfan_load_info *in = &l->info;
	in->size = perfan_source_size(l->src);
	in->format = perfan_source_format(l->src);
	in->caps = perfan_source_caps(l->src);
	/* the reader's own warnings are not the analysis' */
	struct perfan_perfdata_opts po =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	po.threads = l->o.threads;
	rc = perfan_source_perfdata(l->src, &l->time_pd, &po);
	if (rc)
		return rc;
	in->read = 1;
	in->inputs++;
	return 0;
}

int perfan_load_annotate(perfan_annotate **out, perfan_load *l,
			 const char *path,
			 const struct perfan_annotate_opts *ao)
{
	if (!out || !l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_annotate: an argument is NULL");
	*out = NULL;
	struct perfan_resolve_opts ro;
	int rc = open_perfdata(l, path, &ro);
	if (rc)
		return rc;
	progress(l, PERFAN_LOAD_START, l->info.size);
	rc = perfan_annotate_perfdata(out, l->time_pd, &ro, ao);
	progress(l, PERFAN_LOAD_END, 0);
	return rc;
}

int perfan_load_gil(perfan_gil **out, perfan_load *l, const char *path,
		    const struct perfan_gil_opts *go)
{
	if (!out || !l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_gil: an argument is NULL");
	*out = NULL;
	struct perfan_resolve_opts ro;
	int rc = open_perfdata(l, path, &ro);
	return rc ? rc : perfan__load_gil_read(out, l, &ro, go);
}

int perfan__load_gil_read(perfan_gil **out, perfan_load *l,
			  const struct perfan_resolve_opts *ro,
			  const struct perfan_gil_opts *go)
{
	struct perfan_gil_opts o = PERFAN_OPTS_INIT(struct perfan_gil_opts);
	if (go)
		memcpy(&o, go, go->sz < sizeof(o) ? go->sz : sizeof(o));
	o.sz = sizeof(o);
	if (!o.filter)
		o.filter = &l->o.filter; /* the load's own filters */
	if (!go) /* the load's Python view, python by default */
		o.python_view = l->o.python_view < 0 ? PERFAN_PY_PYTHON
						     : l->o.python_view;
	progress(l, PERFAN_LOAD_START, l->info.size);
	int rc = perfan_gil_perfdata(out, l->time_pd, ro, &o);
	progress(l, PERFAN_LOAD_END, 0);
	/* what the switches it read can say, as the off-CPU view's */
	int errors = l->advice_errors;
	if (!rc && !(l->o.quiet_advice & PERFAN_LOAD_QUIET_VIEW))
		perfan__load_time_advice(l, perfan_gil_result(*out)->offcpu,
					 PERFAN_VIEW_OFFCPU, 1);
	return rc ? rc : l->advice_errors > errors ? PERFAN_LOAD_ADVISED : 0;
}

int perfan_load_critical(perfan_critical **out, perfan_load *l,
			 const char *path,
			 const struct perfan_critical_opts *co)
{
	if (!out || !l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_critical: an argument is NULL");
	*out = NULL;
	struct perfan_critical_opts o =
		PERFAN_OPTS_INIT(struct perfan_critical_opts);
	if (co)
		memcpy(&o, co, co->sz < sizeof(o) ? co->sz : sizeof(o));
	o.sz = sizeof(o);
	/* the load's --tid and --time, where CO does not say */
	const struct perfan_filter *f = &l->o.filter;
	if (o.tid <= 0 && f->tid > 0)
		o.tid = (int32_t)f->tid;
	if (!o.start && !o.end) {
		o.start = f->time_start;
		o.end = f->time_end;
	}
	if (!co)
		o.python_view = l->o.python_view < 0 ? PERFAN_PY_PYTHON
						     : l->o.python_view;
	if (o.tid <= 0)
		return perfan__err(PERFAN_EINVAL,
				   "%s: the critical path "
				   "needs a thread (--tid TID)",
				   path);
	struct perfan_resolve_opts ro;
	int rc = open_perfdata(l, path, &ro);
	if (rc)
		return rc;
	progress(l, PERFAN_LOAD_START, l->info.size);
	rc = perfan_critical_perfdata(out, l->time_pd, &ro, &o);
	progress(l, PERFAN_LOAD_END, 0);
	return rc;
}

int perfan__load_open_again(perfan_load *l, const perfan_load *from,
			    struct perfan_resolve_opts *ro)
{
	if (!from->src)
		return perfan__err(PERFAN_EINVAL, "no input was read");
	begin(l, from->info.name);
	struct perfan_source_opts so;
	read_opts(l, ro, &so, 0);
	int rc = perfan__source_reopen(&l->src, from->src, &so);
	return rc ? rc : open_reader(l);
}

int perfan_load_dump(perfan_dump **out, perfan_load *l, const char *path,
		     const struct perfan_dump_opts *dopts)
{
	if (!out || !l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_dump: an argument is NULL");
	*out = NULL;
	struct perfan_dump_opts o = PERFAN_OPTS_INIT(struct perfan_dump_opts);
	if (dopts)
		memcpy(&o, dopts,
		       dopts->sz < sizeof(o) ? dopts->sz : sizeof(o));
	o.sz = sizeof(o);
	if (o.pid <= 0 && l->o.filter.pid > 0)
		o.pid = (int32_t)l->o.filter.pid; /* the load's --pid */
	struct perfan_resolve_opts ro;
	int rc = open_perfdata(l, path, &ro);
	if (rc)
		return rc;
	progress(l, PERFAN_LOAD_START, l->info.size);
	rc = perfan_dump_perfdata(out, l->time_pd, &ro, &o);
	progress(l, PERFAN_LOAD_END, 0);
	return rc;
}

int perfan_load_timeline(perfan_timeline **out, perfan_load *l,
			 const char *path,
			 const struct perfan_timeline_opts *topts)
{
	if (!out || !l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_timeline: an argument is NULL");
	*out = NULL;
	struct perfan_timeline_opts o =
		PERFAN_OPTS_INIT(struct perfan_timeline_opts);
	if (topts)
		memcpy(&o, topts,
		       topts->sz < sizeof(o) ? topts->sz : sizeof(o));
	o.sz = sizeof(o);
	if (!o.filter)
		o.filter = &l->o.filter; /* the load's --pid, --tid, --time */
	struct perfan_resolve_opts ro;
	int rc = open_perfdata(l, path, &ro);
	if (rc)
		return rc;
	progress(l, PERFAN_LOAD_START, l->info.size);
	rc = perfan_timeline_perfdata(out, l->time_pd, &ro, &o);
	progress(l, PERFAN_LOAD_END, 0);
	return rc;
}

/* PATH into L's profile; a pruned read that met an unsorted file starts
 * again whole, in a new profile. */
static int read_whole(perfan_load *l, const char *path)
{
	double prune = l->o.folded_prune;
	int rc = read_one(l, l->p, path, prune);
	if (rc != PERFAN_EUNSUPPORTED ||
	    !(l->info.caps & PERFAN_SOURCE_PRUNED) || !(prune > 0))
		return rc;
	if (!strcmp(path, "-"))
		return rc;            /* a stream cannot be read again */
	if (l->info.size >= 64 << 20) /* worth knowing when it is large */
		perfan__load_advise(l, PERFAN_ADVICE_WARN,
				    "%s is not sorted: read again whole "
				    "(sorted with LC_ALL=C sort it takes less "
				    "memory)",
				    l->info.name);
	perfan_profile *fresh;
	rc = perfan__load_profile_new(l, &fresh);
	if (rc)
		return rc;
	perfan_profile_free(l->p);
	l->p = fresh;
	l->info.inputs--;
	return read_one(l, l->p, path, 0);
}

/* A time view's waits shown without the kernel's scheduler frames under
 * their leaves (unless kernel_detail), the profile that has them kept for
 * the analyses that read them. */
static int fold_kernel(perfan_load *l)
{
	if (!l->o.time_view || l->o.kernel_detail || !l->offcpu)
		return 0;
	static const struct perfan__reshape fold = {.fold_kernel = 1};
	perfan_profile *folded;
	int rc = perfan__load_reshape(&folded, l->p, &fold);
	if (rc)
		return rc;
	perfan_profile_free(l->waits);
	l->waits = l->p;
	l->p = folded;
	return 0;
}

/* What every read ends with, after RC: the Python check and view, the
 * kernel's frames of waits folded. */
static int after_read(perfan_load *l, int rc)
{
	if ((l->info.caps & PERFAN_SOURCE_RECORDS) &&
	    !(l->o.quiet_advice & PERFAN_LOAD_QUIET_PYTHON))
		perfan__load_python_check(l);
	int vrc = perfan__load_python_view(l);
	if (!vrc)
		vrc = fold_kernel(l);
	return l->read_rc = vrc ? vrc : rc;
}

int perfan_load_read(perfan_load *l, const char *path)
{
	if (!l || !path)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_read: an argument is NULL");
	return after_read(l, read_whole(l, path));
}

int perfan_load_again(perfan_load **out, const perfan_load *from,
		      const struct perfan_load_opts *opts)
{
	if (!out || !from)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_again: an argument is NULL");
	*out = NULL;
	if (!from->src)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_again: no input was read");
	int rc = perfan_load_new(out, opts);
	if (rc)
		return rc;
	perfan_load *l = *out;
	begin(l, from->info.name);
	struct perfan_resolve_opts ro;
	struct perfan_source_opts so;
	read_opts(l, &ro, &so, 0);
	perfan_source *src;
	rc = perfan__source_reopen(&src, from->src, &so);
	return after_read(l, rc ? rc : read_src(l, l->p, src, &ro));
}

int perfan_load_open(perfan_load **out, const char *path,
		     const struct perfan_load_opts *opts)
{
	int rc = perfan_load_new(out, opts);
	return rc ? rc : perfan_load_read(*out, path);
}
