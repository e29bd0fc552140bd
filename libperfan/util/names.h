/* util/names.h: finding a name in a table of names, for the parsers of
 * option values (sort keys, views, palettes) and name lists. */
#ifndef PERFAN_UTIL_NAMES_H
#define PERFAN_UTIL_NAMES_H

#include <stddef.h>
#include <string.h>

/* The index of NAME among NAMES[0..N) (NULL entries are skipped), or -1,
 * also for a NULL NAME. */
static inline int perfan__name_index(const char *const *names, size_t n,
				     const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (names[i] && !strcmp(name, names[i]))
			return (int)i;
	return -1;
}

#endif
