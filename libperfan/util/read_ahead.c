/* util/read_ahead.c: a stream's pieces read ahead on a second thread
 * (util/read_ahead.h), handed over through util/handoff. */
#include "util/read_ahead.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/handoff.h"
#include "util/log.h"

/* Pieces read and not yet taken, at most. */
#define DEPTH 4

struct piece {
	struct perfan__hitem item; /* first: the queue's link */
	char *buf;
	size_t len, at; /* bytes in buf; taken */
	int last;       /* the stream's end (or error) */
	int rc;         /* the stream's error, after its LEN bytes */
	char *msg;      /* its message */
};

struct perfan__ahead {
	perfan__ahead_fn fn;
	void *ctx;
	size_t size; /* of a piece */
	pthread_t th;
	struct perfan__handoff q;
	struct piece *cur; /* the caller's */
	int done;          /* the caller met the last piece */
};

static void piece_free(struct perfan__hitem *it)
{
	struct piece *p = (struct piece *)it;
	if (!p)
		return;
	free(p->buf);
	free(p->msg);
	free(p);
}

/* A piece to fill: a spare, or a new one (NULL: out of memory). */
static struct piece *new_piece(struct perfan__ahead *a)
{
	struct piece *p = (struct piece *)perfan__handoff_spare(&a->q);
	if (!p) {
		if (!(p = calloc(1, sizeof(*p))) ||
		    !(p->buf = malloc(a->size))) {
			free(p);
			return NULL;
		}
	}
	free(p->msg);
	p->msg = NULL;
	p->len = p->at = 0;
	p->last = p->rc = 0;
	return p;
}

static void *run(void *arg)
{
	struct perfan__ahead *a = arg;
	for (;;) {
		struct piece *p = new_piece(a);
		if (!p)
			break; /* the caller says it: no last piece came */
		p->rc = a->fn(a->ctx, p->buf, a->size, &p->len);
		p->last = p->rc || p->len < a->size;
		if (p->rc)
			p->msg = strdup(perfan_error_last());
		int last = p->last;
		if (perfan__handoff_put(&a->q, &p->item) || last)
			break;
	}
	perfan__handoff_end(&a->q);
	return NULL;
}

int perfan__ahead_start(perfan__ahead_fn fn, void *ctx, size_t piece,
			struct perfan__ahead **out)
{
	struct perfan__ahead *a = calloc(1, sizeof(*a));
	*out = NULL;
	if (!a)
		return perfan__nomem(NULL);
	a->fn = fn;
	a->ctx = ctx;
	a->size = piece ? piece : 1;
	perfan__handoff_init(&a->q, DEPTH);
	if (pthread_create(&a->th, NULL, run, a)) {
		perfan__handoff_destroy(&a->q, piece_free);
		free(a);
		return perfan__nomem(NULL);
	}
	*out = a;
	return 0;
}

int perfan__ahead_read(void *ahead, char *dst, size_t cap, size_t *got)
{
	struct perfan__ahead *a = ahead;
	size_t n = 0;
	*got = 0;
	while (n < cap && !a->done) {
		struct piece *p = a->cur;
		if (!p || p->at == p->len) {
			if (p && p->last) {
				a->done = 1;
				if (p->rc)
					return perfan__err(p->rc, "%s",
							   p->msg ? p->msg
								  : "out of "
								    "memory");
				break;
			}
			a->cur = (struct piece *)perfan__handoff_take(
				&a->q, p ? &p->item : NULL);
			if (!a->cur) {
				/* the thread ended without its last piece:
				 * it ran out of memory */
				a->done = 1;
				return perfan__nomem(NULL);
			}
			continue;
		}
		size_t k = p->len - p->at < cap - n ? p->len - p->at : cap - n;
		memcpy(dst + n, p->buf + p->at, k);
		p->at += k;
		n += k;
	}
	*got = n;
	return 0;
}

void perfan__ahead_stop(struct perfan__ahead *a)
{
	if (!a)
		return;
	perfan__handoff_stop(&a->q);
	pthread_join(a->th, NULL);
	piece_free(a->cur ? &a->cur->item : NULL);
	perfan__handoff_destroy(&a->q, piece_free);
	free(a);
}
