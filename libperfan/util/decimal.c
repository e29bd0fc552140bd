/* util/decimal.c: a decimal number's text times a power of ten, exactly. */
#include "util/decimal.h"

#define ROOM 40 /* significant digits kept: twice what an int64_t holds */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The exponent's text from *I ("e-3"'s "-3"): its value, bounded to
 * +-100000; *OK 0 when no digit follows. */
static long exponent(const char *s, size_t n, size_t *i, int *ok)
{
	int neg = 0;
	long e = 0;
	if (*i < n && (s[*i] == '+' || s[*i] == '-'))
		neg = s[(*i)++] == '-';
	if (*i >= n || !is_digit(s[*i]))
		*ok = 0;
	for (; *i < n && is_digit(s[*i]); (*i)++)
		if (e < 100000)
			e = e * 10 + (s[*i] - '0');
	return neg ? -e : e;
}

/* D's first ND digits times 10^POW (POW < 0: the digits past the point
 * dropped, rounding on the first of them), into *OUT. */
static int value(const char *d, long nd, long pow, int neg, int64_t *out)
{
	uint64_t v = 0;
	long keep = pow < 0 ? nd + pow : nd;
	for (long k = 0; k < keep; k++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(d[k] - '0');
	}
	if (keep >= 0 && keep < nd && d[keep] >= '5')
		v++;
	for (long k = 0; pow > 0 && k < pow && v; k++) {
		if (v > UINT64_MAX / 10)
			return -1;
		v *= 10;
	}
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

size_t perfan__decimal_plain(const char *s, size_t n, int shift, int64_t *out)
{
	size_t i = n && s[0] == '-';
	uint64_t v = 0;
	int digits = 0, frac = -1;
	for (; i < n; i++) {
		char c = s[i];
		if (is_digit(c)) {
			if (++digits > 19)
				return 0;
			v = v * 10 + (uint64_t)(c - '0');
			frac += frac >= 0;
		} else if (c == '.' && frac < 0 && digits) {
			frac = 0;
		} else {
			break;
		}
	}
	int scale = shift - (frac > 0 ? frac : 0);
	if (!digits || !frac || scale < 0 || digits + scale > 19)
		return 0;
	while (scale--)
		v *= 10;
	if (v > (uint64_t)INT64_MAX)
		return 0;
	*out = s[0] == '-' ? -(int64_t)v : (int64_t)v;
	return i;
}

int perfan__decimal_scaled(const char *s, size_t n, int shift, int64_t *out)
{
	int64_t v;
	if (shift >= 0 && n && perfan__decimal_plain(s, n, shift, &v) == n) {
		*out = v;
		return 0;
	}
	char d[ROOM];         /* the significant digits, the first not 0 */
	long nd = 0, pow = 0; /* the value: d times 10^pow */
	size_t i = 0;
	int neg = 0, ok = 1, frac = 0;
	if (i < n && s[i] == '-')
		neg = 1, i++;
	if (i >= n || !is_digit(s[i]))
		return -1;
	for (;; i++) {
		if (i < n && s[i] == '.' && !frac) {
			frac = 1;
			if (i + 1 >= n || !is_digit(s[i + 1]))
				return -1;
			continue;
		}
		if (i >= n || !is_digit(s[i]))
			break;
		char c = s[i];
		if (!nd && c == '0') { /* a leading zero */
			if (frac)
				pow--;
		} else if (nd < ROOM) {
			d[nd++] = c;
			if (frac)
				pow--;
		} else if (!frac) {
			pow++; /* an integer digit past the room */
		} /* else a fraction digit past the room: far below the unit */
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		pow += exponent(s, n, &i, &ok);
	}
	if (!ok || i != n)
		return -1;
	return value(d, nd, pow + shift, neg, out);
}
