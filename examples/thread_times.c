/* thread_times.c: each thread's on-CPU and off-CPU time in a perf.data
 * file, read from libperfan's resolved-sample stream: a client of the
 * stream that needs its tracepoint fields and switch records.
 *
 *   thread_times perf.data    prints PID TID COMM ON_MS OFF_MS SWITCHES
 *
 * On-CPU time is the period of cpu-clock and task-clock samples (ns).
 * Off-CPU time runs from a thread's switch-out (a sched:sched_switch with
 * prev_pid = the thread, or a PERF_RECORD_SWITCH out) to its switch-in (a
 * sched_switch with next_pid = the thread, a SWITCH in) or, when none was
 * recorded, its next record of any kind. A switch out of an exiting thread
 * (prev_state X or Z) is no wait. Intervals open at the end are left out
 * here; perfan report --off-cpu counts them. */
#include <perfan/perfan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Threads in a small array searched linearly: an example. */
struct thread {
	int32_t pid, tid;
	char comm[32];
	uint64_t on_ns, off_ns, out_at; /* out_at: 0 when on a CPU */
	unsigned long switches;
};
static struct thread *threads;
static size_t nthreads;

static struct thread *thread_of(int32_t pid, int32_t tid)
{
	for (size_t i = 0; i < nthreads; i++)
		if (threads[i].tid == tid) {
			if (threads[i].pid < 0)
				threads[i].pid = pid;
			return &threads[i];
		}
	threads = realloc(threads, (nthreads + 1) * sizeof(*threads));
	if (!threads) {
		perror("thread_times");
		exit(1);
	}
	threads[nthreads] = (struct thread){.pid = pid, .tid = tid};
	return &threads[nthreads++];
}

/* T runs again at TIME: close its off-CPU interval. */
static void runs(struct thread *t, uint64_t time)
{
	if (t->out_at && time >= t->out_at)
		t->off_ns += time - t->out_at;
	t->out_at = 0;
}

static int starts_with(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

static void sched_switch(perfan_stream *s, const struct perfan_stream_event *ev)
{
	uint64_t prev, next, state;

	if (perfan_stream_field_u64(s, ev, "prev_pid", &prev) ||
	    perfan_stream_field_u64(s, ev, "next_pid", &next) ||
	    perfan_stream_field_u64(s, ev, "prev_state", &state))
		return;
	/* The CPU goes to NEXT: it runs from now (pid unknown here). */
	if ((int32_t)next > 0)
		runs(thread_of(-1, (int32_t)next), ev->time);
	if ((int32_t)prev <= 0)
		return; /* the idle task */
	struct thread *t = thread_of(ev->pid, (int32_t)prev);
	runs(t, ev->time); /* out again with no switch-in seen */
	/* 0x10 EXIT_DEAD (X), 0x20 EXIT_ZOMBIE (Z): it has exited */
	if (!(state & 0x30)) {
		t->out_at = ev->time;
		t->switches++;
	}
}

static void event(perfan_stream *s, const struct perfan_stream_event *ev)
{
	struct thread *t = ev->tid > 0 ? thread_of(ev->pid, ev->tid) : NULL;
	const char *name = ev->event ? ev->event->name : NULL;

	if (t && ev->comm)
		snprintf(t->comm, sizeof(t->comm), "%s", ev->comm);
	if (ev->type == PERFAN_STREAM_SAMPLE &&
	    starts_with(name, "sched:sched_switch")) {
		sched_switch(s, ev);
		return;
	}
	if (!t || !ev->time)
		return;
	if (ev->type == PERFAN_STREAM_SWITCH ||
	    ev->type == PERFAN_STREAM_SWITCH_CPU_WIDE) {
		runs(t, ev->time);
		if (ev->u.sw.out) {
			t->out_at = ev->time;
			t->switches++;
		}
		return;
	}
	runs(t, ev->time); /* any other record of the thread: it runs */
	if (ev->type == PERFAN_STREAM_SAMPLE &&
	    (starts_with(name, "cpu-clock") || starts_with(name, "task-clock")))
		t->on_ns += ev->u.sample.period;
}

static int by_tid(const void *a, const void *b)
{
	const struct thread *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

int main(int argc, char **argv)
{
	perfan_perfdata *pd;
	perfan_stream *s;
	const struct perfan_stream_event *ev;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: thread_times PERF.DATA\n");
		return 2;
	}
	if (perfan_perfdata_open(&pd, argv[1], NULL) < 0) {
		fprintf(stderr, "thread_times: %s\n", perfan_error_last());
		return 1;
	}
	/* NULL options: every sample, symbols found as perf finds them */
	if (perfan_stream_open(&s, pd, NULL) < 0) {
		fprintf(stderr, "thread_times: %s\n", perfan_error_last());
		perfan_perfdata_free(pd);
		return 1;
	}
	while ((err = perfan_stream_next(s, &ev)) == 0)
		event(s, ev);
	if (err != PERFAN_ITEROVER)
		fprintf(stderr, "thread_times: %s\n", perfan_error_last());
	perfan_stream_free(s);
	perfan_perfdata_free(pd);
	if (err != PERFAN_ITEROVER)
		return 1;

	qsort(threads, nthreads, sizeof(*threads), by_tid);
	printf("PID\tTID\tCOMM\tON_MS\tOFF_MS\tSWITCHES\n");
	for (size_t i = 0; i < nthreads; i++) {
		const struct thread *t = &threads[i];
		if (!t->on_ns && !t->off_ns && !t->switches)
			continue;
		printf("%d\t%d\t%s\t%.3f\t%.3f\t%lu\n", t->pid, t->tid,
		       t->comm[0] ? t->comm : "-", t->on_ns / 1e6,
		       t->off_ns / 1e6, t->switches);
	}
	return 0;
}
