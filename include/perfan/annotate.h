/* perfan/annotate.h: where a function's own time goes: per-instruction
 * and per-source-line sample counts of the hottest (or named) functions,
 * read from the resolved-sample stream and the functions' code,
 * disassembled (capstone: x86-64, aarch64) with DWARF lines and inline
 * call sites. perf annotate's numbers, for several functions in one pass. */
#ifndef PERFAN_ANNOTATE_H
#define PERFAN_ANNOTATE_H

#include <stdio.h>

#include <perfan/common.h>
#include <perfan/perfdata.h>
#include <perfan/resolve.h>
#include <perfan/stream.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of perfan_annotate_opts. */
enum {
	/* x86: Intel syntax (default AT&T, as perf annotate and objdump) */
	PERFAN_ANNOTATE_INTEL = 1u << 0,
	/* symbols as the symbol table has them, not demangled (the
	 * resolver's no_demangle, for perfan_annotate_perfdata and
	 * perfan_load_annotate) */
	PERFAN_ANNOTATE_NO_DEMANGLE = 1u << 1,
};

struct perfan_annotate_opts {
	size_t sz;
	/* The functions to annotate, by name (demangled or as in the
	 * symbol table); every function of that name with samples. NULL or
	 * none: the hottest TOP. */
	const char *const *symbols;
	size_t nr_symbols;
	size_t top; /* 0: 5 */
	unsigned flags;
	/* Source files are looked for under each of these directories (the
	 * recorded path joined, then its basename), then at the recorded
	 * path. */
	const char *const *source_dirs;
	size_t nr_source_dirs;
};

/* Flags of an instruction. */
enum {
	PERFAN_INSN_JUMP_TARGET = 1u << 0, /* a branch in the function
					       goes here */
	PERFAN_INSN_LOOP_HEAD = 1u << 1,   /* ... from below: a loop */
	PERFAN_INSN_BACK_JUMP = 1u << 2,   /* jumps back: closes a loop */
	PERFAN_INSN_BRANCH = 1u << 3,      /* jump or conditional jump */
	PERFAN_INSN_CALL = 1u << 4,
	PERFAN_INSN_RET = 1u << 5,
	PERFAN_INSN_BAD = 1u << 6, /* bytes that did not decode */
};

struct perfan_annotate_insn {
	uint64_t addr; /* ELF virtual address, as objdump prints it */
	uint32_t size;
	uint32_t flags;
	const char *text; /* "mnemonic operands" */
	uint64_t target;  /* a direct branch or call's destination, or 0 */
	uint64_t samples, period;
	double local_percent;  /* of the function's period */
	double global_percent; /* of the event's whole period */
	/* The source line (index into the function's lines), or -1. */
	int64_t line;
};

/* A function inlined at a line, and where it was called from. */
struct perfan_annotate_inline {
	const char *function; /* the inlined function */
	const char *file;     /* the call site, in the function around it */
	uint32_t line;
};

struct perfan_annotate_line {
	const char *file;
	uint32_t line;
	const char *text; /* the source line, or NULL when not found */
	uint64_t samples, period;
	double local_percent, global_percent;
	/* The functions inlined here, innermost first (none: the
	 * function's own code). */
	size_t nr_inlined;
	const struct perfan_annotate_inline *inlined;
};

/* A loop: a backward jump and the instructions from its target to it. */
struct perfan_annotate_loop {
	uint64_t head, back_jump; /* addresses */
	uint64_t samples, period;
	double local_percent;
};

/* Why a function has no instructions. */
enum perfan_annotate_status {
	PERFAN_ANNOTATE_OK = 0,
	PERFAN_ANNOTATE_NO_BINARY = 1,  /* its file was not found */
	PERFAN_ANNOTATE_NO_DECODER = 2, /* a machine capstone lacks */
};

struct perfan_annotate_func {
	const char *name;       /* as in report (demangled) */
	const char *raw_name;   /* as in the symbol table */
	const char *dso;        /* short name */
	const char *dso_path;   /* as recorded */
	const char *binary;     /* the file the code was read from, or NULL */
	const char *debug_file; /* the separate debug file, or NULL */
	const char *build_id;   /* hex, or NULL */
	uint64_t start, size;
	uint64_t samples, period;
	double percent;          /* of the event's whole period */
	uint32_t status;         /* enum perfan_annotate_status */
	const char *status_text; /* why not OK, or NULL */
	size_t nr_insns;
	const struct perfan_annotate_insn *insns; /* in address order */
	/* Source lines, in the order they first appear in the code. */
	size_t nr_lines;
	const struct perfan_annotate_line *lines;
	size_t nr_loops;
	const struct perfan_annotate_loop *loops;
	/* The hottest lines and instructions with samples, at most five
	 * each, hottest first (indices into lines and insns). */
	size_t nr_hot_lines, nr_hot_insns;
	const size_t *hot_lines, *hot_insns;
	int has_lines; /* DWARF gave source lines */
};

/* Samples in a mapped file that no symbol of it covers. */
struct perfan_annotate_unresolved {
	const char *dso_path; /* as recorded */
	uint64_t samples;
	int found; /* 1: the file was found (the addresses have no symbol);
		      0: not found (give --symfs or --buildid-dir) */
	/* when not found, why (perfan_stream_dso_problem): a truncated or
	   foreign file, a build-id mismatch, where it was looked for; or
	   NULL */
	const char *why;
};

struct perfan_annotate_result {
	const char *event; /* the event counted (the first with samples) */
	/* What sampling skid does to the numbers, for a reader: a static
	 * string. */
	const char *note;
	uint64_t total_samples, total_period; /* of that event */
	/* Samples of that event whose address is in no mapped file with a
	 * symbol (kernel, JIT code, unknown): in the totals only. */
	uint64_t unattributed_samples;
	uint64_t other_event_samples; /* of other events: not counted */
	size_t nr_functions;
	const struct perfan_annotate_func *functions; /* hottest first */
	/* Names asked for that had no samples. */
	size_t nr_missing;
	const char *const *missing;
	/* Files with samples outside any symbol (in unattributed_samples),
	 * most samples first. */
	size_t nr_unresolved;
	const struct perfan_annotate_unresolved *unresolved;
};

typedef struct perfan_annotate perfan_annotate;

/* An analysis fed from stream S (perfan_annotate_feed with every event, in
 * order, then perfan_annotate_finish, which reads the functions' code).
 * Returns 0 or PERFAN_ENOMEM. */
PERFAN_API int perfan_annotate_new(perfan_annotate **out, perfan_stream *s,
				   const struct perfan_annotate_opts *opts);
PERFAN_API void perfan_annotate_free(perfan_annotate *a);
PERFAN_API int perfan_annotate_feed(perfan_annotate *a,
				    const struct perfan_stream_event *ev);
/* Choose the functions and annotate them. A function whose code cannot
 * be read gets a status (and a log warning), not an error. Returns 0 or a
 * negative error. */
PERFAN_API int perfan_annotate_finish(perfan_annotate *a);
/* The result; borrowed from A (and its stream, which must outlive it). */
PERFAN_API const struct perfan_annotate_result *
perfan_annotate_result(const perfan_annotate *a);

/* The whole job: open a stream over PD with RO (NULL: defaults), feed it
 * all, finish. *OUT owns the stream. When reading fails after the start
 * (a cut or damaged file), *OUT still holds the annotation of the samples
 * before the damage and the read error is returned; after other errors
 * *OUT is NULL. */
PERFAN_API int
perfan_annotate_perfdata(perfan_annotate **out, perfan_perfdata *pd,
			 const struct perfan_resolve_opts *ro,
			 const struct perfan_annotate_opts *opts);

enum perfan_annotate_format {
	PERFAN_ANNOTATE_TEXT = 0,   /* summary, then the listing */
	PERFAN_ANNOTATE_SOURCE = 1, /* summary and source lines only */
	PERFAN_ANNOTATE_JSON = 2,
};

struct perfan_annotate_write_opts {
	size_t sz;
	int format; /* enum perfan_annotate_format */
};

/* Write the result. Returns 0, PERFAN_EINVAL (a NULL argument, an unknown
 * format) or PERFAN_EIO. OPTS NULL: text. */
PERFAN_API int
perfan_annotate_write(const perfan_annotate *a, FILE *fp,
		      const struct perfan_annotate_write_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
