/* check_waits.c: the wakers of off-CPU intervals (issue 34) on the
 * system-wide recordings of testdata/gil, against perf's own script of
 * them: with sched_waking, every waker is the thread in whose context perf
 * shows the waking record (or an interrupt's source: a timer, a device);
 * with sched_wakeup only, every waker is marked uncertain. And the wait
 * classes of the recordings' switch-out stacks, by their functions. */
#include <perfan/offcpu.h>
#include <perfan/perfdata.h>
#include <perfan/resolve.h>
#include <perfan/waits.h>

#include "testutil.h"

/* One waking record of perf script: waker (the record's tid), time (ns),
 * wakee (pid=). */
struct wake {
	int32_t waker, wakee;
	uint64_t time;
};

struct wakes {
	struct wake *v;
	size_t n, cap;
};

/* perf script's lines of EVENT from the zstd'ed REL, read with zstd -dc. */
static void read_script(struct wakes *w, const char *rel, const char *event)
{
	char cmd[4096];
	tu_fmt(cmd, sizeof(cmd), "zstd -dc '%s'", tu_testdata(rel));
	FILE *f = popen(cmd, "r");
	ck_assert_msg(f != NULL, "zstd -dc %s", rel);
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		char *ev = strstr(line, event);
		char *pid = ev ? strstr(ev, " pid=") : NULL;
		char *br = strchr(line, '[');
		if (!pid || !br)
			continue;
		/* "COMM TID [CPU] SEC.NSEC: EVENT: comm=.. pid=N ..." */
		char *p = br;
		while (p > line && p[-1] == ' ')
			p--;
		while (p > line && p[-1] != ' ')
			p--;
		unsigned long long sec, nsec;
		char *rb = strchr(br, ']');
		ck_assert_ptr_nonnull(rb);
		ck_assert_int_eq(sscanf(rb + 1, " %llu.%llu:", &sec, &nsec), 2);
		if (w->n == w->cap) {
			w->cap = w->cap ? w->cap * 2 : 1024;
			w->v = realloc(w->v, w->cap * sizeof(*w->v));
			ck_assert_ptr_nonnull(w->v);
		}
		w->v[w->n++] = (struct wake){(int32_t)atoi(p),
					     (int32_t)atoi(pid + 5),
					     sec * 1000000000ull + nsec};
	}
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_uint_gt(w->n, 100);
}

static const struct wake *find_wake(const struct wakes *w, uint64_t time,
				    int32_t wakee)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].time == time && w->v[i].wakee == wakee)
			return &w->v[i];
	return NULL;
}

struct seen {
	const struct wakes *oracle;
	size_t thread, timer, device, other, uncertain, woken;
	size_t classified, gil, idle, sleep;
	int want_uncertain;
};

static int on_interval(const struct perfan_offcpu_interval *iv, void *payload)
{
	struct seen *s = payload;
	if (iv->wait)
		s->classified++;
	s->gil += iv->wait == PERFAN_WAIT_GIL;
	s->idle += iv->wait == PERFAN_WAIT_IDLE;
	s->sleep += iv->wait == PERFAN_WAIT_SLEEP;
	if (iv->state == PERFAN_OFFCPU_WAKEUP_DELAY ||
	    iv->wake_source == PERFAN_WAKE_NONE)
		return 0; /* (the split's second part repeats the first's) */
	s->woken++;
	ck_assert_uint_ge(iv->wake_time, iv->start);
	ck_assert_uint_le(iv->wake_time, iv->end);
	ck_assert_int_eq(iv->waker_uncertain, s->want_uncertain);
	s->uncertain += iv->waker_uncertain;
	const struct wake *w = find_wake(s->oracle, iv->wake_time, iv->tid);
	ck_assert_msg(w != NULL,
		      "no waking record of %d at %llu in perf script",
		      (int)iv->tid, (unsigned long long)iv->wake_time);
	switch (iv->wake_source) {
	case PERFAN_WAKE_THREAD:
		/* the thread in whose context perf shows the record */
		ck_assert_msg(iv->waker_tid == w->waker,
			      "%d woken at %llu by %d, perf script says %d",
			      (int)iv->tid, (unsigned long long)iv->wake_time,
			      (int)iv->waker_tid, (int)w->waker);
		ck_assert_int_gt(iv->waker_tid, 0);
		s->thread++;
		break;
	case PERFAN_WAKE_TIMER:
		ck_assert_int_eq(iv->waker_tid, -1);
		ck_assert_uint_gt(iv->nr_waker_frames, 0);
		s->timer++;
		break;
	case PERFAN_WAKE_DEVICE:
		ck_assert_int_eq(iv->waker_tid, -1);
		s->device++;
		break;
	default: /* the network, a disk: no thread either */
		ck_assert_int_eq(iv->waker_tid, -1);
		ck_assert_ptr_nonnull(perfan_wake_source_name(iv->wake_source));
		s->other++;
		break;
	}
	return 0;
}

static void run(const char *rec, const char *script, const char *event,
		int uncertain, struct seen *s)
{
	struct wakes w = {0};
	read_script(&w, script, event);
	static char kallsyms[4096], symfs[4096], maps[4096], nocache[4096];
	char rel[256];
	tu_fmt(rel, sizeof(rel), "gil/%s", rec);
	tu_fmt(kallsyms, sizeof(kallsyms), "%s", tu_testdata("gil/kallsyms"));
	tu_fmt(symfs, sizeof(symfs), "%s", tu_testdata("gil/symfs"));
	tu_fmt(maps, sizeof(maps), "%s", tu_testdata("gil"));
	tu_fmt(nocache, sizeof(nocache), "%s", tu_testdata("gil/no-cache"));
	perfan_perfdata *pd = NULL;
	ck_assert_msg(!perfan_perfdata_open(&pd, tu_testdata(rel), NULL),
		      "%s: %s", rel, perfan_error_last());
	perfan_profile *p = NULL;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	struct perfan_resolve_opts ro = PERFAN_RESOLVE_OPTS_INIT;
	ro.host = tu_host();
	ro.kallsyms = kallsyms;
	ro.symfs = symfs;
	ro.perf_map_dir = maps;
	ro.buildid_dir = nocache;
	memset(s, 0, sizeof(*s));
	s->oracle = &w;
	s->want_uncertain = uncertain;
	struct perfan_offcpu_opts oo = {
		.sz = sizeof(oo), .interval = on_interval, .payload = s};
	int rc = perfan_offcpu_profile(p, pd, &ro, PERFAN_VIEW_OFFCPU, &oo,
				       NULL, NULL);
	ck_assert_msg(rc == 0, "%s: %s", rec, perfan_error_last());
	perfan_profile_free(p);
	perfan_perfdata_free(pd);
	free(w.v);
}

START_TEST(waking_names_the_waker)
{
	struct seen s;
	run("wake-all.data", "gil/wake-all.script.txt.zst",
	    "sched:sched_waking:", 0, &s);
	ck_assert_uint_gt(s.woken, 200);
	ck_assert_uint_gt(s.thread, 100);
	/* the latency thread's sleeps end by its timer */
	ck_assert_uint_gt(s.timer, 10);
	ck_assert_uint_eq(s.uncertain, 0);
	/* (recorded with -g: the kernel's frames class the sleeps, the
	 * GIL's futex has only libc under it) */
	ck_assert_uint_gt(s.sleep, 10);
}
END_TEST

START_TEST(wakeup_is_uncertain)
{
	struct seen s;
	run("wake-up.data", "gil/wake-up.script.txt.zst",
	    "sched:sched_wakeup:", 1, &s);
	ck_assert_uint_gt(s.woken, 200);
	ck_assert_uint_eq(s.uncertain, s.woken);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("waits");
	TCase *tc = tcase_create("wakers");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, waking_names_the_waker);
	tcase_add_test(tc, wakeup_is_uncertain);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(suite)
