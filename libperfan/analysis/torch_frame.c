/* analysis/torch_frame.c: whether a Python frame of a trace is torch's own
 * profiler's, by the file torch names in it. */
#include "analysis/torch_frame.h"

#include <string.h>

/* The length of the file in S[0..LEN), "FILE(LINE): ...": up to the first
 * '(' that digits and "):" follow; 0 when there is none. */
static size_t file_len(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '(')
			continue;
		size_t k = i + 1;
		while (k < len && s[k] >= '0' && s[k] <= '9')
			k++;
		if (k > i + 1 && k + 1 < len && s[k] == ')' && s[k + 1] == ':')
			return i;
	}
	return 0;
}

/* Whether P[0..N) starts with the string W. */
static int starts(const char *p, size_t n, const char *w)
{
	size_t m = strlen(w);
	return n >= m && !memcmp(p, w, m);
}

int perfan__torch_profiler_frame(const char *s, size_t len)
{
	size_t n = file_len(s, len);
	for (size_t i = 0; i < n; i++) {
		if (i && s[i - 1] != '/')
			continue;
		const char *p = s + i;
		size_t m = n - i;
		if (!starts(p, m, "torch/"))
			continue;
		p += 6;
		m -= 6;
		if (starts(p, m, "profiler/"))
			return 1;
		/* torch/autograd/profiler.py, profiler_util.py, ... */
		if (starts(p, m, "autograd/profiler") &&
		    !memchr(p + 9, '/', m - 9))
			return 1;
	}
	return 0;
}
