/* perfan/pstats.h: cProfile/profile dumps (`python -m cProfile -o FILE`,
 * pstats' dump_stats): the marshal dict read into functions and call
 * edges, the report pstats prints with the reading of its columns, and a
 * flame graph profile estimated from the edges as flameprof does. */
#ifndef PERFAN_PSTATS_H
#define PERFAN_PSTATS_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_pstats perfan_pstats;

/* One profiled function. Strings are owned by the handle. A builtin is
 * file "~", line 0, and name as cProfile wrote it ("<built-in method
 * builtins.len>"); perfan_pstats_func_label gives pstats' label for it. */
struct perfan_pstats_func {
	const char *file;
	uint32_t line;
	const char *name;
	uint64_t nc;    /* calls, recursive ones included */
	uint64_t cc;    /* primitive calls (not from within itself) */
	double tt;      /* own time, seconds (tottime) */
	double ct;      /* with its callees, primitive calls only (cumtime) */
	size_t callers; /* index of its first caller edge */
	size_t nr_callers; /* edges [callers, callers + nr_callers) */
	int listed;        /* 0: only named as a caller, the dump has no
			      entry of its own (all counts 0) */
};

/* One caller -> callee edge: what the callee spent when called from the
 * caller. nc and cc as above, counted for this edge only. */
struct perfan_pstats_edge {
	size_t caller, callee; /* function indices */
	uint64_t nc, cc;
	double tt, ct;
};

struct perfan_pstats_opts {
	size_t sz;
	const char *name; /* the input's name in messages ("input" if NULL) */
};

/* Does DATA (at least its first bytes) look like a pstats dump: a
 * marshal dict whose first key is a tuple? 1 or 0. */
PERFAN_API int perfan_pstats_detect(const void *data, size_t len);

/* Read a whole dump. Returns 0, PERFAN_EFORMAT / PERFAN_ETRUNCATED with a
 * message naming the byte offset and what was wrong, PERFAN_EUNSUPPORTED
 * for marshal types a dump never holds, PERFAN_ENOMEM. DATA need not stay
 * alive afterwards. */
PERFAN_API int perfan_pstats_parse(perfan_pstats **out, const void *data,
				   size_t len,
				   const struct perfan_pstats_opts *opts);
/* The same from a file ("-" is standard input). */
PERFAN_API int perfan_pstats_read_path(perfan_pstats **out, const char *path,
				       const struct perfan_pstats_opts *opts);
PERFAN_API void perfan_pstats_free(perfan_pstats *s);

/* Functions sorted by file, line, name (pstats' "filename", "line",
 * "name"); edges sorted by callee, then caller. Borrowed from the handle. */
PERFAN_API size_t perfan_pstats_nr_funcs(const perfan_pstats *s);
PERFAN_API const struct perfan_pstats_func *
perfan_pstats_func(const perfan_pstats *s, size_t i);
PERFAN_API size_t perfan_pstats_nr_edges(const perfan_pstats *s);
PERFAN_API const struct perfan_pstats_edge *
perfan_pstats_edge(const perfan_pstats *s, size_t i);
/* The callee edges of function I (edges whose caller is I), sorted by
 * callee: *OUT holds edge indices, borrowed from the handle. */
PERFAN_API size_t perfan_pstats_callees(const perfan_pstats *s, size_t i,
					const size_t **out);
/* pstats' label of function I: "file:line(name)", or "{name}" for a
 * builtin. Borrowed from the handle. */
PERFAN_API const char *perfan_pstats_func_label(const perfan_pstats *s,
						size_t i);
/* The total time: the sum of every function's tottime, as pstats prints
 * it ("in X seconds"). */
PERFAN_API double perfan_pstats_total(const perfan_pstats *s);

/* The report. */
enum perfan_pstats_sort {
	PERFAN_PSTATS_SORT_CUMULATIVE = 0, /* cumtime, then file, line, name */
	PERFAN_PSTATS_SORT_TOTTIME = 1,    /* tottime, then file, line, name */
	PERFAN_PSTATS_SORT_CALLS = 2,      /* ncalls */
	PERFAN_PSTATS_SORT_NAME = 3,       /* file, line, name */
};

struct perfan_pstats_write_opts {
	size_t sz;
	int sort;       /* enum perfan_pstats_sort */
	size_t limit;   /* at most this many rows (0: all) */
	int json;       /* JSON instead of text */
	int no_callers; /* leave out the caller table */
	int no_callees; /* leave out the callee table */
	int no_notes;   /* leave out the notes on the top rows */
	/* Text: first "# perfan report of NAME (a cProfile dump)" and "#"
	 * (NULL: no head). */
	const char *name;
};

/* Parse "cumulative" / "cumtime", "tottime" / "time", "ncalls" / "calls",
 * "name"; -1 for anything else. */
PERFAN_API int perfan_pstats_sort_parse(const char *s);

/* Write the report: the table pstats' print_stats prints (ncalls as
 * "total/primitive" where they differ, tottime, percall, cumtime, percall,
 * filename:lineno(function)), notes on the top rows (an inline cost: a
 * large tottime with cheap callees; work done too often: a large ncalls),
 * then the caller and callee tables of print_callers / print_callees.
 * Returns 0 or PERFAN_EIO. */
PERFAN_API int perfan_pstats_write(const perfan_pstats *s, FILE *fp,
				   const struct perfan_pstats_write_opts *opts);

/* A flame graph profile estimated from the call edges the way flameprof
 * builds one: from the functions nobody calls, each function's time on a
 * path is split over its callees in proportion to the edges' cumtime,
 * and what is left is its own time; recursion is folded into the
 * outermost call. One column, "cprofile" in "ns". cProfile keeps no
 * stacks, so this is an approximation: a function called from two places
 * is assumed to spend its time the same way under both. Returns 0,
 * PERFAN_EFORMAT (no function is a root), PERFAN_ENOMEM. */
PERFAN_API int perfan_pstats_profile(const perfan_pstats *s,
				     perfan_profile **out);

#ifdef __cplusplus
}
#endif
#endif
