/* sources/nsight_read.h: what the Nsight Systems reader's two files share:
 * the open export, its tables (nsight_db.c), the walk over one query's
 * rows (nsight_db.c) and the reading of the tables (nsight_tables.c). */
#ifndef PERFAN_SOURCES_NSIGHT_READ_H
#define PERFAN_SOURCES_NSIGHT_READ_H

#include <sqlite3.h>
#include <stdint.h>

#include "trace/build.h"

/* The tables the reader knows, in the order it reads them. */
enum ns_table {
	NS_STRINGS,
	NS_KERNEL,
	NS_RUNTIME,
	NS_MEMCPY,
	NS_MEMSET,
	NS_SYNC,
	NS_NVTX,
	NS_THREADS,
	NS_PROCESSES,
	NS_GPUS,
	NS_META,
	NS_EVENT_CLASS,
	NS_NTABLES
};

extern const char *const perfan__ns_table_names[NS_NTABLES];

struct ns {
	const char *name; /* the input's, for messages */
	sqlite3 *db;
	perfan_trace *t;
	unsigned char has[NS_NTABLES];
	int64_t runtime_class, driver_class; /* RUNTIME.eventClass */
	int64_t *pids; /* the processes events were seen in */
	size_t npids, cappids;
};

/* PERFAN_EFORMAT "NAME: WHERE: what SQLite said" (a damaged file:
 * "database disk image is malformed"), RC's name without a database. */
int perfan__ns_error(struct ns *n, const char *where, int rc);

/* Each row of SQL through ROW; SQLite's errors said at WHERE. */
int perfan__ns_rows_at(struct ns *n, const char *where, const char *sql,
		       int (*row)(struct ns *n, sqlite3_stmt *st));

/* Each row of SQL (over table T) through ROW; a table T lacks is no rows.
 * Returns 0, ROW's error, or PERFAN_EFORMAT "NAME: table T: what SQLite
 * said" (a column missing, the database damaged). */
int perfan__ns_rows(struct ns *n, enum ns_table t, const char *sql,
		    int (*row)(struct ns *n, sqlite3_stmt *st));

/* The GPU work, API calls, syncs and NVTX ranges of N's tables, then the
 * names of their threads, processes and devices, into n->t. */
int perfan__ns_read(struct ns *n);

#endif
