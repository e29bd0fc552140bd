/* sources/nsight_tables.c: the rows of an Nsight Systems export's tables
 * as trace events (GPU work on its streams, CUDA API calls and NVTX ranges
 * on their threads), then the names of threads, processes and devices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/nsight_read.h"
#include "util/error.h"
#include "util/grow.h"

/* nsys serialises a thread as globalTid: the pid in bits 24 to 47, the
 * tid in bits 0 to 23 (a globalPid: the same with tid 0). */
static int64_t global_pid(int64_t g)
{
	return (g >> 24) & 0xffffff;
}

static int64_t global_tid(int64_t g)
{
	return g & 0xffffff;
}

static int64_t col_id(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL
		       ? -1
		       : sqlite3_column_int64(st, i);
}

static const char *intern(struct ns *n, sqlite3_stmt *st, int i,
			  const char *absent)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	if (!s)
		s = absent;
	return perfan__trace_intern(n->t, s, strlen(s));
}

/* PID once in n->pids (for the processes' names later). */
static int seen_pid(struct ns *n, int64_t pid)
{
	for (size_t i = n->npids; i-- > 0;)
		if (n->pids[i] == pid)
			return 0;
	if (perfan__grow((void **)&n->pids, &n->cappids, n->npids + 1,
			 sizeof(*n->pids)) < 0)
		return PERFAN_ENOMEM;
	n->pids[n->npids++] = pid;
	return 0;
}

/* Columns 0 and 1, start and end, into E's time. */
static int span(struct ns *n, sqlite3_stmt *st, enum ns_table t,
		struct perfan_trace_event *e)
{
	int64_t start = sqlite3_column_int64(st, 0);
	int64_t end = sqlite3_column_int64(st, 1);
	if (end < start)
		return perfan__err(PERFAN_EFORMAT,
				   "%s: table %s: an event ends (%lld ns) "
				   "before it starts (%lld ns)",
				   n->name, perfan__ns_table_names[t],
				   (long long)end, (long long)start);
	e->ts = start;
	e->dur = end - start;
	return 0;
}

/* A row of the GPU tables, whose first columns are start, end, deviceId,
 * streamId, correlationId, globalPid: E on its stream. */
static int gpu_event(struct ns *n, sqlite3_stmt *st, enum ns_table t,
		     uint32_t kind, struct perfan_trace_event *e)
{
	perfan__trace_event_init(e);
	int rc = span(n, st, t, e);
	if (rc < 0)
		return rc;
	e->kind = kind;
	int64_t dev = sqlite3_column_int64(st, 2);
	e->device = dev >= 0 && dev <= INT32_MAX ? (int32_t)dev : -1;
	e->stream = sqlite3_column_int64(st, 3);
	e->correlation = col_id(st, 4);
	int64_t g = col_id(st, 5);
	int64_t pid = g < 0 ? -1 : global_pid(g);
	if ((rc = seen_pid(n, pid)) < 0)
		return rc;
	return perfan__trace_thread(n->t, pid, e->stream, e->device, e->stream,
				    &e->thread);
}

static int add(struct ns *n, struct perfan_trace_event *e)
{
	if (!e->name)
		return PERFAN_ENOMEM;
	return perfan__trace_add(n->t, e);
}

static int kernel_row(struct ns *n, sqlite3_stmt *st)
{
	struct perfan_trace_event e;
	int rc = gpu_event(n, st, NS_KERNEL, PERFAN_TRACE_KERNEL, &e);
	if (rc < 0)
		return rc;
	e.name = intern(n, st, 6, "[unknown]");
	return add(n, &e);
}

/* CUPTI_ACTIVITY_MEMCPY_KIND, as Kineto names copies. */
static const char *const copy_kinds[] = {
	"Memcpy",      "Memcpy HtoD", "Memcpy DtoH", "Memcpy HtoA",
	"Memcpy AtoH", "Memcpy AtoA", "Memcpy AtoD", "Memcpy DtoA",
	"Memcpy DtoD", "Memcpy HtoH", "Memcpy PtoP",
};

static int memcpy_row(struct ns *n, sqlite3_stmt *st)
{
	struct perfan_trace_event e;
	int rc = gpu_event(n, st, NS_MEMCPY, PERFAN_TRACE_MEMCPY, &e);
	if (rc < 0)
		return rc;
	int64_t k = sqlite3_column_int64(st, 6);
	const char *name = copy_kinds[k > 0 && k < 11 ? k : 0];
	e.name = perfan__trace_intern(n->t, name, strlen(name));
	int64_t bytes = sqlite3_column_int64(st, 7);
	e.bytes = bytes > 0 ? (uint64_t)bytes : 0;
	return add(n, &e);
}

static int memset_row(struct ns *n, sqlite3_stmt *st)
{
	struct perfan_trace_event e;
	int rc = gpu_event(n, st, NS_MEMSET, PERFAN_TRACE_MEMSET, &e);
	if (rc < 0)
		return rc;
	e.name = perfan__trace_intern(n->t, "Memset", 6);
	int64_t bytes = sqlite3_column_int64(st, 6);
	e.bytes = bytes > 0 ? (uint64_t)bytes : 0;
	return add(n, &e);
}

/* CUpti_ActivitySynchronizationType 0 to 4: Kineto's names, our kinds. */
static const char *const sync_names[] = {
	"Sync",        "Event Sync",   "Stream Wait Event",
	"Stream Sync", "Context Sync",
};
static const uint32_t sync_kinds[] = {
	PERFAN_TRACE_SYNC_NONE,    PERFAN_TRACE_SYNC_EVENT,
	PERFAN_TRACE_SYNC_WAIT,    PERFAN_TRACE_SYNC_STREAM,
	PERFAN_TRACE_SYNC_CONTEXT,
};

static uint32_t sync_type(int64_t t)
{
	return t > 0 && t < 5 ? (uint32_t)t : 0;
}

static int sync_row(struct ns *n, sqlite3_stmt *st)
{
	struct perfan_trace_event e;
	int rc = gpu_event(n, st, NS_SYNC, PERFAN_TRACE_SYNC, &e);
	if (rc < 0)
		return rc;
	uint32_t t = sync_type(sqlite3_column_int64(st, 6));
	e.name = perfan__trace_intern(n->t, sync_names[t],
				      strlen(sync_names[t]));
	e.sync = sync_kinds[t];
	return add(n, &e);
}

/* A row of table T with start, end and (column I) globalTid: E on its
 * CPU thread when TAKE, else a row left out (1). */
static int cpu_event(struct ns *n, sqlite3_stmt *st, enum ns_table t, int i,
		     int take, struct perfan_trace_event *e)
{
	if (!take) {
		perfan__trace_skip(n->t);
		return 1;
	}
	perfan__trace_event_init(e);
	int rc = span(n, st, t, e);
	if (rc < 0)
		return rc;
	int64_t g = col_id(st, i);
	int64_t pid = g < 0 ? -1 : global_pid(g);
	int64_t tid = g < 0 ? -1 : global_tid(g);
	if ((rc = seen_pid(n, pid)) < 0)
		return rc;
	return perfan__trace_thread(n->t, pid, tid, -1, -1, &e->thread);
}

/* eventClass of the CUDA runtime and driver API calls: the numbers of
 * ENUM_NSYS_EVENT_CLASS where the export has it, else nsys's 0 and 1.
 * Other classes (a backtrace of a call already recorded, 67 in 2022.2;
 * library APIs) are not calls of their own. */
static int class_row(struct ns *n, sqlite3_stmt *st)
{
	const char *name = (const char *)sqlite3_column_text(st, 1);
	if (name && !strcmp(name, "TRACE_PROCESS_EVENT_CUDA_RUNTIME"))
		n->runtime_class = sqlite3_column_int64(st, 0);
	else if (name && !strcmp(name, "TRACE_PROCESS_EVENT_CUDA_DRIVER"))
		n->driver_class = sqlite3_column_int64(st, 0);
	return 0;
}

static int runtime_row(struct ns *n, sqlite3_stmt *st)
{
	int64_t cls = sqlite3_column_int64(st, 5);
	struct perfan_trace_event e;
	int rc = cpu_event(n, st, NS_RUNTIME, 2,
			   cls == n->runtime_class || cls == n->driver_class,
			   &e);
	if (rc)
		return rc < 0 ? rc : 0;
	e.kind = cls == n->runtime_class ? PERFAN_TRACE_RUNTIME
					 : PERFAN_TRACE_DRIVER;
	e.correlation = col_id(st, 3);
	e.name = intern(n, st, 4, "[unknown]");
	e.sync = sync_kinds[sync_type(sqlite3_column_int64(st, 6))];
	return add(n, &e);
}

/* nsys's NvtxPushPopRange and NvtxStartEndRange (NVTX_EVENTS.eventType);
 * marks, domains, thread names and open ranges are no spans. */
enum { NVTX_PUSH_POP = 59, NVTX_START_END = 60 };

static int nvtx_row(struct ns *n, sqlite3_stmt *st)
{
	int64_t type = sqlite3_column_int64(st, 2);
	struct perfan_trace_event e;
	int rc = cpu_event(n, st, NS_NVTX, 3,
			   (type == NVTX_PUSH_POP || type == NVTX_START_END) &&
				   sqlite3_column_type(st, 1) != SQLITE_NULL,
			   &e);
	if (rc)
		return rc < 0 ? rc : 0;
	e.kind = PERFAN_TRACE_USER_ANNOTATION;
	e.name = intern(n, st, 4, "[unnamed range]");
	return add(n, &e);
}

static int thread_row(struct ns *n, sqlite3_stmt *st)
{
	const char *name = (const char *)sqlite3_column_text(st, 1);
	int64_t g = col_id(st, 0);
	return name && g >= 0 ? perfan__trace_thread_name(n->t, global_pid(g),
							  global_tid(g), name)
			      : 0;
}

static int process_row(struct ns *n, sqlite3_stmt *st)
{
	const char *name = (const char *)sqlite3_column_text(st, 1);
	int64_t pid = col_id(st, 0);
	for (size_t i = 0; name && i < n->npids; i++)
		if (n->pids[i] == pid)
			return perfan__trace_process_name(n->t, pid, name);
	return 0;
}

static int gpu_row(struct ns *n, sqlite3_stmt *st)
{
	const char *name = (const char *)sqlite3_column_text(st, 1);
	int64_t id = sqlite3_column_int64(st, 0);
	return name && id >= 0 && id <= INT32_MAX
		       ? perfan__trace_device_name(n->t, (int32_t)id, name)
		       : 0;
}

static int meta_row(struct ns *n, sqlite3_stmt *st)
{
	const char *v = (const char *)sqlite3_column_text(st, 0);
	return perfan__trace_describe(n->t, "nsys sqlite", v, 0, -1);
}

static const char runtime_sql[] =
	"SELECT r.start, r.end, r.globalTid, r.correlationId, s.value, "
	"r.eventClass, %s FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
	"LEFT JOIN StringIds s ON s.id = r.nameId%s";
/* the sync a call made (a runtime call that synchronises), by its
 * correlationId */
static const char runtime_sync[] =
	" LEFT JOIN (SELECT correlationId AS c, MIN(syncType) AS t "
	"FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION GROUP BY correlationId) y "
	"ON y.c = r.correlationId";

/* Only the threads with events get names. */
static const char threads_sql[] =
	"SELECT t.globalTid, s.value FROM ThreadNames t "
	"JOIN StringIds s ON s.id = t.nameId WHERE t.globalTid IN "
	"(%s%s%s)";

#define GPU_COLS "start, end, deviceId, streamId, correlationId, globalPid"
#define GPU_COLS_K                                                             \
	"k.start, k.end, k.deviceId, k.streamId, k.correlationId, "            \
	"k.globalPid"

int perfan__ns_read(struct ns *n)
{
	n->runtime_class = 0;
	n->driver_class = 1;
	char rt[sizeof(runtime_sql) + sizeof(runtime_sync)];
	snprintf(rt, sizeof(rt), runtime_sql, n->has[NS_SYNC] ? "y.t" : "0",
		 n->has[NS_SYNC] ? runtime_sync : "");
	const char *rt_tids = "SELECT globalTid FROM CUPTI_ACTIVITY_KIND_"
			      "RUNTIME";
	const char *nvtx_tids = "SELECT globalTid FROM NVTX_EVENTS";
	char th[512];
	snprintf(th, sizeof(th), threads_sql, n->has[NS_RUNTIME] ? rt_tids : "",
		 n->has[NS_RUNTIME] && n->has[NS_NVTX] ? " UNION " : "",
		 n->has[NS_NVTX] ? nvtx_tids : "");
	if (!n->has[NS_RUNTIME] && !n->has[NS_NVTX])
		n->has[NS_THREADS] = 0;
	/* in this order: the event classes before the calls, the events
	 * before the names of their threads and processes */
	const struct {
		enum ns_table t;
		const char *sql;
		int (*row)(struct ns *n, sqlite3_stmt *st);
	} queries[] = {
		{NS_META,
		 "SELECT value FROM EXPORT_META_DATA "
		 "WHERE name = 'EXPORT_SCHEMA_VERSION'",
		 meta_row},
		{NS_EVENT_CLASS, "SELECT id, name FROM ENUM_NSYS_EVENT_CLASS",
		 class_row},
		{NS_KERNEL,
		 "SELECT " GPU_COLS_K ", COALESCE(d.value, s.value) "
		 "FROM CUPTI_ACTIVITY_KIND_KERNEL k "
		 "LEFT JOIN StringIds d ON d.id = k.demangledName "
		 "LEFT JOIN StringIds s ON s.id = k.shortName",
		 kernel_row},
		{NS_MEMCPY,
		 "SELECT " GPU_COLS ", copyKind, bytes "
		 "FROM CUPTI_ACTIVITY_KIND_MEMCPY",
		 memcpy_row},
		{NS_MEMSET,
		 "SELECT " GPU_COLS ", bytes FROM CUPTI_ACTIVITY_KIND_MEMSET",
		 memset_row},
		{NS_SYNC,
		 "SELECT " GPU_COLS ", syncType "
		 "FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
		 sync_row},
		{NS_RUNTIME, rt, runtime_row},
		{NS_NVTX,
		 "SELECT e.start, e.end, e.eventType, e.globalTid, "
		 "COALESCE(e.text, s.value) FROM NVTX_EVENTS e "
		 "LEFT JOIN StringIds s ON s.id = e.textId",
		 nvtx_row},
		{NS_THREADS, th, thread_row},
		{NS_PROCESSES, "SELECT pid, name FROM PROCESSES", process_row},
		{NS_GPUS, "SELECT id, name FROM TARGET_INFO_GPU", gpu_row},
	};
	int rc = perfan__trace_describe(n->t, "nsys sqlite", NULL, 0, -1);
	for (size_t i = 0; !rc && i < sizeof(queries) / sizeof(queries[0]); i++)
		rc = perfan__ns_rows(n, queries[i].t, queries[i].sql,
				     queries[i].row);
	return rc;
}
