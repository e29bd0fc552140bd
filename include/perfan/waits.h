/* perfan/waits.h: why a thread waits, read from the stack it left the CPU
 * with: the wait's class (the GIL, a lock, idle for work, I/O, sleep, a
 * GPU sync, disk), its blocking site (the innermost frame of the user's
 * own code), and what a wakeup came from (a thread, a timer, a device). */
#ifndef PERFAN_WAITS_H
#define PERFAN_WAITS_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/common.h>
#include <perfan/profile.h>
#include <perfan/stream.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a blocked thread waits. */
enum perfan_wait_class {
	/* not told by the stack: the kernel state says what is known */
	PERFAN_WAIT_NONE = 0,
	/* waiting to take CPython's GIL (take_gil; PyEval_RestoreThread,
	 * _PyThreadState_Attach, _Py_HandlePending where it is inlined) */
	PERFAN_WAIT_GIL = 1,
	/* dropping the GIL on request and waiting until another thread has
	 * taken it (drop_gil's switch condition) */
	PERFAN_WAIT_GIL_HANDOFF = 2,
	/* a free-threaded CPython stopping the world (tstate_wait_attach,
	 * stop_the_world) */
	PERFAN_WAIT_STW = 3,
	/* a lock: PyThread_acquire_lock_timed (threading.Lock), PyMutex,
	 * pthread_mutex_lock, rwlocks */
	PERFAN_WAIT_LOCK = 4,
	/* a consumer waiting for work: Condition.wait, Queue.get,
	 * Event.wait, Thread.join, a selector or event loop, epoll_wait,
	 * select, poll */
	PERFAN_WAIT_IDLE = 5,
	/* read, recv, write, send on a file, pipe or socket */
	PERFAN_WAIT_IO = 6,
	/* nanosleep, clock_nanosleep (time.sleep) */
	PERFAN_WAIT_SLEEP = 7,
	/* the CPU waiting for the GPU: cudaStreamSynchronize,
	 * cuStreamSynchronize, cuEventSynchronize, cudaDeviceSynchronize */
	PERFAN_WAIT_GPU = 8,
	/* uninterruptible sleep (D) with nothing else said: mostly disk */
	PERFAN_WAIT_DISK = 9,
	PERFAN_WAIT_NR_CLASSES = 10,
};

/* The class's short name, as in the leaf frame "[off-cpu: NAME]": "GIL",
 * "GIL handoff", "stop-the-world", "lock", "idle", "I/O", "sleep", "GPU
 * sync", "disk"; NULL for NONE and anything else. */
PERFAN_API const char *perfan_wait_class_name(uint32_t wait);
/* The class named NAME (as perfan_wait_class_name gives it), or -1. */
PERFAN_API int perfan_wait_class_parse(const char *name);

/* The class of a wait whose switch-out stack is FRAMES (N frames, leaf
 * first) and whose kernel state is STATE (enum perfan_offcpu_state; a
 * DISK state with nothing else said is PERFAN_WAIT_DISK). The innermost
 * frame that names a mechanism decides it (take_gil over the futex below
 * it); a lock wait inside a Python Condition.wait, Queue.get, Event.wait
 * or Thread.join is idle. When SITE is not NULL, *SITE is the index of the
 * blocking site, the innermost frame of the user's own code: a Python
 * function outside the standard library's threading, queue and selectors
 * modules, else a native frame outside the kernel and the runtime
 * (perfan_python_is_runtime); N when there is none. */
PERFAN_API uint32_t perfan_wait_classify(const struct perfan_stream_frame *f,
					 size_t n, uint32_t state,
					 size_t *site);

/* The same rule over a stack of profile P: FR[0..N) frame ids, leaf
 * first, the off-CPU leaf and the process frame left out; Python frames
 * named as CPython writes them ("py::QUAL:FILE") or as the Python view
 * does ("QUAL (FILE)", the file as their module). For a wait of class
 * WAIT (the off-CPU leaf's, struct perfan_frame.wait): *SITE the index of
 * the blocking site, the innermost frame of the user's own code; *MECH
 * the frame inside it that names the mechanism: for an idle wait the
 * outermost Python function that waits for work (Queue.get over the
 * Condition.wait it calls), else the innermost frame outside the kernel
 * whose function names WAIT's class (take_gil,
 * PyThread_acquire_lock_timed, pthread_mutex_lock). Either is N when the
 * stack has none (the Python view leaves the interpreter's frames out).
 * SITE and MECH may be NULL. */
PERFAN_API void perfan_wait_site(const perfan_profile *p,
				 const perfan_frame_id *fr, size_t n,
				 uint32_t wait, size_t *site, size_t *mech);

/* What ended a wait. */
enum perfan_wake_source {
	PERFAN_WAKE_NONE = 0,    /* no wakeup recorded */
	PERFAN_WAKE_THREAD = 1,  /* a thread: the waker */
	PERFAN_WAKE_TIMER = 2,   /* a timer expiring (hrtimer_wakeup) */
	PERFAN_WAKE_DEVICE = 3,  /* an interrupt, in no thread's name */
	PERFAN_WAKE_NETWORK = 4, /* network receive (net_rx_action) */
	PERFAN_WAKE_DISK = 5,    /* a block I/O completion */
	PERFAN_WAKE_NR_SOURCES = 6,
};

/* "none", "thread", "timer", "device", "network", "disk"; NULL for
 * anything else. */
PERFAN_API const char *perfan_wake_source_name(uint32_t source);

/* What a wakeup recorded in the context of thread TID (0: an idle CPU,
 * so an interrupt) with the stack FRAMES (N, leaf first) came from: a
 * timer, a device, the network or a disk when the kernel part of the
 * stack says so (an interrupt interrupts whatever thread runs, which is
 * then not the waker), else the thread. */
PERFAN_API uint32_t perfan_wake_source(int32_t tid,
				       const struct perfan_stream_frame *f,
				       size_t n);

#ifdef __cplusplus
}
#endif
#endif
