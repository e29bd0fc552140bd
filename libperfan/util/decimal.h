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

#endif
