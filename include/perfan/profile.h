/* perfan/profile.h: the profile every analysis reads: frames interned once,
 * stacks in a trie (root first), one weight column per event, and
 * optionally the samples themselves (time, pid, tid, cpu) in order. */
#ifndef PERFAN_PROFILE_H
#define PERFAN_PROFILE_H

#include <stdio.h>

#include <perfan/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_profile perfan_profile;

/* What a frame is; sinks colour and annotate by it. */
enum perfan_frame_kind {
	PERFAN_FRAME_NATIVE = 0,  /* user-space machine code */
	PERFAN_FRAME_KERNEL = 1,  /* kernel and kernel modules */
	PERFAN_FRAME_PYTHON = 2,  /* a Python function */
	PERFAN_FRAME_JIT = 3,     /* JIT code (perf map, jitdump) */
	PERFAN_FRAME_INLINED = 4, /* a function inlined into its caller */
	PERFAN_FRAME_PROCESS = 5, /* the thread or process at the root of a
				     stack (perfan_profile_process_frame) */
	PERFAN_FRAME_UNKNOWN = 6, /* an address no symbol covers */
	PERFAN_FRAME_OTHER = 7,   /* "(other)": frames merged because each
				     was too light to draw (a flame graph's
				     minimum width) */
	PERFAN_FRAME_OFFCPU = 8,  /* the leaf of time spent off the CPU, its
				     state in the frame's state
				     (perfan_profile_offcpu_frame) */
};

/* What a process frame stands for: one command, one process or one
 * thread, and so what its name shows. */
enum perfan_process_root {
	PERFAN_ROOT_NONE = 0,    /* no process frame */
	PERFAN_ROOT_COMM = 1,    /* "comm" (stackcollapse-perf.pl default) */
	PERFAN_ROOT_PID = 2,     /* "comm-pid" (--pid) */
	PERFAN_ROOT_PID_TID = 3, /* "comm-pid/tid" (--tid) */
};

/* An interned frame. Strings are owned by the profile. */
struct perfan_frame {
	const char *name;   /* function, "[unknown]", or "module+0xoff" */
	const char *module; /* short DSO name ("libc.so.6", "[kernel.kallsyms]"),
			       or NULL */
	const char *file;   /* source file, or NULL */
	uint32_t line;      /* source line, or 0 */
	uint32_t kind;      /* enum perfan_frame_kind */
	/* A process frame's thread (perfan_profile_frame_thread): the pid
	 * and tid of every stack under it; -1 where they differ (threads
	 * that share a comm root) or are not known (other frames, stacks
	 * read from text). The pid of a PERFAN_ROOT_PID frame and the pid
	 * and tid of a PERFAN_ROOT_PID_TID one are its identity: they never
	 * become -1 by a later thread. */
	int32_t pid, tid;
	/* Identity as data, never read back from the name (which is made
	 * from it, for sinks):
	 * - a process frame made by perfan_profile_process_frame: the
	 *   thread's command as recorded (spaces kept), and what the frame
	 *   stands for (enum perfan_process_root); NULL and
	 *   PERFAN_ROOT_NONE for a process frame known only by its name
	 *   (a folded file's root, a thread's Python name);
	 * - an off-CPU leaf made by perfan_profile_offcpu_frame: its state
	 *   (enum perfan_offcpu_state); PERFAN_FRAME_NO_STATE for one made
	 *   by perfan_profile_frame, 0 for every other frame; and why it
	 *   waited (enum perfan_wait_class, perfan/waits.h; 0: not said),
	 *   made by perfan_profile_wait_frame. */
	const char *comm;
	uint32_t root;
	uint32_t state;
	uint32_t wait;
};

#define PERFAN_FRAME_NO_STATE UINT32_MAX

/* Frame and node ids are dense indices; node 0 is the root, which has no
 * frame. */
typedef uint32_t perfan_frame_id;
typedef uint32_t perfan_node_id;
#define PERFAN_ROOT_NODE ((perfan_node_id)0)

struct perfan_profile_opts {
	size_t sz;
	/* Keep each sample (leaf node, time, pid, tid, cpu, weights) in
	 * arrival order, for time-based views. Costs memory per sample. */
	int keep_samples;
};

PERFAN_API int perfan_profile_new(perfan_profile **out,
				  const struct perfan_profile_opts *opts);
PERFAN_API void perfan_profile_free(perfan_profile *p);

/* Weight columns: one per event and measure ("cpu-clock" in "samples", or
 * in "period"). Returns the column index (>= 0) or a negative error. An
 * existing column with the same name and unit is returned as is. */
PERFAN_API int perfan_profile_add_column(perfan_profile *p, const char *name,
					 const char *unit);
PERFAN_API size_t perfan_profile_nr_columns(const perfan_profile *p);
PERFAN_API const char *perfan_profile_column_name(const perfan_profile *p,
						  size_t col);
PERFAN_API const char *perfan_profile_column_unit(const perfan_profile *p,
						  size_t col);

/* What a column's weights are, where its name and unit do not say: the
 * time view of perfan_offcpu_profile is PERFAN_COLUMN_OFFCPU or
 * PERFAN_COLUMN_WALL; a perf.data event's column, folded from its
 * attribute, PERFAN_COLUMN_CPU (a CPU clock: cpu-clock, task-clock or
 * cycles) or PERFAN_COLUMN_COUNT (any other event: a tracepoint, page
 * faults, cache misses); any other column PERFAN_COLUMN_EVENT. Analyses
 * find a column's kind this way, never by its name: the Amdahl bound
 * (perfan/report.h) holds on CPU time, never on counts. */
enum perfan_column_kind {
	PERFAN_COLUMN_EVENT = 0,  /* counts or periods of an event not said */
	PERFAN_COLUMN_OFFCPU = 1, /* ns off the CPU */
	PERFAN_COLUMN_WALL = 2,   /* ns on and off the CPU */
	PERFAN_COLUMN_CPU = 3,    /* samples of a CPU clock (since 0.2) */
	PERFAN_COLUMN_COUNT = 4,  /* counts of another event (since 0.2) */
};

/* Set column COL's kind. Returns 0, or PERFAN_EINVAL for no such column. */
PERFAN_API int perfan_profile_set_column_kind(perfan_profile *p, size_t col,
					      enum perfan_column_kind kind);
/* Column COL's kind (PERFAN_COLUMN_EVENT for no such column). */
PERFAN_API enum perfan_column_kind
perfan_profile_column_kind(const perfan_profile *p, size_t col);

/* Since 0.2. The module (as frames name it) of the main binary of the
 * profiled process: for a perf.data, the executable the process with the
 * most weight mapped first after its exec, as perf_data_converter takes
 * it; the pprof sink writes its mapping first (pprof's "File:"). The
 * profile keeps a copy; NULL unsets it. Returns 0 or a negative error. */
PERFAN_API int perfan_profile_set_main_module(perfan_profile *p,
					      const char *module);
/* The module set above, borrowed from P; NULL: not known (an input of
 * another format, a profile made otherwise). */
PERFAN_API const char *perfan_profile_main_module(const perfan_profile *p);

/* Intern a frame: the same (name, module, file, line, kind) always gives the
 * same id. MODULE and FILE may be NULL. Returns 0 and sets *out. */
PERFAN_API int perfan_profile_frame(perfan_profile *p, perfan_frame_id *out,
				    const char *name, const char *module,
				    const char *file, uint32_t line,
				    uint32_t kind);
PERFAN_API const struct perfan_frame *
perfan_profile_frame_get(const perfan_profile *p, perfan_frame_id id);
/* Say that thread PID/TID has stacks under process frame ID: the first
 * call sets the frame's pid and tid, a later one with another pid or tid
 * makes that one -1. Returns 0 or PERFAN_EINVAL (no such frame). */
PERFAN_API int perfan_profile_frame_thread(perfan_profile *p,
					   perfan_frame_id id, int32_t pid,
					   int32_t tid);
PERFAN_API size_t perfan_profile_nr_frames(const perfan_profile *p);

/* Intern the process frame of thread PID/TID whose command is COMM (NULL:
 * never named; perf shows ":TID") as ROOT says (PERFAN_ROOT_COMM, _PID or
 * _PID_TID; a PID_TID root of an unknown tid (< 0) is a PID one), with
 * comm, root, pid and tid as data and the thread attribute given as
 * perfan_profile_frame_thread does. The frame is named as
 * stackcollapse-perf.pl names it ("comm", "comm-PID", "comm-PID/TID",
 * spaces in the comm made '_', an unknown pid "?") for the sinks that
 * print names; no module reads the name back. Returns 0 and sets *OUT,
 * or PERFAN_EINVAL, PERFAN_ENOMEM. PERFAN_ROOT_NONE is taken as
 * PERFAN_ROOT_COMM. */
PERFAN_API int perfan_profile_process_frame(perfan_profile *p,
					    perfan_frame_id *out,
					    enum perfan_process_root root,
					    const char *comm, int32_t pid,
					    int32_t tid);
/* Intern frame ID of SRC in P with all it is: strings, line, kind,
 * identity (comm, root, state) and thread attribute, as
 * perfan_profile_merge does for the frames it copies. Returns 0 and sets
 * *OUT, or a negative error. */
PERFAN_API int perfan_profile_frame_copy(perfan_profile *p,
					 perfan_frame_id *out,
					 const perfan_profile *src,
					 perfan_frame_id id);
/* Intern the off-CPU leaf of STATE (enum perfan_offcpu_state), shown by
 * sinks as NAME ("[off-cpu: STATE]", as the off-CPU view names it). A
 * frame is one (NAME, STATE) pair. Returns 0 and sets *OUT, or a negative
 * error. */
PERFAN_API int perfan_profile_offcpu_frame(perfan_profile *p,
					   perfan_frame_id *out, uint32_t state,
					   const char *name);
/* The same for a wait of class WAIT (enum perfan_wait_class) in STATE,
 * shown as NAME ("[off-cpu: GIL]"). A frame is one (NAME, STATE, WAIT);
 * WAIT 0 is perfan_profile_offcpu_frame's. */
PERFAN_API int perfan_profile_wait_frame(perfan_profile *p,
					 perfan_frame_id *out, uint32_t state,
					 uint32_t wait, const char *name);

/* The deepest stack a profile keeps, whatever its source (folded lines,
 * py-spy, bpftrace, speedscope, cProfile, perf.data callchains): a deeper
 * one keeps its PERFAN_MAX_STACK_DEPTH frames nearest the root, its weight
 * on the last of them, and is counted (perfan_profile_cuts). perf records
 * 127 frames unless kernel.perf_event_max_stack says more; Python's
 * recursion limit is 1000; V8 overflows near 11,000 frames. */
#define PERFAN_MAX_STACK_DEPTH 16384
/* The longest string (frame name, module, file, thread name) a profile
 * keeps, in bytes: a longer one is cut to its first whole UTF-8
 * characters followed by "..." within this length, and counted. */
#define PERFAN_MAX_NAME 4096

/* How many stacks were cut to PERFAN_MAX_STACK_DEPTH and how many distinct
 * strings to PERFAN_MAX_NAME since P was made (either pointer may be
 * NULL; 0 for a NULL P). */
PERFAN_API void perfan_profile_cuts(const perfan_profile *p, uint64_t *stacks,
				    uint64_t *names);

/* Add WEIGHT to column COL of the stack FRAMES[0..N) (root first), cut to
 * PERFAN_MAX_STACK_DEPTH. With keep_samples, also records one sample (its
 * meta may be NULL). Returns 0 and, if LEAF is not NULL, the stack's leaf
 * node. */
struct perfan_sample_meta {
	uint64_t time;
	int32_t pid, tid;
	int32_t cpu;
};
PERFAN_API int perfan_profile_add(perfan_profile *p,
				  const perfan_frame_id *frames, size_t n,
				  size_t col, uint64_t weight,
				  const struct perfan_sample_meta *meta,
				  perfan_node_id *leaf);

/* Add every stack of SRC's column SRC_COL to DST's column DST_COL, as
 * perfan_profile_add would with the same frames: frames are matched by
 * content (name, module, file, line, kind and the identity attributes,
 * which come along with the thread attribute) and interned in DST, each
 * once; stacks with no weight in SRC_COL add nothing. SRC's kept samples
 * are not copied (a DST that keeps samples gets one without meta per
 * stack). DST and SRC must be different profiles. Returns 0,
 * PERFAN_EINVAL for a column either lacks, PERFAN_ENOMEM (what was added
 * before stays in DST). */
PERFAN_API int perfan_profile_merge(perfan_profile *dst, size_t dst_col,
				    const perfan_profile *src, size_t src_col);

/* The trie. */
PERFAN_API size_t perfan_profile_nr_nodes(const perfan_profile *p);
PERFAN_API perfan_frame_id perfan_profile_node_frame(const perfan_profile *p,
						     perfan_node_id n);
PERFAN_API perfan_node_id perfan_profile_node_parent(const perfan_profile *p,
						     perfan_node_id n);
PERFAN_API uint32_t perfan_profile_node_depth(const perfan_profile *p,
					      perfan_node_id n);
/* Weight of stacks ending exactly at N (self) and of all stacks through N
 * (total), in column COL. */
PERFAN_API uint64_t perfan_profile_node_self(const perfan_profile *p,
					     perfan_node_id n, size_t col);
PERFAN_API uint64_t perfan_profile_node_total(const perfan_profile *p,
					      perfan_node_id n, size_t col);
PERFAN_API uint64_t perfan_profile_total(const perfan_profile *p, size_t col);

/* Children of N sorted by frame name (then module), for deterministic
 * walks. *OUT is borrowed until the profile changes. */
PERFAN_API size_t perfan_profile_node_children(const perfan_profile *p,
					       perfan_node_id n,
					       const perfan_node_id **out);

/* Kept samples (keep_samples): count and the i-th. */
struct perfan_profile_sample {
	perfan_node_id leaf;
	uint32_t col;
	uint64_t weight;
	struct perfan_sample_meta meta;
};
PERFAN_API size_t perfan_profile_nr_samples(const perfan_profile *p);
PERFAN_API const struct perfan_profile_sample *
perfan_profile_sample_get(const perfan_profile *p, size_t i);

#ifdef __cplusplus
}
#endif
#endif
