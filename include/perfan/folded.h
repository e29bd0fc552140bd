/* perfan/folded.h: folded stacks, the text flame graph tools exchange: one
 * line per distinct stack, frames root first joined by ';', then a space
 * and a count ("bash;main;malloc 42"). Read into a profile, written from
 * one. */
#ifndef PERFAN_FOLDED_H
#define PERFAN_FOLDED_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perfan_folded_read_opts {
	size_t sz;
	/* The first frame of each line names the process ("comm",
	 * "comm-pid"): intern it as PERFAN_FRAME_PROCESS. */
	int process_root;
	/* Frames ending in stackcollapse-perf.pl's annotations "_[k]",
	 * "_[j]", "_[i]" lose the suffix and get the kind it names (kernel,
	 * jit, inlined). By default names are kept exactly as read. */
	int annotations;
	/* Lines may end in two counts, "STACK BEFORE AFTER", as
	 * difffolded.pl writes them: BEFORE is added to this column (unit
	 * "samples", created if P lacks it) and AFTER to COLUMN. A line
	 * with one count adds to COLUMN only. NULL: one count per line. */
	const char *before_column;
	/* Bounded memory for flame graphs of large sorted files: a subtree
	 * that no later line can reach (the lines being in byte order, as
	 * collapsers and `LC_ALL=C sort` write them) and that weighs less
	 * than this fraction of the weight read so far becomes weight of a
	 * frame "(other)" (PERFAN_FRAME_OTHER) under its parent. What is
	 * folded would be narrower than the same fraction of the final
	 * total, so a flame graph whose minimum width is that fraction is
	 * drawn the same. With two columns (before_column, or
	 * perfan_folded_read_pair) a subtree folds only when it is that
	 * narrow in both, so that a differential graph keeps what is wide
	 * on either side; a column with nothing read yet sets no bound.
	 * 0: keep everything. Unsorted input is read whole
	 * while nothing has been folded yet; a line out of order after that
	 * fails with PERFAN_EUNSUPPORTED ("NAME:LINE: ..."), and the input
	 * must be read again without prune. Samples are not kept. */
	double prune;
	/* With prune, 2 or more: a second thread reads the lines and
	 * interns their frames while this one builds the pruning tree. The
	 * stacks and weights read, and the messages, are those of one
	 * thread; only when a line is out of order may frames first met
	 * after it be numbered in another order, and after an error the
	 * profile may hold frames of lines past it, with no weight. 0 or
	 * 1: this thread only. (perfan_folded_read; a pair is read on one
	 * thread.) */
	int threads;
};

/* Add the stacks of the folded text in FP to P, in the column COLUMN
 * (unit "samples"; created if P lacks it; NULL means "samples"). NAME names
 * the input in messages. Lines are "STACK COUNT": the count is the number
 * at the end, after one space or tab (white space before that belongs to
 * the last frame, as flamegraph.pl reads it). Blank lines, white space
 * after the count and CRLF line ends are accepted, and a stack met twice
 * adds up. A line that is not of that form stops the read with
 * PERFAN_EFORMAT and a message "NAME:LINE: what is wrong"; the lines before
 * it stay in P. Lines longer than 64 MiB are refused the same way. */
PERFAN_API int perfan_folded_read(perfan_profile *p, FILE *fp, const char *name,
				  const char *column,
				  const struct perfan_folded_read_opts *opts);

/* The same from the file PATH ("-" is standard input). */
PERFAN_API int
perfan_folded_read_path(perfan_profile *p, const char *path, const char *column,
			const struct perfan_folded_read_opts *opts);

/* Read two folded inputs, BEFORE and AFTER, into P as one two-column
 * profile: the counts of BEFORE go to the column BEFORE_COLUMN (NULL:
 * "before"), those of AFTER to AFTER_COLUMN (NULL: "after"), both of
 * unit "samples" and created if P lacks them (AFTER_COLUMN first). The
 * two streams are merged in the byte order of their stacks, a stack found
 * in both becoming one line with two weights, and read as
 * perfan_folded_read reads one file of such lines: opts->prune bounds
 * memory when both are sorted as `LC_ALL=C sort` sorts them, keeping
 * what is wide in either column; opts->before_column is not used (each
 * line has one count). A stack met twice in one input adds up. Without
 * prune the inputs may be in any order. With prune a line out of order
 * is read as perfan_folded_read reads it: all is kept from there on if
 * nothing was folded yet, else PERFAN_EUNSUPPORTED with the message
 * "NAME:LINE: ..." naming that line's input. BEFORE_NAME and AFTER_NAME
 * name the inputs in messages (NULL: "before input", "after input").
 * Errors are those of perfan_folded_read; what was read before one stays
 * in P. BEFORE and AFTER must be different streams. */
PERFAN_API int perfan_folded_read_pair(
	perfan_profile *p, FILE *before, const char *before_name, FILE *after,
	const char *after_name, const char *before_column,
	const char *after_column, const struct perfan_folded_read_opts *opts);

/* Suffixes perfan_folded_write can append, as stackcollapse-perf.pl does
 * with --kernel, --jit (--all: both) and for inlined frames. A name that
 * already ends with the suffix gets no second one. */
enum perfan_folded_annotate {
	PERFAN_FOLDED_KERNEL = 1 << 0,  /* "_[k]" after kernel frames */
	PERFAN_FOLDED_JIT = 1 << 1,     /* "_[j]" after JIT frames, and after
					   CPython's py:: trampolines (Python
					   frames from a perf map) */
	PERFAN_FOLDED_INLINED = 1 << 2, /* "_[i]" after inlined frames */
};

struct perfan_folded_write_opts {
	size_t sz;
	size_t column;     /* the column whose weights are the counts */
	unsigned annotate; /* enum perfan_folded_annotate bits */
	int no_process;    /* leave out PERFAN_FRAME_PROCESS frames */
};

/* Write P as folded lines to FP: each stack with a non-zero self weight in
 * the column, frames root first joined by ';', a space and the weight.
 * Lines come in the byte order of their stack text (`LC_ALL=C sort`), and
 * stacks whose text is the same (frames that differ only in module or
 * kind) are written once with their weights summed. A profile without
 * columns writes nothing. Returns 0, PERFAN_EINVAL for a column P lacks,
 * PERFAN_EIO when writing fails. */
PERFAN_API int perfan_folded_write(const perfan_profile *p, FILE *fp,
				   const struct perfan_folded_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
