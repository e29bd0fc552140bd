/* analysis/stackmap.h: what the analyses that keep stacks of the sample
 * stream in a profile of their own share: each stream frame interned in
 * the profile once (by its dense stream id), a stack made a root-first
 * path; the off-CPU engine run over a perf.data's stream with a callback
 * per event; a profile replaced by its Python view. */
#ifndef PERFAN_ANALYSIS_STACKMAP_H
#define PERFAN_ANALYSIS_STACKMAP_H

#include <perfan/offcpu.h>
#include <perfan/profile.h>
#include <perfan/stream.h>

struct perfan__stackmap {
	perfan_profile *p;    /* where the frames are interned */
	perfan_frame_id *ids; /* stream frame id -> P's frame, or -1 */
	size_t n;
	perfan_frame_id *path; /* the last path made */
	size_t cap;
};

/* SF as a frame of M->p, interned the first time. Returns 0 or an error. */
int perfan__stackmap_frame(struct perfan__stackmap *m,
			   const struct perfan_stream_frame *sf,
			   perfan_frame_id *out);
/* FRAMES (N, leaf first) as M->path[AT..AT+N), root first, after the AT
 * frames the caller put there (M->path holds at least AT + N + EXTRA).
 * Returns 0 or an error. */
int perfan__stackmap_path(struct perfan__stackmap *m, size_t at,
			  const struct perfan_stream_frame *frames, size_t n,
			  size_t extra);
/* FRAMES (N, leaf first) of thread PID/TID (COMM) added to M->p under
 * the thread's process frame (PERFAN_ROOT_PID_TID), weighing W in column
 * COL; *LEAF (NULL: not wanted) its node. Such stacks are what
 * perfan_thread_names_new reads a thread's name from. Returns 0 or an
 * error. */
int perfan__stackmap_thread_add(struct perfan__stackmap *m, int32_t pid,
				int32_t tid, const char *comm,
				const struct perfan_stream_frame *frames,
				size_t n, size_t col, uint64_t w,
				perfan_node_id *leaf);
/* Room for N frames in M->path. Returns 0 or PERFAN_ENOMEM. */
int perfan__stackmap_room(struct perfan__stackmap *m, size_t n);
void perfan__stackmap_free(struct perfan__stackmap *m);

/* Read PD's stream, resolved as RO says (its filter left out: OO's
 * applies), through a new off-CPU engine with OO; EACH (NULL: none) is
 * called with every event after the engine took it; at the end the engine
 * is finished. *OC is the engine, detached from the stream (its summary
 * stays), to free, after an error too. Returns 0 or a negative error
 * (ENOMEM named for WHO and PD). */
int perfan__offcpu_read(perfan_perfdata *pd,
			const struct perfan_resolve_opts *ro,
			const struct perfan_offcpu_opts *oo,
			int (*each)(const struct perfan_stream_event *ev,
				    void *payload),
			void *payload, const char *who, perfan_offcpu **oc);

/* *P replaced by its VIEW (enum perfan_python_view) when that is not
 * native and *P has Python frames. Returns 0 or an error (*P kept). */
int perfan__python_view_in_place(perfan_profile **p, int view);

#endif
