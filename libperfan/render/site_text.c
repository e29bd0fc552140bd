/* render/site_text.c: a blocking call site as one line of text: the
 * user's function, what it waited in and why (perfan/waits.h), or, for a
 * wait without a class, the wait in the function that called it. */
#include "render/site_text.h"

#include <perfan/text.h>
#include <perfan/waits.h>

const char *perfan__site_class_words(uint32_t wait)
{
	switch (wait) {
	case PERFAN_WAIT_GIL: return "GIL wait";
	case PERFAN_WAIT_LOCK: return "lock wait";
	case PERFAN_WAIT_IDLE: return "idle wait";
	case PERFAN_WAIT_IO: return "I/O wait";
	case PERFAN_WAIT_DISK: return "disk wait";
	default: return perfan_wait_class_name(wait);
	}
}

void perfan__site_text(FILE *fp, const char *wait, const char *caller,
		       uint32_t wait_class, const char *site,
		       const char *mechanism)
{
	const char *cls = perfan__site_class_words(wait_class);
	if (!cls) {
		perfan_text_escape(fp, wait ? wait : "?");
		if (caller) {
			fputs(" in ", fp);
			perfan_text_escape(fp, caller);
		}
		return;
	}
	if (site) {
		perfan_text_escape(fp, site);
		fputs(" <- ", fp);
	}
	perfan_text_escape(fp, mechanism ? mechanism : wait ? wait : "?");
	fprintf(fp, " (%s)", cls);
}
