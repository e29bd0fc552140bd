/* analysis/diff_set.c: a comparison's options set by name, as perfan
 * diff's command line spells them. */
#include <string.h>

#include <perfan/diff.h>

#include "util/error.h"
#include "util/optval.h"

/* The option NAME with VALUE: what is wrong with VALUE, "" when nothing
 * is, NULL when NAME is none of these. */
static const char *value_option(struct perfan_diff_opts *d, const char *name,
				const char *value)
{
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
	if (!d || !name)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_diff_opts_set: NULL argument");
	int *flag = !strcmp(name, "absolute") ? &d->absolute
		    : !strcmp(name, "all")    ? &d->all
		    : !strcmp(name, "shares") ? &d->shares_only
					      : NULL;
	if (flag) {
		*flag = 1;
		return 0;
	}
	return perfan__opt_set_result("perfan_diff_opts_set", name, value,
				      value ? value_option(d, name, value)
					    : NULL);
}
