/* util/hex.h: the value of a hex digit, for the readers of addresses and
 * escapes (perf maps, bpftrace stacks, JSON's \u). */
#ifndef PERFAN_UTIL_HEX_H
#define PERFAN_UTIL_HEX_H

/* 0 to 15 for a hex digit C (either case), -1 for anything else. */
static inline int perfan__hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
