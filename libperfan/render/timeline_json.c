/* render/timeline_json.c: the timeline's data as one JSON object: flat
 * arrays of integers (lengths, ns from the one before, indices into the
 * tables of kinds, classes, frames and stacks), so that a page of 64
 * threads over a minute stays small. */
#include <perfan/offcpu.h>
#include <perfan/profile.h>
#include <perfan/python.h>
#include <perfan/timeline.h>
#include <perfan/waits.h>

#include "render/json.h"
#include "render/timeline.h"

static int64_t id(uint32_t v)
{
	return v == PERFAN_TIMELINE_NONE ? -1 : (int64_t)v;
}

static void lanes(struct perfan__json *j,
		  const struct perfan_timeline_result *r)
{
	perfan__json_open_lines(j, "lanes", '[');
	for (size_t i = 0; i < r->nr_lanes; i++) {
		const struct perfan_timeline_lane *l = &r->lanes[i];
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "comm", l->comm);
		perfan__json_str(j, "name", l->name);
		perfan__json_str(j, "role", l->role);
		perfan__json_i64(j, "pool",
				 l->pool == PERFAN_NO_POOL ? -1
							   : (int64_t)l->pool);
		perfan__json_i64(j, "pid", l->pid);
		perfan__json_i64(j, "tid", l->tid);
		perfan__json_u64(j, "start", l->start - r->start);
		perfan__json_u64(j, "end", l->end - r->start);
		perfan__json_u64(j, "on_cpu", l->on_cpu);
		perfan__json_open_tight(j, "time", '[');
		for (int k = 0; k < PERFAN_TIMELINE_NR_KINDS; k++)
			perfan__json_u64(j, NULL, l->time[k]);
		perfan__json_close(j, ']');
		perfan__json_open_tight(j, "wait", '[');
		for (int c = 0; c < PERFAN_WAIT_NR_CLASSES; c++)
			perfan__json_u64(j, NULL, l->wait[c]);
		perfan__json_close(j, ']');
		/* they tile the lane from its start: each one's length */
		perfan__json_open_tight(j, "segments", '[');
		for (size_t k = 0; k < l->nr_segments; k++) {
			const struct perfan_timeline_segment *s =
				&l->segments[k];
			perfan__json_u64(j, NULL, s->end - s->start);
			perfan__json_u64(j, NULL, s->kind);
			perfan__json_u64(j, NULL, s->wait);
			perfan__json_i64(j, NULL, id(s->stack));
			perfan__json_i64(j, NULL, id(s->site));
			perfan__json_i64(j, NULL, id(s->mix));
		}
		perfan__json_close(j, ']');
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
}

static void tables(struct perfan__json *j,
		   const struct perfan_timeline_result *r)
{
	/* each one's time from the one before's (the first's from the
	 * start): in time order, they are small numbers */
	perfan__json_open_tight(j, "wakes", '[');
	uint64_t at = r->start;
	for (size_t i = 0; i < r->nr_wakes; i++) {
		const struct perfan_timeline_wake *w = &r->wakes[i];
		perfan__json_u64(j, NULL, w->time - at);
		at = w->time;
		perfan__json_i64(j, NULL, w->waker_pid);
		perfan__json_i64(j, NULL, w->waker_tid);
		perfan__json_i64(j, NULL, w->pid);
		perfan__json_i64(j, NULL, w->tid);
		perfan__json_u64(j, NULL, (uint64_t)(w->uncertain != 0));
	}
	perfan__json_close(j, ']');
	perfan__json_open_lines(j, "pools", '[');
	for (size_t i = 0; i < r->nr_pools; i++) {
		const struct perfan_timeline_pool *p = &r->pools[i];
		perfan__json_open(j, NULL, '{');
		perfan__json_i64(j, "pid", p->pid);
		perfan__json_str(j, "name", p->name);
		perfan__json_u64(j, "lanes", p->nr_lanes);
		perfan__json_u64(j, "first", p->first);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
	perfan__json_open_tight(j, "mixes", '[');
	for (size_t i = 0; i < r->nr_mixes; i++)
		for (int k = 0; k < PERFAN_TIMELINE_NR_KINDS; k++)
			perfan__json_u64(j, NULL, r->mixes[i].time[k]);
	perfan__json_close(j, ']');
	perfan__json_open_tight(j, "samples", '[');
	for (size_t i = 0; i < r->nr_samples; i++) {
		const struct perfan_timeline_sample *s = &r->samples[i];
		perfan__json_u64(j, NULL, s->time - r->start);
		perfan__json_u64(j, NULL, s->lane);
		perfan__json_i64(j, NULL, id(s->stack));
		perfan__json_u64(j, NULL, s->weight);
	}
	perfan__json_close(j, ']');
	/* frames: [name, file or module, kind]; Python functions as
	 * "QUALNAME (FILE)", as dump prints */
	perfan__json_open_lines(j, "frames", '[');
	size_t nf = perfan_profile_nr_frames(r->stacks);
	for (size_t i = 0; i < nf; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(r->stacks, (perfan_frame_id)i);
		const char *q, *file;
		size_t ql;
		perfan__json_open_tight(j, NULL, '[');
		if (perfan_python_frame_split(f->name, &q, &ql, &file)) {
			char name[512];
			snprintf(name, sizeof(name), "%.*s", (int)ql, q);
			perfan__json_str(j, NULL, name);
			perfan__json_str(j, NULL, file);
		} else {
			perfan__json_str(j, NULL, f->name);
			perfan__json_str(j, NULL, f->module);
		}
		perfan__json_u64(j, NULL, f->kind);
		perfan__json_close(j, ']');
	}
	perfan__json_close(j, ']');
	/* node i > 0 at 2(i - 1): its parent (0: the root) and frame */
	perfan__json_open_tight(j, "stacks", '[');
	size_t nn = perfan_profile_nr_nodes(r->stacks);
	for (size_t i = 1; i < nn; i++) {
		perfan__json_u64(j, NULL,
				 perfan_profile_node_parent(r->stacks,
							    (perfan_node_id)i));
		perfan__json_u64(j, NULL,
				 perfan_profile_node_frame(r->stacks,
							   (perfan_node_id)i));
	}
	perfan__json_close(j, ']');
}

void perfan__timeline_json(const struct perfan_timeline_result *r, FILE *fp)
{
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open(&j, "timeline", '{');
	perfan__json_u64(&j, "start", r->start);
	perfan__json_u64(&j, "end", r->end);
	perfan__json_u64(&j, "resolution", r->resolution);
	/* the kind of a frame (frames' third field) that is the kernel's */
	perfan__json_u64(&j, "kernel_kind", PERFAN_FRAME_KERNEL);
	perfan__json_open_tight(&j, "kinds", '[');
	perfan__json_str(&j, NULL, "running");
	for (uint32_t s = 0; s < PERFAN_OFFCPU_NR_STATES; s++)
		perfan__json_str(&j, NULL, perfan_offcpu_state_name(s));
	perfan__json_close(&j, ']');
	perfan__json_open_tight(&j, "classes", '[');
	for (uint32_t c = 0; c < PERFAN_WAIT_NR_CLASSES; c++)
		perfan__json_str(&j, NULL, perfan_wait_class_name(c));
	perfan__json_close(&j, ']');
	lanes(&j, r);
	tables(&j, r);
	perfan__json_end(&j);
}
