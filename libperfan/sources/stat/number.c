/* sources/stat/number.c: perf stat's numbers in any locale: grouping by ',', '.',
 * '\'', ' ', U+00A0 or U+202F, and '.' or ',' as decimal point, decided
 * per input from the numbers that cannot be read any other way. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sources/stat/internal.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of a grouping mark at P (in N bytes), or 0. */
static size_t group_len(const char *p, size_t n)
{
	if (*p == '.' || *p == ',' || *p == '\'' || *p == ' ')
		return 1;
	if (n >= 2 && (unsigned char)p[0] == 0xc2 &&
	    (unsigned char)p[1] == 0xa0)
		return 2;
	if (n >= 3 && (unsigned char)p[0] == 0xe2 &&
	    (unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0xaf)
		return 3;
	return 0;
}

int perfan__stat_is_num(const char *p, size_t n)
{
	size_t i = 0;

	if (n && p[0] == '-')
		i++;
	if (i >= n || !is_digit(p[i]))
		return 0;
	while (i < n) {
		size_t g;
		if (is_digit(p[i])) {
			i++;
			continue;
		}
		g = group_len(p + i, n - i);
		/* A mark sits between digits. */
		if (!g || i + g >= n || !is_digit(p[i + g]))
			return 0;
		i += g;
	}
	return 1;
}

int perfan__stat_is_nonfinite(const char *p, size_t n)
{
	static const char *const words[] = {"nan", "inf", "infinity"};
	if (n && (p[0] == '-' || p[0] == '+'))
		p++, n--;
	for (size_t w = 0; w < sizeof(words) / sizeof(*words); w++) {
		size_t k = strlen(words[w]);
		if (n == k && !strncasecmp(p, words[w], k))
			return 1;
	}
	return 0;
}

void perfan__stat_vote(perfan_stat *s, const char *p, size_t n)
{
	size_t dots = 0, commas = 0, after = 0, i;
	char last = 0;

	if (!perfan__stat_is_num(p, n))
		return;
	for (i = 0; i < n; i++) {
		if (p[i] == '.' || p[i] == ',') {
			if (p[i] == '.')
				dots++;
			else
				commas++;
			last = p[i];
			after = 0;
		} else if (is_digit(p[i])) {
			after++;
		} else {
			/* Another grouping mark: the one after is decimal. */
			after = 0;
		}
	}
	if (!last)
		return;
	if (dots && commas) {
		/* The last of two kinds is the decimal point. */
		if (last == ',')
			s->votes_comma++;
		else
			s->votes_dot++;
	} else if (dots + commas >= 2) {
		/* Repeated: grouping, so the other is the decimal point. */
		if (dots)
			s->votes_comma++;
		else
			s->votes_dot++;
	} else if (after != 3) {
		if (last == ',')
			s->votes_comma++;
		else
			s->votes_dot++;
	} else if (last == '.') {
		/* "1.234": perf prints counts without decimals and times with
		 * 2, 6 or 9, so more likely grouping; weak evidence only. */
		s->weak_comma++;
	} else {
		s->weak_dot++;
	}
}

int perfan__stat_num(const char *p, size_t n, char dec, double *out)
{
	char buf[128];
	size_t i, o = 0;
	int seen_dec = 0;
	char *end;

	if (!perfan__stat_is_num(p, n))
		return -1;
	for (i = 0; i < n; i++) {
		if (p[i] == dec) {
			if (seen_dec++)
				return -1;
			buf[o++] = '.';
		} else if (is_digit(p[i]) || p[i] == '-') {
			buf[o++] = p[i];
		} else if (seen_dec) {
			return -1; /* grouping after the decimal point */
		}
		if (o >= sizeof(buf) - 1)
			return -1;
	}
	buf[o] = 0;
	*out = strtod(buf, &end);
	return *end ? -1 : 0;
}
