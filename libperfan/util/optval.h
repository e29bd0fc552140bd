/* util/optval.h: option values as a person types them (a positive
 * decimal, a count), and what a perfan_X_opts_set returns. */
#ifndef PERFAN_UTIL_OPTVAL_H
#define PERFAN_UTIL_OPTVAL_H

#include <stddef.h>

/* A plain decimal in (0, MAX] (no hex, inf or nan) into *OUT: 0 or -1. */
int perfan__parse_positive(const char *s, double max, double *out);

/* A count, a plain decimal 0 or more, into *OUT: 0 or -1. */
int perfan__parse_count(const char *s, size_t *out);

/* A switch of a perfan_X_opts_set: option NAME sets the int at OFFSET
 * in the options to VALUE. */
struct perfan__opt_switch {
	const char *name;
	size_t offset;
	int value;
};

/* The body of every perfan_X_opts_set (FN its name): O's switch NAME
 * from SWITCHES (ended by a NULL name), or the option NAME with VALUE
 * through VALUE_OPTION, which returns what is wrong with VALUE ("" when
 * nothing is, NULL when it has no option NAME, or a whole message that
 * starts with "--" and is perfan_error_last already). Returns 0, or
 * PERFAN_EINVAL: "--NAME: 'VALUE' what", "--NAME: no value", or FN's "no
 * option NAME". */
int perfan__opts_set(const char *fn, void *o, const char *name,
		     const char *value,
		     const struct perfan__opt_switch *switches,
		     const char *(*value_option)(void *o, const char *name,
						 const char *value));

#endif
