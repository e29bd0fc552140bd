/* resolve/host.h: the running machine's facts as one resolve sees them,
 * the real ones unless the caller pinned them (struct perfan_host). */
#ifndef PERFAN_SYMBOLS_HOST_H
#define PERFAN_SYMBOLS_HOST_H

#include <perfan/host.h>

struct perfan__host {
	char osrelease[65];       /* "" when unknown */
	char hostname[65];        /* "" when unknown */
	const char *kallsyms;     /* the running kernel's symbols, or NULL */
	const char *kernel_notes; /* its ELF notes (build-id), or NULL */
	const char *home;         /* for ~/.debug, or NULL */
	int own_vdso;             /* our own vDSO is the running kernel's */
};

/* H from OPT (NULL: every fact real). Never fails: a fact that cannot be
 * read is empty or NULL. */
void perfan__host_init(struct perfan__host *h, const struct perfan_host *opt);

#endif
