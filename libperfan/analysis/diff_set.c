/* analysis/diff_set.c: a comparison's options set by name, as perfan
 * diff's command line spells them. */
#include <string.h>

#include <perfan/diff.h>

#include "util/optval.h"

/* The option NAME with VALUE: what is wrong with VALUE, "" when nothing
 * is, NULL when NAME is none of these. */
static const char *value_option(void *opts, const char *name, const char *value)
{
	struct perfan_diff_opts *d = opts;
	double v;
	if (!strcmp(name, "sort")) {
		d->sort = perfan_diff_sort_parse(value);
		return d->sort < 0
			       ? "is none of self, total, relative, before, "
				 "after, name"
			       : "";
	}
	if (!strcmp(name, "limit")) {
		return perfan__parse_count(value, &d->limit) ? "is not a count"
							     : "";
	}
	if (!strcmp(name, "min-share")) {
		if (perfan__parse_positive(value, 100, &v))
			return "is not a percentage above 0";
		d->min_share = v / 100;
		return "";
	}
	if (!strcmp(name, "alpha")) {
		if (perfan__parse_positive(value, 1, &v) || v >= 1)
			return "is not a level between 0 and 1";
		d->alpha = v;
		return "";
	}
	return NULL;
}

int perfan_diff_opts_set(struct perfan_diff_opts *d, const char *name,
			 const char *value)
{
	static const struct perfan__opt_switch switches[] = {
		{"absolute", offsetof(struct perfan_diff_opts, absolute), 1},
		{"all", offsetof(struct perfan_diff_opts, all), 1},
		{"shares", offsetof(struct perfan_diff_opts, shares_only), 1},
		{NULL, 0, 0},
	};
	return perfan__opts_set(__func__, d, name, value, switches,
				value_option);
}
