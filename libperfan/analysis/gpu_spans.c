/* analysis/gpu_spans.c: spans of time merged where they overlap, as HTA's
 * merge_kernel_intervals merges kernels (by start; a span joins the group
 * before it unless it starts after every end so far). */
#include <stdint.h>
#include <stdlib.h>

#include "analysis/gpu_internal.h"
#include "util/keysort.h"

static int cmp_span(const void *a, const void *b)
{
	const struct gpu_span *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e > y->e) - (x->e < y->e);
}

size_t perfan__gpu_merge(struct gpu_span *s, size_t n, int64_t lo, int64_t hi,
			 int64_t *total)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		struct gpu_span v = s[i];
		int cut = lo != INT64_MIN || hi != INT64_MAX;
		if (cut && v.e < v.s)
			v.e = v.s; /* negative only where HTA's rounding
				      made it so, and it merges whole */
		if (v.s >= hi || (cut && v.e <= lo))
			continue;
		if (v.s < lo)
			v.s = lo;
		if (v.e > hi)
			v.e = hi;
		if (cut && v.e <= v.s)
			continue;
		s[k++] = v;
	}
	perfan__sort_unless_sorted(s, k, sizeof(*s), cmp_span);
	size_t m = 0;
	int64_t sum = 0, maxend = 0;
	for (size_t i = 0; i < k; i++) {
		if (m && s[i].s <= maxend) {
			if (s[i].e > s[m - 1].e)
				s[m - 1].e = s[i].e;
		} else {
			s[m++] = s[i];
		}
		if (i == 0 || s[i].e > maxend)
			maxend = s[i].e;
	}
	for (size_t i = 0; i < m; i++)
		sum += s[i].e - s[i].s;
	*total = sum;
	return m;
}
