/* sources/stat/read.c: perfan_stat_read: perf stat output from a stream, held
 * whole for perfan_stat_parse (the decimal point is decided over all of
 * it) but only as much as perf stat ever prints: binary data, an endless
 * line or an endless stream stop early with an error. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sources/stat/internal.h"
#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

#define BLOCK ((size_t)1 << 16)
#define MAX_BYTES ((size_t)64 << 20)
#define MAX_LINE ((size_t)1 << 20)

int perfan_stat_read(perfan_stat **out, FILE *fp,
		     const struct perfan_stat_parse_opts *opts)
{
	struct perfan_stat_parse_opts o;
	if (!out || !fp)
		return perfan__err(PERFAN_EINVAL, "perfan_stat_read: no input");
	*out = NULL;
	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
	const char *name = o.name ? o.name : "<input>";
	size_t max = o.max_bytes ? o.max_bytes : MAX_BYTES;
	char *buf = NULL;
	size_t n = 0, cap = 0, line_start = 0;
	uint64_t lineno = 1;
	rc = 0;
	for (;;) {
		if (cap - n < BLOCK) {
			size_t ncap = cap ? 2 * cap : 4 * BLOCK;
			char *nb = realloc(buf, ncap + 1);
			if (!nb) {
				rc = perfan__nomem(name);
				break;
			}
			buf = nb;
			cap = ncap;
		}
		size_t want = cap - n < max + 1 - n ? cap - n : max + 1 - n;
		size_t got = fread(buf + n, 1, want, fp);
		if (!got) {
			if (ferror(fp))
				rc = perfan__err(PERFAN_EIO,
						 "%s: read error: %s", name,
						 strerror(errno));
			break;
		}
		const char *nul = memchr(buf + n, '\0', got);
		if (nul) {
			rc = perfan__err(PERFAN_EFORMAT,
					 "%s: offset %zu: a NUL byte: binary "
					 "data, not perf stat output",
					 name, (size_t)(nul - buf));
			break;
		}
		for (const char *p = buf + n, *e = buf + n + got;
		     (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++) {
			line_start = (size_t)(p - buf) + 1;
			lineno++;
		}
		n += got;
		if (n - line_start > MAX_LINE) {
			rc = perfan__err(PERFAN_EFORMAT,
					 "%s:%llu: a line longer than %zu "
					 "bytes: not perf stat output",
					 name, (unsigned long long)lineno,
					 MAX_LINE);
			break;
		}
		if (n > max) {
			rc = perfan__err(PERFAN_EFORMAT,
					 "%s: more than %zu bytes (at line "
					 "%llu): more than perf stat prints",
					 name, max, (unsigned long long)lineno);
			break;
		}
	}
	if (!rc)
		rc = perfan_stat_parse(out, buf ? buf : "", n, &o);
	free(buf);
	return rc;
}
