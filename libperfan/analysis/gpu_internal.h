/* analysis/gpu_internal.h: what the files of the GPU analysis (gpu*.c)
 * share: the trace's events with the times analysed (exact, or rounded as
 * HTA rounds), the pieces of GPU work and their launches, and the result
 * being built. */
#ifndef PERFAN_ANALYSIS_GPU_INTERNAL_H
#define PERFAN_ANALYSIS_GPU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/gpu.h>

#include "util/htab.h"

#define GPU_NONE UINT32_MAX

/* What a piece of GPU work is, as HTA types kernels by name. */
enum gpu_type {
	GPU_COMPUTE = 0,
	GPU_COMM,   /* nccl kernels */
	GPU_MEMORY, /* copies and sets */
	GPU_SYNCW,  /* syncs and waits: time a stream waited */
	GPU_OTHERW,
};

/* A piece of GPU work: a kernel, copy, set or sync on a stream. */
struct gpu_work {
	int64_t ts, end; /* as analysed */
	uint32_t ev;     /* its event */
	uint32_t launch; /* its launch's event, or GPU_NONE */
	int32_t device;
	int64_t stream;
	uint8_t type; /* enum gpu_type */
	uint8_t busy; /* a kernel, copy or set (not a sync) */
};

/* [S, E) */
struct gpu_span {
	int64_t s, e;
};

struct perfan_gpu {
	struct perfan_gpu_opts o;
	const perfan_trace *t;
	const struct perfan_trace_info *ti;
	int64_t *ts, *end; /* per event, as analysed */
	uint8_t *keep;     /* per event: kept (HTA's last-step filter) */
	/* the work, by device, then time, then input order */
	struct gpu_work *work;
	size_t nr_work;
	/* the CPU's synchronising calls, merged */
	struct gpu_span *syncs;
	size_t nr_syncs;
	/* per CPU thread: its events by time (the longer first at equal
	 * times), and each event's enclosing span (GPU_NONE: none) */
	uint32_t **by_thread;
	size_t *nr_by_thread;
	uint32_t *parent;
	/* the result */
	struct perfan_gpu_result res;
	struct perfan_gpu_step *steps;
	struct perfan_gpu_stream *streams;
	struct perfan_gpu_launch *launches;
	perfan_profile *profile;
	size_t col; /* its "gpu idle" column */
	perfan_frame_id *roots;
	/* gpu_charge.c: frames by the trace's name pointer and kind */
	struct perfan__htab frames;
	/* owned by the steps */
	struct perfan_gpu_stream **step_streams;
	struct perfan_gpu_gap **step_gaps;
};

/* gpu_time.c: the times of every event as analysed, and the last-step
 * filter (keep) */
int perfan__gpu_times(perfan_gpu *g);
/* gpu_work.c: the work and its launches; a name's type */
int perfan__gpu_work(perfan_gpu *g);
uint8_t perfan__gpu_type(const char *name);
int perfan__gpu_is_sync_call(const struct perfan_trace_event *e);
/* gpu_spans.c: merged spans */
/* Sort and merge S[0..N) in place, each cut to [LO, HI); returns how many
 * remain, *TOTAL their length. */
size_t perfan__gpu_merge(struct gpu_span *s, size_t n, int64_t lo, int64_t hi,
			 int64_t *total);
/* gpu_idle.c: HTA's idle-time breakdown of one stream's work W[0..N) (by
 * time) into ST */
void perfan__gpu_stream_idle(const perfan_gpu *g, const struct gpu_work *w,
			     size_t n, struct perfan_gpu_stream *st);
/* the class of a gap of the device from PREV_END to the work NEXT
 * (NULL: none came), LEN long */
uint32_t perfan__gpu_gap_class(const perfan_gpu *g, int64_t prev_end,
			       int64_t len, const struct gpu_work *next);
/* gpu_temporal.c: the whole trace's temporal breakdown, per stream idle
 * and launch rows */
int perfan__gpu_whole(perfan_gpu *g);
/* gpu_steps.c: the steps */
int perfan__gpu_steps(perfan_gpu *g);
/* gpu_launch.c: a step's launch statistics */
int perfan__gpu_step_launches(const perfan_gpu *g, struct perfan_gpu_step *st,
			      const struct gpu_work *w, size_t n);
/* gpu_cpu.c: a step's CPU side; the thread nesting */
int perfan__gpu_nesting(perfan_gpu *g);
int perfan__gpu_step_cpu(const perfan_gpu *g, struct perfan_gpu_step *st,
			 const struct gpu_work *w, size_t n);
/* gpu_charge.c: a gap charged to CPU stacks; the step's function */
int perfan__gpu_charge(perfan_gpu *g, const struct perfan_gpu_gap *gap,
		       const struct gpu_work *next, struct perfan__htab *leaf);
/* gpu_verdict.c */
void perfan__gpu_verdict(struct perfan_gpu_step *st);

#endif
