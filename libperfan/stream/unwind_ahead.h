/* stream/unwind_ahead.h: DWARF unwinding of the samples read ahead, on a
 * worker thread (unwind_ahead.c), taken by the stream in sample order. */
#ifndef PERFAN_STREAM_UNWIND_AHEAD_H
#define PERFAN_STREAM_UNWIND_AHEAD_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/perfdata.h>
#include <perfan/records.h>

struct perfan__symctx;
struct perfan__thread;
struct perfan__ahead;

/* Before each perfan_perfdata_next of PD, every record before it handled:
 * hand the samples read ahead up to the next record that changes an
 * address space to the worker (started on the first, *A made then), or,
 * at the end of the reader's batch, wait until the worker is done with
 * it. Returns 0 or PERFAN_ENOMEM. */
int perfan__ahead_step(struct perfan__ahead **a, struct perfan__symctx *ctx,
		       perfan_perfdata *pd);
/* The unwinding of REC, the sample of T being resolved, if the worker did
 * it (waiting while it does): 1 with IPS[0..*N) and *TRUNCATED as
 * perfan__unwind_user gives them; 0: unwind it on this thread. */
int perfan__ahead_take(struct perfan__ahead *a, const struct perfan__thread *t,
		       const struct perfan_record *rec, uint64_t *ips,
		       size_t max, size_t *n, int *truncated);
/* After perfan__unwind_user on this thread: the DSOs it loaded go to the
 * worker. */
void perfan__ahead_publish(struct perfan__ahead *a, struct perfan__symctx *ctx);
/* Wait until the worker is done with every sample handed over. */
void perfan__ahead_drain(struct perfan__ahead *a);
/* Stop the worker and free A (NULL: nothing). */
void perfan__ahead_free(struct perfan__ahead *a);

#endif
