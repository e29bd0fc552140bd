/* load/set.c: the options every command that reads profiles shares, set
 * by name as perfan's command line spells them. */
#include <stdlib.h>
#include <string.h>

#include <perfan/load.h>
#include <perfan/python.h>
#include <perfan/script.h>

#include "util/error.h"
#include "util/optval.h"

/* The switch NAME: 0 after setting it, -1 when NAME is none. */
static int flag_option(struct perfan_load_opts *o, const char *name)
{
	if (!strcmp(name, "samples"))
		o->count_samples = 1;
	else if (!strcmp(name, "period"))
		o->count_samples = 0;
	else if (!strcmp(name, "inline"))
		o->inline_frames = 1;
	else if (!strcmp(name, "lineno"))
		o->lineno = 1;
	else if (!strcmp(name, "off-cpu"))
		o->time_view = PERFAN_VIEW_OFFCPU;
	else if (!strcmp(name, "wall"))
		o->time_view = PERFAN_VIEW_WALL;
	else if (!strcmp(name, "kernel"))
		o->kernel = 1;
	else if (!strcmp(name, "jit"))
		o->jit = 1;
	else if (!strcmp(name, "addrs"))
		o->addrs = 1;
	else
		return -1;
	return 0;
}

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

/* --threads, --python and --compat: what is wrong with VALUE, "" when nothing is,
 * NULL when NAME is neither. */
static const char *value_option(struct perfan_load_opts *o, const char *name,
				const char *value)
{
	if (!strcmp(name, "threads")) {
		char *end;
		long n = strtol(value, &end, 10);
		if (end == value || *end || n < 1 || n > 1024)
			return "is not a number of threads (1 to 1024)";
		o->threads = (int)n;
		return "";
	}
	if (!strcmp(name, "python")) {
		o->python_view = perfan_python_view_parse(value);
		return o->python_view < 0 ? "is none of native, mixed, python"
					  : "";
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

static const char *const filters[] = {"pid", "tid",  "comm",
				      "cpu", "time", "event"};

int perfan_load_opts_set(struct perfan_load_opts *o, const char *name,
			 const char *value)
{
	if (!o || !name)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_load_opts_set: NULL argument");
	if (!flag_option(o, name))
		return 0;
	if (!value)
		return perfan__opt_set_result("perfan_load_opts_set", name,
					      NULL, NULL);
	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++)
		if (!strcmp(name, filters[i]))
			return perfan_filter_set(&o->filter, name, value);
	const char **path = path_option(o, name);
	if (path) {
		*path = value;
		return 0;
	}
	return perfan__opt_set_result("perfan_load_opts_set", name, value,
				      value_option(o, name, value));
}
