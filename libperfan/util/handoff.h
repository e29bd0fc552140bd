/* util/handoff.h: batches handed from a producer thread to a consumer
 * thread in order (util/handoff.c): at most DEPTH waiting to be taken, the
 * ones the consumer is done with kept for the producer to reuse. A batch
 * is the caller's struct, with a struct perfan__hitem as its first
 * member. */
#ifndef PERFAN_UTIL_HANDOFF_H
#define PERFAN_UTIL_HANDOFF_H

#include <pthread.h>
#include <stddef.h>

struct perfan__hitem {
	struct perfan__hitem *next;
};

struct perfan__handoff {
	pthread_mutex_t mu;
	pthread_cond_t ready; /* a batch was put, or the producer ended */
	pthread_cond_t taken; /* the consumer took one, waits, or stopped */
	struct perfan__hitem *head, *tail, *spare;
	size_t queued, depth;
	int stop;    /* the consumer wants no more (read without the lock) */
	int ended;   /* the producer ended */
	int waiting; /* the consumer waits for a batch, holding none */
};

void perfan__handoff_init(struct perfan__handoff *h, size_t depth);
/* FREE_ITEM each batch still queued or spare, and the rest. */
void perfan__handoff_destroy(struct perfan__handoff *h,
			     void (*free_item)(struct perfan__hitem *));

/* ---- the producer's side */

/* A spare batch, or NULL (make one). */
struct perfan__hitem *perfan__handoff_spare(struct perfan__handoff *h);
/* How many batches wait to be taken. */
size_t perfan__handoff_queued(struct perfan__handoff *h);
/* Queue IT, once fewer than DEPTH wait or the consumer stopped (it is
 * queued then too, for the consumer to take after joining: nothing read
 * is lost). Returns 1 when the consumer stopped, else 0. */
int perfan__handoff_put(struct perfan__handoff *h, struct perfan__hitem *it);
/* The consumer stopped (cheap: no lock). */
int perfan__handoff_stopped(struct perfan__handoff *h);
/* Wait until the consumer took every batch and waits for the next, or
 * stopped. */
void perfan__handoff_quiesce(struct perfan__handoff *h);
/* The producer puts no more. */
void perfan__handoff_end(struct perfan__handoff *h);

/* ---- the consumer's side */

/* The next batch, DONE (if not NULL) given back as a spare first; waits
 * for one. NULL once the producer ended and none is left. */
struct perfan__hitem *perfan__handoff_take(struct perfan__handoff *h,
					   struct perfan__hitem *done);
/* Want no more: a producer waiting to put goes on. */
void perfan__handoff_stop(struct perfan__handoff *h);

#endif
