/* render/sink.c: the frame of a format writer (render/sink.h). */
#include "render/sink.h"

#include "util/error.h"
#include "util/opts.h"

/* The options of every writer that render/sink.h serves: their common
 * layout. */
struct format_opts {
	size_t sz;
	int format;
};

int perfan__sink_write(const struct perfan__sink *s, const void *result,
		       FILE *fp, const void *opts)
{
	struct format_opts o;
	int rc = perfan__opts_copy(&o, sizeof(o), opts,
				   opts ? *(const size_t *)opts : 0, s->func);
	if (rc)
		return rc;
	if (!result || !fp)
		return perfan__err_null(s->func, result ? "fp" : "result");
	if (o.format < 0 || (size_t)o.format >= s->nr_formats ||
	    !s->formats[o.format])
		return perfan__err(PERFAN_EINVAL, "%s: no format %d", s->func,
				   o.format);
	s->formats[o.format](result, fp);
	return perfan__sink_done(s->func, fp);
}

int perfan__sink_done(const char *func, FILE *fp)
{
	if (fflush(fp) || ferror(fp))
		return perfan__err(PERFAN_EIO, "%s: writing failed", func);
	return 0;
}
