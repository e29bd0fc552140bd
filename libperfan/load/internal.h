/* load/internal.h: what the files of load/ share: the handle, and advice
 * given through the caller's callback. */
#ifndef PERFAN_LOAD_INTERNAL_H
#define PERFAN_LOAD_INTERNAL_H

#include <perfan/load.h>
#include <perfan/source.h>

struct perfan_load {
	struct perfan_load_opts o;
	perfan_profile *p;
	perfan_profile *native; /* before the Python view (keep_native) */
	/* a time view's profile with the kernel's frames of its waits, for
	 * the analyses that read them (the thread table's call sites), when
	 * P has them folded (kernel_detail not set); else NULL */
	perfan_profile *waits;
	perfan_pstats *calls;  /* want_calls */
	perfan_offcpu *offcpu; /* time_view */
	/* the last input's trace, when it was a GPU profiler's
	 * (PERFAN_SOURCE_TRACE): P is made from it */
	perfan_trace *trace;
	/* set while reading for an analysis of the trace alone (the GPU
	 * analysis, key_averages, the critical path): P is not made of it */
	int trace_only;
	/* each thread's name and pool, from the native stacks (roots per
	 * thread only) */
	perfan_thread_names *names;
	/* the last input read, kept for perfan_load_reader and
	 * perfan_load_again, and the reader of its time view */
	perfan_source *src;
	perfan_perfdata *time_pd;
	struct perfan_load_info info;
	char *period_event; /* info.period_event's storage */
	int advice_errors;  /* PERFAN_ADVICE_ERROR given during this read */
	int read_rc;        /* what the last read returned */
};

/* The formatted message to L's advice callback at LEVEL (enum
 * perfan_advice_level); errors are counted in L->advice_errors. A
 * warning or note the callback (with its payload) had before is not
 * given again (util/said.h); an error always is. */
void perfan__load_advise(perfan_load *l, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, once for FMT whatever its values: a warning about each input
 * of several ("NAME: no Python function...") names the first. */
void perfan__load_advise_once(perfan_load *l, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* What the time view of summary S (VIEW, enum perfan_time_view) cannot
 * answer, as advice (perfan_threads_advice_ext; PYTHON: its recipes
 * for a Python program). */
void perfan__load_time_advice(perfan_load *l,
			      const struct perfan_offcpu_summary *s, int view,
			      int python);
/* The GIL ledger *OUT of what L read, when its time view has GIL waits,
 * read again from L's input (its path, or the stream it kept:
 * keep_input) by a new load *GL (which the ledger's strings live in) with
 * L's options, quietly, its threads named by L's names (which it borrows:
 * free it before L); else both NULL, and a warning when only a stream not
 * kept stood in the way. Free *OUT, then *GL. Returns 0 or a negative
 * error. */
int perfan__load_gil_beside(perfan_gil **out, perfan_load **gl, perfan_load *l);
/* The GIL ledger *OUT of L's reader, opened with *RO (perfan_load_gil
 * after the open; GO as there). Returns 0, PERFAN_LOAD_ADVISED or a
 * negative error. */
int perfan__load_gil_read(perfan_gil **out, perfan_load *l,
			  const struct perfan_resolve_opts *ro,
			  const struct perfan_gil_opts *go);
/* LO made to say nothing (no log, no advice): a second reading. */
void perfan__load_quiet(struct perfan_load_opts *lo);
/* FROM's input opened again (its path, or the stream it kept) in L as a
 * perf.data (L's reader) and *RO, the resolver's options L's stand for.
 * Returns 0 or a negative error. */
int perfan__load_open_again(perfan_load *l, const perfan_load *from,
			    struct perfan_resolve_opts *ro);
/* The timeline *OUT of what L read, with its on-CPU samples, when L has a
 * time view, read again (its path or the stream it kept) by a new load
 * *TL with L's options and filter (ALL: perfan_timeline_opts' all),
 * quietly; else both NULL. Free *OUT, then
 * *TL. Returns 0 or a negative error. */
int perfan__load_timeline_beside(perfan_timeline **out, perfan_load **tl,
				 const perfan_load *l, int all);
/* How perfan__load_reshape copies a profile. */
struct perfan__reshape {
	/* each process frame made again as this says (PERFAN_ROOT_COMM:
	 * threads merged into a root per command), its comm, pid and tid
	 * kept as data; 0: as it is */
	int root;
	/* the kernel's frames right under an off-CPU leaf (the scheduler's,
	 * entry_SYSCALL_64 ... __schedule) left out: the leaf names the
	 * wait, the thread's own innermost frame is directly under it */
	int fold_kernel;
};
/* A new profile *OUT of SRC's columns and stacks (its kept samples in
 * order, kept, when it has any), reshaped as HOW says. Returns 0 or a
 * negative error. */
int perfan__load_reshape(perfan_profile **out, const perfan_profile *src,
			 const struct perfan__reshape *how);
/* Whether P has a frame of CPython's own code (libpython*, python*). */
int perfan__load_has_interpreter(const perfan_profile *p);
/* Whether P is a Python program's: Python functions or the interpreter. */
int perfan__load_python_recording(const perfan_profile *p);

/* The source's options for L's, with PRUNE for the folded pruning. */
void perfan__load_source_opts(struct perfan_source_opts *so,
			      const perfan_load *l,
			      const struct perfan_resolve_opts *ro,
			      double prune);

/* L's options that do not apply to an input of CAPS named NAME, as advice
 * (or L's opened callback with INFO). Returns its non-zero return, or 0. */
int perfan__load_opened(perfan_load *l, const struct perfan_load_info *info);

/* A new empty profile for L (its keep_samples). */
int perfan__load_profile_new(const perfan_load *l, perfan_profile **out);

/* Say so when a Python recording cannot show Python functions. */
void perfan__load_python_check(perfan_load *l);

/* The Python view L's options ask for, in place of L's profile. */
int perfan__load_python_view(perfan_load *l);

#endif
