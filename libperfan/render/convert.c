/* render/convert.c: a loaded profile in the format asked for (pprof,
 * speedscope, folded), by name or by the output's file name. */
#include <string.h>

#include <perfan/convert.h>
#include <perfan/folded.h>
#include <perfan/pprof.h>
#include <perfan/speedscope.h>

#include "util/error.h"
#include "util/opts.h"

int perfan_convert_format_parse(const char *name)
{
	static const char *const names[] = {"pprof", "folded", "speedscope"};
	for (int i = 0; name && i < 3; i++)
		if (!strcmp(name, names[i]))
			return PERFAN_CONVERT_PPROF + i;
	return -1;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

int perfan_convert_format_of_path(const char *path)
{
	if (!path)
		return PERFAN_CONVERT_NONE;
	if (ends_with(path, ".pb.gz") || ends_with(path, ".pprof"))
		return PERFAN_CONVERT_PPROF;
	if (ends_with(path, ".folded"))
		return PERFAN_CONVERT_FOLDED;
	if (ends_with(path, ".speedscope.json"))
		return PERFAN_CONVERT_SPEEDSCOPE;
	return PERFAN_CONVERT_NONE;
}

int perfan_convert_write(const perfan_load *l, FILE *fp,
			 const struct perfan_convert_write_opts *opts)
{
	struct perfan_convert_write_opts o;
	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
	if (!l || !fp)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_convert_write: NULL argument");
	const perfan_profile *p = perfan_load_profile(l);
	if (o.format == PERFAN_CONVERT_FOLDED) {
		struct perfan_folded_write_opts fo =
			PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
		fo.column = o.column;
		return perfan_folded_write(p, fp, &fo);
	}
	if (o.format == PERFAN_CONVERT_SPEEDSCOPE) {
		struct perfan_speedscope_write_opts so =
			PERFAN_OPTS_INIT(struct perfan_speedscope_write_opts);
		so.column = o.column;
		/* the title: the input's file name */
		const char *name = perfan_load_info(l)->name;
		const char *slash = name ? strrchr(name, '/') : NULL;
		so.name = slash && slash[1] ? slash + 1 : name;
		so.names = perfan_load_thread_names(l);
		/* a trace's timelines, every thread and stream */
		if (perfan_load_trace(l))
			return perfan_speedscope_trace_write(
				perfan_load_trace(l), fp, &so);
		return perfan_speedscope_write(p, fp, &so);
	}
	if (o.format != PERFAN_CONVERT_PPROF)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_convert_write: no format %d",
				   o.format);
	struct perfan_pprof_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_pprof_write_opts);
	wo.default_column = perfan_load_nr_columns(l) ? o.column + 1 : 0;
	/* the recording's facts from the reader that read it: a pipe is read
	 * once */
	perfan_pprof_opts_from_perfdata(&wo, perfan_load_reader(l));
	wo.names = perfan_load_thread_names(l);
	return perfan_pprof_write(p, fp, &wo);
}
