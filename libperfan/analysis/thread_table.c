/* analysis/thread_table.c: the threads an analysis meets, by tid, and
 * their names (analysis/thread_table.h). */
#include "analysis/thread_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/log.h"

static uint64_t key(int32_t tid)
{
	return (uint64_t)(uint32_t)tid;
}

void *perfan__thread_table_get(struct perfan__thread_table *tt, int32_t pid,
			       int32_t tid, const char *comm)
{
	uint64_t *i = perfan__htab_get(&tt->by_tid, key(tid));
	struct perfan__thread *th;
	if (i) {
		th = tt->t[*i];
	} else {
		if (perfan__grow((void **)&tt->t, &tt->cap, tt->n + 1,
				 sizeof(*tt->t)) ||
		    !(th = calloc(1, tt->size))) {
			perfan__nomem("threads");
			return NULL;
		}
		if (perfan__htab_put(&tt->by_tid, key(tid), tt->n)) {
			free(th);
			perfan__nomem("threads");
			return NULL;
		}
		tt->t[tt->n++] = th;
		th->pid = -1;
		th->tid = tid;
	}
	if (pid > 0)
		th->pid = pid;
	if (comm && *comm)
		snprintf(th->comm, sizeof(th->comm), "%s", comm);
	return th;
}

void *perfan__thread_table_find(const struct perfan__thread_table *tt,
				int32_t tid)
{
	uint64_t *i = perfan__htab_get(&tt->by_tid, key(tid));
	return i ? tt->t[*i] : NULL;
}

size_t perfan__thread_table_index(const struct perfan__thread_table *tt,
				  int32_t tid)
{
	uint64_t *i = perfan__htab_get(&tt->by_tid, key(tid));
	return i ? (size_t)*i : SIZE_MAX;
}

int perfan__thread_table_reindex(struct perfan__thread_table *tt)
{
	perfan__htab_free(&tt->by_tid);
	memset(&tt->by_tid, 0, sizeof(tt->by_tid));
	for (size_t i = 0; i < tt->n; i++) {
		const struct perfan__thread *th = tt->t[i];
		if (perfan__htab_put(&tt->by_tid, key(th->tid), i))
			return perfan__nomem("threads");
	}
	return 0;
}

void perfan__thread_name(const perfan_thread_names *names, int32_t pid,
			 int32_t tid, const char **name, const char **role,
			 const char **pool)
{
	const struct perfan_thread_name *tn =
		perfan_thread_names_find(names, pid, tid);
	const struct perfan_thread_pool *tp =
		tn ? perfan_thread_names_pool(names, tn->pool) : NULL;
	*name = tn ? tn->name : NULL;
	*role = tn ? tn->role : NULL;
	*pool = tp ? tp->name : NULL;
}

void perfan__thread_table_name(struct perfan__thread_table *tt,
			       const perfan_thread_names *names)
{
	for (size_t i = 0; i < tt->n; i++) {
		struct perfan__thread *th = tt->t[i];
		perfan__thread_name(names, th->pid, th->tid, &th->name,
				    &th->role, &th->pool);
		if (!th->name && th->comm[0])
			th->name = th->comm;
	}
}

void perfan__thread_table_free(struct perfan__thread_table *tt)
{
	for (size_t i = 0; i < tt->n; i++)
		free(tt->t[i]);
	free(tt->t);
	perfan__htab_free(&tt->by_tid);
	memset(tt, 0, sizeof(*tt));
}
