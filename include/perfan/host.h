/* perfan/host.h: the facts about the machine perfan runs on that decide
 * whether a recording's files and kernel can be trusted here, given as
 * options so that a test or a user can pin them. */
#ifndef PERFAN_HOST_H
#define PERFAN_HOST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Each field NULL means the real machine's fact. An empty string means
 * "none": no kernel symbols, no build-id note, no home directory.
 *
 * A recording made on another kernel or host is "foreign": files found
 * for it without a recorded build-id may not be the ones profiled (a
 * warning says so), and the running kernel's symbols are not used.
 *
 * Pinning OSRELEASE says the running kernel is not the real one, so the
 * real /proc/kallsyms, /sys/kernel/notes and vDSO no longer describe it:
 * they are then used only where KALLSYMS and KERNEL_NOTES name them, and
 * the vDSO not at all. */
struct perfan_host {
	size_t sz;
	const char *osrelease; /* running kernel release; NULL: uname(2) */
	const char *hostname;  /* NULL: uname(2)'s nodename */
	/* The running kernel's symbols, as /proc/kallsyms (used when the
	 * recording's kernel release is the running one). */
	const char *kallsyms;
	/* The running kernel's ELF notes, as /sys/kernel/notes, for its
	 * build-id. */
	const char *kernel_notes;
	/* The directory whose .debug is perf's build-id cache; NULL: $HOME. */
	const char *home;
};

#ifdef __cplusplus
}
#endif
#endif
