/* check_trace_nest.c: trace/nest.c's order of spans (by thread, then
 * start, the longer first at one start, then input order: nest.h) on a
 * planted trace of interleaved threads with many spans starting together,
 * against qsort with that order written out here; and each span's parent
 * the innermost open span holding its start. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "trace/build.h"
#include "trace/nest.h"

struct ref {
	int64_t ts, len;
	uint32_t thread, ev;
};

static int cmp_ref(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

START_TEST(test_order_and_parents)
{
	perfan_trace *t = perfan__trace_new();
	ck_assert_ptr_nonnull(t);
	uint32_t th[3];
	ck_assert_int_eq(perfan__trace_thread(t, 1, 1, -1, -1, &th[0]), 0);
	ck_assert_int_eq(perfan__trace_thread(t, 1, 2, -1, -1, &th[1]), 0);
	ck_assert_int_eq(perfan__trace_thread(t, 0, 7, 0, 7, &th[2]), 0);
	uint64_t r = 12345;
	size_t n = 3000;
	for (size_t i = 0; i < n; i++) {
		struct perfan_trace_event e;
		perfan__trace_event_init(&e);
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		/* starts on a coarse grid: many together, 40 at 5000 */
		e.ts = i >= 100 && i < 140 ? 5000
					   : (int64_t)(r >> 33) % 400 * 100;
		e.dur = (int64_t)(r >> 20) % 7 * 50;
		e.thread = th[(r >> 40) % 3];
		e.kind = PERFAN_TRACE_CPU_OP;
		ck_assert_int_eq(perfan__trace_add(t, &e), 0);
	}
	ck_assert_int_eq(perfan__trace_finish(t), 0);
	const struct perfan_trace_info *ti = perfan_trace_info(t);
	for (int cpu_only = 0; cpu_only < 2; cpu_only++) {
		struct ref *want = malloc(n * sizeof(*want));
		size_t m = 0;
		for (size_t i = 0; i < ti->nr_events; i++) {
			const struct perfan_trace_event *e = &ti->events[i];
			if (cpu_only && ti->threads[e->thread].device >= 0)
				continue;
			want[m++] = (struct ref){e->ts, e->dur, e->thread,
						 (uint32_t)i};
		}
		qsort(want, m, sizeof(*want), cmp_ref);
		struct perfan__nest *o;
		size_t no;
		ck_assert_int_eq(perfan__trace_nest(t, cpu_only, &o, &no), 0);
		ck_assert_uint_eq(no, m);
		for (size_t i = 0; i < m; i++) {
			ck_assert_uint_eq(o[i].ev, want[i].ev);
			/* the parent: the nearest span before on the thread
			 * whose (cut) end is after this one's start */
			uint32_t p = PERFAN__NEST_TOP;
			for (size_t j = i; j-- > 0;) {
				if (want[j].thread != want[i].thread)
					break;
				if (o[j].end > want[i].ts) {
					p = (uint32_t)j;
					break;
				}
			}
			ck_assert_uint_eq(o[i].parent, p);
		}
		free(o);
		free(want);
	}
	perfan_trace_free(t);
}
END_TEST

static Suite *trace_nest_suite(void)
{
	Suite *s = suite_create("trace_nest");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_order_and_parents);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(trace_nest_suite)
