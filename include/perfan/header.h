/* perfan/header.h: the sinks of what a perf.data says about itself: its
 * header and features (perfan header) and its record counts (perfan
 * stats), as text in perf's lines or as JSON; and what a GPU profiler's
 * trace holds (perfan header TRACE). */
#ifndef PERFAN_HEADER_H
#define PERFAN_HEADER_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/perfdata.h>
#include <perfan/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a perf.data says about itself: its header and features, read
 * from a file or pipe by perfan_header_read. */
typedef struct perfan_header perfan_header;

struct perfan_header_read_opts {
	size_t sz;
	/* Warnings (a damaged feature, ...) go here. */
	perfan_log_fn log;
	void *log_payload;
};

/* Read the header and features of the perf.data at PATH ("-": standard
 * input) into a new *OUT. Returns 0, or the reader's error (the message
 * names the file); *OUT is then NULL. Free with perfan_header_free. */
PERFAN_API int perfan_header_read(perfan_header **out, const char *path,
				  const struct perfan_header_read_opts *opts);
PERFAN_API void perfan_header_free(perfan_header *h);

struct perfan_header_write_opts {
	size_t sz;
	/* One JSON object instead of perf's lines. */
	int json;
	/* Text: every feature, as `perf report --header-only -I`; by
	 * default the topologies, caches and memory say "NAME info
	 * available, use -I to display", as perf does. */
	int full;
	/* Text: the file as the lines name it; NULL: the reader's name. */
	const char *name;
};

/* Write the header and features H holds to FP. Returns 0, or PERFAN_EIO
 * when writing failed. */
PERFAN_API int perfan_header_write(const perfan_header *h, FILE *fp,
				   const struct perfan_header_write_opts *opts);

struct perfan_trace_header_opts {
	size_t sz;
	int json;           /* one JSON object instead of the lines */
	const char *name;   /* text: the input as the lines name it */
	const char *format; /* the format's name (perfan_source_format),
			       or NULL */
};

/* Since 0.2. What trace T holds, for perfan header: its layout, schema,
 * base time and rank, time span, devices, events per kind
 * (perfan_trace_kind_name), GPU work linked to its launch, CPU threads and
 * GPU streams with their names and events, events skipped; "# key: value"
 * lines, or one JSON object. Returns 0, PERFAN_ENOMEM, or PERFAN_EIO when
 * writing failed. */
PERFAN_API int
perfan_trace_header_write(const perfan_trace *t, FILE *fp,
			  const struct perfan_trace_header_opts *opts);

/* Record counts per record type and samples per event. */
typedef struct perfan_recstats perfan_recstats;

/* Count the records PD has left (all, from a reader not read yet) into a
 * new *OUT. Returns 0 or the reader's error; *OUT then holds what was
 * counted before it (NULL only when no memory). Free with
 * perfan_recstats_free, before PD. */
PERFAN_API int perfan_recstats_new(perfan_recstats **out, perfan_perfdata *pd);
/* Count the records of the perf.data at PATH ("-": standard input), as
 * perfan_recstats_new does, from a reader of its own that the result
 * keeps. Returns 0 or the error; *OUT then holds what was counted before
 * it, and is NULL when PATH could not be opened. */
PERFAN_API int perfan_recstats_read(perfan_recstats **out, const char *path,
				    const struct perfan_header_read_opts *opts);
PERFAN_API void perfan_recstats_free(perfan_recstats *rs);

struct perfan_recstats_write_opts {
	size_t sz;
	int json; /* one JSON object instead of perf's lines */
};

/* Write RS as `perf report --stats` prints it, or as JSON. Returns 0, or
 * PERFAN_EIO when writing failed. */
PERFAN_API int
perfan_recstats_write(const perfan_recstats *rs, FILE *fp,
		      const struct perfan_recstats_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
