/* perfan/resolve.h: from perf.data records to a profile: address spaces over
 * time, symbols (ELF, DWARF, kernel, perf maps), call stacks (frame
 * pointers, DWARF unwinding, LBR), aggregated into a perfan_profile. */
#ifndef PERFAN_RESOLVE_H
#define PERFAN_RESOLVE_H

#include <perfan/common.h>
#include <perfan/filter.h>
#include <perfan/host.h>
#include <perfan/perfdata.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

/* enum perfan_process_root (how the root of each stack names its thread)
 * is the profile model's: perfan/profile.h. */

enum perfan_weight {
	PERFAN_WEIGHT_SAMPLES = 0, /* one per sample */
	PERFAN_WEIGHT_PERIOD = 1,  /* the sample's period */
};

struct perfan_resolve_opts {
	size_t sz;
	const char *symfs;     /* look for binaries under this root */
	const char *debug_dir; /* extra debuginfo root (like /usr/lib/debug) */
	const char *kallsyms;  /* kernel symbols file; NULL: the running
				  kernel's (host->kallsyms) when it is the
				  one recorded */
	const char *buildid_dir; /* perf's build-id cache; NULL:
				    host->home/.debug */
	int inline_frames;       /* add inlined frames from DWARF */
	int addrs;               /* unresolved as "[module+0xoff]" */
	int source_lines;        /* set frame file/line */
	int no_demangle;         /* keep C++ and Rust names mangled */
	enum perfan_process_root root;
	enum perfan_weight weight;
	/* The samples kept (perfan/filter.h): the stream resolves its event
	 * (a unique prefix) against the file's. Note that 0 filters
	 * pid/tid/cpu 0: initialise with PERFAN_RESOLVE_OPTS_INIT. */
	struct perfan_filter filter;
	perfan_log_fn log;
	void *log_payload;
	/* Called now and then (every 4096 records) with the reader's offset
	 * (perfan_perfdata_offset), for a progress display. */
	void (*progress)(uint64_t offset, void *payload);
	void *progress_payload;
	/* JIT code (anonymous executable memory) is named from the perf map
	 * perf-PID.map a JIT wrote in this directory; NULL: /tmp, as perf.
	 * A forked child's code is looked up in its parent's map too. */
	const char *perf_map_dir;
	/* ... and first from the jitdump jit-PID.dump the process mapped
	 * (perf inject's way to find it), looked for in this directory
	 * before the path it was mapped at; here also when the recording
	 * has no MMAP of it. NULL: only where it was mapped. */
	const char *jitdump_dir;
	/* The machine perfan runs on (running kernel, hostname, its
	 * kallsyms, HOME); NULL: the real one. See perfan/host.h. */
	const struct perfan_host *host;
};

/* Options with every filter off (pid, tid and cpu -1). */
#define PERFAN_RESOLVE_OPTS_INIT                                                \
	((struct perfan_resolve_opts){.sz = sizeof(struct perfan_resolve_opts), \
				      .filter = PERFAN_FILTER_INIT})

/* What a resolve saw (for a report's footer and for tests). */
struct perfan_resolve_stats {
	uint64_t samples, samples_filtered;
	uint64_t frames, frames_unresolved;
	uint64_t stacks_truncated; /* unwinding stopped early */
	uint64_t buildid_mismatches;
};

/* Read every record of PD and add each sample's resolved stack to P, in
 * the column named after its event (unit "samples" or "period"). PD should
 * be opened in time order (the default). STATS may be NULL. Returns 0 or a
 * negative error; a malformed record stops it with the stacks so far kept
 * in P. */
PERFAN_API int perfan_resolve_perfdata(perfan_profile *p, perfan_perfdata *pd,
				       const struct perfan_resolve_opts *opts,
				       struct perfan_resolve_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
