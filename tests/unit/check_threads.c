/* check_threads.c: the per-thread table (perfan/threads.h) over the
 * off-CPU analysis of testdata/offcpu: each thread's wait and caller per
 * planted call site, filters, the site limit, JSON, the Python view's
 * caller, and the advice for each recording; resolved hermetically (the
 * case's own kallsyms and symfs, no build-id cache). */
#define _GNU_SOURCE
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

struct fx {
	perfan_profile *p;
	perfan_offcpu *an;
	const struct perfan_offcpu_summary *s;
};

/* REC's time profile with filter F (NULL: none) into FX. */
static void load_filtered(struct fx *fx, const char *rec, int view, int python,
			  const struct perfan_filter *f)
{
	char rel[256], symfs[4096], kallsyms[4096], nocache[4096], maps[4096];
	snprintf(rel, sizeof(rel), "offcpu/%s", rec);
	perfan_perfdata *pd;
	ck_assert_msg(!perfan_perfdata_open(&pd, tu_testdata(rel), NULL), "%s",
		      perfan_error_last());
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	snprintf(symfs, sizeof(symfs), "%s", tu_testdata("offcpu/symfs"));
	snprintf(kallsyms, sizeof(kallsyms), "%s",
		 tu_testdata("offcpu/kallsyms"));
	snprintf(nocache, sizeof(nocache), "%s",
		 tu_testdata("no-such-build-id-cache"));
	snprintf(maps, sizeof(maps), "%s", tu_testdata("offcpu"));
	o.symfs = symfs;
	o.kallsyms = kallsyms;
	o.buildid_dir = nocache;
	o.perf_map_dir = maps;
	o.root = PERFAN_ROOT_PID_TID;
	o.host = tu_host();
	if (f)
		o.filter = *f;
	ck_assert(!perfan_profile_new(&fx->p, NULL));
	int rc =
		perfan_offcpu_profile(fx->p, pd, &o, view, NULL, &fx->an, NULL);
	ck_assert_msg(!rc, "%s: %s", rec, perfan_error_last());
	perfan_perfdata_free(pd);
	fx->s = perfan_offcpu_summary(fx->an);
	ck_assert_ptr_nonnull(fx->s);
	if (python) {
		perfan_profile *v;
		ck_assert(!perfan_python_view(&v, fx->p, PERFAN_PY_MIXED));
		perfan_profile_free(fx->p);
		fx->p = v;
	}
}

static void load(struct fx *fx, const char *rec, int view, int python)
{
	load_filtered(fx, rec, view, python, NULL);
}

static void unload(struct fx *fx)
{
	perfan_offcpu_free(fx->an);
	perfan_profile_free(fx->p);
}

static const struct perfan_thread_row *row_of(const perfan_threads *t,
					      int32_t tid)
{
	for (size_t i = 0; i < perfan_threads_nr(t); i++)
		if (perfan_threads_row(t, i)->tid == tid)
			return perfan_threads_row(t, i);
	ck_abort_msg("no thread %d", (int)tid);
	return NULL;
}

/* The blocking time (ms) of WAIT in CALLER on the row, over its sites. */
static double site_ms(const struct perfan_thread_row *r, const char *wait,
		      const char *caller)
{
	double ms = 0;
	for (size_t i = 0; i < r->nr_sites; i++)
		if (!strcmp(r->sites[i].wait, wait) && r->sites[i].caller &&
		    !strcmp(r->sites[i].caller, caller))
			ms += (double)r->sites[i].total / 1e6;
	return ms;
}

/* perf.data's planted waits (EXPECTED.txt's "offcpu" S and D lines: perf's
 * own switch records, with the wakeup delay), each under its wait. INEXACT
 * of them had no switch-in recorded: EXPECTED ends those at the thread's
 * next record, perfan up to a cpu-clock period (1 ms) before it, where the
 * sample says the thread ran again. */
START_TEST(sites_per_thread)
{
	struct fx fx;
	load(&fx, "perf.data", PERFAN_VIEW_OFFCPU, 0);
	perfan_threads *t;
	ck_assert(!perfan_threads_new(&t, fx.p, fx.s, NULL));
	ck_assert_uint_eq(perfan_threads_nr(t), 8);
	for (size_t i = 1; i < perfan_threads_nr(t); i++)
		ck_assert_int_lt(perfan_threads_row(t, i - 1)->tid,
				 perfan_threads_row(t, i)->tid);
	static const struct {
		int32_t tid;
		const char *comm, *wait, *caller;
		double ms;
		int inexact;
	} want[] = {
		{8729, "sleeper", "nanosleep", "wait_sleep", 238.017, 7},
		{8730, "locker", "futex", "wait_mutex", 201.054, 0},
		{8731, "holder", "nanosleep", "holder", 200.920, 0},
		{8732, "reader", "read/recv", "wait_pipe", 203.061, 1},
		{8733, "writer", "nanosleep", "writer", 201.944, 1},
		{8734, "disk", "disk I/O", "wait_disk", 91.066, 21},
		{8734, "disk", "disk I/O", "wait_disk_direct", 2.771, 8},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		const struct perfan_thread_row *r = row_of(t, want[i].tid);
		ck_assert_str_eq(r->comm, want[i].comm);
		double got = site_ms(r, want[i].wait, want[i].caller);
		ck_assert_msg(got > want[i].ms - 0.01 - 1.1 * want[i].inexact &&
				      got < want[i].ms + 0.01,
			      "%s: %s in %s %.3f ms, perf's %.3f", want[i].comm,
			      want[i].wait, want[i].caller, got, want[i].ms);
		/* the heaviest site of every planted thread is the planted one */
		ck_assert_str_eq(r->sites[0].wait, want[i].wait);
		/* sites hold blocking time only */
		uint64_t sum = 0;
		for (size_t k = 0; k < r->nr_sites; k++) {
			sum += r->sites[k].total;
			ck_assert_uint_eq(r->sites[k].off[PERFAN_OFFCPU_RUNQ],
					  0);
		}
		ck_assert_uint_le(sum,
				  r->off_total - r->off[PERFAN_OFFCPU_RUNQ]);
		ck_assert(r->wall > 0 && r->cpu_ratio >= 0 && r->cpu_ratio < 1);
	}
	/* spinner only waited for a CPU: no blocking site */
	const struct perfan_thread_row *spin = row_of(t, 8735);
	ck_assert_uint_eq(spin->nr_sites, 0);
	ck_assert_uint_gt(spin->off[PERFAN_OFFCPU_RUNQ], 100000000);
	uint32_t st = perfan_threads_states(t);
	ck_assert(st & (1u << PERFAN_OFFCPU_SLEEP));
	ck_assert(st & (1u << PERFAN_OFFCPU_DISK));
	ck_assert(st & (1u << PERFAN_OFFCPU_RUNQ));
	ck_assert(!(st & (1u << PERFAN_OFFCPU_BLOCKED)));
	perfan_threads_free(t);
	unload(&fx);
}
END_TEST

START_TEST(filters_limit_json)
{
	struct fx fx;
	struct perfan_filter f = PERFAN_FILTER_INIT;
	f.comm = "disk"; /* the analysis's filter decides the rows */
	load_filtered(&fx, "perf.data", PERFAN_VIEW_WALL, 0, &f);
	struct perfan_threads_opts o = PERFAN_THREADS_OPTS_INIT;
	o.max_sites = 1;
	perfan_threads *t;
	ck_assert(!perfan_threads_new(&t, fx.p, fx.s, &o));
	ck_assert_uint_eq(perfan_threads_nr(t), 1);
	const struct perfan_thread_row *r = perfan_threads_row(t, 0);
	ck_assert_int_eq(r->tid, 8734);
	ck_assert_uint_eq(r->nr_sites, 1);
	ck_assert_str_eq(r->sites[0].caller, "wait_disk");
	ck_assert_uint_gt(r->on_cpu, 0); /* the wall view has its samples */
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert(!perfan_threads_write(
		t, fp,
		&(struct perfan_threads_write_opts){
			sizeof(struct perfan_threads_write_opts),
			PERFAN_THREADS_JSON}));
	fclose(fp);
	static const char head[] = "{\"threads\": [\n  {\"comm\": \"disk\", "
				   "\"name\": \"disk\", \"role\": null, "
				   "\"pool\": null, \"pid\": 8720, \"tid\": "
				   "8734, ";
	ck_assert_msg(!strncmp(buf, head, sizeof(head) - 1), "%s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "\"wait\": \"disk I/O\", \"caller\": "
					  "\"wait_disk\", \"total\": "));
	ck_assert_ptr_nonnull(strstr(buf, "\"off\": {\"disk\": "));
	free(buf);
	perfan_threads_free(t);
	unload(&fx);
	f = PERFAN_FILTER_INIT;
	f.tid = 1; /* no such thread */
	load_filtered(&fx, "perf.data", PERFAN_VIEW_WALL, 0, &f);
	ck_assert(!perfan_threads_new(&t, fx.p, fx.s, &o));
	ck_assert_uint_eq(perfan_threads_nr(t), 0);
	perfan_threads_free(t);
	ck_assert_int_eq(perfan_threads_new(&t, NULL, fx.s, NULL),
			 PERFAN_EINVAL);
	ck_assert_ptr_null(t);
	unload(&fx);
}
END_TEST

/* Through the Python view, the caller of time.sleep is handle_request. */
START_TEST(python_caller)
{
	struct fx fx;
	load(&fx, "perf.py.data", PERFAN_VIEW_WALL, 1);
	perfan_threads *t;
	ck_assert(!perfan_threads_new(&t, fx.p, fx.s, NULL));
	const struct perfan_thread_row *r = row_of(t, 9442);
	ck_assert_uint_ge(r->nr_sites, 1);
	ck_assert_str_eq(r->sites[0].wait, "nanosleep");
	ck_assert_msg(!strncmp(r->sites[0].caller, "handle_request (", 16),
		      "%s", r->sites[0].caller);
	/* EXPECTED.txt: 20 sleeps, 1015.157 ms off-CPU by the program's own
	 * clocks, 1025.876 ms by perf's records (no switch-in recorded:
	 * each ends at the next record, up to a cpu-clock period late) */
	double ms = (double)r->sites[0].total / 1e6;
	ck_assert_msg(ms > 1015.157 * 0.99 && ms < 1025.9, "%.3f ms", ms);
	perfan_threads_free(t);
	unload(&fx);
}
END_TEST

struct said {
	char text[4096];
	int errors, warns, notes;
};

static int collect(int level, const char *msg, void *payload)
{
	struct said *s = payload;
	s->errors += level == PERFAN_ADVICE_ERROR;
	s->warns += level == PERFAN_ADVICE_WARN;
	s->notes += level == PERFAN_ADVICE_NOTE;
	size_t n = strlen(s->text);
	snprintf(s->text + n, sizeof(s->text) - n, "%d %s\n", level, msg);
	return 0;
}

START_TEST(advice)
{
	static const struct {
		const char *rec;
		int errors;
		const char *has;
	} want[] = {
		{"perf.data", 0, "3 a recording of one process"},
		{"perf.freq.data", 1, "1 sched:sched_switch was sampled"},
		{"perf.switch.data", 0,
		 "2 off-CPU time from PERF_RECORD_SWITCH"},
		{"perf.py.data", 0, "3 no sched:sched_waking"},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		struct fx fx;
		load(&fx, want[i].rec, PERFAN_VIEW_OFFCPU, 0);
		struct said s = {0};
		ck_assert(!perfan_threads_advice(fx.s, PERFAN_VIEW_OFFCPU,
						 collect, &s));
		ck_assert_msg(s.errors == want[i].errors &&
				      strstr(s.text, want[i].has),
			      "%s: %s", want[i].rec, s.text);
		ck_assert_ptr_nonnull(
			strstr(s.text, "perfan record --wall -- COMMAND"));
		unload(&fx);
	}
	/* a summary of nothing: no switches, an error that says what to
	 * record; a non-zero return of the callback stops it */
	struct perfan_offcpu_summary none = {0};
	struct said s = {0};
	ck_assert(!perfan_threads_advice(&none, PERFAN_VIEW_WALL, collect, &s));
	ck_assert_int_eq(s.errors, 1);
	ck_assert_ptr_nonnull(
		strstr(s.text, "perfan record --wall -- COMMAND"));
	ck_assert_ptr_null(strstr(s.text, "take_gil"));
	ck_assert_int_eq(perfan_threads_advice(&none, 0, NULL, NULL),
			 PERFAN_EINVAL);
	/* a Python program's: DWARF, never -g (CPython keeps no frame
	 * pointers), and the GIL's probes, never a uretprobe on take_gil
	 * (it cuts the stacks under it) */
	struct perfan_threads_advice_opts ao =
		PERFAN_OPTS_INIT(struct perfan_threads_advice_opts);
	ao.python = 1;
	memset(&s, 0, sizeof(s));
	ck_assert(!perfan_threads_advice_ext(&none, &ao, collect, &s));
	ck_assert_msg(strstr(s.text, "perfan record --wall --python -- "
				     "COMMAND") &&
			      !strstr(s.text, " -g ") &&
			      !strstr(s.text, "perfan record --wall -- "),
		      "%s", s.text);
	struct fx fx;
	load(&fx, "perf.data", PERFAN_VIEW_OFFCPU, 0);
	memset(&s, 0, sizeof(s));
	ck_assert(!perfan_threads_advice_ext(fx.s, &ao, collect, &s));
	ck_assert_msg(strstr(s.text, "perf probe -x LIBPYTHON take_gil; perf "
				     "probe -x LIBPYTHON "
				     "'take_gil__return=take_gil+OFF'; perf "
				     "probe -x LIBPYTHON drop_gil") &&
			      !strstr(s.text, " -g ") &&
			      !strstr(s.text, " -F "),
		      "%s", s.text);
	unload(&fx);
}
END_TEST

static Suite *threads_suite(void)
{
	Suite *s = suite_create("threads");
	TCase *tc = tcase_create("offcpu");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sites_per_thread);
	tcase_add_test(tc, filters_limit_json);
	tcase_add_test(tc, python_caller);
	tcase_add_test(tc, advice);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(threads_suite)
