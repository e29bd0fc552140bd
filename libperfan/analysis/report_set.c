/* analysis/report_set.c: a report's options set by name, as perf report's
 * command line spells them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/report.h>

#include "util/optval.h"

/* What is wrong with VALUE for option NAME, "" when nothing is, NULL when
 * NAME is none of these. */
static const char *value_option(void *opts, const char *name, const char *value)
{
	struct perfan_report_opts *o = opts;
	if (!strcmp(name, "sort")) {
		o->sort = value; /* perfan_report_check says if it is bad */
		return "";
	}
	if (!strcmp(name, "dso") || !strcmp(name, "dsos")) {
		o->dsos = value;
		return "";
	}
	if (!strcmp(name, "limit"))
		return perfan__parse_count(value, &o->limit) ? "is not a count"
							     : "";
	if (!strcmp(name, "percent-limit")) {
		char *end;
		errno = 0;
		double v = strtod(value, &end);
		if (errno || end == value || *end || !(v >= 0) || v > 100)
			return "is not a percentage";
		o->percent_limit = v;
		return "";
	}
	if (!strcmp(name, "call-graph")) {
		static const char *const modes[] = {"none", "caller", "callee"};
		for (int i = 0; i < 3; i++)
			if (!strcmp(value, modes[i])) {
				o->call_graph = i;
				return "";
			}
		return "is none of caller, callee, none";
	}
	return NULL;
}

int perfan_report_opts_set(struct perfan_report_opts *o, const char *name,
			   const char *value)
{
	static const struct perfan__opt_switch switches[] = {
		{"children", offsetof(struct perfan_report_opts, no_children),
		 0},
		{"no-children",
		 offsetof(struct perfan_report_opts, no_children), 1},
		{"no-speedup", offsetof(struct perfan_report_opts, no_speedup),
		 1},
		{NULL, 0, 0},
	};
	return perfan__opts_set(__func__, o, name, value, switches,
				value_option);
}
