/* perfan/source.h: every input perfan reads, through one registry: an input
 * is opened once, told apart by its first bytes, and read into a profile
 * (text formats) or handed out as the perf.data reader it is (records for
 * the stream, the resolver or the off-CPU analysis). */
#ifndef PERFAN_SOURCE_H
#define PERFAN_SOURCE_H

#include <stdint.h>

#include <perfan/common.h>
#include <perfan/perfdata.h>
#include <perfan/profile.h>
#include <perfan/pstats.h>
#include <perfan/resolve.h>
#include <perfan/script.h>
#include <perfan/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct perfan_source perfan_source;

/* What a format holds and which options it takes (perfan_source_caps): a
 * caller decides by these, never by the format's name. */
enum perfan_source_cap {
	/* A recording of records: perfan_source_perfdata gives its reader;
	 * the resolver's options, the sample filters (pid, tid, comm, cpu,
	 * time) and the time views (off-CPU, wall) apply; frames get their
	 * kinds from symbols, threads are data. */
	PERFAN_SOURCE_RECORDS = 1 << 0,
	/* Samples of named events: opts.event picks them. */
	PERFAN_SOURCE_EVENTS = 1 << 1,
	/* Frames are named by the reader from addresses and modules: the
	 * root (pid, tid) and the kernel, jit and addrs options apply. */
	PERFAN_SOURCE_FRAMES = 1 << 2,
	/* Weights are counts of samples already (no periods). */
	PERFAN_SOURCE_COUNTED = 1 << 3,
	/* Two inputs of the format can be read together as one
	 * differential profile (perfan_source_load_pair). */
	PERFAN_SOURCE_PAIRED = 1 << 4,
	/* opts.prune applies; a pruned read of input out of order fails with
	 * PERFAN_EUNSUPPORTED and must be read again without it. */
	PERFAN_SOURCE_PRUNED = 1 << 5,
	/* Call counts and times per function (a cProfile dump):
	 * perfan_source_pstats gives them, for a report of its own. */
	PERFAN_SOURCE_CALLS = 1 << 6,
	/* The stacks perfan_source_load gives are estimated, not sampled
	 * (a cProfile dump keeps call edges, no stacks): a sink that shows
	 * them says so. */
	PERFAN_SOURCE_ESTIMATED = 1 << 7,
	/* The input names processes and threads (py-spy's roots): the root
	 * option (comm, pid, tid) names their frames. */
	PERFAN_SOURCE_ROOTS = 1 << 8,
	/* A GPU profiler's trace of spans on CPU threads and GPU streams
	 * (torch.profiler/Kineto, the autograd profiler, Nsight Systems):
	 * perfan_source_trace gives its events, for the GPU analysis
	 * (perfan/gpu.h). */
	PERFAN_SOURCE_TRACE = 1 << 9,
};

struct perfan_source_opts {
	size_t sz;
	/* Shared by every format. The root frame of a stack, an enum
	 * perfan_process_root (perf.data, perf script text, py-spy). */
	int root;
	/* Weigh every sample as 1 instead of by its period. */
	int count_samples;
	/* Only samples of this event; NULL: as each format decides (perf
	 * script text: the first event met). */
	const char *event;
	/* Warnings of the readers (perf.data, resolver, perf script text). */
	perfan_log_fn log;
	void *log_payload;
	/* Called with the number of bytes read as they are read (text, and a
	 * perf.data that is not a regular file), for a progress display. */
	void (*on_read)(uint64_t n, void *payload);
	void *read_payload;
	/* perf.data: perfan_perfdata_opts' threads (2 or more: a file is
	 * read ahead on a second thread); folded input read with prune:
	 * perfan_folded_read_opts' threads; 0: one thread */
	int threads;

	/* Each format's own options, read by that format only. */
	/* Frames named from addresses and modules (perf script text, and
	 * bpftrace's kernel and addrs): as perfan_script_opts (pid and tid
	 * come from root). */
	struct {
		int kernel, jit, addrs, compat;
	} script;
	/* folded stacks: as perfan_folded_read_opts. */
	struct {
		int process_root, annotations;
		const char *before_column;
		double prune;
	} folded;
	/* py-spy raw, and speedscope's Python frames: keep line numbers,
	 * "name (file:line)" a frame of its own per line; 0: one frame per
	 * function, "name (file)", as py-spy --nolineno names them. */
	struct {
		int lineno;
	} pyspy;
	/* perf.data, for perfan_source_load: the resolver's options (NULL:
	 * defaults). Only the resolver's own fields are read (symfs,
	 * kallsyms, unwinding, ...): its root, weight, event, log and
	 * log_payload are not, the shared fields above (root, count_samples,
	 * event, log) take their place. */
	struct {
		const struct perfan_resolve_opts *resolve;
	} perfdata;
};

/* What a load read (the part for the format read; the rest stays 0). */
struct perfan_source_stats {
	struct perfan_resolve_stats resolve; /* perf.data */
	struct perfan_script_stats script;   /* perf script text */
};

/* Open PATH ("-": standard input) and tell its format from its first
 * bytes (up to 64 KiB, fewer from a stream that pauses: a perf.data is
 * known by its first 8). Nothing is read twice and nothing is opened
 * twice, so pipes and FIFOs work. OPTS may be NULL (defaults); it is
 * copied. An input of no known format opens: perfan_source_format says
 * NULL and perfan_source_load fails naming it (or reads nothing from an
 * empty one). Returns 0 or a negative error (PERFAN_EIO naming PATH:
 * cannot open or read; PERFAN_ENOMEM); *OUT is NULL then. */
PERFAN_API int perfan_source_open(perfan_source **out, const char *path,
				  const struct perfan_source_opts *opts);

/* The same from the open descriptor FD, which the source reads from its
 * current position and does not close. NAME names it in messages. */
PERFAN_API int perfan_source_open_fd(perfan_source **out, int fd,
				     const char *name,
				     const struct perfan_source_opts *opts);

/* Close and free S (NULL is fine), after perfan_perfdata_free of a reader
 * it handed out. */
PERFAN_API void perfan_source_free(perfan_source *s);

/* The format's name ("perf.data", "perf script", "folded", "py-spy",
 * "cProfile", ...), or NULL for an input of none. */
PERFAN_API const char *perfan_source_format(const perfan_source *s);

/* The format's enum perfan_source_cap bits (0 for none). */
PERFAN_API unsigned perfan_source_caps(const perfan_source *s);

/* The input as messages name it ("<stdin>" for "-"), its size when it is
 * a regular file (else 0), and whether any byte was read from it. The
 * name lives as long as S. */
PERFAN_API const char *perfan_source_name(const perfan_source *s);
PERFAN_API uint64_t perfan_source_size(const perfan_source *s);
PERFAN_API int perfan_source_empty(const perfan_source *s);

/* Read S into P with the options given at open: text formats as their
 * readers read them, a perf.data through the resolver (this one function
 * is defined in load/, which runs the fold; perfan_load reads any input
 * with the filters, views and advice). An input read
 * once cannot be loaded again. STATS may be NULL. Returns 0 (an empty
 * input adds nothing), PERFAN_EFORMAT "NAME: neither perf.data, perf
 * script output nor folded stacks" for an input of no known format, or
 * the reader's error, what was read before it kept in P. */
PERFAN_API int perfan_source_load(perfan_source *s, perfan_profile *p,
				  struct perfan_source_stats *stats);

/* Read S, a source of PERFAN_SOURCE_TRACE, into a trace (*OUT, freed with
 * perfan_trace_free). An input read once cannot be read again. Returns 0,
 * PERFAN_EINVAL when S's format is not a trace, or the reader's error
 * ("NAME: offset N: what"; *OUT NULL then). */
PERFAN_API int perfan_source_trace(perfan_source *s, perfan_trace **out);

/* Read BEFORE and AFTER, two sources of one PERFAN_SOURCE_PAIRED format,
 * together into P: BEFORE's weights to the column BEFORE_COLUMN, AFTER's
 * to AFTER_COLUMN, with BEFORE's options (as perfan_folded_read_pair).
 * PERFAN_EINVAL when either is not of such a format. */
PERFAN_API int perfan_source_load_pair(perfan_profile *p, perfan_source *before,
				       perfan_source *after,
				       const char *before_column,
				       const char *after_column);

/* The perf.data reader of S (a PERFAN_SOURCE_RECORDS format), from its
 * first byte, for those who read records themselves (perfan_stream_open,
 * perfan_offcpu_feed, perfan_resolve_perfdata). OPTS as for
 * perfan_perfdata_open_fd (NULL: S's log). The caller frees *PD with
 * perfan_perfdata_free before perfan_source_free. Returns 0, PERFAN_EINVAL
 * for another format or a second call, or the reader's error. */
PERFAN_API int perfan_source_perfdata(perfan_source *s, perfan_perfdata **pd,
				      const struct perfan_perfdata_opts *opts);

/* After perfan_source_load of a perf.data: the reader it read with, for
 * what the header and features say (events and their attributes, the
 * command line, build-ids, times), so that a pipe need not be read twice.
 * NULL for other formats or before a load; borrowed, lives as long as S. */
PERFAN_API const perfan_perfdata *perfan_source_reader(const perfan_source *s);

/* The call counts and times of S (a PERFAN_SOURCE_CALLS format) into *OUT,
 * read from its first byte, instead of perfan_source_load: an input is read
 * once. Free *OUT with perfan_pstats_free. Returns 0, PERFAN_EINVAL for
 * another format or an input read already, or the reader's error (*OUT
 * NULL). */
PERFAN_API int perfan_source_pstats(perfan_source *s, perfan_pstats **out);

/* The name of the format of the LEN bytes at BUF, as perfan_source_open
 * tells it, or NULL. */
PERFAN_API const char *perfan_source_detect(const void *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
