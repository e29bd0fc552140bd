/* analysis/report_set.c: a report's options set by name, as perf report's
 * command line spells them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/report.h>

#include "util/error.h"
#include "util/optval.h"

/* What is wrong with VALUE for option NAME, "" when nothing is, NULL when
 * NAME is none of these. */
static const char *value_option(struct perfan_report_opts *o, const char *name,
				const char *value)
{
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
	if (!o || !name)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_report_opts_set: NULL argument");
	int *flag = !strcmp(name, "no-children") || !strcmp(name, "children")
			    ? &o->no_children
		    : !strcmp(name, "no-speedup") ? &o->no_speedup
						  : NULL;
	if (flag) {
		*flag = strncmp(name, "no-", 3) == 0;
		return 0;
	}
	return perfan__opt_set_result("perfan_report_opts_set", name, value,
				      value ? value_option(o, name, value)
					    : NULL);
}
