/* perfan/filter.h: which samples and records an analysis sees, by process,
 * thread, thread name, CPU, time and event: one definition for every
 * command (perf report's --pid, --tid, --comm, --cpu, --time and
 * --event), applied once, where an input is loaded. */
#ifndef PERFAN_FILTER_H
#define PERFAN_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include <perfan/common.h>
#include <perfan/perfdata.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which samples and records an analysis sees: one definition for every
 * command, applied once, in load/.
 *
 * A sample is kept when it passes every field set: its process is PID, its
 * thread TID, its thread's name (COMM, as perf names a thread without one:
 * ":TID") is COMM, it was taken on CPU, at a time in [TIME_START,
 * TIME_END], and of the event EVENT names. A sample that does not record
 * its pid, tid or cpu fails a filter on it; one without a time passes the
 * time window. Off-CPU time (perfan/offcpu.h) is kept for the threads the
 * pid, tid and comm filters keep, and cut to the time window; it was spent
 * on no CPU and is no event's sample, so CPU and EVENT select the on-CPU
 * samples only. */
struct perfan_filter {
	size_t sz;
	int64_t pid, tid, cpu;         /* -1: any */
	const char *comm;              /* thread name (COMM); NULL: any */
	uint64_t time_start, time_end; /* ns, perf's clock; 0: open end */
	const char *event; /* a unique prefix of an event name; NULL: every
			      event */
};
#define PERFAN_FILTER_INIT                                                     \
	((struct perfan_filter){.sz = sizeof(struct perfan_filter),            \
				.pid = -1,                                     \
				.tid = -1,                                     \
				.cpu = -1})

/* F's field NAME ("pid", "tid", "comm", "cpu", "time" or "event") from
 * VALUE as perf report's options spell it: a number for pid, tid and cpu;
 * "START,END" in seconds, as perf script prints times, either end may be
 * empty, for time; VALUE itself (borrowed) for comm and event, "" for
 * every event. Returns 0, or PERFAN_EINVAL with a message naming the
 * option ("--time: '5' is not START,END in seconds"). */
PERFAN_API int perfan_filter_set(struct perfan_filter *f, const char *name,
				 const char *value);

/* Whether F keeps nothing out (NULL, or every field "any"). */
PERFAN_API int perfan_filter_none(const struct perfan_filter *f);

/* Check F: its size (unknown non-zero trailing bytes are an error),
 * pid, tid and cpu -1 or from 0 to INT32_MAX, an end not before the
 * start. Returns 0 or PERFAN_EINVAL with a message. */
PERFAN_API int perfan_filter_validate(const struct perfan_filter *f);

/* The event F->event names among the N NAMES an input has: the one
 * named exactly, else the only one it is a prefix of ("cpu-clock" finds
 * "cpu-clock/freq=999/"). *INDEX gets its index; with no F->event, N
 * (every event). Returns 0, or PERFAN_ENOTFOUND when no event matches or
 * several do, with a message naming INPUT and the events it has. */
PERFAN_API int perfan_filter_event_find(const struct perfan_filter *f,
					const char *const *names, size_t n,
					const char *input, size_t *index);

/* F checked and its event resolved against PD's events
 * (perfan_filter_event_find) into *OUT, whose event is then the full
 * name (borrowed from PD) or NULL. Returns 0, PERFAN_EINVAL or
 * PERFAN_ENOTFOUND with a message. */
PERFAN_API int perfan_filter_resolve(struct perfan_filter *out,
				     const struct perfan_filter *f,
				     perfan_perfdata *pd);

/* Whether F keeps a sample of thread PID/TID named COMM (NULL: it has
 * none), taken on CPU at TIME of the event named EVENT (NULL: unnamed);
 * -1 and 0 for what the sample does not record. F->event is compared
 * whole: resolve it first (perfan_filter_resolve). */
PERFAN_API int perfan_filter_sample(const struct perfan_filter *f, int32_t pid,
				    int32_t tid, int32_t cpu, const char *comm,
				    uint64_t time, const char *event);

/* Whether F keeps thread PID/TID named COMM (its pid, tid and comm). */
PERFAN_API int perfan_filter_thread(const struct perfan_filter *f, int32_t pid,
				    int32_t tid, const char *comm);

/* [*START, *END) cut to F's time window. Returns whether anything of it
 * is left (*END > *START). */
PERFAN_API int perfan_filter_clip(const struct perfan_filter *f,
				  uint64_t *start, uint64_t *end);

#ifdef __cplusplus
}
#endif
#endif
