/* perfan/report.h: where the time goes: rows keyed by any of comm, pid, dso
 * and symbol with their self and total (children) weights per event, as
 * `perf report --sort` counts them, the Amdahl bound of each row, and the
 * call graph (callers or callees) of a row; as a struct API, as text in
 * perf report --stdio's columns, or as JSON. */
#ifndef PERFAN_REPORT_H
#define PERFAN_REPORT_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_report perfan_report;

/* The keys a row can have, in the order --sort names them. */
enum perfan_report_key {
	PERFAN_REPORT_KEY_COMM = 1, /* the command (process root frame) */
	PERFAN_REPORT_KEY_PID = 2,  /* the thread, as perf's "pid" key
				       ("Pid:Command", its tid and comm) */
	PERFAN_REPORT_KEY_DSO = 3,  /* the frame's module */
	PERFAN_REPORT_KEY_SYM = 4,  /* the frame's function */
};
#define PERFAN_REPORT_MAX_KEYS 4

/* Call graphs under each row. */
enum perfan_report_graph {
	PERFAN_REPORT_GRAPH_NONE = 0,
	/* The call paths through the row, outermost caller first: down to
	 * the row's function and, in children mode, on into what it calls
	 * (perf report -g caller). */
	PERFAN_REPORT_GRAPH_CALLER = 1,
	/* The row's function first, then its callers outwards (perf report
	 * -g callee): who calls it. */
	PERFAN_REPORT_GRAPH_CALLEE = 2,
};

enum perfan_report_format {
	PERFAN_REPORT_TEXT = 0, /* perf report --stdio's columns */
	PERFAN_REPORT_JSON = 1, /* one JSON object */
};

struct perfan_report_opts {
	size_t sz;
	/* Keys, comma-separated: "comm", "pid", "dso", "sym" in any order
	 * and combination. NULL or "": "comm,dso,sym", perf's default. */
	const char *sort;
	/* Order rows by self weight and leave out rows without any (perf
	 * report --no-children). By default rows are ordered by total
	 * weight, children included (perf report --children). */
	int no_children;
	/* Only frames of these modules (comma-separated short names such as
	 * "libc.so.6" or "[kernel.kallsyms]", or paths, of which the last
	 * part counts) make rows, as perf report --dsos. Percentages stay
	 * shares of the whole column. NULL: every module. */
	const char *dsos;
	/* Leave out rows whose share (total, or self with no_children) is
	 * below this many percent, and call graph branches below it. */
	double percent_limit;
	/* At most this many rows per column (0: all). */
	size_t limit;
	/* enum perfan_report_graph: what perfan_report_write prints under
	 * each row. */
	int call_graph;
	/* Text: leave out the "Max speedup" column. */
	int no_speedup;
	/* Ignored (kept for the ABI; callers need not set it): the comm and
	 * pid keys come from what each
	 * process frame stands for (struct perfan_frame's comm, root, pid
	 * and tid), not from its name. A process frame known only by its
	 * name (a folded file's root) is that comm, its pid not known. */
	int root_format;
};

/* O's option NAME as perf report's command line spells it, from VALUE
 * (borrowed; NULL for a switch): sort (keys, checked by
 * perfan_report_check), children and no-children, call-graph (caller,
 * callee or none), percent-limit (0 to 100), limit (a count), no-speedup,
 * dso or dsos (comma-separated modules). Since 0.2. Returns 0, or
 * PERFAN_EINVAL with a message naming the option ("--limit: 'x' is not a
 * count"). */
PERFAN_API int perfan_report_opts_set(struct perfan_report_opts *o,
				      const char *name, const char *value);

/* One row of a column. Strings are borrowed from the report (and its
 * profile); fields that are not keys of the report are NULL or -1. */
struct perfan_report_row {
	const char *comm; /* for comm and pid keys */
	int32_t pid, tid; /* for the pid key (perf's thread), when known */
	const char *dso;  /* "[unknown]" for frames without a module */
	const char *sym;
	uint32_t kind;         /* enum perfan_frame_kind of the symbol */
	perfan_frame_id frame; /* for sym keys: a frame of the row */
	/* Weights in the column's unit: of the samples whose innermost
	 * function (inlined frames aside, as perf) is the row's, and of the
	 * samples with the row anywhere on their stack, counted once
	 * however often the row recurs. */
	uint64_t self, total;
	double self_percent, total_percent; /* of the column's total */
	/* Amdahl's bound 1 / (1 - p): how many times faster the whole could
	 * at most be if the row took no time at all, with p its self share
	 * (its own code) or its total share (the row with all it calls,
	 * which is what disappears when a call costs nothing). Infinity when
	 * p is 1. NAN where the bound does not hold: on rows of a thread or
	 * a command rather than a function (sort keys without "sym", or with
	 * "pid"), on off-CPU leaves, and on columns of counts (a tracepoint,
	 * page faults), of off-CPU time, of wall time summed over threads or
	 * of CPU time summed over processes (perfan_profile_column_kind). */
	double speedup_self, speedup_total;
};

/* Compute the rows of every column of P. P must outlive the report and not
 * change while it lives. Returns 0, PERFAN_EINVAL for an unknown sort key
 * (the message names it), PERFAN_ENOMEM. Free with perfan_report_free. */
PERFAN_API int perfan_report_new(perfan_report **out, const perfan_profile *p,
				 const struct perfan_report_opts *opts);
PERFAN_API void perfan_report_free(perfan_report *r);

/* Check OPTS before anything is read: 0, or PERFAN_EINVAL for an unknown
 * or repeated sort key (the message names it), as perfan_report_new would
 * return on any profile. */
PERFAN_API int perfan_report_check(const struct perfan_report_opts *opts);

/* The keys of the report, in order: *OUT is borrowed; returns how many. */
PERFAN_API size_t perfan_report_keys(const perfan_report *r,
				     const enum perfan_report_key **out);

/* Columns are the profile's; a column's total weight and its rows, sorted
 * (by total weight, or self with no_children, then by the keys), after
 * percent_limit and limit. */
PERFAN_API size_t perfan_report_nr_columns(const perfan_report *r);
PERFAN_API uint64_t perfan_report_total(const perfan_report *r, size_t col);
PERFAN_API size_t perfan_report_nr_rows(const perfan_report *r, size_t col);
PERFAN_API const struct perfan_report_row *
perfan_report_row(const perfan_report *r, size_t col, size_t i);

/* A node of a row's call graph, as perfan_report_graph_walk gives it. */
struct perfan_report_graph_node {
	uint32_t depth;        /* 1 for the tree's outermost frames */
	perfan_frame_id frame; /* in the report's profile */
	uint64_t weight;       /* weight through this path */
	double percent;        /* of the column's total */
	size_t nr_children;    /* shown (not below percent_limit) */
};
typedef int (*perfan_report_graph_fn)(
	const struct perfan_report_graph_node *node, void *payload);

/* Walk the call graph (enum perfan_report_graph MODE) of row I of column
 * COL depth first, heavier branches first, leaving out branches below
 * percent_limit. With no_children it is built from the samples of the
 * row's self weight, else from every stack through the row. A non-zero
 * return of FN stops the walk and is returned. */
PERFAN_API int perfan_report_graph_walk(const perfan_report *r, size_t col,
					size_t i, int mode,
					perfan_report_graph_fn fn,
					void *payload);

struct perfan_resolve_stats;
struct perfan_threads;
struct perfan_python_hotspots;

struct perfan_report_write_opts {
	size_t sz;
	int format; /* enum perfan_report_format */
	/* Text: first "# perfan report of NAME" and "#" (NULL: no head). */
	const char *name;
	/* Text, with NAME: a line of what was read (samples, left out by
	 * filters, stacks cut short, frames unresolved). NULL: none. */
	const struct perfan_resolve_stats *stats;
	/* A time view's table per thread (perfan_threads_new) before the
	 * rows, which then weigh wall-clock time (WALL) or off-CPU time. */
	const struct perfan_threads *threads;
	int wall;
	/* Python's native detail after the rows: NR_NATIVE_DETAIL hotspots
	 * (perfan_python_hotspots_new), one per column. Non-NULL (even for
	 * none) writes the section. */
	const struct perfan_python_hotspots *const *native_detail;
	size_t nr_native_detail;
	/* Text, after the per-thread table: a short GIL section of the
	 * threads that waited for it (perfan/gil.h: each one's GIL wait,
	 * its share of the thread's life, the thread that held the GIL
	 * most meanwhile). NULL, or a ledger without a GIL wait: none. */
	const struct perfan_gil_result *gil;
	/* Since 0.2. Text: rows as long as their keys. By default a row
	 * fits 160 columns: a key but the last at most 40, the last the
	 * rest, a longer one cut in the middle with an ellipsis (U+2026),
	 * keeping a path's end. */
	int wide;
};

/* Write the report to FP (OPTS NULL: text, nothing around it): text (enum
 * perfan_report_format) with one section per column that has samples, as
 * perf report --stdio prints one per event, with the call graphs the
 * options ask for; or JSON: {"sort": [keys], "children": bool, "columns":
 * [{"event", "unit", "total", "rows": [{keys..., "kind", "self", "total",
 * "self_percent", "total_percent", "max_speedup_self", "max_speedup_total"[,
 * "call_graph": {"mode", "children": [{"name", "dso", "weight", "percent",
 * "children"}]}]}]}]}. With a per-thread table or native detail the JSON is
 * {["view": "wall" or "off-cpu", "per_thread": TABLE, ]"report": REPORT[,
 * "native_detail": [HOTSPOTS...]]}; in text they come before and after the
 * rows. Returns 0, PERFAN_EIO when writing fails, PERFAN_ENOMEM. */
PERFAN_API int perfan_report_write(const perfan_report *r, FILE *fp,
				   const struct perfan_report_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
