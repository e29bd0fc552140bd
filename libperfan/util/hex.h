/* util/hex.h: the value of a hex digit, for the readers of addresses and
 * escapes (perf maps, bpftrace stacks, JSON's \u); bytes as hex, for
 * build-ids. */
#ifndef PERFAN_UTIL_HEX_H
#define PERFAN_UTIL_HEX_H

#include <stddef.h>

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

/* BYTES[0..N) as lowercase hex, NUL-terminated, into BUF (2 N + 1 bytes).
 * Returns BUF. */
static inline char *perfan__hex_bytes(const unsigned char *bytes, size_t n,
				      char *buf)
{
	static const char digit[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		buf[2 * i] = digit[bytes[i] >> 4];
		buf[2 * i + 1] = digit[bytes[i] & 15];
	}
	buf[2 * n] = '\0';
	return buf;
}

#endif
