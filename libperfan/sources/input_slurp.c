/* sources/input_slurp.c: a whole input in memory, for the formats read as
 * one text (a JSON document). */
#include "sources/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

int perfan__input_slurp(perfan_source *s, char **out, size_t *len)
{
	FILE *fp = perfan__input_text(s);
	char *buf = NULL;
	size_t n = 0, cap = 0;
	if (!fp)
		return PERFAN_EIO; /* named by perfan__input_text */
	for (;;) {
		if (perfan__grow((void **)&buf, &cap, n + 65536, 1)) {
			free(buf);
			return perfan__nomem(NULL);
		}
		size_t want = cap - n, r = fread(buf + n, 1, want, fp);
		n += r;
		if (r < want)
			break; /* the end, or an error (below) */
	}
	if (ferror(fp)) {
		int e = errno;
		free(buf);
		return perfan__err(PERFAN_EIO, "%s: %s", s->name, strerror(e));
	}
	*out = buf;
	*len = n;
	return 0;
}
