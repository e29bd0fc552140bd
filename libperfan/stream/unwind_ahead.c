/* stream/unwind_ahead.c: DWARF unwinding of the samples the reader thread
 * decoded ahead, on a worker thread. The address spaces stay the caller's:
 * samples are handed over only up to the next record that changes one,
 * each with references to its process's maps of that moment, and the
 * caller takes the results in sample order, or unwinds a sample itself
 * when the worker has not started it or cannot do it alone (a DSO the
 * caller has not loaded yet, JIT code). The worker never logs: what a
 * sample has to say is said by the caller's own unwinding. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/symbols.h"
#include "resolve/unwind.h"
#include "sources/perfdata/ahead.h"
#include "stream/unwind_ahead.h"
#include "util/error.h"
#include "util/grow.h"

/* Samples handed over at most at a time: the reader's batches hold no
 * more records. */
#define MAX_JOBS 1024
/* Addresses per stack, as stream.c asks perfan__unwind_user for. */
#define MAX_IPS 512

enum job_state { J_PENDING, J_RUNNING, J_DONE, J_TAKEN };

struct job {
	const struct perfan_record *rec;
	/* the process's address space when it was handed over (references
	 * the caller holds and drops) */
	struct perfan__proc proc;
	enum job_state state;
	int truncated, leave;
	size_t n;
	uint64_t *ips; /* MAX_IPS, kept from batch to batch */
};

struct perfan__ahead {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t work; /* a job was handed over, or stop */
	pthread_cond_t done; /* the worker finished a job */
	struct job jobs[MAX_JOBS];
	size_t njobs; /* handed over in this batch */
	size_t next;  /* the first the worker has not looked at */
	size_t use;   /* the first the caller has not taken */
	int stop;
	const void *arch;
	/* DSOs the worker may read, and how many of them it knows */
	struct perfan__dso **pub;
	size_t npub, cappub, seen;
	/* the worker's: its unwinder (CFI caches, own libelf handles) */
	struct perfan__unwind_worker *w;
	/* the caller's: the records looked at up to SCANNED, and the
	 * address-space change at BARRIER that the scan waits for the
	 * caller to pass (NULL: none) */
	const struct perfan_record *scanned, *barrier;
};

static void *run(void *arg)
{
	struct perfan__ahead *a = arg;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (!a->stop && a->next == a->njobs)
			pthread_cond_wait(&a->work, &a->mu);
		if (a->stop)
			break;
		struct job *j = &a->jobs[a->next++];
		if (j->state != J_PENDING)
			continue; /* the caller did it */
		j->state = J_RUNNING;
		for (; a->seen < a->npub; a->seen++)
			if (perfan__unwind_worker_allow(a->w, a->pub[a->seen]))
				break; /* out of memory: that DSO stays the
					  caller's */
		const void *arch = a->arch;
		pthread_mutex_unlock(&a->mu);
		j->n = perfan__unwind_worker_run(a->w, arch, &j->proc,
						 &j->rec->u.sample, j->ips,
						 MAX_IPS, &j->truncated,
						 &j->leave);
		pthread_mutex_lock(&a->mu);
		j->state = J_DONE;
		pthread_cond_broadcast(&a->done);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

static int start(struct perfan__ahead **out, struct perfan__symctx *ctx)
{
	struct perfan__ahead *a = calloc(1, sizeof(*a));
	if (!a)
		return PERFAN_ENOMEM;
	if (perfan__unwind_worker_new(&a->w)) {
		free(a);
		return PERFAN_ENOMEM;
	}
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->work, NULL);
	pthread_cond_init(&a->done, NULL);
	if (pthread_create(&a->th, NULL, run, a)) {
		perfan__unwind_worker_free(a->w);
		pthread_cond_destroy(&a->done);
		pthread_cond_destroy(&a->work);
		pthread_mutex_destroy(&a->mu);
		free(a);
		return 1; /* unwind on this thread */
	}
	*out = a;
	perfan__ahead_publish(a, ctx); /* what was loaded before */
	return 0;
}

void perfan__ahead_publish(struct perfan__ahead *a, struct perfan__symctx *ctx)
{
	if (!a)
		return; /* kept for the worker to come */
	struct perfan__dso *const *v;
	size_t n = perfan__unwind_fresh(ctx, &v);
	if (!n)
		return;
	pthread_mutex_lock(&a->mu);
	if (!perfan__grow((void **)&a->pub, &a->cappub, a->npub + n,
			  sizeof(*a->pub))) {
		memcpy(a->pub + a->npub, v, n * sizeof(*v));
		a->npub += n;
	} /* else those DSOs stay the caller's */
	pthread_mutex_unlock(&a->mu);
}

void perfan__ahead_drain(struct perfan__ahead *a)
{
	if (!a)
		return;
	a->scanned = a->barrier = NULL;
	if (!a->njobs)
		return;
	pthread_mutex_lock(&a->mu);
	a->next = a->njobs; /* start no more */
	for (size_t i = 0; i < a->njobs; i++)
		while (a->jobs[i].state == J_RUNNING)
			pthread_cond_wait(&a->done, &a->mu);
	size_t n = a->njobs;
	a->njobs = a->next = 0;
	pthread_mutex_unlock(&a->mu);
	for (size_t i = 0; i < n; i++) {
		perfan__maps_put(a->jobs[i].proc.maps);
		perfan__maps_put(a->jobs[i].proc.old_maps);
	}
	a->use = 0;
}

/* Records after which the address spaces are what they were before. */
static int keeps_maps(uint32_t type)
{
	switch (type) {
	case PERFAN_REC_SAMPLE:
	case PERFAN_REC_LOST:
	case PERFAN_REC_LOST_SAMPLES:
	case PERFAN_REC_THROTTLE:
	case PERFAN_REC_UNTHROTTLE:
	case PERFAN_REC_SWITCH:
	case PERFAN_REC_SWITCH_CPU_WIDE:
	case PERFAN_REC_FINISHED_ROUND: return 1;
	default: return 0;
	}
}

/* The process whose maps stream.c will unwind S in (its thread's), if
 * the thread is known; NULL: leave S to the caller. */
static const struct perfan__proc *proc_of(struct perfan__symctx *ctx,
					  const struct perfan_sample *s)
{
	if (!(s->type & PERFAN_SAMPLE_TID) || (int32_t)s->pid == -1)
		return NULL;
	uint64_t *v = perfan__htab_get(&ctx->threads.by_tid, (uint32_t)s->tid);
	const struct perfan__thread *t =
		v ? (const struct perfan__thread *)(uintptr_t)*v : NULL;
	return t && t->pid == (int32_t)s->pid ? t->proc : NULL;
}

static int wants(const struct perfan_record *rec)
{
	const struct perfan_sample *s = &rec->u.sample;
	return rec->type == PERFAN_REC_SAMPLE &&
	       (s->type & PERFAN_SAMPLE_REGS_USER) &&
	       (s->type & PERFAN_SAMPLE_STACK_USER) && s->user_regs.abi &&
	       s->user_stack_size;
}

int perfan__ahead_step(struct perfan__ahead **ap, struct perfan__symctx *ctx,
		       perfan_perfdata *pd)
{
	struct perfan__ahead *a = *ap;
	/* not before this thread found it; no worker started before that
	 * (and none for a recording without user stacks, for whose every
	 * record this is called) */
	const void *arch = perfan__unwind_arch(ctx);
	if (!arch)
		return 0;
	/* (after that test: a frame-pointer recording pays nothing more) The
	 * worker is a third thread: N of 3 or more. With two, the reader
	 * takes the second and this one unwinds. On a 2-core VM a third
	 * thread cost more than it gave: without it, --threads 2 on a 609 MB
	 * Python DWARF recording took 0.84 of the time it took with it, 0.66
	 * of one thread's time against 0.92 (the three threads' CPU time was
	 * 1.46 times one thread's: page zeroing, copies to cold memory and
	 * context switches). */
	if (perfan__perfdata_threads(pd) < 3)
		return 0;
	const struct perfan_record *recs;
	size_t n = perfan__perfdata_ahead(pd, &recs);
	if (!n) {
		/* the batch's memory is about to be reused */
		perfan__ahead_drain(a);
		return 0;
	}
	if (a && a->barrier && a->barrier >= recs)
		return 0; /* the change is still to come */
	const struct perfan_record *from =
		a && a->scanned && a->scanned > recs ? a->scanned : recs;
	const struct perfan_record *end = recs + n;
	if (from >= end)
		return 0;
	size_t added = 0;
	const struct perfan_record *r = from;
	for (; r < end; r++) {
		if (!keeps_maps(r->type)) {
			r++;
			break;
		}
		if (!wants(r))
			continue;
		const struct perfan__proc *p = proc_of(ctx, &r->u.sample);
		if (!p || !p->maps)
			continue;
		if (!a) {
			int err = start(ap, ctx);
			if (err == PERFAN_ENOMEM)
				return err;
			if (err)
				return 0;
			a = *ap;
		}
		if (a->njobs + added == MAX_JOBS)
			break;
		struct job *j = &a->jobs[a->njobs + added];
		if (!j->ips && !(j->ips = malloc(MAX_IPS * sizeof(*j->ips))))
			return PERFAN_ENOMEM;
		j->rec = r;
		memset(&j->proc, 0, sizeof(j->proc));
		j->proc.pid = p->pid;
		j->proc.maps = perfan__maps_get(p->maps);
		j->proc.old_maps = perfan__maps_get(p->old_maps);
		j->state = J_PENDING;
		added++;
	}
	if (!a)
		return 0;
	a->scanned = r;
	a->barrier = r > from && !keeps_maps(r[-1].type) ? r - 1 : NULL;
	if (added) {
		pthread_mutex_lock(&a->mu);
		a->arch = arch;
		a->njobs += added;
		pthread_cond_signal(&a->work);
		pthread_mutex_unlock(&a->mu);
	}
	return 0;
}

int perfan__ahead_take(struct perfan__ahead *a, const struct perfan__thread *t,
		       const struct perfan_record *rec, uint64_t *ips,
		       size_t max, size_t *n, int *truncated)
{
	if (!a || a->use == a->njobs)
		return 0;
	/* jobs are in record order: those before REC were not asked for */
	size_t i = a->use;
	while (i < a->njobs && a->jobs[i].rec < rec)
		i++;
	if (i == a->njobs || a->jobs[i].rec != rec)
		return 0;
	a->use = i + 1;
	struct job *j = &a->jobs[i];
	/* the maps it was handed with are still the thread's */
	int same = t->proc && t->proc->maps == j->proc.maps &&
		   t->proc->old_maps == j->proc.old_maps;
	pthread_mutex_lock(&a->mu);
	if (j->state == J_PENDING)
		j->state = J_TAKEN; /* this thread is faster */
	while (j->state == J_RUNNING)
		pthread_cond_wait(&a->done, &a->mu);
	int got = j->state == J_DONE;
	pthread_mutex_unlock(&a->mu);
	if (!got || !same || j->leave || j->n > max)
		return 0;
	memcpy(ips, j->ips, j->n * sizeof(*ips));
	*n = j->n;
	*truncated = j->truncated;
	return 1;
}

void perfan__ahead_free(struct perfan__ahead *a)
{
	if (!a)
		return;
	perfan__ahead_drain(a);
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	for (size_t i = 0; i < MAX_JOBS; i++)
		free(a->jobs[i].ips);
	free(a->pub);
	perfan__unwind_worker_free(a->w);
	pthread_cond_destroy(&a->done);
	pthread_cond_destroy(&a->work);
	pthread_mutex_destroy(&a->mu);
	free(a);
}
