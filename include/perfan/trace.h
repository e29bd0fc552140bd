/* perfan/trace.h: the events of a GPU profiler's trace as one model, whatever
 * wrote it: torch.profiler's Kineto Chrome traces, the older autograd
 * profiler's JSON array, and Nsight Systems' SQLite exports. Each event is a
 * span on a CPU thread or on a GPU stream, with the ids that link a launch to
 * the kernel it launched and an operator to its Python caller. The readers
 * (perfan_source_trace) fill it; the GPU analysis (perfan/gpu.h) and the
 * sinks read it. */
#ifndef PERFAN_TRACE_H
#define PERFAN_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/common.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_trace perfan_trace;

/* What an event is, from its category (Kineto's `cat`, the autograd
 * profiler's layout, Nsight's table). */
enum perfan_trace_kind {
	PERFAN_TRACE_OTHER = 0,
	PERFAN_TRACE_CPU_OP,          /* cpu_op; 2021's Operator */
	PERFAN_TRACE_USER_ANNOTATION, /* user_annotation (ProfilerStep#N,
					 record_function); NVTX ranges */
	PERFAN_TRACE_PYTHON_FUNCTION, /* python_function */
	PERFAN_TRACE_RUNTIME,         /* cuda_runtime, HIP runtime; Runtime */
	PERFAN_TRACE_DRIVER,          /* cuda_driver */
	PERFAN_TRACE_KERNEL,          /* kernel; Kernel */
	PERFAN_TRACE_MEMCPY,          /* gpu_memcpy; Memcpy */
	PERFAN_TRACE_MEMSET,          /* gpu_memset; Memset */
	PERFAN_TRACE_SYNC,            /* cuda_sync (on a GPU stream) */
	PERFAN_TRACE_GPU_ANNOTATION,  /* gpu_user_annotation */
	PERFAN_TRACE_NKINDS
};

/* A cuda_sync event's kind (its `cuda_sync_kind`, or the name). */
enum perfan_trace_sync {
	PERFAN_TRACE_SYNC_NONE = 0,
	PERFAN_TRACE_SYNC_EVENT, /* "Event Sync": the host waits for an event */
	PERFAN_TRACE_SYNC_STREAM,  /* "Stream Sync" */
	PERFAN_TRACE_SYNC_CONTEXT, /* "Context Sync", cudaDeviceSynchronize */
	PERFAN_TRACE_SYNC_WAIT,    /* "Stream Wait Event": a stream waits */
};

/* Where events happen: a CPU thread, or a GPU stream (DEVICE >= 0). */
struct perfan_trace_thread {
	int64_t pid, tid;    /* CPU: process and thread ids; GPU: as the
			       trace numbers them (Kineto: device, stream) */
	int32_t device;      /* -1: a CPU thread; else the GPU's index */
	int64_t stream;      /* GPU: the stream id; CPU: -1 */
	const char *name;    /* the trace's thread_name / process_name
			       metadata, or NULL */
	const char *process; /* the process's name, or NULL */
};

/* One span. Times are ns on the trace's clock (Kineto: microseconds with
 * their ns fraction, read exactly; relative times moved by
 * baseTimeNanoseconds), so two events compare exactly. Ids not recorded
 * are -1. Strings are owned by the trace. */
struct perfan_trace_event {
	int64_t ts, dur;        /* start and duration, ns */
	const char *name;       /* interned: equal names are one pointer */
	const char *call_stack; /* the `Call stack` argument, or NULL */
	/* the launch (runtime/driver call) and the GPU work it launched
	 * share it; Kineto's `correlation`, or an ac2g/async_cpu_to_gpu flow's
	 * id resolved by the reader */
	int64_t correlation;
	int64_t external_id;   /* `External id`: a cpu_op and its launches */
	int64_t python_id;     /* python_function's `Python id` */
	int64_t python_parent; /* its `Python parent id` */
	int64_t seq;           /* `Sequence number` (autograd) */
	/* GPU work and syncs */
	int64_t stream;       /* the stream; on the CPU -1, or the stream
				 argument a CPU event carries */
	uint64_t bytes;       /* copies and sets: bytes moved, else 0 */
	int64_t wait_stream;  /* Stream Wait Event: the stream waited on */
	int64_t event_record; /* an event sync's
				 `wait_on_cuda_event_record_corr_id` */
	uint32_t thread;      /* index into perfan_trace_threads */
	uint32_t index;       /* its place among the events kept, in the
				 input's order (0-based): for ties */
	int32_t device;       /* -1 on the CPU */
	uint16_t kind;        /* enum perfan_trace_kind */
	uint16_t sync;        /* enum perfan_trace_sync, for PERFAN_TRACE_SYNC
				 and the runtime calls that synchronise */
};

/* The whole trace: events sorted by ts, then by input order. */
struct perfan_trace_info {
	const char *layout; /* "kineto", "kineto 2021", "autograd",
			       "nsys sqlite", ... as the reader says */
	const char *schema; /* schemaVersion or the export's schema, or NULL */
	int64_t base_ns;    /* baseTimeNanoseconds, 0 when absent */
	int32_t rank;       /* distributedInfo's rank, -1 when absent */
	size_t nr_events, nr_threads;
	const struct perfan_trace_event *events;
	const struct perfan_trace_thread *threads;
	/* events the reader met and left out (instant events, counters,
	 * flows it did not need), by what they were */
	uint64_t skipped;
};

PERFAN_API const struct perfan_trace_info *
perfan_trace_info(const perfan_trace *t);

/* The device properties of GPU DEVICE (`deviceProperties`): its name, or
 * NULL when the trace does not say. */
PERFAN_API const char *perfan_trace_device_name(const perfan_trace *t,
						int32_t device);

/* The name of a kind ("cpu_op", "kernel", ...), as Kineto spells it. */
PERFAN_API const char *perfan_trace_kind_name(enum perfan_trace_kind kind);

PERFAN_API void perfan_trace_free(perfan_trace *t);

/* The columns perfan_trace_profile fills, in ns. */
#define PERFAN_TRACE_CPU_TIME "cpu time"
#define PERFAN_TRACE_GPU_TIME "gpu time"

/* Since 0.2. T as a profile, into P (as every trace format's
 * perfan_source_load does):
 * - column PERFAN_TRACE_CPU_TIME (kind PERFAN_COLUMN_CPU): each CPU
 *   thread's spans (cpu_op, python_function, user_annotation, runtime
 *   calls, ...) nested by time, a span inside the one that holds its
 *   start (cut to its end), weighed by its self time: its duration less
 *   its children's;
 * - column PERFAN_TRACE_GPU_TIME: each kernel, copy and set by its
 *   duration, its stack the CPU stack of the runtime or driver call that
 *   launched it (by correlation), then its own name; work whose launch the
 *   trace lacks stands under its stream's root.
 * Each thread's and stream's stacks start with a process frame as ROOT
 * (enum perfan_process_root) names it, made from its ids and its command
 * (the "COMM" of Kineto's "thread TID (COMM)", else the thread's name,
 * else its process's; a stream's "GPU D stream S"); PERFAN_ROOT_NONE: no
 * process frame. Kept samples (keep_samples) carry the span's start and
 * the thread's pid and tid. Returns 0 or a negative error (PERFAN_ENOMEM;
 * what was added before stays in P). */
PERFAN_API int perfan_trace_profile(const perfan_trace *t, perfan_profile *p,
				    int root);

#ifdef __cplusplus
}
#endif

#endif
