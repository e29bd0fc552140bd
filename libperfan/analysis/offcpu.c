/* analysis/offcpu.c: the off-CPU interval engine (perfan/offcpu.h): fed the
 * stream's events in time order, it opens an interval at each switch-out
 * of a thread (sched:sched_switch with its stack, a PERF_RECORD_SWITCH
 * out), closes it at the thread's switch-in or, when none is recorded, at
 * its next record of any kind, splits it at a wakeup, and sums on-CPU
 * samples and perf's offcpu-time totals per thread. */
#include <stdlib.h>
#include <string.h>

#include "analysis/offcpu_internal.h"
#include "analysis/waits_internal.h"
#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

/* perf record --off-cpu writes its per-stack totals at the end with fake
 * times from here up (bpf_off_cpu.c's OFF_CPU_TIMESTAMP). */
#define OFF_CPU_TIMESTAMP (~0ull << 32)

/* prev_state bits, as the sched_switch format prints them: S D T t X Z P
 * I in the low byte; the preempt bit (TASK_REPORT_MAX, 0x100 since Linux
 * 4.14; larger before) and older kernels' flags above it. */
#define TASK_S 0x01u
#define TASK_D 0x02u
#define TASK_EXIT 0x30u /* X (EXIT_DEAD), Z (EXIT_ZOMBIE) */
/* Every bit a kernel reports: the state bits up to TASK_NEW (0x800) and
 * the preempt flag (TASK_REPORT_MAX, 0x100 since 4.14; TASK_STATE_MAX,
 * up to 0x1000, before). A value with any other bit (-1, a sign-extended
 * or overwritten field) is damage, whose exit bits mean nothing. */
#define PREV_STATE_KNOWN 0x1fffull

/* What a sample's event is to the analysis. */
enum {
	K_UNSEEN = 0, /* not classified yet */
	K_OTHER,
	K_SWITCH,  /* sched:sched_switch */
	K_WAKEUP,  /* sched:sched_wakeup: the waker uncertain */
	K_WAKING,  /* sched:sched_waking: in the waker's context */
	K_OFFCPU,  /* perf's offcpu-time */
	K_CPU,     /* cpu-clock, task-clock */
	K_UNNAMED, /* a tracepoint the recording no longer names */
};

struct perfan_offcpu {
	perfan_stream *s;
	struct perfan_offcpu_opts o;
	struct perfan__othreads th;
	struct perfan_offcpu_summary sum;
	struct perfan_filter filter; /* o.filter's copy */
	struct perfan__waits waits;  /* what each frame says of a wait */
	uint8_t *kind;               /* per event index */
	size_t nkind;
	int finished;
	int err; /* sticky: a callback's or an allocation's */
};

const char *perfan_offcpu_state_name(uint32_t state)
{
	static const char *const names[PERFAN_OFFCPU_NR_STATES] = {
		[PERFAN_OFFCPU_SLEEP] = "sleep",
		[PERFAN_OFFCPU_DISK] = "disk",
		[PERFAN_OFFCPU_RUNQ] = "waiting for a CPU",
		[PERFAN_OFFCPU_BLOCKED] = "blocked",
		[PERFAN_OFFCPU_OTHER] = "other",
		[PERFAN_OFFCPU_WAKEUP_DELAY] = "run-queue delay",
		[PERFAN_OFFCPU_UNSEEN] = "before first seen",
		[PERFAN_OFFCPU_UNKNOWN] = "unknown state",
	};
	return state < PERFAN_OFFCPU_NR_STATES ? names[state] : NULL;
}

int perfan_offcpu_new(perfan_offcpu **out, perfan_stream *s,
		      const struct perfan_offcpu_opts *opts)
{
	if (!out || !s)
		return perfan__err_null(__func__, out ? "stream" : "out");
	*out = NULL;
	struct perfan_offcpu *o = calloc(1, sizeof(*o));
	if (!o)
		return perfan__nomem("off-CPU");
	int rc = PERFAN__OPTS_COPY(o->o, opts);
	if (rc) {
		free(o);
		return rc;
	}
	o->filter = PERFAN_FILTER_INIT;
	if (o->o.filter) {
		rc = perfan_filter_validate(o->o.filter);
		if (rc) {
			free(o);
			return rc;
		}
		memcpy(&o->filter, o->o.filter, sizeof(o->filter));
		o->filter.sz = sizeof(o->filter);
	}
	o->o.filter = NULL;
	o->sum.filter = &o->filter;
	o->s = s;
	*out = o;
	return 0;
}

void perfan__offcpu_detach(perfan_offcpu *o)
{
	o->s = NULL;
	o->filter.event = NULL; /* the stream's, gone with it */
	o->o.interval = NULL;
	o->o.payload = NULL;
	o->finished = 1;
}

void perfan_offcpu_free(perfan_offcpu *o)
{
	if (!o)
		return;
	perfan__othreads_free(&o->th);
	perfan__waits_free(&o->waits);
	free(o->kind);
	free(o);
}

static int nomem(perfan_offcpu *o)
{
	return o->err = perfan__nomem("off-CPU");
}

/* ---- intervals ------------------------------------------------------- */

/* One interval of TH, on stack FRAMES[0..N) (leaf first), its wait
 * class, site and waker those of TH's open interval when WAITED. */
static int deliver(perfan_offcpu *o, struct perfan__othread *th, uint32_t state,
		   uint64_t start, uint64_t end, uint32_t flags,
		   const struct perfan_stream_frame *frames, size_t n,
		   int waited)
{
	struct perfan_offcpu_thread *t = &th->pub;
	const struct perfan_filter *f = &o->filter;
	if (!perfan_filter_thread(f, t->pid, t->tid, t->comm))
		return 0;
	if (f->time_start || f->time_end) {
		if (flags & PERFAN_OFFCPU_AGGREGATE)
			return 0; /* a total has no time to lie in a window */
		if (!perfan_filter_clip(f, &start, &end))
			return 0;
	}
	t->off[state] += end - start;
	t->intervals[state]++;
	if (flags & PERFAN_OFFCPU_OPEN_START)
		t->open_start++;
	if (flags & PERFAN_OFFCPU_OPEN_END)
		t->open_end++;
	if (!(flags & (PERFAN_OFFCPU_EXACT | PERFAN_OFFCPU_AGGREGATE)))
		t->inexact++;
	if (!o->o.interval)
		return 0;
	struct perfan_offcpu_interval iv = {
		.pid = t->pid,
		.tid = t->tid,
		.comm = t->comm,
		.state = state,
		.flags = flags,
		.start = start,
		.end = end,
		.nr_frames = n,
		.frames = n ? frames : NULL,
		.site = n,
		.waker_pid = -1,
		.waker_tid = -1,
		.next_tid = -1,
	};
	if (waited) {
		iv.wait = th->wait;
		iv.site = th->site < n ? th->site : n;
		iv.wake_source = th->wake_source;
		iv.waker_uncertain = th->waker_uncertain;
		iv.waker_pid = th->waker_pid;
		iv.waker_tid = th->waker_tid;
		iv.next_tid = th->next_tid;
		iv.wake_time = th->wake_source ? th->wake : 0;
		iv.nr_waker_frames = th->nr_wframes;
		iv.waker_frames = th->nr_wframes ? th->wframes : NULL;
	} else if (n) {
		iv.wait = perfan__wait_classify(&o->waits, frames, n, state,
						&iv.site);
	}
	int rc = o->o.interval(&iv, o->o.payload);
	if (rc)
		o->err = rc;
	return rc;
}

/* STATE from START to END, split at WAKE (when inside it and the state is
 * a wait that a wakeup ends) into STATE and WAKEUP_DELAY. */
static int deliver_split(perfan_offcpu *o, struct perfan__othread *th,
			 uint32_t state, uint64_t start, uint64_t end,
			 uint64_t wake, uint32_t flags)
{
	if (end < start)
		end = start;
	/* an UNSEEN interval has no stack: the open one's is another's */
	int unseen = state == PERFAN_OFFCPU_UNSEEN;
	size_t n = unseen ? 0 : th->nr_frames;
	if (wake > start && wake < end && state != PERFAN_OFFCPU_RUNQ &&
	    !o->o.no_wakeup_split) {
		int rc = deliver(o, th, state, start, wake, flags, th->frames,
				 n, !unseen);
		if (!rc)
			rc = deliver(o, th, PERFAN_OFFCPU_WAKEUP_DELAY, wake,
				     end, flags & ~PERFAN_OFFCPU_OPEN_START,
				     th->frames, n, !unseen);
		return rc;
	}
	return deliver(o, th, state, start, end, flags, th->frames, n, !unseen);
}

static int close_iv(perfan_offcpu *o, struct perfan__othread *th, uint64_t t,
		    uint32_t flags)
{
	if (th->src == SRC_NONE)
		return 0;
	th->src = SRC_NONE;
	uint64_t wake = th->wake;
	int rc = deliver_split(o, th, th->state, th->start, t, wake, flags);
	th->wake = 0;
	th->wake_source = PERFAN_WAKE_NONE;
	return rc;
}

static int flush_unseen(perfan_offcpu *o, struct perfan__othread *th)
{
	if (!th->unseen_pending)
		return 0;
	th->unseen_pending = 0;
	return deliver_split(o, th, PERFAN_OFFCPU_UNSEEN, th->unseen_from,
			     th->unseen_to, th->unseen_wake,
			     PERFAN_OFFCPU_OPEN_START | PERFAN_OFFCPU_EXACT);
}

/* A record in TH's own context: TH is one of the threads recorded (a
 * recording of one process names others it switches to), and its pid is
 * known, so its UNSEEN interval can be delivered. */
static int own_record(perfan_offcpu *o, struct perfan__othread *th, int32_t pid)
{
	th->own = 1;
	if (pid >= 0 && th->pub.pid < 0)
		th->pub.pid = pid;
	return flush_unseen(o, th);
}

static void touch(struct perfan__othread *th, uint64_t t)
{
	th->seen = 1;
	if (!t)
		return;
	if (!th->first)
		th->first = t;
	if (t > th->last)
		th->last = t;
}

/* TH switched in at T: the end of its open interval, or, when it was never
 * seen (nor forked), of the time it spent off-CPU since the recording
 * began. */
/* TH leaves the CPU at T: the time since its recorded switch-in ran. */
static void leaves(const perfan_offcpu *o, struct perfan__othread *th,
		   uint64_t t)
{
	uint64_t from = th->in_at; /* the part of it in the time window */
	if (from && t >= from && perfan_filter_clip(&o->filter, &from, &t))
		th->pub.run += t - from;
	th->in_at = 0;
}

static int switch_in(perfan_offcpu *o, struct perfan__othread *th, uint64_t t)
{
	th->run_from = t;
	/* one switch-in seen twice (the previous task's sched_switch, then
	 * the thread's own SWITCH record at the end of the switch): it runs
	 * from the first */
	if (!th->in_at || th->src != SRC_NONE)
		th->in_at = t;
	if (th->src != SRC_NONE)
		return close_iv(o, th, t, PERFAN_OFFCPU_EXACT);
	if (!th->seen && !th->fork_time && !th->unseen_pending &&
	    o->sum.start && t > o->sum.start) {
		th->unseen_pending = 1;
		th->unseen_from = o->sum.start;
		th->unseen_to = t;
		th->unseen_wake = th->wake;
		th->wake = 0;
		if (th->own)
			return flush_unseen(o, th);
	}
	return 0;
}

static int switch_out(perfan_offcpu *o, struct perfan__othread *th, uint64_t t,
		      uint32_t state, int src, int32_t next,
		      const struct perfan_stream_frame *frames, size_t n)
{
	leaves(o, th, t);
	int rc = close_iv(o, th, t, 0); /* out again, its switch-in unseen */
	if (rc)
		return rc;
	if (th->run_from && t > th->run_from)
		th->ran += t - th->run_from;
	th->run_from = 0;
	if (perfan__othread_stack(th, frames, n))
		return nomem(o);
	th->src = src;
	th->state = state;
	th->start = t;
	th->wake = 0;
	th->wake_source = PERFAN_WAKE_NONE;
	th->next_tid = next;
	th->site = n;
	/* (a preempted thread waits for nothing, but was somewhere) */
	th->wait =
		perfan__wait_classify(&o->waits, frames, n, state, &th->site);
	if (state == PERFAN_OFFCPU_RUNQ)
		th->wait = PERFAN_WAIT_NONE;
	return 0;
}

/* Any record of thread TID in its own context: it is running, so an open
 * interval ends here (a little late: its switch-in was not recorded). */
static int running(perfan_offcpu *o, int32_t pid, int32_t tid, uint64_t t,
		   struct perfan__othread **out)
{
	if (out)
		*out = NULL;
	/* tid 0: the idle tasks (one per CPU); time 0: perf's records of
	 * what existed before the recording, or a record without time */
	if (tid <= 0 || !t)
		return 0;
	struct perfan__othread *th = perfan__othread_get(&o->th, pid, tid, 0);
	if (!th)
		return nomem(o);
	int rc = own_record(o, th, pid);
	if (!rc && th->src != SRC_NONE) {
		rc = close_iv(o, th, t, 0);
		th->run_from = t; /* it runs from here at the latest */
	}
	touch(th, t);
	if (out)
		*out = th;
	return rc;
}

/* ---- samples --------------------------------------------------------- */

static int kind_of(perfan_offcpu *o, const struct perfan_event *ev)
{
	if (!ev)
		return K_OTHER;
	size_t i = ev->index;
	if (i >= o->nkind) {
		size_t n = i + 8;
		uint8_t *k = realloc(o->kind, n);
		if (!k)
			return nomem(o);
		memset(k + o->nkind, 0, n - o->nkind);
		o->kind = k;
		o->nkind = n;
	}
	if (o->kind[i] != K_UNSEEN)
		return o->kind[i];
	const char *name = ev->name ? ev->name : "";
	int k = K_OTHER;
	if (!strcmp(name, "sched:sched_switch")) {
		k = K_SWITCH;
		if ((ev->attr.flags & PERFAN_ATTR_FREQ) ||
		    ev->attr.sample_period_or_freq > 1)
			o->sum.switch_sampled = 1;
	} else if (!strcmp(name, "sched:sched_wakeup")) {
		k = K_WAKEUP;
	} else if (!strcmp(name, "sched:sched_waking")) {
		k = K_WAKING;
	} else if (!strcmp(name, "offcpu-time")) {
		k = K_OFFCPU;
	} else if (perfan__offcpu_is_cpu_clock(ev)) {
		k = K_CPU;
	} else if (ev->attr.type == 2 /* TRACEPOINT */ && ev->name_derived) {
		k = K_UNNAMED;
	}
	o->kind[i] = (uint8_t)k;
	return k;
}

int perfan__offcpu_is_cpu_clock(const struct perfan_event *ev)
{
	return ev && ev->attr.type == 1 /* PERF_TYPE_SOFTWARE */ &&
	       ev->attr.config <= 1 /* CPU_CLOCK, TASK_CLOCK */;
}

static uint32_t state_of(uint64_t prev_state, int *exited)
{
	unsigned low = (unsigned)(prev_state & 0xff);
	*exited = (low & TASK_EXIT) != 0;
	if (low & TASK_S)
		return PERFAN_OFFCPU_SLEEP;
	if (low & TASK_D)
		return PERFAN_OFFCPU_DISK;
	if (!low)
		return PERFAN_OFFCPU_RUNQ; /* R, R+: preempted, runnable */
	return PERFAN_OFFCPU_OTHER;
}

static int on_sched_switch(perfan_offcpu *o,
			   const struct perfan_stream_event *ev)
{
	uint64_t prev_pid, next_pid, prev_state;
	o->sum.sched_switch++;
	/* a sched_switch recorded without -g still has a frame: its IP */
	if (ev->event &&
	    (ev->event->attr.sample_type & PERFAN_SAMPLE_CALLCHAIN))
		o->sum.switch_stacks++;
	if (!ev->time || /* no timeline without times */
	    perfan_stream_field_u64(o->s, ev, "prev_pid", &prev_pid) ||
	    perfan_stream_field_u64(o->s, ev, "next_pid", &next_pid) ||
	    perfan_stream_field_u64(o->s, ev, "prev_state", &prev_state))
		/* a cut or foreign payload: a record of its thread only */
		return running(o, ev->pid, ev->tid, ev->time, NULL);
	int32_t prev = (int32_t)prev_pid, next = (int32_t)next_pid;
	uint64_t t = ev->time;
	int rc = 0;
	/* A damaged switch leaves its state unknown: it ends the interval
	 * of the thread it was written for, the sample's own (the kernel
	 * writes it in the context of the task leaving the CPU) */
	int unknown = (prev_state & ~PREV_STATE_KNOWN) != 0;
	if (unknown)
		o->sum.bad_state++;
	if (ev->tid >= 0 && prev != ev->tid) {
		o->sum.pid_mismatch++;
		prev = ev->tid;
		unknown = 1;
	}
	if (next > 0) {
		struct perfan__othread *th =
			perfan__othread_get(&o->th, -1, next, 0);
		if (!th)
			return nomem(o);
		if (!th->pub.comm) {
			const char *c;
			size_t len;
			char buf[64];
			if (!perfan_stream_field_str(o->s, ev, "next_comm", &c,
						     &len)) {
				if (len >= sizeof(buf))
					len = sizeof(buf) - 1;
				memcpy(buf, c, len);
				buf[len] = '\0';
				if (perfan__othread_comm(&o->th, th, buf))
					return nomem(o);
			}
		}
		th->switched_to = 1;
		rc = switch_in(o, th, t);
		touch(th, t);
		if (rc)
			return rc;
	}
	if (prev <= 0)
		return 0;
	int32_t pid = prev == ev->tid ? ev->pid : -1;
	struct perfan__othread *th = perfan__othread_get(&o->th, pid, prev, 0);
	if (!th)
		return nomem(o);
	if (prev == ev->tid && perfan__othread_comm(&o->th, th, ev->comm))
		return nomem(o);
	rc = own_record(o, th, pid);
	touch(th, t);
	if (rc)
		return rc;
	int exited;
	uint32_t state = state_of(prev_state, &exited);
	if (unknown) {
		state = PERFAN_OFFCPU_UNKNOWN;
		exited = 0;
	}
	if (exited) {
		th->pub.exited = 1;
		leaves(o, th, t);
		return close_iv(o, th, t, 0);
	}
	return switch_out(o, th, t, state, SRC_SCHED_SWITCH, next,
			  ev->u.sample.frames, ev->u.sample.nr_frames);
}

/* TH's wait ends by EV, a wakeup (sched_waking when WAKING): who woke it,
 * from where. */
static int waker(perfan_offcpu *o, struct perfan__othread *th,
		 const struct perfan_stream_event *ev, int waking)
{
	const struct perfan_stream_frame *f = ev->u.sample.frames;
	size_t n = ev->u.sample.nr_frames;
	th->wake_source = perfan_wake_source(ev->tid, f, n);
	th->waker_uncertain = !waking;
	int thread = th->wake_source == PERFAN_WAKE_THREAD;
	th->waker_pid = thread ? ev->pid : -1;
	th->waker_tid = thread ? ev->tid : -1;
	return perfan__othread_waker_stack(th, f, n) ? nomem(o) : 0;
}

static int on_wakeup(perfan_offcpu *o, const struct perfan_stream_event *ev,
		     int waking)
{
	uint64_t pid;
	o->sum.wakeups++;
	if (!perfan_stream_field_u64(o->s, ev, "pid", &pid) &&
	    (int32_t)pid > 0) {
		struct perfan__othread *th =
			perfan__othread_get(&o->th, -1, (int32_t)pid, 0);
		if (!th)
			return nomem(o);
		/* the first wakeup ends the wait; a runnable thread waits
		 * for a CPU whatever wakes it */
		int waiting = th->src != SRC_NONE
				      ? th->state != PERFAN_OFFCPU_RUNQ
				      : !th->seen && !th->fork_time;
		if (waiting && !th->wake && ev->time) {
			th->wake = ev->time;
			int rc = waker(o, th, ev, waking);
			if (rc)
				return rc;
		}
	}
	return running(o, ev->pid, ev->tid, ev->time, NULL);
}

/* perf record --off-cpu's samples: a total per (thread, stack) written at
 * the end, or (perf 6.15 on, --off-cpu-thresh) one sample per long wait,
 * its thread, period and stack in the RAW payload: u32 pid, u32 tid, u64
 * period, u64 nr, nr ips, u64 cgroup (evsel.c's __set_offcpu_sample). */
static int on_offcpu_time(perfan_offcpu *o,
			  const struct perfan_stream_event *ev)
{
	const struct perfan_stream_sample *sm = &ev->u.sample;
	int32_t pid = ev->pid, tid = ev->tid;
	uint64_t period = sm->period;
	int raw = ev->event &&
		  (ev->event->attr.sample_type & PERFAN_SAMPLE_RAW) && sm->raw;
	o->sum.offcpu_time++;
	if (raw) {
		if (sm->raw_size < 16)
			return 0; /* too short to say whose */
		uint32_t ids[2];
		memcpy(ids, sm->raw, sizeof(ids));
		memcpy(&period, (const char *)sm->raw + 8, sizeof(period));
		pid = (int32_t)ids[0];
		tid = (int32_t)ids[1];
	}
	if (tid <= 0)
		return 0;
	struct perfan__othread *th = perfan__othread_get(&o->th, pid, tid, 0);
	if (!th)
		return nomem(o);
	int rc = own_record(o, th, pid);
	if (rc)
		return rc;
	if (perfan__othread_comm(&o->th, th, ev->comm))
		return nomem(o);
	/* The stack: the sample's (user) frames. A RAW sample's own
	 * callchain is the BPF program's context, not the wait's: none. */
	const struct perfan_stream_frame *f = raw ? NULL : sm->frames;
	size_t n = raw ? 0 : sm->nr_frames;
	if (ev->time && ev->time < OFF_CPU_TIMESTAMP && ev->time >= period)
		return deliver(o, th, PERFAN_OFFCPU_BLOCKED, ev->time - period,
			       ev->time, PERFAN_OFFCPU_EXACT, f, n, 0);
	return deliver(o, th, PERFAN_OFFCPU_BLOCKED, 0, period,
		       PERFAN_OFFCPU_AGGREGATE, f, n, 0);
}

/* A cpu-clock/task-clock sample of a thread whose switch-in was not
 * recorded ends its interval PERIOD - RAN before the sample (see
 * perfan__othread.ran), never before its switch-out: closer to the truth
 * than the sample's own time, up to a period late. Either way the count
 * of CPU time since a sample starts again. */
static int cpu_sample(perfan_offcpu *o, const struct perfan_stream_event *ev)
{
	uint64_t t = ev->time, period = ev->u.sample.period;
	if (ev->tid <= 0 || !t)
		return 0;
	struct perfan__othread *th = perfan__othread_find(&o->th, ev->tid);
	if (!th)
		return 0;
	int rc = 0;
	if (th->src != SRC_NONE && th->start <= t) {
		uint64_t back = period > th->ran ? period - th->ran : 0;
		uint64_t end = t - th->start > back ? t - back : th->start;
		rc = own_record(o, th, ev->pid);
		if (!rc)
			rc = close_iv(o, th, end, 0);
	}
	th->ran = 0;
	th->run_from = t;
	return rc;
}

static int on_sample(perfan_offcpu *o, const struct perfan_stream_event *ev)
{
	int k = kind_of(o, ev->event);
	if (k < 0)
		return k;
	if (ev->tid == 0)
		o->sum.system_wide = 1; /* only every CPU's events see idle */
	if (k == K_UNNAMED)
		o->sum.unnamed_tracepoint++;
	switch (k) {
	case K_SWITCH: return on_sched_switch(o, ev);
	case K_WAKEUP: return on_wakeup(o, ev, 0);
	case K_WAKING: return on_wakeup(o, ev, 1);
	case K_OFFCPU: return on_offcpu_time(o, ev);
	default: break;
	}
	struct perfan__othread *th;
	int rc = k == K_CPU ? cpu_sample(o, ev) : 0;
	if (!rc)
		rc = running(o, ev->pid, ev->tid, ev->time, &th);
	if (rc || !th)
		return rc;
	if (perfan__othread_comm(&o->th, th, ev->comm))
		return nomem(o);
	if (k == K_CPU) {
		o->sum.cpu_samples++;
		if (!perfan_filter_sample(&o->filter, ev->pid, ev->tid, ev->cpu,
					  ev->comm, ev->time, ev->event->name))
			return 0;
		th->pub.on_cpu += ev->u.sample.period;
		th->pub.on_cpu_samples++;
	}
	return 0;
}

/* ---- other records --------------------------------------------------- */

/* The thread a record was written in the context of: its sample_id's, else
 * the one it names. */
static int32_t context_tid(const struct perfan_stream_event *ev, int32_t def,
			   int32_t *pid)
{
	const struct perfan_record *r = ev->record;
	if (r && (r->sid.present & PERFAN_SAMPLE_TID)) {
		*pid = (int32_t)r->sid.pid;
		return (int32_t)r->sid.tid;
	}
	return def;
}

static int on_switch_record(perfan_offcpu *o,
			    const struct perfan_stream_event *ev)
{
	o->sum.switch_records++;
	if (ev->type == PERFAN_STREAM_SWITCH_CPU_WIDE)
		o->sum.system_wide = 1;
	if (ev->tid <= 0 || !ev->time)
		return 0;
	struct perfan__othread *th =
		perfan__othread_get(&o->th, ev->pid, ev->tid, 0);
	if (!th)
		return nomem(o);
	int rc = own_record(o, th, ev->pid);
	if (!rc && perfan__othread_comm(&o->th, th, ev->comm))
		rc = nomem(o);
	if (rc)
		return rc;
	const struct perfan_stream_switch *sw = &ev->u.sw;
	if (!sw->out) {
		rc = switch_in(o, th, ev->time);
	} else if (th->src != SRC_SCHED_SWITCH) {
		/* (after a sched_switch out of it: the same switch) */
		rc = switch_out(o, th, ev->time,
				sw->preempt ? PERFAN_OFFCPU_RUNQ
					    : PERFAN_OFFCPU_BLOCKED,
				SRC_SWITCH_RECORD,
				ev->type == PERFAN_STREAM_SWITCH_CPU_WIDE
					? sw->next_prev_tid
					: -1,
				NULL, 0);
	}
	touch(th, ev->time);
	return rc;
}

static int on_task(perfan_offcpu *o, const struct perfan_stream_event *ev)
{
	uint64_t t = ev->time;
	int32_t pid = ev->pid;
	if (ev->type == PERFAN_STREAM_COMM) {
		if (ev->tid > 0) {
			struct perfan__othread *th = perfan__othread_get(
				&o->th, ev->pid, ev->tid, 0);
			if (!th ||
			    perfan__othread_comm(&o->th, th, ev->u.comm.comm))
				return nomem(o);
			/* an exec runs: the program's time starts here
			 * (perf record -- COMMAND enables at it) */
			if (ev->u.comm.exec && !th->in_at &&
			    th->src == SRC_NONE && t)
				th->in_at = t;
		}
		int32_t tid = context_tid(ev, ev->tid, &pid);
		return running(o, pid, tid, t, NULL);
	}
	if (ev->type == PERFAN_STREAM_FORK) {
		if (ev->tid > 0) {
			struct perfan__othread *th = perfan__othread_get(
				&o->th, ev->pid, ev->tid, 1);
			if (!th || perfan__othread_comm(&o->th, th, ev->comm))
				return nomem(o);
			if (t && !th->seen)
				th->fork_time = t;
		}
		pid = ev->u.task.ppid;
		int32_t tid = context_tid(ev, ev->u.task.ptid, &pid);
		return running(o, pid, tid, t, NULL);
	}
	/* EXIT: written by the exiting thread */
	struct perfan__othread *th = NULL;
	int32_t tid = context_tid(ev, ev->tid, &pid);
	int rc = running(o, pid, tid, t, tid == ev->tid ? &th : NULL);
	if (!th && ev->tid > 0)
		th = perfan__othread_find(&o->th, ev->tid);
	if (th) {
		th->pub.exited = 1;
		leaves(o, th, t); /* it ran from its last switch-in */
	}
	return rc;
}

int perfan_offcpu_feed(perfan_offcpu *o, const struct perfan_stream_event *ev)
{
	if (!o || !ev)
		return perfan__err_null(__func__, "argument");
	if (o->err)
		return o->err;
	if (o->finished)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_offcpu_feed: after finish");
	uint64_t t = ev->time;
	int fake_time = ev->type == PERFAN_STREAM_SAMPLE &&
			t >= OFF_CPU_TIMESTAMP &&
			kind_of(o, ev->event) == K_OFFCPU;
	if (t && !fake_time) {
		if (!o->sum.start || t < o->sum.start)
			o->sum.start = t;
		if (t > o->sum.end)
			o->sum.end = t;
	}
	switch (ev->type) {
	case PERFAN_STREAM_SAMPLE: return on_sample(o, ev);
	case PERFAN_STREAM_SWITCH:
	case PERFAN_STREAM_SWITCH_CPU_WIDE: return on_switch_record(o, ev);
	case PERFAN_STREAM_COMM:
	case PERFAN_STREAM_FORK:
	case PERFAN_STREAM_EXIT: return on_task(o, ev);
	case PERFAN_STREAM_LOST: o->sum.lost += ev->u.lost.lost; return 0;
	default: return 0;
	}
}

int perfan_offcpu_finish(perfan_offcpu *o)
{
	if (!o)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_offcpu_finish: NULL analysis");
	if (o->err || o->finished)
		return o->err;
	o->finished = 1;
	for (size_t i = 0; i < o->th.n; i++) {
		/* (an UNSEEN interval still pending is of a thread only
		 * switched to: not recorded) */
		int rc = close_iv(o, o->th.v[i], o->sum.end,
				  PERFAN_OFFCPU_OPEN_END);
		if (rc)
			return rc;
	}
	return 0;
}

const struct perfan_offcpu_summary *
perfan_offcpu_summary(const perfan_offcpu *co)
{
	/* The sorted copy is a cache of the table: filling it changes
	 * nothing the caller can see. */
	struct perfan_offcpu *o = (struct perfan_offcpu *)co;
	size_t n = 0;
	/* A recording of every CPU sees the switch-outs of every task it
	 * saw switched to; one of a process, not those of the others it
	 * handed the CPU to (idle is not a thread here). */
	if (perfan__othreads_all_recorded(&o->th))
		o->sum.system_wide = 1;
	if (!perfan__othreads_sorted(&o->th, o->sum.end, &n)) {
		o->sum.threads = o->th.sorted;
		o->sum.nr_threads = n;
	}
	return &o->sum;
}

int perfan_offcpu_recorded(const perfan_perfdata *pd)
{
	size_t n = pd ? perfan_perfdata_nr_events(pd) : 0;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_event *e = perfan_perfdata_event(pd, i);
		if ((e->attr.flags &
		     ((uint64_t)1 << 26)) || /* context_switch */
		    (e->name && (strstr(e->name, "sched_switch") ||
				 strstr(e->name, "offcpu-time"))))
			return 1;
	}
	return 0;
}
