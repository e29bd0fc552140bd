/* render/thread_rows.c: a thread table's rows as the sinks show them,
 * pools folded into their first row (render/thread_rows.h). */
#include <stdio.h>

#include "render/thread_rows.h"

const struct perfan_thread_pool_row *
perfan__thread_row_pool(const perfan_threads *t, size_t i, int *skip)
{
	const struct perfan_thread_row *r = perfan_threads_row(t, i);
	const struct perfan_thread_pool_row *p =
		r ? perfan_threads_pool(t, r->pool) : NULL;
	*skip = p && p->first != i;
	return p && p->first == i ? p : NULL;
}

void perfan__thread_label(char *buf, size_t n,
			  const struct perfan_thread_row *r)
{
	snprintf(buf, n, "%s %d/%d",
		 r->name   ? r->name
		 : r->comm ? r->comm
			   : "?",
		 (int)r->pid, (int)r->tid);
}

void perfan__pool_label(char *buf, size_t n,
			const struct perfan_thread_pool_row *p)
{
	snprintf(buf, n, "%s [pool of %zu] %d", p->name, p->nr_threads,
		 (int)p->pid);
}
