/* sources/folded_pipe.c: a pruned folded read on two threads. A reader
 * thread reads the lines, splits, hashes and interns their frames (the
 * first half of each line, perfan__freader_stage) and hands them over in
 * batches, with the input buffers they lie in; the caller's thread adds
 * them to the pruning tree in the same order. Until the reader thread is
 * joined only it touches the profile, so the tree gives what one thread
 * gives. A line out of order (before anything was folded) joins it, and
 * the rest is read on the caller's thread as one thread reads it. */
#include "sources/folded_pipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/handoff.h"
#include "util/log.h"

/* A batch closes at this many lines, or where its input buffer does. */
#define BATCH_LINES 4096
/* Batches handed over and not yet taken, at most. */
#define QUEUE_DEPTH 4

/* A staged line: its text in an input buffer, its frames from st.keep
 * on at fr[first..] of its batch. */
struct pline {
	const char *s;
	size_t n;
	uint64_t lineno;
	uint64_t w[2]; /* after, before */
	struct perfan__fstaged st;
	size_t nf, first;
};

struct fbatch {
	struct perfan__hitem item; /* first: the queue's link */
	struct pline *lines;
	size_t n, cap;
	perfan_frame_id *fr;
	size_t nfr, frcap;
	char *buf; /* the input buffer its last line ends, or NULL */
	size_t bufcap;
	int status; /* 0: more follow; else PERFAN_ITEROVER or an error */
	char *msg;  /* the error's message */
};

struct fpipe {
	struct perfan__freader *r;
	struct perfan__lines *l;
	pthread_t th;
	struct perfan__handoff q; /* batches handed over, and spares */
	int oom; /* the reader ended out of memory, a line lost */
	/* the caller's: its line's frames, the last line of a batch */
	perfan_frame_id *frames;
	size_t frames_cap;
	char *prev;
	size_t prev_len, prev_cap;
};

static void batch_free(struct fbatch *b)
{
	if (!b)
		return;
	free(b->lines);
	free(b->fr);
	free(b->buf);
	free(b->msg);
	free(b);
}

static void item_free(struct perfan__hitem *it)
{
	batch_free((struct fbatch *)it);
}

/* ---- the reader thread --------------------------------------------------- */

/* An empty batch, a spare one if there is; its input buffer goes back
 * to the input. NULL: out of memory. */
static struct fbatch *new_batch(struct fpipe *p)
{
	struct fbatch *b = (struct fbatch *)perfan__handoff_spare(&p->q);
	if (!b)
		return calloc(1, sizeof(*b));
	b->n = b->nfr = 0;
	b->status = 0;
	if (b->buf) {
		/* the line before the next may lie in it */
		if (perfan__freader_hold_prev(p->r, b->buf, b->bufcap)) {
			batch_free(b);
			return NULL;
		}
		perfan__lines_give(p->l, b->buf, b->bufcap);
		b->buf = NULL;
	}
	return b;
}

/* Queue B for the caller (after a stop too, so that nothing read is
 * lost). */
static void hand_over(struct fpipe *p, struct fbatch *b)
{
	perfan__handoff_put(&p->q, &b->item);
}

/* Append the line just staged from the reader's frames. */
static int record(struct fpipe *p, struct fbatch *b, const char *s, size_t n,
		  uint64_t lineno, const uint64_t w[2],
		  const struct perfan__fstaged *st)
{
	const struct perfan__freader *r = p->r;
	size_t add = r->nframes - st->keep;
	if ((b->n == b->cap && perfan__grow((void **)&b->lines, &b->cap,
					    b->n + 1, sizeof(*b->lines))) ||
	    (b->nfr + add > b->frcap &&
	     perfan__grow((void **)&b->fr, &b->frcap, b->nfr + add,
			  sizeof(*b->fr))))
		return perfan__nomem(r->name);
	memcpy(b->fr + b->nfr, r->frames + st->keep, add * sizeof(*b->fr));
	b->lines[b->n++] = (struct pline){s,   n,          lineno, {w[0], w[1]},
					  *st, r->nframes, b->nfr};
	b->nfr += add;
	return 0;
}

/* One line of the input into batch B: 0 to go on, 1 at its end, or an
 * error. */
static int stage_line(struct fpipe *p, struct fbatch *b, const char *s,
		      size_t len)
{
	struct perfan__freader *r = p->r;
	size_t n;
	uint64_t w[2];
	struct perfan__fstaged st;
	int rc = perfan__freader_parse(r->name, r->bcol >= 0, s, len,
				       p->l->lineno, &n, &w[0], &w[1]);
	if (rc || !n)
		return rc;
	if ((rc = perfan__freader_stage(r, r->name, p->l->lineno, s, n, w[0],
					w[1], &st)) ||
	    (rc = record(p, b, s, n, p->l->lineno, w, &st)))
		return rc;
	return perfan__freader_set_prev(r, s, n);
}

static void *run(void *arg)
{
	struct fpipe *p = arg;
	struct fbatch *b = new_batch(p);
	int clean = 0; /* ended with a batch that says so, or stopped */
	while (b) {
		if (perfan__handoff_stopped(&p->q)) {
			hand_over(p, b); /* the caller reads on from here */
			clean = 1;
			break;
		}
		const char *s;
		size_t len, cap;
		int rc = perfan__lines_next(p->l, &s, &len);
		char *old = perfan__lines_retired(p->l, &cap);
		if (old) {
			/* the lines so far end with their buffer */
			b->buf = old;
			b->bufcap = cap;
			hand_over(p, b);
			if (!(b = new_batch(p)))
				break;
		}
		if (rc == 1)
			rc = stage_line(p, b, s, len);
		else if (rc == 0)
			rc = PERFAN_ITEROVER;
		if (rc) {
			b->status = rc;
			if (rc != PERFAN_ITEROVER)
				b->msg = strdup(perfan_error_last());
			hand_over(p, b);
			clean = 1;
			break;
		}
		if (b->n >= BATCH_LINES) {
			hand_over(p, b);
			b = new_batch(p);
		}
	}
	p->oom = !clean; /* read after the join */
	perfan__handoff_end(&p->q);
	return NULL;
}

/* ---- the caller's thread ------------------------------------------------- */

/* Stop the reader thread and join it; the reader is this thread's now,
 * and the previous line its own copy, as the buffers may go. */
static int stop_reader(struct fpipe *p)
{
	perfan__handoff_stop(&p->q);
	pthread_join(p->th, NULL);
	return perfan__freader_hold_prev(p->r, NULL, 0);
}

/* Line X of B's frames, whole, in p->frames. */
static int frames_of(struct fpipe *p, const struct fbatch *b,
		     const struct pline *x)
{
	if (x->nf > p->frames_cap &&
	    perfan__grow((void **)&p->frames, &p->frames_cap, x->nf,
			 sizeof(*p->frames)))
		return perfan__nomem(p->r->name);
	memcpy(p->frames + x->st.keep, b->fr + x->first,
	       (x->nf - x->st.keep) * sizeof(*p->frames));
	return 0;
}

/* B's last line as the line before the next batch's first. */
static int keep_last(struct fpipe *p, const struct fbatch *b)
{
	if (!b->n)
		return 0;
	const struct pline *x = &b->lines[b->n - 1];
	if (x->n > p->prev_cap &&
	    perfan__grow((void **)&p->prev, &p->prev_cap, x->n, 1))
		return perfan__nomem(p->r->name);
	memcpy(p->prev, x->s, x->n);
	p->prev_len = x->n;
	return 0;
}

/* Batch B's lines from *AT into the tree. Returns 0 (all added), or the
 * result of perfan__ptree_add for line *AT, or an error. */
static int tree_lines(struct fpipe *p, const struct fbatch *b, size_t *at)
{
	for (size_t i = *at; i < b->n; i++) {
		const struct pline *x = &b->lines[i];
		const char *prev = i ? b->lines[i - 1].s : p->prev;
		size_t prev_len = i ? b->lines[i - 1].n : p->prev_len;
		int rc = frames_of(p, b, x);
		if (!rc)
			rc = perfan__ptree_add(p->r->prune, p->frames, x->nf,
					       x->st.keep, x->s, x->n,
					       prev ? prev : "", prev_len,
					       x->st.prev_keep_end,
					       x->st.common, x->w);
		if (rc) {
			*at = i;
			return rc;
		}
	}
	*at = b->n;
	return 0;
}

/* The reader is joined: the lines of B from AT on, and of every batch
 * after it, into the profile as one thread adds them after a line out of
 * order; then the rest of the input. */
static int finish_alone(struct fpipe *p, struct fbatch *b, size_t at)
{
	struct perfan__freader *r = p->r;
	int rc = 0;
	while (b && !rc) {
		for (size_t i = at; i < b->n && !rc; i++) {
			const struct pline *x = &b->lines[i];
			if (!(rc = frames_of(p, b, x)))
				rc = perfan__freader_put(r, p->frames, x->nf,
							 x->w[0], x->w[1]);
		}
		if (!rc && b->status) {
			rc = b->status == PERFAN_ITEROVER
				     ? 0
				     : perfan__err(b->status, "%s",
						   b->msg ? b->msg : "");
			batch_free(b);
			return rc;
		}
		batch_free(b);
		/* the reader is joined: this does not wait */
		b = (struct fbatch *)perfan__handoff_take(&p->q, NULL);
		at = 0;
	}
	batch_free(b);
	if (rc)
		return rc;
	if (p->oom)
		return perfan__nomem(r->name);
	/* the reader was stopped: go on from where it was */
	return perfan__freader_lines(r, p->l);
}

static int consume(struct fpipe *p)
{
	struct fbatch *done = NULL;
	for (;;) {
		struct fbatch *b = (struct fbatch *)perfan__handoff_take(
			&p->q, done ? &done->item : NULL);
		if (!b) {
			stop_reader(p);
			return perfan__nomem(p->r->name);
		}
		size_t at = 0;
		int rc = tree_lines(p, b, &at);
		if (rc) {
			int hrc = stop_reader(p);
			const struct pline *x = &b->lines[at];
			rc = perfan__freader_tree_rc(p->r, rc, p->r->name,
						     x->lineno);
			if (!rc)
				rc = hrc;
			if (!rc) /* out of order: the tree is flushed */
				return finish_alone(p, b, at);
			batch_free(b);
			return rc;
		}
		if ((rc = keep_last(p, b)) || b->status) {
			if (!rc && b->status != PERFAN_ITEROVER)
				rc = perfan__err(b->status, "%s",
						 b->msg ? b->msg : "");
			int hrc = stop_reader(p);
			batch_free(b);
			return rc ? rc : hrc;
		}
		done = b;
	}
}

int perfan__folded_pipe(struct perfan__freader *r, struct perfan__lines *l)
{
	struct fpipe *p = calloc(1, sizeof(*p));
	if (!p)
		return 1;
	p->r = r;
	p->l = l;
	perfan__handoff_init(&p->q, QUEUE_DEPTH);
	int rc = 1;
	if (!pthread_create(&p->th, NULL, run, p))
		rc = consume(p); /* joins the reader */
	perfan__handoff_destroy(&p->q, item_free);
	free(p->frames);
	free(p->prev);
	free(p);
	return rc;
}
