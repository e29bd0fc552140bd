/* sources/internal.h: what the registry and the format adapters share: the
 * opened input (peeked bytes, then the rest) and one registry entry. */
#ifndef PERFAN_SOURCES_INTERNAL_H
#define PERFAN_SOURCES_INTERNAL_H

#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

#include <perfan/source.h>

/* One input format. To add one: write sources/NAME.c defining a
 * `const struct perfan__format perfan__format_NAME`, declare it below and
 * put it in the table of sources/registry.c. */
struct perfan__format {
	const char *name; /* as perfan_source_format says it */
	unsigned caps;    /* enum perfan_source_cap */
	/* Non-zero when the LEN first bytes at BUF are of this format; the
	 * registry asks in its table's order and takes the first. */
	int (*detect)(const void *buf, size_t len);
	/* Read S into P (S's options in s->o). */
	int (*load)(perfan_source *s, perfan_profile *p,
		    struct perfan_source_stats *st);
	/* PERFAN_SOURCE_PAIRED formats: two inputs into one profile. */
	int (*load_pair)(perfan_profile *p, perfan_source *before,
			 perfan_source *after, const char *before_column,
			 const char *after_column);
	/* PERFAN_SOURCE_TRACE formats: S into a trace. */
	int (*trace)(perfan_source *s, perfan_trace **out);
};

extern const struct perfan__format perfan__format_perfdata;
extern const struct perfan__format perfan__format_script;
extern const struct perfan__format perfan__format_folded;
extern const struct perfan__format perfan__format_cprofile;
extern const struct perfan__format perfan__format_pyspy;
extern const struct perfan__format perfan__format_bpftrace;
extern const struct perfan__format perfan__format_speedscope;
extern const struct perfan__format perfan__format_nsight;
extern const struct perfan__format perfan__format_kineto;
extern const struct perfan__format perfan__format_autograd;

/* The older autograd profiler's JSON array of LEN bytes at BUF, named NAME
 * in messages, into a new trace *OUT (sources/autograd.c). */
int perfan__autograd_parse(const void *buf, size_t len, const char *name,
			   perfan_trace **out);

/* A speedscope JSON file of LEN bytes at BUF into P (sources/speedscope.c),
 * with O's root, event and log (O may be NULL). */
int perfan__speedscope_parse(perfan_profile *p, const void *buf, size_t len,
			     const char *name,
			     const struct perfan_source_opts *o);

/* The caps of every trace format: its events for perfan_source_trace;
 * its threads named by the root option, its profile's columns (cpu time,
 * gpu time) picked by the event option. */
#define PERFAN__TRACE_CAPS                                                     \
	(PERFAN_SOURCE_TRACE | PERFAN_SOURCE_ROOTS | PERFAN_SOURCE_EVENTS)
/* trace_profile.c: the `load` of every PERFAN_SOURCE_TRACE format: S read
 * by the format's `trace`, then perfan_trace_profile with S's root. */
int perfan__trace_load(perfan_source *s, perfan_profile *p,
		       struct perfan_source_stats *st);

/* The registry's choice for the bytes at BUF, or NULL. */
const struct perfan__format *perfan__format_detect(const void *buf, size_t len);

struct perfan_source {
	const struct perfan__format *fmt;
	struct perfan_source_opts o;
	char *name;
	int fd, own_fd;
	int regular;   /* a regular file: it can be read again from 0 */
	uint64_t size; /* of a regular file, else 0 */
	char *peek;
	size_t npeek, off; /* peeked bytes, and how many were given again */
	int used;          /* loaded, or its reader handed out */
	int keep;          /* a stream is kept to be read again */
	pthread_t feeder;
	int feeding, feed_fd, pipe_fd;
	char *feed_buf;
	FILE *text;
	/* the perf.data reader a load read with, kept for what its header
	 * says (perfan_source_reader) */
	perfan_perfdata *reader;
};

/* script_text.c: the text classifier behind the folded and perf script
 * entries of the registry (perfan_source_detect is the one detection
 * API). Text is folded when its first line that is not blank or a '#'
 * comment ends in a count after a space or tab (and has no perf script
 * time stamp "SECONDS.FRACTION:"), and none of the next lines is indented
 * like a frame line of perf script; any other text with a line of content
 * or a '#' comment is perf script output. */
enum perfan__input_kind {
	PERFAN__INPUT_UNKNOWN = 0,  /* empty, binary, or none of these */
	PERFAN__INPUT_PERFDATA = 1, /* perf.data: "PERFILE2", either order */
	PERFAN__INPUT_SCRIPT = 2,   /* perf script text */
	PERFAN__INPUT_FOLDED = 3,   /* folded stacks ("a;b;c 12") */
};
int perfan__input_detect(const void *buf, size_t len);

/* script_text.c: the length of a demangled C++ name without its
 * parameters, inferno's tidy_generic: up to the first '(' outside any <>,
 * {}, [] or () (bpftrace's frames too). */
size_t perfan__tidy_generic(const char *b, size_t n);

/* How many first bytes of an input are peeked to tell its format. */
#define PERFAN__INPUT_PEEK (64 * 1024)

/* input_read.c: read(2) of up to N bytes, again after EINTR. */
ssize_t perfan__read_some(int fd, void *buf, size_t n);

/* input_read.c: the input from its first byte as a text stream, closed by
 * perfan_source_free; NULL when it cannot be made, the last error then
 * PERFAN_EIO naming the input. */
FILE *perfan__input_text(perfan_source *s);

/* input_read.c: S as a regular file (s->fd, read from any offset): a
 * stream's bytes (the peeked ones, then the rest) go once into an unlinked
 * temporary file, which no signal can leave behind. Returns 0 or an error
 * naming the input. */
int perfan__input_regular(perfan_source *s);

/* input_read.c: the perf.data reader of S from its first byte (OPTS NULL: S's log),
 * whether or not S was read already. */
int perfan__input_perfdata(perfan_source *s, perfan_perfdata **pd,
			   const struct perfan_perfdata_opts *opts);

#endif
