/* analysis/annotate_internal.h: what the annotate files share: the
 * per-address histogram, the source-text cache and the analysis itself. */
#ifndef PERFAN_ANALYSIS_ANNOTATE_INTERNAL_H
#define PERFAN_ANALYSIS_ANNOTATE_INTERNAL_H

#include <perfan/annotate.h>

#include "util/arena.h"
#include "util/htab.h"

/* ---- samples per (dso, address) (annotate_hist.c) ---------------------- */

struct perfan__hcount {
	uint64_t addr; /* ELF virtual address in the DSO */
	uint32_t dso;  /* index into dsos */
	uint64_t samples, period;
};

struct perfan__ahist {
	const perfan_dso **dsos;
	size_t ndsos, capdsos;
	struct perfan__htab dso_idx; /* handle -> index */
	struct perfan__htab *at;     /* per DSO: address -> index into c */
	size_t capat;
	struct perfan__hcount *c;
	size_t n, cap;
};

int perfan__ahist_add(struct perfan__ahist *h, const perfan_dso *dso,
		      uint64_t addr, uint64_t period);
/* Sort the counts by (dso, address); the tables are dropped. */
void perfan__ahist_sort(struct perfan__ahist *h);
void perfan__ahist_free(struct perfan__ahist *h);

/* ---- source text (annotate_source.c) ----------------------------------- */

struct perfan__srcfile;
struct perfan__sources {
	struct perfan__srcfile *files; /* each file asked for, once */
	const char *const *dirs;
	size_t ndirs;
};

/* Line LINE of FILE (1-based), trimmed of its newline, or NULL when the
 * file is not found or shorter. Strings live until perfan__sources_free. */
const char *perfan__source_line(struct perfan__sources *s, const char *file,
				uint32_t line);
void perfan__sources_free(struct perfan__sources *s);

/* ---- the analysis (annotate.c, annotate_func.c) ------------------------ */

struct perfan_annotate {
	perfan_stream *s;
	int own_stream;
	struct perfan_annotate_opts o;
	const struct perfan_event *event;
	struct perfan__ahist hist;
	struct perfan__sources src;
	struct perfan__arena arena;
	struct perfan_annotate_result r;
	int finished;
};

/* Fill F (name, dso, counts already set) from its code, lines and the
 * histogram counts C[0..N) inside it. Never fails for want of a file: F
 * gets a status instead. Returns 0 or PERFAN_ENOMEM. */
int perfan__annotate_func(struct perfan_annotate *a,
			  struct perfan_annotate_func *f, const perfan_dso *dso,
			  const struct perfan__hcount *c, size_t n);

#endif
