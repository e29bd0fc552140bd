/* sources/stat/text_tok.c: what the readers of perf stat's text layouts (text.c,
 * text_metrics.c) share: splitting a line into blank-separated tokens and
 * telling the -A / --per-* aggregation prefixes. */
#include <string.h>

#include "sources/stat/internal.h"

int perfan__stat_is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Split on blanks. A single space followed by exactly three digits inside
 * a number is a grouping mark (fr_FR and others), not a column break. */
size_t perfan__stat_tokenize(const char *p, size_t n, struct perfan__span *t)
{
	size_t i = 0, nt = 0;

	while (i < n && nt < PERFAN__STAT_MAXTOK) {
		size_t b;
		while (i < n && perfan__stat_is_space(p[i]))
			i++;
		if (i >= n)
			break;
		b = i;
		for (;;) {
			while (i < n && !perfan__stat_is_space(p[i]))
				i++;
			if (i + 4 <= n && p[i] == ' ' && is_digit(p[i - 1]) &&
			    is_digit(p[i + 1]) && is_digit(p[i + 2]) &&
			    is_digit(p[i + 3]) &&
			    (i + 4 == n || !is_digit(p[i + 4])) &&
			    perfan__stat_is_num(p + b, i - b) &&
			    (i + 4 == n || perfan__stat_is_space(p[i + 4]) ||
			     p[i + 4] == ',' || p[i + 4] == '.')) {
				i++;
				continue;
			}
			break;
		}
		t[nt].p = p + b;
		t[nt].n = i - b;
		nt++;
	}
	return nt;
}

int perfan__stat_tok_is(const struct perfan__span *t, const char *s)
{
	return t->n == strlen(s) && !memcmp(t->p, s, t->n);
}

int perfan__stat_is_int(const struct perfan__span *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!is_digit(t->p[i]))
			return 0;
	return t->n > 0;
}

/* "S0-D0-C1", "S0", "N0", "CPU3", "S0-D0-L2-ID0", "bash-2466": the -A and
 * --per-* prefixes. */
int perfan__stat_is_aggr(const struct perfan__span *t)
{
	const char *p = t->p;
	size_t n = t->n, i;

	if (!n || perfan__stat_is_num(p, n))
		return 0;
	if (n > 3 && !memcmp(p, "CPU", 3) &&
	    perfan__stat_is_int(&(struct perfan__span){p + 3, n - 3}))
		return 1;
	if ((p[0] == 'S' || p[0] == 'N') && n > 1 && is_digit(p[1])) {
		for (i = 1; i < n; i++)
			if (!is_digit(p[i]) && p[i] != '-' &&
			    !strchr("SDCNLI", p[i]))
				return 0;
		return 1;
	}
	/* comm-pid of --per-thread */
	for (i = n; i > 0 && is_digit(p[i - 1]); i--)
		;
	return i > 1 && i < n && p[i - 1] == '-';
}
