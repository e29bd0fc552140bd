/* sources/nsight.c: Nsight Systems' SQLite export (`nsys export --type
 * sqlite`) as a registry format: known by SQLite's header, taken as
 * Nsight's when its tables are, read through libsqlite3 (a stream spooled
 * into a temporary file first) into a trace. */
#include "sources/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/nsight_read.h"
#include "sources/sqlite_fd.h"
#include "trace/build.h"
#include "util/error.h"

static const char magic[16] = "SQLite format 3";

/* Any SQLite database: the first bytes say no more; its tables tell an
 * Nsight export from another database when it is read. */
static int detect(const void *buf, size_t len)
{
	return len >= sizeof(magic) && !memcmp(buf, magic, sizeof(magic));
}

static int table_row(struct ns *n, sqlite3_stmt *st)
{
	const unsigned char *name = sqlite3_column_text(st, 0);
	for (int i = 0; name && i < NS_NTABLES; i++)
		if (!strcmp((const char *)name, perfan__ns_table_names[i]))
			n->has[i] = 1;
	return 0;
}

/* Which of the tables N has; an error when it is not an Nsight export:
 * none of the tables of its events, or no StringIds to name them. */
static int tables(struct ns *n)
{
	/* the first read: a damaged header says so here */
	int rc = perfan__ns_rows_at(
		n, "its list of tables",
		"SELECT name FROM sqlite_master WHERE type = 'table'",
		table_row);
	if (rc < 0)
		return rc;
	int events = 0;
	for (int i = NS_KERNEL; i <= NS_NVTX; i++)
		events |= n->has[i];
	if (!events)
		return perfan__err(PERFAN_EFORMAT,
				   "%s: an SQLite database, but not an Nsight "
				   "Systems export: it has none of the tables "
				   "CUPTI_ACTIVITY_KIND_KERNEL, _RUNTIME, "
				   "_MEMCPY, _MEMSET, _SYNCHRONIZATION, "
				   "NVTX_EVENTS",
				   n->name);
	if (!n->has[NS_STRINGS])
		return perfan__err(PERFAN_EFORMAT,
				   "%s: table StringIds: missing (an Nsight "
				   "Systems export names its events there)",
				   n->name);
	return 0;
}

static int open_db(struct ns *n, perfan_source *s)
{
	int rc = perfan__input_regular(s);
	if (rc < 0)
		return rc;
	rc = perfan__sqlite_open_fd(s->fd, &n->db);
	if (rc != SQLITE_OK)
		return perfan__ns_error(
			n, "cannot open it as an SQLite database", rc);
	return tables(n);
}

static int trace(perfan_source *s, perfan_trace **out)
{
	struct ns n = {.name = s->name};
	int rc = open_db(&n, s);
	if (!rc && !(n.t = perfan__trace_new()))
		rc = PERFAN_ENOMEM;
	if (!rc)
		rc = perfan__ns_read(&n);
	if (!rc)
		rc = perfan__trace_finish(n.t);
	sqlite3_close(n.db);
	free(n.pids);
	if (rc < 0) {
		if (rc == PERFAN_ENOMEM)
			perfan__err(PERFAN_ENOMEM, "%s: out of memory",
				    s->name);
		perfan_trace_free(n.t);
		return rc;
	}
	*out = n.t;
	return 0;
}

const struct perfan__format perfan__format_nsight = {
	.name = "Nsight Systems",
	.caps = PERFAN__TRACE_CAPS,
	.detect = detect,
	.load = perfan__trace_load,
	.trace = trace,
};
