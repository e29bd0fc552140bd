/* render/sink.h: what every perfan_X_write whose options are only a
 * format does around the format's own writer: the options checked, the
 * result and stream present, the format chosen, the output flushed. */
#ifndef PERFAN_RENDER_SINK_H
#define PERFAN_RENDER_SINK_H

#include <stddef.h>
#include <stdio.h>

/* One format's writer of a result (the result's own type behind void). */
typedef void perfan__sink_fn(const void *result, FILE *fp);

/* A result's writers, by its enum perfan_X_format. */
struct perfan__sink {
	const char *func; /* the public function, for messages */
	perfan__sink_fn *const *formats;
	size_t nr_formats;
};

/* The body of perfan_X_write(result, fp, opts) for an options struct
 * { size_t sz; int format; }: 0, PERFAN_EINVAL (options this version does
 * not know, a NULL RESULT or FP, a format with no writer) or PERFAN_EIO. */
int perfan__sink_write(const struct perfan__sink *s, const void *result,
		       FILE *fp, const void *opts);

/* 0 when FP took all that was written to it, else PERFAN_EIO naming FUNC. */
int perfan__sink_done(const char *func, FILE *fp);

#endif
