/* perfan/gpu.h: the CPU/GPU split of a GPU profiler's trace (perfan/trace.h)
 * per step and device: GPU busy and idle time, the idle gaps and why the GPU
 * waited (for the host, back to back, on a sync), launch delays and the
 * launch queue, the launching threads' CPU time, a verdict per step, and the
 * CPU stacks the GPU's host-wait time is charged to. With hta_compat, the
 * whole trace's temporal and idle-time breakdown and launch statistics are
 * computed as Holistic Trace Analysis computes them. */
#ifndef PERFAN_GPU_H
#define PERFAN_GPU_H

#include <stdint.h>
#include <stdio.h>

#include <perfan/common.h>
#include <perfan/profile.h>
#include <perfan/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why the GPU (or a stream) was idle in a gap. */
enum perfan_gpu_idle {
	/* the work after the gap was launched after the GPU went idle */
	PERFAN_GPU_IDLE_HOST = 0,
	/* queued before, the gap under the kernel-wait threshold */
	PERFAN_GPU_IDLE_KERNEL = 1,
	/* a host wait with a synchronising call of the CPU
	 * (cudaStreamSynchronize, an event sync, .item()) running when the
	 * GPU went idle; never with hta_compat */
	PERFAN_GPU_IDLE_SYNC = 2,
	PERFAN_GPU_IDLE_OTHER = 3,
	PERFAN_GPU_NIDLE
};

/* "host wait", "kernel wait", "sync wait", "other"; NULL for others. */
PERFAN_API const char *perfan_gpu_idle_name(uint32_t cls);

/* A step's verdict. */
enum perfan_gpu_verdict {
	PERFAN_GPU_NO_WORK = 0,  /* no GPU work in the step */
	PERFAN_GPU_CPU_BOUND,    /* idle, mostly waiting for the host */
	PERFAN_GPU_GPU_BOUND,    /* busy >= 90 %, or the queue full */
	PERFAN_GPU_SYNC_BOUND,   /* idle, mostly while the host synced */
	PERFAN_GPU_COMM_BOUND,   /* mostly communication */
	PERFAN_GPU_LAUNCH_BOUND, /* idle, mostly back-to-back gaps */
	PERFAN_GPU_STALLED,      /* idle with work queued (other) */
};

/* "no GPU work", "CPU-bound", "GPU-bound", "sync-bound",
 * "communication-bound", "launch-bound", "stalled"; NULL for others. */
PERFAN_API const char *perfan_gpu_verdict_name(uint32_t verdict);

/* One stream's work and gaps (ns): BUSY its work merged; IDLE the gaps
 * between one piece of work and the next on the stream, by class (HTA's
 * idle-time breakdown: a gap's class from the work after it); the first
 * piece has no gap before it. */
struct perfan_gpu_stream {
	int32_t device;
	int64_t stream;
	uint64_t nr_work;
	int64_t busy;
	int64_t idle[PERFAN_GPU_NIDLE];
	uint64_t nr_gaps[PERFAN_GPU_NIDLE];
};

/* One idle gap of a device (no work on any stream), [START, END) ns. */
struct perfan_gpu_gap {
	int64_t start, end;
	uint32_t cls; /* enum perfan_gpu_idle */
	/* a host wait's: the CPU function it is charged to most (the
	 * innermost frame of the launching thread's stack), or NULL */
	const char *function;
};

/* One piece of GPU work and its launch, as HTA's launch statistics rows
 * (ns; the delay from the launch's end to the work's start, 0 when
 * negative). */
struct perfan_gpu_launch {
	int64_t correlation;
	int64_t cpu_dur, gpu_dur, delay;
};

/* A step (a ProfilerStep#N annotation, one --step matched, or the whole
 * trace) on one device. Times ns. */
struct perfan_gpu_step {
	const char *name; /* the annotation's, or NULL for the whole trace */
	int64_t start, end;
	int32_t device;
	/* the device's work cut to the step, merged: all of it; compute
	 * kernels; communication (nccl kernels); copies and sets; syncs
	 * (time a stream waited: never in BUSY) */
	int64_t busy, idle, compute, communication, memory, sync;
	int64_t idle_by[PERFAN_GPU_NIDLE]; /* the gaps of IDLE by class */
	uint64_t nr_gaps[PERFAN_GPU_NIDLE];
	size_t nr_streams;
	const struct perfan_gpu_stream *streams;
	size_t nr_longest; /* the longest gaps, longest first */
	const struct perfan_gpu_gap *longest;
	/* launches of the work that starts in the step: how many, their
	 * delays' percentiles (nearest rank), how many ran shorter than
	 * their launch call; the launch queue (launched, not finished)
	 * over the step: its time-weighted mean and its maximum */
	uint64_t nr_launches, nr_shorter;
	int64_t delay_p50, delay_p90, delay_p99, delay_max;
	double queue_mean;
	uint64_t queue_max;
	/* the threads that launched that work: how many, their time in
	 * spans (any op, annotation or call), in CUDA runtime or driver
	 * calls, and in synchronising calls, cut to the step */
	uint32_t nr_threads;
	int64_t cpu_time, cpu_runtime, cpu_sync;
	/* the verdict, and the function most of the step's host-wait (or
	 * sync-wait) time is charged to (NULL: none) */
	uint32_t verdict; /* enum perfan_gpu_verdict */
	const char *function;
	int64_t function_ns;
};

/* The whole trace's breakdown as HTA's get_temporal_breakdown computes it
 * (ns): its GPU work (kernels, copies, sets, syncs on a stream) from the
 * start of the first to the end of the last (TOTAL, HTA's kernel time),
 * idle = TOTAL less the work merged, compute = compute kernels merged,
 * non-compute the rest. */
struct perfan_gpu_temporal {
	int64_t total, idle, compute, non_compute;
};

struct perfan_gpu_result {
	const char *layout; /* the trace's (perfan_trace_info) */
	int hta_compat;
	int64_t kernel_wait; /* the threshold used, ns */
	/* with hta_compat and two or more ProfilerSteps: the last step
	 * left out, and work not launched before it */
	int last_step_cut;
	size_t nr_steps;
	const struct perfan_gpu_step *steps;
	struct perfan_gpu_temporal temporal;
	/* per stream over the whole trace: HTA's idle-time breakdown */
	size_t nr_streams;
	const struct perfan_gpu_stream *streams;
	/* HTA's launch statistics rows, in its order */
	size_t nr_launches;
	const struct perfan_gpu_launch *launches;
};

struct perfan_gpu_opts {
	size_t sz;
	/* a POSIX extended regular expression for the step annotations
	 * (user_annotation names, or cpu_op ones as 2021's traces have
	 * them); NULL: "^ProfilerStep#[0-9]+"; no
	 * annotation matching: the whole trace is one step */
	const char *step;
	int one_device; /* non-zero: only GPU DEVICE */
	int32_t device;
	/* HTA's ways: times rounded to us (start up, end down), the last
	 * ProfilerStep and the work not launched before it left out, a
	 * 30 us kernel-wait threshold, no sync-wait class */
	int hta_compat;
	int64_t kernel_wait; /* ns; 0: 10 us (30 us with hta_compat) */
	size_t nr_longest;   /* gaps listed per step; 0: 5 */
};

typedef struct perfan_gpu perfan_gpu;

/* Analyse T with OPTS (NULL: defaults, all devices). T must outlive *OUT.
 * Returns 0 or a negative error (*OUT NULL then): PERFAN_EINVAL for a bad
 * regular expression, PERFAN_ENOMEM. */
PERFAN_API int perfan_gpu_new(perfan_gpu **out, const perfan_trace *t,
			      const struct perfan_gpu_opts *opts);
PERFAN_API void perfan_gpu_free(perfan_gpu *g);
/* Borrowed; lives as long as G. */
PERFAN_API const struct perfan_gpu_result *
perfan_gpu_result(const perfan_gpu *g);

/* GPU idle time by CPU stack: each host-wait and sync-wait gap of every
 * step, charged to what the thread that launched the work after it did
 * from the gap's start to that launch (its python_function chain where
 * the trace has one, else the cpu_op's `Call stack`, else the nesting of
 * its ops), the rest of the gap to the launch call's own stack; one
 * column "gpu idle" in ns, under each thread's process frame. Borrowed;
 * lives as long as G. */
PERFAN_API const perfan_profile *perfan_gpu_profile(const perfan_gpu *g);

enum perfan_gpu_format {
	PERFAN_GPU_TEXT = 0,
	PERFAN_GPU_JSON = 1,
};

struct perfan_gpu_write_opts {
	size_t sz;
	int format; /* enum perfan_gpu_format */
};

/* Write G's result: text (per step and device: its verdict in one line,
 * then the evidence: busy and idle, the gaps by class and the longest,
 * launches, the CPU side, the streams; then the whole trace's temporal
 * and idle-time breakdown and the CPU stacks charged) or JSON
 * ({"gpu": {"layout", "hta_compat", "kernel_wait_us", "steps": [...],
 * "temporal": {...}, "streams": [...], "launches": [...]}}, times in us).
 * Returns 0, PERFAN_EINVAL or PERFAN_EIO. */
PERFAN_API int perfan_gpu_write(const perfan_gpu *g, FILE *fp,
				const struct perfan_gpu_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
