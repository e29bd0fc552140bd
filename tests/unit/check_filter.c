/* check_filter.c: the one definition of the filters (perfan/filter.h): the
 * options as written, validation, which event --event names (an exact
 * name, else a unique prefix, else an error naming the events), and what a
 * sample, a thread and an interval keep. */
#include <perfan/perfan.h>
#include <stddef.h>
#include <string.h>

#include "testutil.h"

START_TEST(test_set)
{
	struct perfan_filter f = PERFAN_FILTER_INIT;
	ck_assert(perfan_filter_none(&f));
	ck_assert(perfan_filter_none(NULL));
	ck_assert_int_eq(perfan_filter_set(&f, "pid", "12"), 0);
	ck_assert_int_eq(perfan_filter_set(&f, "tid", "13"), 0);
	ck_assert_int_eq(perfan_filter_set(&f, "cpu", "0"), 0);
	ck_assert_int_eq(perfan_filter_set(&f, "comm", "disk"), 0);
	ck_assert_int_eq(perfan_filter_set(&f, "time", "5981.8,5981.95"), 0);
	ck_assert_int_eq(perfan_filter_set(&f, "event", "cpu"), 0);
	ck_assert_int_eq(f.pid, 12);
	ck_assert_int_eq(f.tid, 13);
	ck_assert_int_eq(f.cpu, 0);
	ck_assert_str_eq(f.comm, "disk");
	ck_assert_uint_eq(f.time_start, 5981800000000ull);
	ck_assert_uint_eq(f.time_end, 5981950000000ull);
	ck_assert_str_eq(f.event, "cpu");
	ck_assert(!perfan_filter_none(&f));
	ck_assert_int_eq(perfan_filter_validate(&f), 0);
	ck_assert_int_eq(perfan_filter_set(&f, "time", ",2"), 0);
	ck_assert_uint_eq(f.time_start, 0);
	ck_assert_uint_eq(f.time_end, 2000000000ull);
	ck_assert_int_eq(perfan_filter_set(&f, "event", ""), 0);
	ck_assert_ptr_null(f.event);
	ck_assert_int_eq(perfan_filter_set(&f, "time", "5"), PERFAN_EINVAL);
	ck_assert_str_eq(perfan_error_last(),
			 "--time: '5' is not START,END in seconds");
	ck_assert_int_eq(perfan_filter_set(&f, "time", "3,2"), PERFAN_EINVAL);
	ck_assert_int_eq(perfan_filter_set(&f, "pid", "-3"), PERFAN_EINVAL);
	ck_assert_str_eq(perfan_error_last(),
			 "--pid: '-3' is not a process id");
	ck_assert_int_eq(perfan_filter_set(&f, "cpu", "x"), PERFAN_EINVAL);
	ck_assert_int_eq(perfan_filter_set(&f, "colour", "red"), PERFAN_EINVAL);
	f.pid = -5;
	ck_assert_int_eq(perfan_filter_validate(&f), PERFAN_EINVAL);
	/* unknown non-zero trailing bytes are refused, zero ones not */
	struct {
		struct perfan_filter f;
		int extra;
	} big = {PERFAN_FILTER_INIT, 0};
	big.f.sz = sizeof(big);
	ck_assert_int_eq(perfan_filter_validate(&big.f), 0);
	big.extra = 1;
	ck_assert_int_eq(perfan_filter_validate(&big.f), PERFAN_EINVAL);
}
END_TEST

START_TEST(test_event_find)
{
	const char *names[] = {"sched:sched_switch", "sched:sched_wakeup",
			       "cpu-clock/freq=999/", "cpu-clock:u"};
	struct perfan_filter f = PERFAN_FILTER_INIT;
	size_t i;
	ck_assert_int_eq(perfan_filter_event_find(&f, names, 3, "x", &i), 0);
	ck_assert_uint_eq(i, 3); /* no --event: every event */
	f.event = "cpu-clock";
	ck_assert_int_eq(perfan_filter_event_find(&f, names, 3, "x", &i), 0);
	ck_assert_uint_eq(i, 2);
	f.event = "sched:sched_w";
	ck_assert_int_eq(perfan_filter_event_find(&f, names, 3, "x", &i), 0);
	ck_assert_uint_eq(i, 1);
	/* two start so: an error naming the events */
	ck_assert_int_eq(perfan_filter_event_find(&f, names, 4, "x", &i), 0);
	f.event = "cpu-clock";
	ck_assert_int_eq(perfan_filter_event_find(&f, names, 4, "x.data", &i),
			 PERFAN_ENOTFOUND);
	ck_assert_str_eq(perfan_error_last(),
			 "x.data has more than one event starting with "
			 "cpu-clock; its events: sched:sched_switch, "
			 "sched:sched_wakeup, cpu-clock/freq=999/ and "
			 "cpu-clock:u");
	/* an exact name wins over a longer one it starts */
	const char *two[] = {"cpu-clock:u", "cpu-clock"};
	ck_assert_int_eq(perfan_filter_event_find(&f, two, 2, "x", &i), 0);
	ck_assert_uint_eq(i, 1);
	f.event = "cycles";
	ck_assert_int_eq(perfan_filter_event_find(&f, names, 3, "p.data", &i),
			 PERFAN_ENOTFOUND);
	ck_assert_str_eq(perfan_error_last(),
			 "p.data has no event cycles; its events: "
			 "sched:sched_switch, sched:sched_wakeup and "
			 "cpu-clock/freq=999/");
}
END_TEST

/* On a recording: the full name, borrowed from the file. */
START_TEST(test_resolve)
{
	perfan_perfdata *pd;
	ck_assert_int_eq(perfan_perfdata_open(
				 &pd, tu_testdata("offcpu/perf.data"), NULL),
			 0);
	struct perfan_filter f = PERFAN_FILTER_INIT, r;
	f.event = "cpu";
	f.tid = 8734;
	ck_assert_int_eq(perfan_filter_resolve(&r, &f, pd), 0);
	ck_assert_str_eq(r.event, "cpu-clock/freq=999/");
	ck_assert_int_eq(r.tid, 8734);
	f.event = "sched";
	ck_assert_int_eq(perfan_filter_resolve(&r, &f, pd), PERFAN_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "perf.data has more "
							  "than one event"));
	ck_assert_int_eq(perfan_filter_resolve(&r, NULL, pd), 0);
	ck_assert(perfan_filter_none(&r));
	perfan_perfdata_free(pd);
}
END_TEST

START_TEST(test_keeps)
{
	struct perfan_filter f = PERFAN_FILTER_INIT;
	ck_assert(perfan_filter_sample(&f, -1, -1, -1, NULL, 0, NULL));
	ck_assert(perfan_filter_sample(NULL, 1, 2, 3, "a", 4, "e"));
	f.tid = 8734;
	ck_assert(perfan_filter_sample(&f, 8720, 8734, -1, "disk", 5, "e"));
	ck_assert(!perfan_filter_sample(&f, 8720, 8735, -1, "disk", 5, "e"));
	ck_assert(!perfan_filter_sample(&f, -1, -1, -1, NULL, 5, "e"));
	f = PERFAN_FILTER_INIT;
	f.cpu = 1; /* a sample without its CPU fails it */
	ck_assert(perfan_filter_sample(&f, 1, 1, 1, NULL, 5, "e"));
	ck_assert(!perfan_filter_sample(&f, 1, 1, -1, NULL, 5, "e"));
	f = PERFAN_FILTER_INIT;
	f.comm = ":7"; /* perf's name for a thread without one */
	ck_assert(perfan_filter_thread(&f, 1, 7, NULL));
	ck_assert(!perfan_filter_thread(&f, 1, 7, "x"));
	f = PERFAN_FILTER_INIT;
	f.event = "cpu-clock/freq=999/"; /* compared whole */
	ck_assert(perfan_filter_sample(&f, 1, 1, 1, NULL, 5,
				       "cpu-clock/freq=999/"));
	ck_assert(!perfan_filter_sample(&f, 1, 1, 1, NULL, 5, "cpu-clock"));
	ck_assert(!perfan_filter_sample(&f, 1, 1, 1, NULL, 5, NULL));
	f = PERFAN_FILTER_INIT;
	f.time_start = 10;
	f.time_end = 20; /* both ends in; a sample without time passes */
	ck_assert(perfan_filter_sample(&f, 1, 1, 1, NULL, 10, NULL));
	ck_assert(perfan_filter_sample(&f, 1, 1, 1, NULL, 20, NULL));
	ck_assert(!perfan_filter_sample(&f, 1, 1, 1, NULL, 21, NULL));
	ck_assert(!perfan_filter_sample(&f, 1, 1, 1, NULL, 9, NULL));
	ck_assert(perfan_filter_sample(&f, 1, 1, 1, NULL, 0, NULL));
	uint64_t a = 5, b = 15;
	ck_assert(perfan_filter_clip(&f, &a, &b));
	ck_assert_uint_eq(a, 10);
	ck_assert_uint_eq(b, 15);
	a = 12, b = 30;
	ck_assert(perfan_filter_clip(&f, &a, &b));
	ck_assert_uint_eq(b, 20);
	a = 21, b = 30;
	ck_assert(!perfan_filter_clip(&f, &a, &b));
	f.time_end = 0; /* open end */
	a = 21, b = 30;
	ck_assert(perfan_filter_clip(&f, &a, &b));
	ck_assert_uint_eq(b, 30);
}
END_TEST

static Suite *filter_suite(void)
{
	Suite *s = suite_create("filter");
	TCase *tc = tcase_create("filter");
	tcase_add_test(tc, test_set);
	tcase_add_test(tc, test_event_find);
	tcase_add_test(tc, test_resolve);
	tcase_add_test(tc, test_keeps);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(filter_suite)
