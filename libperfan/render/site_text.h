/* render/site_text.h: a blocking call site as one line of text, for the
 * thread table and the triage. */
#ifndef PERFAN_RENDER_SITE_TEXT_H
#define PERFAN_RENDER_SITE_TEXT_H

#include <stdint.h>
#include <stdio.h>

/* "SITE <- MECHANISM (CLASS wait)" for a wait of class WAIT_CLASS (enum
 * perfan_wait_class), "MECHANISM (CLASS wait)" without a SITE; "WAIT in
 * CALLER" (or WAIT) for a wait without a class. */
void perfan__site_text(FILE *fp, const char *wait, const char *caller,
		       uint32_t wait_class, const char *site,
		       const char *mechanism);

/* How class WAIT reads after a site: "GIL wait", "idle wait", "sleep";
 * NULL for none. */
const char *perfan__site_class_words(uint32_t wait);

#endif
