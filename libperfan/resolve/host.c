/* resolve/host.c: the one place that reads facts about the running machine
 * (uname, HOME, /proc/kallsyms, /sys/kernel/notes), each overridable by
 * struct perfan_host so that tests and users can pin them. */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "resolve/host.h"
#include "util/opts.h"

static void copy_fact(char *dst, size_t n, const char *pinned, const char *real)
{
	const char *s = pinned ? pinned : real ? real : "";
	size_t len = strlen(s);
	if (len >= n)
		len = n - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* "" means none. */
static const char *path_or_none(const char *s)
{
	return s && *s ? s : NULL;
}

void perfan__host_init(struct perfan__host *h, const struct perfan_host *opt)
{
	struct perfan_host o;
	/* the resolver's options were checked where they came in; a host
	 * struct of unknown fields reads as the fields we know */
	(void)PERFAN__OPTS_COPY(o, opt);
	memset(h, 0, sizeof(*h));

	struct utsname u;
	int have_uname = !uname(&u);
	copy_fact(h->osrelease, sizeof(h->osrelease), o.osrelease,
		  have_uname ? u.release : NULL);
	copy_fact(h->hostname, sizeof(h->hostname), o.hostname,
		  have_uname ? u.nodename : NULL);

	/* A pinned release is not the real kernel: its files are what the
	 * caller names, or none. */
	int real_kernel = !o.osrelease;
	h->kallsyms = o.kallsyms    ? path_or_none(o.kallsyms)
		      : real_kernel ? "/proc/kallsyms"
				    : NULL;
	h->kernel_notes = o.kernel_notes ? path_or_none(o.kernel_notes)
			  : real_kernel  ? "/sys/kernel/notes"
					 : NULL;
	h->own_vdso = real_kernel;
	h->home = path_or_none(o.home ? o.home : getenv("HOME"));
}
