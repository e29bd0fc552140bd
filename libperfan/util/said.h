/* util/said.h: what a message sink has been told already, so that each
 * warning reaches it once however many inputs or readings give it. */
#ifndef PERFAN_UTIL_SAID_H
#define PERFAN_UTIL_SAID_H

#include <stddef.h>

/* Whether the sink SINK (its callback's address, LEN bytes at it) with
 * PAYLOAD was told KEY before; if not, it is now. Process-wide and
 * thread-safe; when its table is full every key is new. */
int perfan__said(const void *sink, size_t len, const void *payload,
		 const char *key);

#endif
