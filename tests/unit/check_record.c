/* check_record.c: perfan record's plan for pinned host facts (issue 35):
 * Python run with -X perf gets DWARF stacks, a C program frame pointers;
 * --gil probes take_gil's one ret at the offset that objdump gave for
 * testdata/gil's libpythons (their COMMAND); a host that forbids the
 * recording gets a message that says what to change. */
#include <perfan/record.h>

#include "testutil.h"

static struct perfan_record_host root_host(void)
{
	struct perfan_record_host h =
		PERFAN_OPTS_INIT(struct perfan_record_host);
	h.paranoid = 2;
	h.euid = 0;
	return h;
}

static struct perfan_record_opts opts(char *const *argv)
{
	struct perfan_record_opts o =
		PERFAN_OPTS_INIT(struct perfan_record_opts);
	o.argv = argv;
	o.output = "out.data";
	return o;
}

/* The plan's record step, as one line of words joined by ' '. */
static const char *record_line(const perfan_record_plan *p)
{
	static char line[4096];
	const struct perfan_record_plan_result *r =
		perfan_record_plan_result(p);
	line[0] = '\0';
	for (size_t i = 0; i < r->nr_steps; i++) {
		if (r->steps[i].kind != PERFAN_RECORD_STEP_RECORD)
			continue;
		for (size_t k = 0; r->steps[i].argv[k]; k++) {
			if (k)
				strcat(line, " ");
			strcat(line, r->steps[i].argv[k]);
		}
	}
	return line;
}

static perfan_record_plan *plan(const struct perfan_record_opts *o,
				const struct perfan_record_host *h)
{
	perfan_record_plan *p = NULL;
	int err = perfan_record_plan_new(&p, o, h);
	ck_assert_msg(!err, "plan: %s", perfan_error_last());
	return p;
}

START_TEST(python_xperf_gets_dwarf)
{
	char *argv[] = {"python3.12", "-X", "perf", "server.py", NULL};
	struct perfan_record_opts o = opts(argv);
	struct perfan_record_host h = root_host();
	perfan_record_plan *p = plan(&o, &h);
	const struct perfan_record_plan_result *r =
		perfan_record_plan_result(p);
	ck_assert_int_eq(r->dwarf, 1);
	ck_assert_int_eq(r->python_target, 1);
	ck_assert_int_eq(r->added_xperf, 0);
	const char *l = record_line(p);
	ck_assert_msg(strstr(l, "--call-graph dwarf,16384 "), "%s", l);
	ck_assert_msg(strstr(l, "-e cpu-clock/freq=499/"), "%s", l);
	ck_assert_msg(!strstr(l, " -F "), "%s", l);
	ck_assert_msg(strstr(l, "-- python3.12 -X perf server.py"), "%s", l);
	ck_assert_msg(!strstr(l, "sched:"), "no --wall: %s", l);
	ck_assert_str_eq(r->next, "perfan triage out.data");
	perfan_record_plan_free(p);

	/* -X perf_jit, and PYTHONPERFSUPPORT=1 in the environment */
	char *jit[] = {"python3.13", "-Xperf_jit", "x.py", NULL};
	o = opts(jit);
	p = plan(&o, &h);
	ck_assert_int_eq(perfan_record_plan_result(p)->dwarf, 1);
	perfan_record_plan_free(p);
	char *plain[] = {"python3.12", "x.py", "-X", "perf", NULL};
	char *env[] = {"HOME=/root", "PYTHONPERFSUPPORT=1", NULL};
	o = opts(plain);
	p = plan(&o, &h);
	/* "-X perf" after the script is the script's argument */
	ck_assert_int_eq(perfan_record_plan_result(p)->dwarf, 0);
	perfan_record_plan_free(p);
	h.target_env = env;
	p = plan(&o, &h);
	ck_assert_int_eq(perfan_record_plan_result(p)->dwarf, 1);
	perfan_record_plan_free(p);
}
END_TEST

START_TEST(native_gets_frame_pointers)
{
	char *argv[] = {"./prog", "50", NULL};
	struct perfan_record_opts o = opts(argv);
	o.wall = 1;
	struct perfan_record_host h = root_host();
	perfan_record_plan *p = plan(&o, &h);
	const struct perfan_record_plan_result *r =
		perfan_record_plan_result(p);
	ck_assert_int_eq(r->dwarf, 0);
	const char *l = record_line(p);
	ck_assert_msg(strstr(l, "--call-graph fp "), "%s", l);
	ck_assert_msg(strstr(l, "-e cpu-clock/freq=999/"), "%s", l);
	ck_assert_msg(strstr(l, "--switch-events -e sched:sched_switch -e "
				"sched:sched_waking"),
		      "%s", l);
	ck_assert_msg(strstr(l, "-m 64M"), "root: %s", l);
	ck_assert_msg(strstr(l, "-- ./prog 50"), "%s", l);
	perfan_record_plan_free(p);
}
END_TEST

START_TEST(python_flag_adds_xperf)
{
	char *argv[] = {"/usr/bin/python3.12", "app.py", "--port", "80", NULL};
	struct perfan_record_opts o = opts(argv);
	o.python = 1;
	struct perfan_record_host h = root_host();
	perfan_record_plan *p = plan(&o, &h);
	const struct perfan_record_plan_result *r =
		perfan_record_plan_result(p);
	ck_assert_int_eq(r->dwarf, 1);
	ck_assert_int_eq(r->added_xperf, 1);
	const char *l = record_line(p);
	ck_assert_msg(strstr(l, "-- /usr/bin/python3.12 -X perf app.py --port "
				"80"),
		      "%s", l);
	perfan_record_plan_free(p);

	/* a running process without -X perf: a note says how to fix it */
	char *cmdline[] = {"python3", "app.py", NULL};
	o = opts(NULL);
	o.python = 1;
	o.pid = 4242;
	h.target_argv = cmdline;
	p = plan(&o, &h);
	r = perfan_record_plan_result(p);
	ck_assert_int_eq(r->dwarf, 1);
	ck_assert_uint_eq(r->nr_notes, 1);
	ck_assert_msg(strstr(r->notes[0], "-X perf"), "%s", r->notes[0]);
	ck_assert_msg(strstr(record_line(p), "-p 4242"), "%s", record_line(p));
	perfan_record_plan_free(p);
	/* --duration with PID: perf records while sleep runs */
	o.duration = 2.5;
	p = plan(&o, &h);
	ck_assert_msg(strstr(record_line(p), "-p 4242 -- sleep 2.5"), "%s",
		      record_line(p));
	ck_assert(perfan_record_plan_result(p)->duration == 0);
	perfan_record_plan_free(p);
}
END_TEST

/* The offset testdata/gil/COMMAND gives for the 'take_gil__return' probe
 * of libpythonVER (from objdump's take_gil-3XX.s). */
static unsigned long command_offset(const char *ver)
{
	FILE *f = fopen(tu_testdata("gil/COMMAND"), "r");
	ck_assert_ptr_nonnull(f);
	char line[4096], lib[64];
	unsigned long off = 0;
	tu_fmt(lib, sizeof(lib), "libpython%s.so.1.0 'take_gil__return=", ver);
	while (fgets(line, sizeof(line), f)) {
		char *s = strstr(line, lib);
		if (s && (s = strstr(s, "take_gil+")))
			off = strtoul(s + 9, NULL, 10);
	}
	fclose(f);
	ck_assert_uint_gt(off, 0);
	return off;
}

START_TEST(gil_probes_at_the_ret)
{
	static const char *const vers[] = {"3.11", "3.12", "3.13"};
	for (int i = 0; i < 3; i++) {
		char lib[256], want[128];
		tu_fmt(lib, sizeof(lib), "%s",
		       tu_testdata("gil/libpython3.1x.so.1.0"));
		char *x = strstr(lib, "3.1x");
		memcpy(x, vers[i], 4);
		char *argv[] = {"python3", "gil.py", NULL};
		struct perfan_record_opts o = opts(argv);
		o.gil = 1;
		o.wall = 1;
		struct perfan_record_host h = root_host();
		h.libpython = lib;
		perfan_record_plan *p = plan(&o, &h);
		const struct perfan_record_plan_result *r =
			perfan_record_plan_result(p);
		tu_fmt(want, sizeof(want),
		       "probe_perfan:take_gil__return=take_gil+%lu",
		       command_offset(vers[i]));
		/* stale probes removed, three added, record, removed again */
		ck_assert_uint_eq(r->nr_steps, 6);
		ck_assert_int_eq(r->steps[0].kind, PERFAN_RECORD_STEP_CLEANUP);
		ck_assert_int_eq(r->steps[4].kind, PERFAN_RECORD_STEP_RECORD);
		ck_assert_int_eq(r->steps[5].kind, PERFAN_RECORD_STEP_CLEANUP);
		ck_assert_str_eq(r->steps[2].argv[5], want);
		ck_assert_str_eq(r->steps[2].argv[4], lib);
		ck_assert_str_eq(r->steps[1].argv[5],
				 "probe_perfan:take_gil=take_gil");
		ck_assert_str_eq(r->steps[3].argv[5],
				 "probe_perfan:drop_gil=drop_gil");
		const char *l = record_line(p);
		ck_assert_msg(strstr(l, "-e probe_perfan:take_gil -e "
					"probe_perfan:take_gil__return -e "
					"probe_perfan:drop_gil"),
			      "%s", l);
		ck_assert_msg(!strstr(l, "%return"), "%s", l);
		perfan_record_plan_free(p);
	}
}
END_TEST

START_TEST(forbidden_host_says_what_to_change)
{
	char *argv[] = {"./prog", NULL};
	struct perfan_record_opts o = opts(argv);
	struct perfan_record_host h = root_host();
	h.euid = 1000;
	h.paranoid = 4;
	perfan_record_plan *p = NULL;
	ck_assert_int_eq(perfan_record_plan_new(&p, &o, &h),
			 PERFAN_EUNSUPPORTED);
	ck_assert_ptr_null(p);
	const char *m = perfan_error_last();
	ck_assert_msg(strstr(m, "perf_event_paranoid is 4") &&
			      strstr(m, "sudo sysctl "
					"kernel.perf_event_paranoid=1") &&
			      strstr(m, "cap_perfmon"),
		      "%s", m);
	/* --wall needs -1 */
	o.wall = 1;
	h.paranoid = 1;
	ck_assert_int_eq(perfan_record_plan_new(&p, &o, &h),
			 PERFAN_EUNSUPPORTED);
	m = perfan_error_last();
	ck_assert_msg(strstr(m, "kernel.perf_event_paranoid=-1"), "%s", m);
	/* ... unless perf may: CAP_PERFMON */
	h.cap_eff = 1ull << 38;
	p = plan(&o, &h);
	ck_assert_msg(!strstr(record_line(p), "-m 64M"), "not root: %s",
		      record_line(p));
	perfan_record_plan_free(p);
	/* the probes need root */
	o.gil = 1;
	ck_assert_int_eq(perfan_record_plan_new(&p, &o, &h),
			 PERFAN_EUNSUPPORTED);
	ck_assert_msg(strstr(perfan_error_last(), "sudo perfan record --gil"),
		      "%s", perfan_error_last());
	/* no target, or two */
	o = opts(NULL);
	h = root_host();
	ck_assert_int_eq(perfan_record_plan_new(&p, &o, &h), PERFAN_EINVAL);
	o = opts(argv);
	o.pid = 12;
	ck_assert_int_eq(perfan_record_plan_new(&p, &o, &h), PERFAN_EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("plan");
	tcase_add_test(tc, python_xperf_gets_dwarf);
	tcase_add_test(tc, native_gets_frame_pointers);
	tcase_add_test(tc, python_flag_adds_xperf);
	tcase_add_test(tc, gil_probes_at_the_ret);
	tcase_add_test(tc, forbidden_host_says_what_to_change);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(suite)
