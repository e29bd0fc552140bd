/* sources/input_all.c: a whole input's text in memory (sources/input_all.h). */
#include "sources/input_all.h"

#include <stdlib.h>

#include "sources/text_in.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"

#define CHUNK (256 * 1024)

int perfan__input_all(perfan_source *s, uint64_t max, char **out, size_t *len)
{
	struct perfan__text_in *t;
	char *buf = NULL;
	size_t n = 0, cap = 0, got, want;
	*out = NULL;
	*len = 0;
	int rc = perfan__text_open(s, max, &t);
	while (!rc) {
		if (perfan__grow((void **)&buf, &cap, n + CHUNK + 1, 1)) {
			rc = perfan__nomem(s->name);
			break;
		}
		want = cap - n - 1;
		if ((rc = perfan__text_read(t, buf + n, want, &got)))
			break;
		n += got;
		if (got < want)
			break; /* the end */
	}
	perfan__text_close(t);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}
