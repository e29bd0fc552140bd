/* load/set.c: the options every command that reads profiles shares, set
 * by name as perfan's command line spells them. */
#include <stdlib.h>
#include <string.h>

#include <perfan/load.h>
#include <perfan/python.h>
#include <perfan/script.h>

#include "util/optval.h"

#define AT(field) offsetof(struct perfan_load_opts, field)

/* The directory or file option NAME: its field in O, or NULL. */
static const char **path_option(struct perfan_load_opts *o, const char *name)
{
	return !strcmp(name, "symfs")          ? &o->symfs
	       : !strcmp(name, "debug-dir")    ? &o->debug_dir
	       : !strcmp(name, "buildid-dir")  ? &o->buildid_dir
	       : !strcmp(name, "kallsyms")     ? &o->kallsyms
	       : !strcmp(name, "perf-map-dir") ? &o->perf_map_dir
	       : !strcmp(name, "jitdump-dir")  ? &o->jitdump_dir
					       : NULL;
}

static const char *const filters[] = {"pid", "tid",  "comm",
				      "cpu", "time", "event"};

/* The option NAME with VALUE: what is wrong with VALUE, "" when nothing
 * is, NULL when NAME is none of these. */
static const char *value_option(void *opts, const char *name, const char *value)
{
	struct perfan_load_opts *o = opts;
	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++)
		if (!strcmp(name, filters[i])) /* its message is the error */
			return perfan_filter_set(&o->filter, name, value)
				       ? perfan_error_last()
				       : "";
	const char **path = path_option(o, name);
	if (path) {
		*path = value;
		return "";
	}
	if (!strcmp(name, "threads")) {
		char *end;
		long n = strtol(value, &end, 10);
		if (end == value || *end || n < 1 || n > 1024)
			return "is not a number of threads (1 to 1024)";
		o->threads = (int)n;
		return "";
	}
	if (!strcmp(name, "python")) {
		int view = perfan_python_view_parse(value);
		if (view < 0)
			return "is none of native, mixed, python";
		o->python_view = view;
		return "";
	}
	if (!strcmp(name, "compat")) {
		int fg = !strcmp(value, "flamegraph");
		if (!fg && strcmp(value, "none"))
			return "is neither flamegraph nor none";
		o->compat = fg ? PERFAN_SCRIPT_COMPAT_FLAMEGRAPH
			       : PERFAN_SCRIPT_COMPAT_NONE;
		return "";
	}
	return NULL;
}

int perfan_load_opts_set(struct perfan_load_opts *o, const char *name,
			 const char *value)
{
	static const struct perfan__opt_switch switches[] = {
		{"samples", AT(count_samples), 1},
		{"period", AT(count_samples), 0},
		{"inline", AT(inline_frames), 1},
		{"lineno", AT(lineno), 1},
		{"off-cpu", AT(time_view), PERFAN_VIEW_OFFCPU},
		{"wall", AT(time_view), PERFAN_VIEW_WALL},
		{"kernel-detail", AT(kernel_detail), 1},
		{"kernel", AT(kernel), 1},
		{"jit", AT(jit), 1},
		{"addrs", AT(addrs), 1},
		{NULL, 0, 0},
	};
	return perfan__opts_set(__func__, o, name, value, switches,
				value_option);
}
