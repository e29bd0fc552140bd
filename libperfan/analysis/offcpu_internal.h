/* analysis/offcpu_internal.h: the off-CPU engine's per-thread table, shared
 * by offcpu.c (the interval engine) and offcpu_threads.c (the table). */
#ifndef PERFAN_ANALYSIS_OFFCPU_INTERNAL_H
#define PERFAN_ANALYSIS_OFFCPU_INTERNAL_H

#include <perfan/offcpu.h>

#include "util/arena.h"
#include "util/htab.h"

/* Where an open interval came from: a SWITCH record out of a thread whose
 * interval a sched_switch opened is the same switch, not a new one. */
enum { SRC_NONE = 0, SRC_SCHED_SWITCH = 1, SRC_SWITCH_RECORD = 2 };

struct perfan__othread {
	struct perfan_offcpu_thread pub; /* totals; comm in the arena */
	uint64_t first, last; /* its first and last record's time (0: none) */
	uint64_t fork_time;   /* its FORK's time, 0 when none was seen */
	/* Its UNSEEN interval, from the start of the recording to its first
	 * switch-in, kept until a record of its own gives its pid. */
	uint64_t unseen_from, unseen_to, unseen_wake;
	int unseen_pending;
	int seen;        /* a record naming it was met (a switch to it too) */
	int own;         /* a record in its own context was: it is recorded */
	int switched_to; /* a sched_switch's next_pid */
	/* The open interval, if any. */
	int src; /* SRC_*; SRC_NONE: nothing open */
	uint32_t state;
	uint64_t start;
	uint64_t wake;        /* first wakeup inside it; 0: none */
	uint32_t wait;        /* enum perfan_wait_class */
	size_t site;          /* the blocking site's index in frames */
	uint32_t wake_source; /* the wakeup's (enum perfan_wake_source) */
	int waker_uncertain;  /* read from sched_wakeup */
	int32_t waker_pid, waker_tid;
	int32_t next_tid; /* the CPU went to at the switch-out (-1: ?) */
	struct perfan_stream_frame *wframes; /* the waker's stack */
	size_t nr_wframes, cap_wframes;
	/* Its CPU time since its last cpu-clock/task-clock sample: RAN up
	 * to its last switch-out, and from RUN_FROM on (0: off-CPU, or not
	 * known). A per-task cpu-clock fires after PERIOD ns on the CPU,
	 * so a sample that ends an interval whose switch-in was not
	 * recorded says when it was: PERIOD - RAN before the sample. */
	uint64_t ran, run_from;
	uint64_t in_at; /* its last recorded switch-in, until it leaves */
	struct perfan_stream_frame *frames;
	size_t nr_frames, cap_frames;
};

struct perfan__othreads {
	struct perfan__othread **v; /* in order of creation */
	size_t n, cap;
	struct perfan__htab by_tid; /* tid -> index in v */
	struct perfan__arena arena; /* comm strings */
	/* perfan_offcpu_summary's copy, sorted by pid then tid */
	struct perfan_offcpu_thread *sorted;
	size_t cap_sorted;
};

/* The thread TID (created, with PID, when new; a FORK of a tid that had
 * exited makes a new one: FRESH). NULL when out of memory. */
struct perfan__othread *perfan__othread_get(struct perfan__othreads *t,
					    int32_t pid, int32_t tid,
					    int fresh);
/* The thread TID if it exists. */
struct perfan__othread *perfan__othread_find(struct perfan__othreads *t,
					     int32_t tid);
/* Name TH COMM (copied once per change). Returns 0 or PERFAN_ENOMEM. */
int perfan__othread_comm(struct perfan__othreads *t, struct perfan__othread *th,
			 const char *comm);
/* Keep a copy of FRAMES (the structs; their strings are the stream's) as
 * TH's open interval's stack. Returns 0 or PERFAN_ENOMEM. */
int perfan__othread_stack(struct perfan__othread *th,
			  const struct perfan_stream_frame *frames, size_t n);
/* The same for the stack of its open interval's waker. */
int perfan__othread_waker_stack(struct perfan__othread *th,
				const struct perfan_stream_frame *frames,
				size_t n);
/* The public totals, each thread's lifetime set (END: the end of the
 * recording, for threads with an interval open there), sorted by pid, then
 * tid, into t->sorted; *N their number (threads only named by others'
 * records are left out). Returns 0 or PERFAN_ENOMEM. */
int perfan__othreads_sorted(struct perfan__othreads *t, uint64_t end,
			    size_t *n);
/* Whether nearly every thread a sched_switch switched to has records of
 * its own, and processes other than one not started in the recording do:
 * the recording saw every task, not those of one process. */
int perfan__othreads_all_recorded(const struct perfan__othreads *t);
void perfan__othreads_free(struct perfan__othreads *t);

/* Whether EV is cpu-clock or task-clock (on-CPU time in ns). */
int perfan__offcpu_is_cpu_clock(const struct perfan_event *ev);
/* Forget O's stream and callback (they end before it): only its summary
 * is read from here on. */
void perfan__offcpu_detach(perfan_offcpu *o);

#endif
