/* sources/perfdata/pipeline.c: reading ahead on a second thread (opts.threads >= 2).
 * A reader thread runs the sequential reader (input, decompression, time
 * order) and hands the records' bytes over in batches; the caller's thread
 * takes them in the same order, with the reader's warnings at the places
 * they were met and its error after the records before it, so that what a
 * caller sees is what one thread gives. A batch is decoded by the reader
 * when the caller is behind, else by the caller as it delivers each
 * record: a decoded record is four times the size of its bytes, and
 * written on one core and read on another it cost the reader half its
 * time. */
#include "sources/perfdata/ahead.h"
#include "sources/perfdata/internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/handoff.h"

/* A batch closes at this many records, or bytes of them. The first holds
 * BATCH_FIRST records, each next one twice as many up to BATCH_RECORDS:
 * a short input costs little. */
#define BATCH_FIRST 64
#define BATCH_RECORDS 1024
#define BATCH_BYTES ((size_t)1 << 20)
/* Batches handed over and not yet taken, at most. */
#define QUEUE_DEPTH 3
/* The reader decodes a batch when this many wait to be taken. */
#define READER_DECODES_FROM 2
#define BUMP_CHUNK ((size_t)64 << 10)

struct pipe_log {
	size_t at; /* emitted before record AT is delivered */
	enum perfan_log_level level;
	char *msg;
};

struct batch {
	struct perfan__hitem item; /* first: the queue's link */
	struct perfan__raw *raws;  /* the reader's */
	size_t n, cap;
	/* raws[0 .. ndec) decoded: by the reader as it reads, when it reads
	 * ahead of the caller (its batches wait), else by the caller */
	struct perfan_record *recs;
	size_t ndec, caprecs;
	int reader_decodes;
	struct pipe_log *logs;
	size_t nlogs, caplogs;
	/* copies of record bytes and decoded arrays, reused when the batch
	 * is */
	struct perfan__arena mem;
	/* chunks of the time order whose records the batch holds where
	 * they are (perfan__pipe_stable), let go when the reader takes the
	 * batch back */
	struct perfan__chunk **kept;
	size_t nkept, capkept;
	size_t bytes; /* of the records (their sizes) */
	int status;   /* 0: more batches follow; else the reader's last word */
	char *msg;    /* its message, for an error */
};

struct perfan__pipe {
	struct perfan_perfdata *pd;
	perfan__pipe_read_fn read; /* the reader's next record, on the thread */
	perfan__pipe_decode_fn decode; /* a record, on the caller's thread */
	pthread_t th;
	struct perfan__handoff q; /* batches handed over, and spares */
	/* the reader's */
	struct batch *fill;
	size_t batch_records; /* of the next batch */
	/* the caller's, written for every record: on cache lines apart
	 * from the reader's */
	char apart[64];
	struct batch *cur;
	size_t idx, logidx;
	uint64_t offset;
	int err; /* a record that did not decode: the caller's last word */
	/* the record delivered, unless it was decoded ahead: one that is
	 * reused stays in this core's cache */
	struct perfan_record one;
	char apart_after[32];
};

/* The batch the reader thread fills: set on that thread only. */
static _Thread_local struct perfan__pipe *filling;
/* The batch whose records the caller's thread decodes, and the record's
 * index when it decodes ahead of delivering (NOT_AHEAD: as it delivers);
 * set on that thread only. */
static _Thread_local struct batch *decoding;
static _Thread_local size_t decoding_at;
#define NOT_AHEAD SIZE_MAX

static void *bump(struct batch *b, size_t n)
{
	return perfan__arena_bump(&b->mem, n, BUMP_CHUNK);
}

/* Room in B for N decoded records: 0, or 1 when there is no memory for
 * them (B as it was). */
static int recs_room(struct batch *b, size_t n)
{
	if (b->caprecs >= n)
		return 0;
	struct perfan_record *r = realloc(b->recs, n * sizeof(*r));
	if (!r)
		return 1;
	b->recs = r;
	b->caprecs = n;
	return 0;
}

static void batch_reset(struct batch *b)
{
	for (size_t i = 0; i < b->nlogs; i++)
		free(b->logs[i].msg);
	b->nlogs = 0;
	b->n = 0;
	b->ndec = 0;
	b->reader_decodes = 0;
	b->bytes = 0;
	b->status = 0;
	free(b->msg);
	b->msg = NULL;
	/* keep one chunk of the usual size, drop the rest */
	perfan__arena_reset(&b->mem, BUMP_CHUNK);
}

static void batch_free(struct batch *b)
{
	if (!b)
		return;
	batch_reset(b);
	perfan__arena_free(&b->mem);
	free(b->logs);
	free(b->kept); /* the order frees its chunks after (perfdata.c) */
	free(b->raws);
	free(b->recs);
	free(b);
}

static void item_free(struct perfan__hitem *it)
{
	batch_free((struct batch *)it);
}

/* ---- the reader thread's side ------------------------------------------ */

/* The batch the reader thread fills, or NULL (not that thread, or out of
 * memory). */
static struct batch *filled(void)
{
	return filling ? filling->fill : NULL;
}

void *perfan__pipe_alloc(size_t n)
{
	struct batch *b = filling ? filled() : decoding;
	return b ? bump(b, n) : NULL;
}

struct perfan__raw *perfan__pipe_raw_slot(void)
{
	struct batch *b = filled();
	return b ? &b->raws[b->n] : NULL;
}

int perfan__pipe_put(struct perfan_perfdata *pd, const struct perfan__raw *r)
{
	struct perfan__raw *slot = perfan__pipe_raw_slot();
	if (!slot)
		return PD_ERR(pd, PERFAN_ENOMEM, r->offset, "out of memory");
	if (r != slot)
		*slot = *r;
	return 0;
}

struct perfan_record *perfan__pipe_slot(void)
{
	struct batch *b = filled();
	return b && b->reader_decodes ? &b->recs[b->n] : NULL;
}

int perfan__pipe_reading(void)
{
	return filling != NULL;
}

int perfan__pipe_filling(void)
{
	return filling != NULL || decoding != NULL;
}

/* Keep MSG for the caller's thread, to be given before record AT of B is
 * delivered and after those kept for it before. */
static void keep_log(struct batch *b, size_t at, enum perfan_log_level level,
		     const char *msg)
{
	if (perfan__grow((void **)&b->logs, &b->caplogs, b->nlogs + 1,
			 sizeof(*b->logs)))
		return; /* a warning lost, not the records */
	char *m = strdup(msg);
	if (!m)
		return;
	size_t i = b->nlogs++;
	for (; i > 0 && b->logs[i - 1].at > at; i--)
		b->logs[i] = b->logs[i - 1];
	b->logs[i] = (struct pipe_log){at, level, m};
}

int perfan__pipe_log(enum perfan_log_level level, const char *msg)
{
	if (decoding && decoding_at != NOT_AHEAD) {
		keep_log(decoding, decoding_at, level, msg);
		return 1;
	}
	if (!filling)
		return 0;
	struct batch *b = filling->fill;
	if (!b)
		return 1; /* out of memory: see perfan__pipe_quiesce */
	keep_log(b, b->n, level, msg);
	return 1;
}

/* A message of the reader: kept for the caller's thread when the reader
 * thread logs it, else to the user's callback. */
static void deliver(enum perfan_log_level level, const char *msg, void *pd_)
{
	const struct perfan_perfdata *pd = pd_;
	if (!perfan__pipe_log(level, msg))
		pd->opts.log(level, msg, pd->opts.log_payload);
}

void perfan__log(struct perfan_perfdata *pd, enum perfan_log_level lvl,
		 const char *fmt, ...)
{
	if (!pd->opts.log)
		return;
	va_list ap;
	va_start(ap, fmt);
	perfan__vlogf(deliver, pd, lvl, fmt, ap);
	va_end(ap);
}

/* Whether B holds its record in CH, the time order's chunk it was copied
 * into (NULL: none), with a reference to CH: then it is not copied again
 * (a DWARF sample's 8 KiB stack was copied three times by the reader, a
 * third of its time). 0: no chunk, or no memory to note it in. */
static int kept(struct batch *b, struct perfan__chunk *ch)
{
	if (!ch)
		return 0;
	if (b->nkept && b->kept[b->nkept - 1] == ch)
		return 1; /* referenced for a record before */
	if (perfan__grow((void **)&b->kept, &b->capkept, b->nkept + 1,
			 sizeof(*b->kept)))
		return 0;
	perfan__chunk_ref(ch);
	b->kept[b->nkept++] = ch;
	return 1;
}

int perfan__pipe_stable(struct perfan_perfdata *pd, struct perfan__raw *r)
{
	if (!filling)
		return 0;
	if (!r->from_compressed && pd->src.map && r->bytes >= pd->src.map &&
	    r->bytes < pd->src.map + pd->src.map_len &&
	    (!r->payload || (r->payload >= pd->src.map &&
			     r->payload < pd->src.map + pd->src.map_len)))
		return 0; /* a mapped file stays mapped */
	struct batch *b = filling->fill;
	if (b && kept(b, perfan__chunk_held(&pd->order, r->bytes)))
		return 0;
	size_t n = (size_t)r->size + (size_t)r->payload_size;
	uint8_t *c = b ? bump(b, n ? n : 1) : NULL;
	if (!c)
		return PD_ERR(pd, PERFAN_ENOMEM, r->offset, "out of memory");
	memcpy(c, r->bytes, r->size);
	if (r->payload_size)
		memcpy(c + r->size, r->payload, (size_t)r->payload_size);
	r->bytes = c;
	r->payload = r->payload_size ? c + r->size : NULL;
	return 0;
}

static struct batch *new_batch(struct perfan__pipe *p)
{
	struct batch *b = (struct batch *)perfan__handoff_spare(&p->q);
	if (!b && !(b = calloc(1, sizeof(*b))))
		return NULL;
	/* the caller is done with its records */
	for (size_t i = 0; i < b->nkept; i++)
		perfan__chunk_unref(&p->pd->order, b->kept[i]);
	b->nkept = 0;
	if (p->batch_records < BATCH_FIRST)
		p->batch_records = BATCH_FIRST;
	if (b->cap < p->batch_records) {
		struct perfan__raw *r =
			realloc(b->raws, p->batch_records * sizeof(*r));
		if (!r) {
			batch_free(b);
			return NULL;
		}
		b->raws = r;
		b->cap = p->batch_records;
	}
	if (p->batch_records < BATCH_RECORDS)
		p->batch_records *= 2;
	/* the caller is behind: the reader decodes this batch too (a
	 * decoded record, four times its bytes, costs it more to hand over
	 * than to decode: the caller decodes when the reader is the slower) */
	b->reader_decodes = perfan__handoff_queued(&p->q) >=
				    READER_DECODES_FROM &&
			    !recs_room(b, b->cap);
	return b;
}

/* Hand the batch being filled over; 0, or 1 when the caller is gone
 * (the batch is freed with the queue). */
static int hand_over(struct perfan__pipe *p)
{
	struct batch *b = p->fill;
	p->fill = NULL;
	return perfan__handoff_put(&p->q, &b->item);
}

void perfan__pipe_quiesce(struct perfan_perfdata *pd)
{
	struct perfan__pipe *p = filling;
	if (!p || p->pd != pd)
		return;
	/* what came before must be taken before the reader's state changes
	 * under it (event table, names, tracing formats) */
	if (p->fill && (p->fill->n || p->fill->nlogs)) {
		if (hand_over(p))
			return;
		/* NULL: the record comes out as out of memory (run) */
		p->fill = new_batch(p);
	}
	perfan__handoff_quiesce(&p->q);
}

static void *run(void *arg)
{
	struct perfan__pipe *p = arg;
	struct perfan_perfdata *pd = p->pd;
	filling = p;
	for (;;) {
		if (!p->fill && !(p->fill = new_batch(p)))
			/* no batch for the error either: the caller sees
			 * the end of the queue as out of memory */
			break;
		/* into the batch's next slot (perfan__pipe_put) */
		int rc = p->read(pd, NULL);
		if (!p->fill) { /* quiesce had no batch */
			rc = perfan__err(PERFAN_ENOMEM,
					 "%s: out of memory reading ahead",
					 pd->name);
			if (!(p->fill = new_batch(p)))
				continue; /* tells the caller, above */
		}
		struct batch *b = p->fill;
		if (rc == 0) {
			/* the bytes the records keep in memory, mapped or
			 * copied */
			b->bytes += b->raws[b->n++].size;
			if (b->reader_decodes)
				b->ndec = b->n;
			if (b->n < b->cap && b->bytes < BATCH_BYTES)
				continue;
			if (hand_over(p))
				break;
			continue;
		}
		b->status = rc;
		if (rc != PERFAN_ITEROVER)
			b->msg = strdup(perfan_error_last());
		hand_over(p);
		break;
	}
	perfan__handoff_end(&p->q);
	filling = NULL;
	return NULL;
}

/* ---- the caller's side --------------------------------------------------- */

int perfan__pipe_start(struct perfan_perfdata *pd, perfan__pipe_read_fn read,
		       perfan__pipe_decode_fn decode)
{
	struct perfan__pipe *p = calloc(1, sizeof(*p));
	if (!p)
		return PERFAN_ENOMEM;
	p->pd = pd;
	p->read = read;
	p->decode = decode;
	perfan__handoff_init(&p->q, QUEUE_DEPTH);
	if (pthread_create(&p->th, NULL, run, p)) {
		perfan__handoff_destroy(&p->q, item_free);
		free(p);
		return 1; /* read on this thread */
	}
	pd->pipe = p;
	return 0;
}

static void emit_logs(struct perfan__pipe *p, struct batch *b, size_t upto)
{
	const struct perfan_perfdata_opts *o = &p->pd->opts;
	while (p->logidx < b->nlogs && b->logs[p->logidx].at <= upto) {
		const struct pipe_log *l = &b->logs[p->logidx++];
		if (o->log)
			o->log(l->level, l->msg, o->log_payload);
	}
}

/* Decode record I of B on this thread into OUT, with memory of the batch;
 * AHEAD: before it is delivered (its warnings kept for then). */
static int decode(struct perfan__pipe *p, struct batch *b, size_t i,
		  struct perfan_record *out, int ahead)
{
	decoding = b;
	decoding_at = ahead ? i : NOT_AHEAD;
	int rc = p->decode(p->pd, &b->raws[i], out);
	decoding = NULL;
	return rc;
}

int perfan__pipe_next(struct perfan_perfdata *pd,
		      const struct perfan_record **out)
{
	struct perfan__pipe *p = pd->pipe;
	if (p->err)
		return p->err;
	for (;;) {
		struct batch *b = p->cur;
		if (b) {
			emit_logs(p, b, p->idx);
			if (p->idx < b->n) {
				const struct perfan_record *r = &p->one;
				if (p->idx < b->ndec)
					r = &b->recs[p->idx];
				else if ((p->err = decode(p, b, p->idx, &p->one,
							  0)))
					return p->err;
				p->idx++;
				p->offset = r->offset + r->size;
				*out = r;
				return 0;
			}
			if (b->status) {
				if (b->status != PERFAN_ITEROVER)
					perfan__err(b->status, "%s",
						    b->msg ? b->msg : "");
				return b->status;
			}
		}
		if (b)
			batch_reset(b);
		p->cur = NULL;
		b = (struct batch *)perfan__handoff_take(&p->q,
							 b ? &b->item : NULL);
		if (!b)
			return perfan__err(PERFAN_ENOMEM,
					   "%s: out of memory reading ahead",
					   pd->name);
		p->cur = b;
		p->idx = p->logidx = 0;
	}
}

size_t perfan__perfdata_ahead(perfan_perfdata *pd,
			      const struct perfan_record **recs)
{
	struct perfan__pipe *p = pd->pipe;
	struct batch *b = p ? p->cur : NULL;
	if (!b || p->idx >= b->n)
		return 0;
	if (recs_room(b, b->n))
		return 0; /* nothing ahead: the caller waits */
	if (b->ndec < p->idx)
		b->ndec = p->idx;
	/* a record that does not decode stops it: it fails again, in its
	 * place, when it is delivered */
	while (b->ndec < b->n && !decode(p, b, b->ndec, &b->recs[b->ndec], 1))
		b->ndec++;
	if (b->ndec <= p->idx)
		return 0;
	*recs = &b->recs[p->idx];
	return b->ndec - p->idx;
}

int perfan__perfdata_threads(const perfan_perfdata *pd)
{
	return pd->opts.threads;
}

uint64_t perfan__pipe_offset(const struct perfan_perfdata *pd)
{
	return pd->pipe->offset;
}

void perfan__pipe_free(struct perfan_perfdata *pd)
{
	struct perfan__pipe *p = pd->pipe;
	if (!p)
		return;
	perfan__handoff_stop(&p->q);
	pthread_join(p->th, NULL);
	batch_free(p->cur);
	batch_free(p->fill);
	perfan__handoff_destroy(&p->q, item_free);
	free(p);
	pd->pipe = NULL;
}
