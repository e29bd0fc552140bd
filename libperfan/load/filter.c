/* load/filter.c: the filter options as a person writes them (perf report's
 * --pid, --tid, --comm, --cpu, --time START,END and --event) into a
 * struct perfan_filter, for every command alike. What a filter keeps is
 * defined once, in stream/filter.c, the lowest stage that applies it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/filter.h>

#include "util/error.h"

/* "SEC[.FRAC]" (N bytes of S) into nanoseconds; "" is 0. */
static int parse_seconds(const char *s, size_t n, uint64_t *out)
{
	uint64_t sec = 0, ns = 0;
	size_t i = 0;
	*out = 0;
	if (!n)
		return 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0 && (i == n || s[i] != '.'))
		return -1;
	if (i < n && s[i] == '.') {
		uint64_t scale = 100000000ull;
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			ns += (uint64_t)(s[i] - '0') * scale;
			scale /= 10;
		}
	}
	if (i != n)
		return -1;
	*out = sec * 1000000000ull + ns;
	return 0;
}

static int parse_time(const char *s, struct perfan_filter *f)
{
	const char *comma = strchr(s, ',');
	uint64_t start, end;
	if (!comma || parse_seconds(s, (size_t)(comma - s), &start) ||
	    parse_seconds(comma + 1, strlen(comma + 1), &end) ||
	    (end && start > end))
		return -1;
	f->time_start = start;
	f->time_end = end;
	return 0;
}

static int parse_id(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT32_MAX)
		return -1;
	*out = v;
	return 0;
}

int perfan_filter_set(struct perfan_filter *f, const char *name,
		      const char *value)
{
	if (!f || !name || !value)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_filter_set: NULL argument");
	const char *bad = NULL;
	if (!strcmp(name, "pid")) {
		if (parse_id(value, &f->pid))
			bad = "is not a process id";
	} else if (!strcmp(name, "tid")) {
		if (parse_id(value, &f->tid))
			bad = "is not a thread id";
	} else if (!strcmp(name, "cpu")) {
		if (parse_id(value, &f->cpu))
			bad = "is not a CPU number";
	} else if (!strcmp(name, "time")) {
		if (parse_time(value, f))
			bad = "is not START,END in seconds";
	} else if (!strcmp(name, "comm")) {
		f->comm = value;
	} else if (!strcmp(name, "event")) {
		f->event = *value ? value : NULL;
	} else {
		return perfan__err(PERFAN_EINVAL,
				   "perfan_filter_set: no filter %s", name);
	}
	if (bad)
		return perfan__err(PERFAN_EINVAL, "--%s: '%s' %s", name, value,
				   bad);
	return 0;
}
