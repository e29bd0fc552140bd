/* render/thread_rows.h: what the sinks of a thread table share: a row
 * shown as its pool when it is the pool's first, hidden when another
 * row shows its pool, and the label of a thread or a pool. */
#ifndef PERFAN_RENDER_THREAD_ROWS_H
#define PERFAN_RENDER_THREAD_ROWS_H

#include <stddef.h>

#include <perfan/threads.h>

/* Row I's pool when I is the pool's first row, else NULL; *SKIP: row I
 * is shown by its pool's first row. */
const struct perfan_thread_pool_row *
perfan__thread_row_pool(const perfan_threads *t, size_t i, int *skip);
/* "NAME PID/TID" of row R into BUF (N bytes, cut to fit). */
void perfan__thread_label(char *buf, size_t n,
			  const struct perfan_thread_row *r);
/* "NAME [pool of N] PID" of pool P into BUF. */
void perfan__pool_label(char *buf, size_t n,
			const struct perfan_thread_pool_row *p);

#endif
