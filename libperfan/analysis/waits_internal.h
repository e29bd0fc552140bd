/* analysis/waits_internal.h: the wait classifier with a cache of what each
 * stream frame says, for the engines that classify every switch-out. */
#ifndef PERFAN_ANALYSIS_WAITS_INTERNAL_H
#define PERFAN_ANALYSIS_WAITS_INTERNAL_H

#include <stdint.h>

#include <perfan/waits.h>

/* Per stream frame id, what the frame says (0: not computed yet). */
struct perfan__waits {
	uint8_t *traits;
	size_t n;
};

/* perfan_wait_classify through cache C (NULL: none). */
uint32_t perfan__wait_classify(struct perfan__waits *c,
			       const struct perfan_stream_frame *f, size_t n,
			       uint32_t state, size_t *site);
void perfan__waits_free(struct perfan__waits *c);

/* Whether a frame of KIND named NAME in MODULE is the user's own code: a
 * Python function outside the standard library's waiting machinery
 * (threading, queue, selectors, asyncio, ...), or native code outside the
 * kernel and the runtime (perfan_python_is_runtime). */
int perfan__wait_user_code(uint32_t kind, const char *name, const char *module);

#endif
