/* render/gil_units.h: the GIL ledger's threads as the tables show them: a
 * thread alone, by its name, or the threads of a pool as one row with
 * their figures summed; and who held the GIL while each row waited, by
 * row. */
#ifndef PERFAN_RENDER_GIL_UNITS_H
#define PERFAN_RENDER_GIL_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/gil.h>

/* One row: a thread, or a pool's threads of the ledger. */
struct perfan__gil_unit {
	const struct perfan_gil_thread *t; /* its (first) thread */
	size_t nr_threads;                 /* 1: a thread alone */
	/* the threads' figures summed (pid, tid, names: the first's) */
	struct perfan_gil_thread sum;
	uint64_t life; /* the threads' lifetimes summed */
};

struct perfan__gil_units {
	struct perfan__gil_unit *u;
	size_t n;
	size_t *of; /* thread i of the ledger -> its row */
	/* N rows of N + 1: the time row w waited while row h held the GIL,
	 * the last column no holder seen (the ledger's blame, by row) */
	uint64_t *blame;
};

/* G's rows, in the order of their first threads. Returns 0 or
 * PERFAN_ENOMEM. Free with perfan__gil_units_free. */
int perfan__gil_units(struct perfan__gil_units *out,
		      const struct perfan_gil_result *g);
void perfan__gil_units_free(struct perfan__gil_units *u);
/* U's label into BUF (N bytes): "NAME PID/TID", or "POOL [pool of N]". */
void perfan__gil_unit_label(const struct perfan__gil_unit *u, char *buf,
			    size_t n);

#endif
