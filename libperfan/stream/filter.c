/* stream/filter.c: the one definition of what a filter (perfan/filter.h)
 * keeps: a sample, a thread, an interval of time, and which event --event
 * names. It lives in stream/, the lowest stage that needs it: the stream
 * filters the samples every fold and annotation reads, and the off-CPU
 * analysis above it filters its intervals and thread totals with the same
 * functions. load/ owns the options (load/filter.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/filter.h>

#include "util/error.h"
#include "util/log.h"

int perfan_filter_none(const struct perfan_filter *f)
{
	return !f || (f->pid < 0 && f->tid < 0 && f->cpu < 0 && !f->comm &&
		      !f->time_start && !f->time_end && !f->event);
}

int perfan_filter_validate(const struct perfan_filter *f)
{
	if (!f)
		return 0;
	if (f->sz < offsetof(struct perfan_filter, event) + sizeof(f->event))
		return perfan__err(PERFAN_EINVAL,
				   "perfan_filter: size %zu is too small",
				   f->sz);
	for (size_t i = sizeof(*f); i < f->sz; i++)
		if (((const unsigned char *)f)[i])
			return perfan__err(PERFAN_EINVAL,
					   "perfan_filter: unknown non-zero "
					   "field at byte %zu",
					   i);
	const int64_t ids[3] = {f->pid, f->tid, f->cpu};
	static const char *const what[3] = {"pid", "tid", "cpu"};
	for (int i = 0; i < 3; i++)
		if (ids[i] < -1 || ids[i] > INT32_MAX)
			return perfan__err(PERFAN_EINVAL,
					   "perfan_filter: %s %lld is out of "
					   "range",
					   what[i], (long long)ids[i]);
	if (f->time_end && f->time_start > f->time_end)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_filter: the time window ends before "
				   "it starts");
	return 0;
}

/* "A, B and C" of the N NAMES, allocated; NULL when out of memory. */
static char *list_names(const char *const *names, size_t n)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i] ? names[i] : "(unnamed)") + 5;
	char *s = malloc(len), *at = s;
	for (size_t i = 0; s && i < n; i++)
		at += sprintf(at, "%s%s",
			      !i           ? ""
			      : i + 1 == n ? " and "
					   : ", ",
			      names[i] ? names[i] : "(unnamed)");
	if (s)
		*at = 0;
	return s;
}

int perfan_filter_event_find(const struct perfan_filter *f,
			     const char *const *names, size_t n,
			     const char *input, size_t *index)
{
	*index = n;
	if (!f || !f->event)
		return 0;
	size_t len = strlen(f->event), found = n, nfound = 0;
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		if (!strcmp(names[i], f->event)) {
			*index = i; /* an exact name wins */
			return 0;
		}
		if (!strncmp(names[i], f->event, len)) {
			if (!nfound++)
				found = i;
		}
	}
	if (nfound == 1) {
		*index = found;
		return 0;
	}
	char *list = list_names(names, n);
	if (!list)
		return perfan__nomem("--event");
	int rc = perfan__err(PERFAN_ENOTFOUND, "%s has %s %s; its events: %s",
			     input ? input : "the input",
			     nfound ? "more than one event starting with"
				    : "no event",
			     f->event, n ? list : "none");
	free(list);
	return rc;
}

int perfan_filter_resolve(struct perfan_filter *out,
			  const struct perfan_filter *f, perfan_perfdata *pd)
{
	*out = PERFAN_FILTER_INIT;
	int rc = perfan_filter_validate(f);
	if (rc || !f)
		return rc;
	memcpy(out, f, sizeof(*out));
	out->sz = sizeof(*out);
	if (!f->event)
		return 0;
	if (!pd)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_filter_resolve: no perf.data");
	rc = perfan_perfdata_read_header(pd); /* a pipe's events */
	if (rc)
		return rc;
	size_t n = perfan_perfdata_nr_events(pd), i;
	const char **names = calloc(n ? n : 1, sizeof(*names));
	if (!names)
		return perfan__nomem("--event");
	for (size_t k = 0; k < n; k++)
		names[k] = perfan_perfdata_event(pd, k)->name;
	rc = perfan_filter_event_find(f, names, n, perfan_perfdata_name(pd),
				      &i);
	if (!rc)
		out->event = names[i];
	free(names);
	return rc;
}

int perfan_filter_thread(const struct perfan_filter *f, int32_t pid,
			 int32_t tid, const char *comm)
{
	if (!f)
		return 1;
	if (f->pid >= 0 && (pid < 0 || pid != f->pid))
		return 0;
	if (f->tid >= 0 && (tid < 0 || tid != f->tid))
		return 0;
	if (f->comm) {
		char def[16];
		if (!comm) { /* perf's name for a thread without a COMM */
			snprintf(def, sizeof(def), ":%d", (int)tid);
			comm = def;
		}
		if (strcmp(comm, f->comm))
			return 0;
	}
	return 1;
}

int perfan_filter_sample(const struct perfan_filter *f, int32_t pid,
			 int32_t tid, int32_t cpu, const char *comm,
			 uint64_t time, const char *event)
{
	if (!f)
		return 1;
	if (f->cpu >= 0 && (cpu < 0 || cpu != f->cpu))
		return 0;
	if (time &&
	    (time < f->time_start || (f->time_end && time > f->time_end)))
		return 0;
	if (f->event && (!event || strcmp(event, f->event)))
		return 0;
	return perfan_filter_thread(f, pid, tid, comm);
}

int perfan_filter_clip(const struct perfan_filter *f, uint64_t *start,
		       uint64_t *end)
{
	if (f && *start < f->time_start)
		*start = f->time_start;
	if (f && f->time_end && *end > f->time_end)
		*end = f->time_end;
	return *end > *start;
}
