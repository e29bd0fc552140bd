/* analysis/thread_table.h: the threads an analysis of the stream meets,
 * by tid: a record of the analysis' own per thread, made the first time
 * its tid is met, with the pid and comm the events gave and, at the end,
 * the name (perfan/threadnames.h) the thread is known by. */
#ifndef PERFAN_ANALYSIS_THREAD_TABLE_H
#define PERFAN_ANALYSIS_THREAD_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/threadnames.h>

#include "util/htab.h"

/* What every record starts with. */
struct perfan__thread {
	int32_t pid, tid; /* pid -1: not known yet */
	char comm[64];    /* the last comm an event gave; "": none */
	/* from perfan__thread_table_name: what to call it (its comm when
	 * the names do not know it), its role and its pool's name */
	const char *name, *role, *pool;
};

struct perfan__thread_table {
	size_t size; /* each record's, at least sizeof(struct perfan__thread) */
	void **t;    /* the records, in the order met (or as the caller
			sorted them: perfan__thread_table_reindex) */
	size_t n, cap;
	struct perfan__htab by_tid;
};

/* Thread TID's record, zeroed but for its head the first time, its pid
 * and comm updated from PID (> 0) and COMM (non-empty). NULL: out of
 * memory (said). */
void *perfan__thread_table_get(struct perfan__thread_table *tt, int32_t pid,
			       int32_t tid, const char *comm);
/* Thread TID's record, or NULL. */
void *perfan__thread_table_find(const struct perfan__thread_table *tt,
				int32_t tid);
/* Where thread TID's record is in TT->t, or SIZE_MAX. */
size_t perfan__thread_table_index(const struct perfan__thread_table *tt,
				  int32_t tid);
/* The index by tid made again after the caller reordered TT->t. Returns 0
 * or PERFAN_ENOMEM (said). */
int perfan__thread_table_reindex(struct perfan__thread_table *tt);
/* Thread PID/TID's *NAME, *ROLE and *POOL (its pool's name) in NAMES;
 * NULL when NAMES does not know it (or it has none). */
void perfan__thread_name(const perfan_thread_names *names, int32_t pid,
			 int32_t tid, const char **name, const char **role,
			 const char **pool);
/* Each record's name, role and pool from NAMES (NULL: its comm, none). */
void perfan__thread_table_name(struct perfan__thread_table *tt,
			       const perfan_thread_names *names);
/* The records and the table freed (not what the records point to). */
void perfan__thread_table_free(struct perfan__thread_table *tt);

#endif
