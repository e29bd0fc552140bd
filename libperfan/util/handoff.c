/* util/handoff.c: the queue of batches between a producer thread and a
 * consumer thread, and their spares, under one mutex. */
#include "util/handoff.h"

void perfan__handoff_init(struct perfan__handoff *h, size_t depth)
{
	*h = (struct perfan__handoff){.depth = depth ? depth : 1};
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->ready, NULL);
	pthread_cond_init(&h->taken, NULL);
}

static void free_list(struct perfan__hitem *it,
		      void (*free_item)(struct perfan__hitem *))
{
	while (it) {
		struct perfan__hitem *next = it->next;
		free_item(it);
		it = next;
	}
}

void perfan__handoff_destroy(struct perfan__handoff *h,
			     void (*free_item)(struct perfan__hitem *))
{
	free_list(h->head, free_item);
	free_list(h->spare, free_item);
	h->head = h->tail = h->spare = NULL;
	pthread_mutex_destroy(&h->mu);
	pthread_cond_destroy(&h->ready);
	pthread_cond_destroy(&h->taken);
}

struct perfan__hitem *perfan__handoff_spare(struct perfan__handoff *h)
{
	pthread_mutex_lock(&h->mu);
	struct perfan__hitem *it = h->spare;
	if (it)
		h->spare = it->next;
	pthread_mutex_unlock(&h->mu);
	return it;
}

size_t perfan__handoff_queued(struct perfan__handoff *h)
{
	pthread_mutex_lock(&h->mu);
	size_t n = h->queued;
	pthread_mutex_unlock(&h->mu);
	return n;
}

int perfan__handoff_put(struct perfan__handoff *h, struct perfan__hitem *it)
{
	it->next = NULL;
	pthread_mutex_lock(&h->mu);
	while (h->queued >= h->depth && !h->stop)
		pthread_cond_wait(&h->taken, &h->mu);
	if (h->tail)
		h->tail->next = it;
	else
		h->head = it;
	h->tail = it;
	h->queued++;
	pthread_cond_signal(&h->ready);
	int stop = h->stop;
	pthread_mutex_unlock(&h->mu);
	return stop;
}

int perfan__handoff_stopped(struct perfan__handoff *h)
{
	return __atomic_load_n(&h->stop, __ATOMIC_RELAXED);
}

void perfan__handoff_quiesce(struct perfan__handoff *h)
{
	pthread_mutex_lock(&h->mu);
	while ((h->queued || !h->waiting) && !h->stop)
		pthread_cond_wait(&h->taken, &h->mu);
	pthread_mutex_unlock(&h->mu);
}

void perfan__handoff_end(struct perfan__handoff *h)
{
	pthread_mutex_lock(&h->mu);
	h->ended = 1;
	pthread_cond_signal(&h->ready);
	pthread_mutex_unlock(&h->mu);
}

struct perfan__hitem *perfan__handoff_take(struct perfan__handoff *h,
					   struct perfan__hitem *done)
{
	pthread_mutex_lock(&h->mu);
	if (done) {
		done->next = h->spare;
		h->spare = done;
	}
	h->waiting = 1;
	pthread_cond_signal(&h->taken);
	while (!h->head && !h->ended)
		pthread_cond_wait(&h->ready, &h->mu);
	h->waiting = 0;
	struct perfan__hitem *it = h->head;
	if (it) {
		h->head = it->next;
		if (!h->head)
			h->tail = NULL;
		h->queued--;
		pthread_cond_signal(&h->taken);
	}
	pthread_mutex_unlock(&h->mu);
	return it;
}

void perfan__handoff_stop(struct perfan__handoff *h)
{
	pthread_mutex_lock(&h->mu);
	__atomic_store_n(&h->stop, 1, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&h->taken);
	pthread_mutex_unlock(&h->mu);
}
