/* resolve/threads.c: processes and threads as COMM, FORK and EXIT records
 * describe them over time: names, and which address space a thread uses
 * (shared by a process's threads, copied to a forked child, replaced by
 * exec). Exited threads are kept for late samples, up to a bound. */
#include <stdlib.h>
#include <string.h>

#include "resolve/symbols.h"

/* Exited threads kept before the oldest is freed: samples can follow the
 * EXIT record slightly (sched_switch out of a dying task), and memory must
 * not grow with the number of processes a long recording sees. */
#define DEAD_KEEP 4096

static struct perfan__proc *proc_new(int32_t pid)
{
	struct perfan__proc *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->refs = 1;
	p->maps = perfan__maps_new();
	if (!p->maps) {
		free(p);
		return NULL;
	}
	return p;
}

static void proc_put(struct perfan__proc *p)
{
	if (!p || --p->refs)
		return;
	perfan__maps_put(p->maps);
	perfan__maps_put(p->old_maps);
	free(p);
}

/* The process table's entry for PID, created if missing. */
static struct perfan__proc *proc_findnew(struct perfan__threads *ts,
					 int32_t pid)
{
	uint64_t *v = perfan__htab_get(&ts->procs, (uint32_t)pid);
	if (v)
		return (struct perfan__proc *)(uintptr_t)*v;
	struct perfan__proc *p = proc_new(pid);
	if (!p)
		return NULL;
	if (perfan__htab_put(&ts->procs, (uint32_t)pid, (uintptr_t)p)) {
		proc_put(p);
		return NULL;
	}
	return p; /* the table's reference */
}

/* Put P in the table for its pid, replacing (and releasing) another. */
static int proc_replace(struct perfan__threads *ts, struct perfan__proc *p)
{
	uint64_t *v = perfan__htab_get(&ts->procs, (uint32_t)p->pid);
	if (v) {
		struct perfan__proc *old = (struct perfan__proc *)(uintptr_t)*v;
		*v = (uintptr_t)p;
		proc_put(old);
		return 0;
	}
	return perfan__htab_put(&ts->procs, (uint32_t)p->pid, (uintptr_t)p);
}

static void thread_free(struct perfan__thread *t)
{
	if (!t)
		return;
	proc_put(t->proc);
	free(t->comm);
	free(t);
}

static void thread_remove(struct perfan__threads *ts, int32_t tid)
{
	uint64_t *v = perfan__htab_get(&ts->by_tid, (uint32_t)tid);
	if (!v)
		return;
	struct perfan__thread *t = (struct perfan__thread *)(uintptr_t)*v;
	perfan__htab_del(&ts->by_tid, (uint32_t)tid);
	/* The leader's departure takes the process out of the table once
	 * nothing else uses it. */
	if (t->tid == t->pid) {
		uint64_t *pv = perfan__htab_get(&ts->procs, (uint32_t)t->pid);
		if (pv && (struct perfan__proc *)(uintptr_t)*pv == t->proc &&
		    t->proc->refs == 2) {
			perfan__htab_del(&ts->procs, (uint32_t)t->pid);
			proc_put(t->proc);
		}
	}
	thread_free(t);
}

static struct perfan__thread *thread_new(struct perfan__threads *ts,
					 int32_t pid, int32_t tid,
					 struct perfan__proc *proc)
{
	struct perfan__thread *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->proc = proc;
	proc->refs++;
	if (perfan__htab_put(&ts->by_tid, (uint32_t)tid, (uintptr_t)t)) {
		thread_free(t);
		return NULL;
	}
	return t;
}

static struct perfan__thread *thread_find(struct perfan__threads *ts,
					  int32_t tid)
{
	uint64_t *v = perfan__htab_get(&ts->by_tid, (uint32_t)tid);
	return v ? (struct perfan__thread *)(uintptr_t)*v : NULL;
}

struct perfan__thread *perfan__thread_findnew(struct perfan__threads *ts,
					      int32_t pid, int32_t tid)
{
	struct perfan__thread *t = thread_find(ts, tid);
	if (t && (pid == -1 || t->pid == pid || t->pid == -1)) {
		if (t->pid == -1 && pid != -1) {
			/* First seen without its process (a record without
			 * pid); attach it now. */
			struct perfan__proc *p = proc_findnew(ts, pid);
			if (!p)
				return NULL;
			p->refs++;
			proc_put(t->proc);
			t->proc = p;
			t->pid = pid;
		}
		return t;
	}
	if (t) /* the tid now belongs to another process */
		thread_remove(ts, tid);
	struct perfan__proc *p = proc_findnew(ts, pid);
	if (!p)
		return NULL;
	return thread_new(ts, pid, tid, p);
}

static int set_comm(struct perfan__thread *t, const char *comm)
{
	if (t->comm && !strcmp(t->comm, comm))
		return 0;
	char *c = strdup(comm);
	if (!c)
		return PERFAN_ENOMEM;
	free(t->comm);
	t->comm = c;
	t->root_valid = 0;
	return 0;
}

int perfan__threads_comm(struct perfan__threads *ts, int32_t pid, int32_t tid,
			 const char *comm, int exec)
{
	struct perfan__thread *t = perfan__thread_findnew(ts, pid, tid);
	if (!t)
		return PERFAN_ENOMEM;
	if (exec) {
		/* exec replaces the address space; the new image's MMAPs
		 * follow. The process may be shared with other threads, which
		 * exec has ended. */
		struct perfan__maps *m = perfan__maps_new();
		if (!m)
			return PERFAN_ENOMEM;
		perfan__maps_put(t->proc->old_maps);
		t->proc->old_maps = t->proc->maps;
		t->proc->maps = m;
		t->proc->ppid = 0;   /* the parent's JIT code is gone */
		t->proc->exe = NULL; /* the new image's is mapped next */
		t->exited = 0;
	}
	return set_comm(t, comm);
}

int perfan__threads_fork(struct perfan__threads *ts, int32_t pid, int32_t ppid,
			 int32_t tid, int32_t ptid)
{
	struct perfan__thread *parent = perfan__thread_findnew(ts, ppid, ptid);
	if (!parent)
		return PERFAN_ENOMEM;
	if (tid == ptid)
		return 0; /* nonsense; keep what we have */
	thread_remove(ts, tid);

	struct perfan__proc *p;
	if (pid == ppid) {
		/* A new thread: same process, same address space. */
		p = parent->proc;
	} else {
		/* A new process: a copy of the parent's address space. */
		p = calloc(1, sizeof(*p));
		if (!p)
			return PERFAN_ENOMEM;
		p->pid = pid;
		p->ppid = ppid;
		p->refs = 1;
		p->maps = perfan__maps_get(parent->proc->maps);
		p->exe = parent->proc->exe;
		if (proc_replace(ts, p)) {
			proc_put(p);
			return PERFAN_ENOMEM;
		}
	}
	struct perfan__thread *t = thread_new(ts, pid, tid, p);
	if (!t)
		return PERFAN_ENOMEM;
	if (parent->comm)
		return set_comm(t, parent->comm);
	return 0;
}

void perfan__threads_exit(struct perfan__threads *ts, int32_t pid, int32_t tid)
{
	(void)pid;
	struct perfan__thread *t = thread_find(ts, tid);
	if (!t || t->exited)
		return;
	t->exited = 1;
	if (ts->dead_n == ts->dead_cap) {
		if (ts->dead_cap >= DEAD_KEEP) {
			/* Free the oldest exited thread, unless its tid has
			 * been reused by a live thread since. */
			int32_t old = ts->dead[ts->dead_head];
			ts->dead_head = (ts->dead_head + 1) % ts->dead_cap;
			ts->dead_n--;
			struct perfan__thread *o = thread_find(ts, old);
			if (o && o->exited)
				thread_remove(ts, old);
		} else {
			size_t cap = ts->dead_cap ? ts->dead_cap * 2 : 64;
			int32_t *d = malloc(cap * sizeof(*d));
			if (!d)
				return; /* it just stays */
			for (size_t i = 0; i < ts->dead_n; i++)
				d[i] = ts->dead[(ts->dead_head + i) %
						ts->dead_cap];
			free(ts->dead);
			ts->dead = d;
			ts->dead_cap = cap;
			ts->dead_head = 0;
		}
	}
	ts->dead[(ts->dead_head + ts->dead_n) % ts->dead_cap] = tid;
	ts->dead_n++;
}

void perfan__threads_free(struct perfan__threads *ts)
{
	size_t pos = 0;
	uint64_t v;
	while (perfan__htab_next(&ts->by_tid, &pos, NULL, &v))
		thread_free((struct perfan__thread *)(uintptr_t)v);
	pos = 0;
	while (perfan__htab_next(&ts->procs, &pos, NULL, &v))
		proc_put((struct perfan__proc *)(uintptr_t)v);
	perfan__htab_free(&ts->by_tid);
	perfan__htab_free(&ts->procs);
	free(ts->dead);
	memset(ts, 0, sizeof(*ts));
}
