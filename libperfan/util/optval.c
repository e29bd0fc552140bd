/* util/optval.c: option values as a person types them. */
#include "util/optval.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

int perfan__parse_positive(const char *s, double max, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > max ||
	    strpbrk(s, "xXnN"))
		return -1;
	*out = v;
	return 0;
}

int perfan__parse_count(const char *s, size_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		return -1;
	*out = (size_t)v;
	return 0;
}

int perfan__opts_set(const char *fn, void *o, const char *name,
		     const char *value,
		     const struct perfan__opt_switch *switches,
		     const char *(*value_option)(void *o, const char *name,
						 const char *value))
{
	if (!o || !name)
		return perfan__err_null(fn, !o ? "the options" : "the name");
	for (; switches && switches->name; switches++)
		if (!strcmp(name, switches->name)) {
			*(int *)((char *)o + switches->offset) =
				switches->value;
			return 0;
		}
	const char *bad = value ? value_option(o, name, value) : NULL;
	if (!bad && !value)
		return perfan__err(PERFAN_EINVAL, "--%s: no value", name);
	if (!bad)
		return perfan__err(PERFAN_EINVAL, "%s: no option %s", fn, name);
	if (!strncmp(bad, "--", 2)) /* a message already set, whole */
		return PERFAN_EINVAL;
	if (*bad)
		return perfan__err(PERFAN_EINVAL, "--%s: '%s' %s", name, value,
				   bad);
	return 0;
}
