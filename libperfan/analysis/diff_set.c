/* analysis/diff_set.c: a comparison's options set by name, as perfan
 * diff's command line spells them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/diff.h>

#include "util/error.h"

/* A plain decimal of (LO, HI] (LO exclusive, HI inclusive when INCL): 0
 * or -1. */
static int number(const char *s, double lo, double hi, int incl, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > lo) ||
	    !(incl ? v <= hi : v < hi))
		return -1;
	*out = v;
	return 0;
}

/* The option NAME with VALUE: what is wrong with VALUE, "" when nothing
 * is, NULL when NAME is none of these. */
static const char *value_option(struct perfan_diff_opts *d, const char *name,
				const char *value)
{
	if (!strcmp(name, "sort")) {
		d->sort = perfan_diff_sort_parse(value);
		return d->sort < 0
			       ? "is none of self, total, relative, before, "
				 "after, name"
			       : "";
	}
	if (!strcmp(name, "limit")) {
		char *end;
		errno = 0;
		long long v = strtoll(value, &end, 10);
		if (errno || end == value || *end || v < 0)
			return "is not a count";
		d->limit = (size_t)v;
		return "";
	}
	if (!strcmp(name, "min-share")) {
		double v;
		if (number(value, 0, 100, 1, &v))
			return "is not a percentage above 0";
		d->min_share = v / 100;
		return "";
	}
	if (!strcmp(name, "alpha"))
		return number(value, 0, 1, 0, &d->alpha)
			       ? "is not a level between 0 and 1"
			       : "";
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
	const char *bad = value ? value_option(d, name, value) : NULL;
	if (!bad)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_diff_opts_set: no option %s", name);
	if (*bad)
		return perfan__err(PERFAN_EINVAL, "--%s: '%s' %s", name, value,
				   bad);
	return 0;
}
