/* sources/nsight_db.c: the tables of an Nsight Systems export the reader
 * knows, and the walk over one query's rows with SQLite's errors said
 * after the input and the table. */
#include <stdio.h>

#include "sources/nsight_read.h"
#include "util/error.h"

const char *const perfan__ns_table_names[NS_NTABLES] = {
	[NS_STRINGS] = "StringIds",
	[NS_KERNEL] = "CUPTI_ACTIVITY_KIND_KERNEL",
	[NS_RUNTIME] = "CUPTI_ACTIVITY_KIND_RUNTIME",
	[NS_MEMCPY] = "CUPTI_ACTIVITY_KIND_MEMCPY",
	[NS_MEMSET] = "CUPTI_ACTIVITY_KIND_MEMSET",
	[NS_SYNC] = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
	[NS_NVTX] = "NVTX_EVENTS",
	[NS_THREADS] = "ThreadNames",
	[NS_PROCESSES] = "PROCESSES",
	[NS_GPUS] = "TARGET_INFO_GPU",
	[NS_META] = "EXPORT_META_DATA",
	[NS_EVENT_CLASS] = "ENUM_NSYS_EVENT_CLASS",
};

int perfan__ns_error(struct ns *n, const char *where, int rc)
{
	return perfan__err(PERFAN_EFORMAT, "%s: %s: %s", n->name, where,
			   n->db ? sqlite3_errmsg(n->db) : sqlite3_errstr(rc));
}

int perfan__ns_rows_at(struct ns *n, const char *where, const char *sql,
		       int (*row)(struct ns *n, sqlite3_stmt *st))
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(n->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st);
		return perfan__ns_error(n, where, rc);
	}
	int err = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((err = row(n, st)) < 0)
			break;
	if (!err && rc != SQLITE_DONE)
		err = perfan__ns_error(n, where, rc);
	sqlite3_finalize(st);
	return err;
}

int perfan__ns_rows(struct ns *n, enum ns_table t, const char *sql,
		    int (*row)(struct ns *n, sqlite3_stmt *st))
{
	if (!n->has[t])
		return 0;
	char where[96];
	snprintf(where, sizeof(where), "table %s", perfan__ns_table_names[t]);
	return perfan__ns_rows_at(n, where, sql, row);
}
