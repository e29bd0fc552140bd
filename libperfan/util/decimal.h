/* util/decimal.h: a JSON number's text as an exact integer in a smaller
 * unit (Kineto's microseconds with their ns fraction as ns), without the
 * rounding of a double. */
#ifndef PERFAN_UTIL_DECIMAL_H
#define PERFAN_UTIL_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

/* The number written in the N bytes at S (JSON's grammar: sign, digits,
 * fraction, exponent) times 10^SHIFT, rounded half away from zero, in
 * *OUT. Returns 0, or -1 when the text is no number or the value does not
 * fit an int64_t. */
int perfan__decimal_scaled(const char *s, size_t n, int shift, int64_t *out);

/* The common case at the start of the N bytes at S: digits, perhaps a
 * '.' and at most SHIFT digits, 19 digits at most once scaled by 10^SHIFT
 * (SHIFT >= 0), up to the first byte that is none of those. Its length,
 * with the exact value in *OUT; 0 when the start is not such a number
 * (perfan__decimal_scaled decides then). Leading zeros are not judged. */
size_t perfan__decimal_plain(const char *s, size_t n, int shift, int64_t *out);

#endif
