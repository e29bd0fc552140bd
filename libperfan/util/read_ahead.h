/* util/read_ahead.h: a stream's pieces read ahead on a second thread (the
 * inflating of a .json.gz trace while its JSON is parsed): what the
 * caller reads is what the stream gives, in order, with its error at the
 * place it was met. */
#ifndef PERFAN_UTIL_READ_AHEAD_H
#define PERFAN_UTIL_READ_AHEAD_H

#include <stddef.h>

/* A stream's next bytes: up to CAP into DST, *GOT of them, fewer than CAP
 * only at its end; 0, or an error code with the last error set. */
typedef int (*perfan__ahead_fn)(void *ctx, char *dst, size_t cap, size_t *got);

struct perfan__ahead;

/* Start reading FN(CTX) on a thread of its own, in pieces of PIECE bytes,
 * a few of them ahead; from now on only that thread calls FN until
 * perfan__ahead_stop. Returns 0, or PERFAN_ENOMEM (the thread not made:
 * read FN on the caller's thread). */
int perfan__ahead_start(perfan__ahead_fn fn, void *ctx, size_t piece,
			struct perfan__ahead **out);

/* The next bytes, as FN gives them (AHEAD a struct perfan__ahead): a
 * perfan__ahead_fn itself. The thread's error is raised again here, with
 * its code and message. */
int perfan__ahead_read(void *ahead, char *dst, size_t cap, size_t *got);

/* Stop the thread (it may be ahead: what it read is dropped) and free A. */
void perfan__ahead_stop(struct perfan__ahead *a);

#endif
