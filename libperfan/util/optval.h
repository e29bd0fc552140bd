/* util/optval.h: option values as a person types them (a positive
 * decimal, a count), and what a perfan_X_opts_set returns. */
#ifndef PERFAN_UTIL_OPTVAL_H
#define PERFAN_UTIL_OPTVAL_H

#include <stddef.h>

/* A plain decimal in (0, MAX] (no hex, inf or nan) into *OUT: 0 or -1. */
int perfan__parse_positive(const char *s, double max, double *out);

/* A count, a plain decimal 0 or more, into *OUT: 0 or -1. */
int perfan__parse_count(const char *s, size_t *out);

/* The return of FN (a perfan_X_opts_set) for option NAME with VALUE,
 * BAD what is wrong with the value: NULL, FN has no option NAME; "",
 * nothing (0); else PERFAN_EINVAL, "--NAME: 'VALUE' BAD". */
int perfan__opt_set_result(const char *fn, const char *name, const char *value,
			   const char *bad);

#endif
