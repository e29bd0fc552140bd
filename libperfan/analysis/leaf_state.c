/* analysis/leaf_state.c: the state of an off-CPU leaf frame, read back
 * from its name by perfan_offcpu_state_name's table, so the names are
 * decided in one place (the off-CPU analysis). */
#include <string.h>

#include <perfan/offcpu.h>

#include "analysis/leaf_state.h"

int perfan__offcpu_leaf_state(const char *name)
{
	static const char pre[] = "[off-cpu: ";
	if (!name || strncmp(name, pre, sizeof(pre) - 1))
		return -1;
	const char *s = name + sizeof(pre) - 1;
	size_t n = strlen(s);
	if (!n || s[n - 1] != ']')
		return -1;
	for (uint32_t i = 0; i < PERFAN_OFFCPU_NR_STATES; i++) {
		const char *sn = perfan_offcpu_state_name(i);
		if (sn && strlen(sn) == n - 1 && !strncmp(s, sn, n - 1))
			return (int)i;
	}
	return -1;
}
