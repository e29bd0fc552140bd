/* perfan/script.h: the text `perf script` prints, read into a profile the
 * way FlameGraph's stackcollapse-perf.pl collapses it (the same frames and
 * counts), with names as inferno's collapser reads them or, on request,
 * byte for byte as stackcollapse-perf.pl does, and telling the inputs
 * perfan reads apart by their first bytes. */
#ifndef PERFAN_SCRIPT_H
#define PERFAN_SCRIPT_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How frame names are read (perfan_script_opts.compat). */
enum perfan_script_compat {
	/* perfan's own reading, inferno's rules: only a top-level argument
	 * list is cut ("std::function<int (int, int)>::operator()" gives
	 * "std::function<int (int, int)>::operator"); quotes stay; mangled
	 * and half-demangled C++ and Rust names are demangled as in perf.data
	 * input; "jitted-*.so" modules are JIT, "*.ko" modules and
	 * "vmlinux-VERSION" files kernel; "(anonymous namespace)::f" is a
	 * frame (where stackcollapse-perf.pl and inferno drop every name
	 * that starts with '('). */
	PERFAN_SCRIPT_COMPAT_NONE = 0,
	/* stackcollapse-perf.pl's bytes: a name is cut at its first '(' (but
	 * "(anonymous namespace)", and not at all in a Go method), quotes go,
	 * names stay as the text has them, only "/tmp/perf-PID.map" is JIT
	 * and only "[...]" and "...vmlinux" are kernel. */
	PERFAN_SCRIPT_COMPAT_FLAMEGRAPH = 1,
};

struct perfan_script_opts {
	size_t sz;
	/* The root frame of each stack is the command name with spaces made
	 * '_' ("comm"); with pid "comm-PID", with tid "comm-PID/TID", "?" for
	 * a PID the text lacks (stackcollapse-perf.pl --pid, --tid). With
	 * no_process there is no root frame. */
	int pid, tid, no_process;
	/* Append "_[k]" to kernel frames, "_[j]" to JIT frames, what compat
	 * counts as either (--kernel, --jit; --all is both). */
	int kernel, jit;
	/* Name an unresolved frame "[module <ADDR>]" instead of "[module]"
	 * (--addrs). */
	int addrs;
	/* Only samples of this event; NULL or "": the first event met, as
	 * stackcollapse-perf.pl --event-filter. */
	const char *event;
	/* By default a sample weighs the period its header line shows (1
	 * when it shows none), which is what stackcollapse-perf.pl sums;
	 * 1 here counts every sample as 1. */
	int count_samples;
	/* The column to add to; NULL: named after the event kept, unit
	 * "period" when the first sample shows a period (and count_samples
	 * is 0), else "samples". Created at the first sample kept. */
	const char *column;
	/* Warnings (lines that are neither a sample header nor a frame,
	 * samples of other events left out). */
	perfan_log_fn log;
	void *log_payload;
	/* An enum perfan_script_compat: how names are read. */
	int compat;
};

struct perfan_script_stats {
	uint64_t samples;          /* stacks added */
	uint64_t samples_filtered; /* samples of other events */
	uint64_t lines;            /* lines read */
	uint64_t lines_unrecognized;
	int column; /* the column added to, or -1 when no sample was kept */
};

/* Add the samples of the perf script text in FP to P. NAME names the input
 * in messages. Both forms perf prints are read: a header line
 * ("comm pid/tid [cpu] time: period event:") followed by indented frame
 * lines ("addr sym+off (dso)") and a blank line, and one line per sample
 * when there are no call chains ("... event:  addr sym+off (dso)"). The
 * last stack counts even without a blank line after it. Lines of neither
 * form are counted and reported to the log callback, as
 * stackcollapse-perf.pl warns about them. STATS may be NULL. Returns 0 or
 * a negative error (reading failed, a line longer than 64 MiB, no memory,
 * PERFAN_EINVAL for a compat that is none of enum perfan_script_compat),
 * the stacks so far kept in P. */
PERFAN_API int perfan_script_read(perfan_profile *p, FILE *fp, const char *name,
				  const struct perfan_script_opts *opts,
				  struct perfan_script_stats *stats);

/* The same from the file PATH ("-" is standard input). */
PERFAN_API int perfan_script_read_path(perfan_profile *p, const char *path,
				       const struct perfan_script_opts *opts,
				       struct perfan_script_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
