/* analysis/scaling_set.c: a scaling analysis's options set by name, as
 * perfan scaling's command line spells them. */
#include <string.h>

#include <perfan/scaling.h>

#include "util/optval.h"

/* What is wrong with VALUE for option NAME, "" when nothing is, NULL when
 * NAME is none. */
static const char *value_option(void *opts, const char *name, const char *value)
{
	struct perfan_scaling_opts *o = opts;
	double v;
	if (!strcmp(name, "sort")) {
		o->sort = perfan_scaling_sort_parse(value);
		return o->sort < 0 ? "is none of exponent, time, name" : "";
	}
	if (!strcmp(name, "limit"))
		return perfan__parse_count(value, &o->limit) ? "is not a count"
							     : "";
	if (!strcmp(name, "min-share")) {
		if (!strcmp(value, "0"))
			o->min_share = -1; /* none left out */
		else if (perfan__parse_positive(value, 100, &v))
			return "is not a percentage";
		else
			o->min_share = v / 100;
		return "";
	}
	if (!strcmp(name, "level")) {
		if (perfan__parse_positive(value, 1, &v) || v >= 1)
			return "is not a level between 0 and 1";
		o->level = v;
		return "";
	}
	return NULL;
}

int perfan_scaling_opts_set(struct perfan_scaling_opts *o, const char *name,
			    const char *value)
{
	return perfan__opts_set(__func__, o, name, value, NULL, value_option);
}
