/* analysis/offcpu_profile.c: perfan_offcpu_profile, a fold of the off-CPU
 * engine's intervals (and, for the wall view, of cpu-clock/task-clock
 * samples) into a profile in ns: each interval on its switch-out stack
 * under a "[off-cpu: STATE]" leaf, each stack under its process root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/offcpu_internal.h"
#include "analysis/stackmap.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"
#include "util/opts.h"

#define NO_FRAME ((perfan_frame_id)-1)

struct fold {
	perfan_profile *p;
	struct perfan_resolve_opts ro; /* the caller's: roots and filters */
	int col;
	struct perfan__stackmap sm; /* the stream's frames in P */
	/* each state's leaf, and each wait class's in each state (made
	 * when first met) */
	perfan_frame_id leaf[PERFAN_OFFCPU_NR_STATES][PERFAN_WAIT_NR_CLASSES];
	uint64_t filtered; /* samples the caller's filters left out */
	/* each thread's process frame, for the name and pid it was made
	 * for: naming it is a printf and a lookup */
	struct root {
		int32_t pid;
		perfan_frame_id id;
		char comm[64];
	} * roots;
	size_t nroots, caproots;
	struct perfan__htab root_of; /* tid -> index in roots */
	/* the caller's own callback, called after the fold's */
	int (*interval)(const struct perfan_offcpu_interval *iv, void *payload);
	void *payload;
};

static int root_id(struct fold *f, const char *comm, int32_t pid, int32_t tid,
		   perfan_frame_id *out)
{
	uint64_t *i = perfan__htab_get(&f->root_of, (uint64_t)(uint32_t)tid);
	struct root *r = i ? &f->roots[*i] : NULL;
	if (r && r->pid == pid &&
	    (comm ? !strcmp(r->comm, comm) : !r->comm[0])) {
		*out = r->id;
		return 0;
	}
	int err = perfan_profile_process_frame(f->p, out, f->ro.root, comm, pid,
					       tid);
	if (err)
		return err;
	if (comm && strlen(comm) >= sizeof(r->comm))
		return 0; /* (not cached: rare) */
	if (!r) {
		if (perfan__grow((void **)&f->roots, &f->caproots,
				 f->nroots + 1, sizeof(*f->roots)) ||
		    perfan__htab_put(&f->root_of, (uint64_t)(uint32_t)tid,
				     f->nroots))
			return perfan__nomem("off-CPU profile");
		r = &f->roots[f->nroots++];
	}
	r->pid = pid;
	r->id = *out;
	snprintf(r->comm, sizeof(r->comm), "%s", comm ? comm : "");
	return 0;
}

/* Add WEIGHT to the stack FRAMES (leaf first) of thread PID/TID under its
 * root, with LEAF (an off-CPU state's frame, or NO_FRAME) below it. */
static int add(struct fold *f, const char *comm, int32_t pid, int32_t tid,
	       const struct perfan_stream_frame *frames, size_t n,
	       perfan_frame_id leaf, uint64_t time, uint64_t weight)
{
	size_t k = f->ro.root != PERFAN_ROOT_NONE;
	int err = perfan__stackmap_path(&f->sm, k, frames, n, 1);
	if (!err && k)
		err = root_id(f, comm, pid, tid, &f->sm.path[0]);
	if (err)
		return err;
	k += n;
	if (leaf != NO_FRAME)
		f->sm.path[k++] = leaf;
	struct perfan_sample_meta meta = {time, pid, tid, -1};
	return perfan_profile_add(f->p, f->sm.path, k, (size_t)f->col, weight,
				  &meta, NULL);
}

/* The leaf of an interval in STATE that waited for WAIT: the class names
 * the time the thread was blocked; its run-queue delay after the wakeup,
 * and a preemption, keep their state's name. */
static int leaf_of(struct fold *f, uint32_t state, uint32_t wait,
		   perfan_frame_id *out)
{
	if (state == PERFAN_OFFCPU_WAKEUP_DELAY ||
	    state == PERFAN_OFFCPU_RUNQ || state == PERFAN_OFFCPU_UNSEEN ||
	    wait >= PERFAN_WAIT_NR_CLASSES)
		wait = PERFAN_WAIT_NONE;
	perfan_frame_id *l = &f->leaf[state][wait];
	if (*l == NO_FRAME) {
		char name[64];
		snprintf(name, sizeof(name), "[off-cpu: %s]",
			 wait ? perfan_wait_class_name(wait)
			      : perfan_offcpu_state_name(state));
		int err = perfan_profile_wait_frame(f->p, l, state, wait, name);
		if (err)
			return err;
	}
	*out = *l;
	return 0;
}

/* An interval the engine kept (the caller's filter: perfan_offcpu_opts). */
static int on_interval(const struct perfan_offcpu_interval *iv, void *payload)
{
	struct fold *f = payload;
	if (iv->end > iv->start) {
		perfan_frame_id leaf;
		int err = leaf_of(f, iv->state, iv->wait, &leaf);
		if (!err)
			err = add(f, iv->comm, iv->pid, iv->tid, iv->frames,
				  iv->nr_frames, leaf, iv->start,
				  iv->end - iv->start);
		if (err)
			return err;
	}
	return f->interval ? f->interval(iv, f->payload) : 0;
}

/* The wall view's on-CPU time: a cpu-clock or task-clock sample the
 * caller's filter keeps, weighed by its period (ns). */
static int on_cpu_sample(struct fold *f, const struct perfan_stream_event *ev)
{
	if (!perfan_filter_sample(&f->ro.filter, ev->pid, ev->tid, ev->cpu,
				  ev->comm, ev->time, ev->event->name)) {
		f->filtered++;
		return 0;
	}
	return add(f, ev->comm, ev->pid, ev->tid, ev->u.sample.frames,
		   ev->u.sample.nr_frames, NO_FRAME, ev->time,
		   ev->u.sample.period);
}

static int setup(struct fold *f, int view)
{
	int wall = view == PERFAN_VIEW_WALL;
	int col = perfan_profile_add_column(f->p, wall ? "wall" : "off-cpu",
					    "ns");
	if (col < 0)
		return col;
	f->col = col;
	perfan_profile_set_column_kind(f->p, (size_t)col,
				       wall ? PERFAN_COLUMN_WALL
					    : PERFAN_COLUMN_OFFCPU);
	for (uint32_t s = 0; s < PERFAN_OFFCPU_NR_STATES; s++) {
		for (uint32_t w = 0; w < PERFAN_WAIT_NR_CLASSES; w++)
			f->leaf[s][w] = NO_FRAME;
		/* the states' leaves first, in their order, as before */
		perfan_frame_id id;
		int err = leaf_of(f, s, PERFAN_WAIT_NONE, &id);
		if (err)
			return err;
	}
	return 0;
}

static int run(struct fold *f, perfan_stream *s, perfan_offcpu *oc, int view)
{
	const struct perfan_stream_event *ev;
	int err;
	while (!(err = perfan_stream_next(s, &ev))) {
		if ((err = perfan_offcpu_feed(oc, ev)))
			break;
		if (view == PERFAN_VIEW_WALL &&
		    ev->type == PERFAN_STREAM_SAMPLE &&
		    perfan__offcpu_is_cpu_clock(ev->event) &&
		    (err = on_cpu_sample(f, ev)))
			break;
	}
	if (err == PERFAN_ITEROVER)
		err = perfan_offcpu_finish(oc);
	return err;
}

int perfan_offcpu_profile(perfan_profile *p, perfan_perfdata *pd,
			  const struct perfan_resolve_opts *ro, int view,
			  const struct perfan_offcpu_opts *oo,
			  perfan_offcpu **result,
			  struct perfan_resolve_stats *stats)
{
	if (result)
		*result = NULL;
	if (stats)
		memset(stats, 0, sizeof(*stats));
	if (!p || !pd)
		return perfan__err_null(__func__, p ? "perfdata" : "profile");
	if (view != PERFAN_VIEW_OFFCPU && view != PERFAN_VIEW_WALL)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_offcpu_profile: no view %d", view);
	struct fold f = {.p = p, .ro = PERFAN_RESOLVE_OPTS_INIT, .sm.p = p};
	if (ro)
		memcpy(&f.ro, ro,
		       ro->sz < sizeof(f.ro) ? ro->sz : sizeof(f.ro));
	if (!f.ro.filter.sz)
		f.ro.filter.sz = sizeof(f.ro.filter);
	/* The engine sees every record (perfan_offcpu_opts' filter says
	 * why); the caller's filter, its event resolved, selects what it
	 * counts and delivers, and the on-CPU samples of the wall view. */
	struct perfan_filter want = f.ro.filter;
	int err = perfan_filter_resolve(&f.ro.filter, &want, pd);
	struct perfan_resolve_opts so = f.ro;
	so.filter = PERFAN_FILTER_INIT;
	struct perfan_offcpu_opts eo;
	int rc = PERFAN__OPTS_COPY(eo, oo);
	if (rc)
		return rc;
	f.interval = eo.interval;
	f.payload = eo.payload;
	eo.interval = on_interval;
	eo.payload = &f;
	eo.filter = &f.ro.filter;

	perfan_stream *s = NULL;
	perfan_offcpu *oc = NULL;
	if (!err)
		err = setup(&f, view);
	if (!err)
		err = perfan_stream_open(&s, pd, &so);
	if (!err)
		err = perfan_offcpu_new(&oc, s, &eo);
	if (!err)
		err = run(&f, s, oc, view);
	if (err == PERFAN_ENOMEM)
		perfan__err(err, "%s: out of memory in the off-CPU analysis",
			    perfan_perfdata_name(pd));
	/* kept after a damaged record too, with the stacks read before */
	if (s && perfan_stream_main_module(s)) {
		int merr = perfan_profile_set_main_module(
			p, perfan_stream_main_module(s));
		if (!err)
			err = merr;
	}
	if (stats && s) {
		*stats = *perfan_stream_stats(s);
		stats->samples_filtered += f.filtered;
	}
	if (result && oc) {
		/* the callback and the stream are gone with this call */
		perfan__offcpu_detach(oc);
		*result = oc;
	} else {
		perfan_offcpu_free(oc);
	}
	perfan_stream_free(s);
	perfan__stackmap_free(&f.sm);
	free(f.roots);
	perfan__htab_free(&f.root_of);
	return err;
}
