/* check_opts_set.c: the library's options set by name, as the command line
 * spells them (perfan_load_opts_set, perfan_flamegraph_opts_set,
 * perfan_diff_opts_set, perfan_scaling_opts_set, perfan_report_opts_set):
 * each name reaches its field, a bad value is an error naming the option
 * and leaves the rest, and a name the setter does not know is an error. */
#include <perfan/perfan.h>
#include <string.h>

#include "testutil.h"

START_TEST(test_load)
{
	struct perfan_load_opts o = PERFAN_LOAD_OPTS_INIT;
	ck_assert_int_eq(perfan_load_opts_set(&o, "samples", NULL), 0);
	ck_assert_int_eq(o.count_samples, 1);
	ck_assert_int_eq(perfan_load_opts_set(&o, "period", NULL), 0);
	ck_assert_int_eq(o.count_samples, 0);
	ck_assert_int_eq(perfan_load_opts_set(&o, "off-cpu", NULL), 0);
	ck_assert_int_eq(o.time_view, PERFAN_VIEW_OFFCPU);
	ck_assert_int_eq(perfan_load_opts_set(&o, "wall", NULL), 0);
	ck_assert_int_eq(o.time_view, PERFAN_VIEW_WALL);
	ck_assert_int_eq(perfan_load_opts_set(&o, "kernel", NULL), 0);
	ck_assert_int_eq(perfan_load_opts_set(&o, "addrs", NULL), 0);
	ck_assert(o.kernel && o.addrs && !o.jit);
	ck_assert_int_eq(perfan_load_opts_set(&o, "symfs", "/s"), 0);
	ck_assert_int_eq(perfan_load_opts_set(&o, "jitdump-dir", "/j"), 0);
	ck_assert_str_eq(o.symfs, "/s");
	ck_assert_str_eq(o.jitdump_dir, "/j");
	ck_assert_int_eq(perfan_load_opts_set(&o, "threads", "3"), 0);
	ck_assert_int_eq(o.threads, 3);
	ck_assert_int_eq(perfan_load_opts_set(&o, "python", "mixed"), 0);
	ck_assert_int_eq(o.python_view, PERFAN_PY_MIXED);
	ck_assert_int_eq(perfan_load_opts_set(&o, "compat", "flamegraph"), 0);
	ck_assert_int_eq(o.compat, PERFAN_SCRIPT_COMPAT_FLAMEGRAPH);
	/* the filters go to perfan_filter_set */
	ck_assert_int_eq(perfan_load_opts_set(&o, "tid", "42"), 0);
	ck_assert_int_eq(o.filter.tid, 42);
	ck_assert_int_eq(perfan_load_opts_set(&o, "time", "x"), PERFAN_EINVAL);
	ck_assert_str_eq(perfan_error_last(),
			 "--time: 'x' is not START,END in seconds");

	ck_assert_int_eq(perfan_load_opts_set(&o, "threads", "0"),
			 PERFAN_EINVAL);
	ck_assert_str_eq(perfan_error_last(), "--threads: '0' is not a number "
					      "of threads (1 to 1024)");
	ck_assert_int_eq(o.threads, 3);
	ck_assert_int_eq(perfan_load_opts_set(&o, "python", "java"),
			 PERFAN_EINVAL);
	ck_assert_str_eq(perfan_error_last(), "--python: 'java' is none of "
					      "native, mixed, python");
	ck_assert_int_eq(perfan_load_opts_set(&o, "symfs", NULL),
			 PERFAN_EINVAL);
	ck_assert_str_eq(perfan_error_last(), "--symfs: no value");
	ck_assert_int_eq(perfan_load_opts_set(&o, "colors", "hot"),
			 PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "no option colors"));
	ck_assert_int_eq(perfan_load_opts_set(NULL, "wall", NULL),
			 PERFAN_EINVAL);
}
END_TEST

START_TEST(test_flamegraph)
{
	struct perfan_flamegraph_opts fo = PERFAN_FG_OPTS_INIT;
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "title", "T"), 0);
	ck_assert_str_eq(fo.title, "T");
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "width", "800"), 0);
	ck_assert(fo.width == 800);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "height", "20"), 0);
	ck_assert(fo.frame_height == 20 && fo.max_height < 0);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "minwidth", "2%"), 0);
	ck_assert(fo.minwidth == 2 && fo.minwidth_percent);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "color", "hot"), 0);
	ck_assert_int_eq(fo.palette, perfan_fg_palette_parse("hot"));
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "view", "after"), 0);
	ck_assert_int_eq(fo.view, PERFAN_FG_VIEW_AFTER);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "noise-floor", "5"),
			 0);
	ck_assert(fo.noise_floor == 0.05);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "inverted", NULL), 0);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "total", NULL), 0);
	ck_assert(fo.inverted && fo.color_total && !fo.reverse);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "bgcolors", "#00ff00"),
			 0);
	ck_assert_str_eq(fo.bgcolors, "#00ff00");

	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "width", "20"),
			 PERFAN_EINVAL); /* the margins take 20 px */
	ck_assert_str_eq(perfan_error_last(),
			 "--width: '20' is not a width in pixels");
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "minwidth", "0x10"),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "fontsize", "nan"),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "bgcolors", "pink"),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "colors", "plaid"),
			 PERFAN_EINVAL);
	ck_assert_str_eq(perfan_error_last(),
			 "--colors: 'plaid' is not a palette");
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "title", NULL),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_flamegraph_opts_set(&fo, "symfs", "/"),
			 PERFAN_EINVAL);
	ck_assert_str_eq(fo.title, "T");
}
END_TEST

START_TEST(test_diff_scaling)
{
	struct perfan_diff_opts d = PERFAN_OPTS_INIT(struct perfan_diff_opts);
	ck_assert_int_eq(perfan_diff_opts_set(&d, "sort", "total"), 0);
	ck_assert_int_eq(d.sort, PERFAN_DIFF_SORT_TOTAL);
	ck_assert_int_eq(perfan_diff_opts_set(&d, "limit", "7"), 0);
	ck_assert_uint_eq(d.limit, 7);
	ck_assert_int_eq(perfan_diff_opts_set(&d, "min-share", "2"), 0);
	ck_assert(d.min_share == 0.02);
	ck_assert_int_eq(perfan_diff_opts_set(&d, "alpha", "0.01"), 0);
	ck_assert(d.alpha == 0.01);
	ck_assert_int_eq(perfan_diff_opts_set(&d, "shares", NULL), 0);
	ck_assert_int_eq(d.shares_only, 1);
	ck_assert_int_eq(perfan_diff_opts_set(&d, "alpha", "1"), PERFAN_EINVAL);
	ck_assert_str_eq(perfan_error_last(),
			 "--alpha: '1' is not a level between 0 and 1");
	ck_assert_int_eq(perfan_diff_opts_set(&d, "limit", "-1"),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_diff_opts_set(&d, "sort", "size"),
			 PERFAN_EINVAL);
	ck_assert(d.alpha == 0.01 && d.limit == 7);

	struct perfan_scaling_opts so =
		PERFAN_OPTS_INIT(struct perfan_scaling_opts);
	ck_assert_int_eq(perfan_scaling_opts_set(&so, "min-share", "0"), 0);
	ck_assert(so.min_share < 0); /* none left out */
	ck_assert_int_eq(perfan_scaling_opts_set(&so, "level", "0.9"), 0);
	ck_assert(so.level == 0.9);
	ck_assert_int_eq(perfan_scaling_opts_set(&so, "sort", "name"), 0);
	ck_assert_int_eq(perfan_scaling_opts_set(&so, "level", "1"),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_scaling_opts_set(&so, "json", NULL),
			 PERFAN_EINVAL);
}
END_TEST

START_TEST(test_report)
{
	struct perfan_report_opts r =
		PERFAN_OPTS_INIT(struct perfan_report_opts);
	ck_assert_int_eq(perfan_report_opts_set(&r, "sort", "pid,sym"), 0);
	ck_assert_str_eq(r.sort, "pid,sym");
	ck_assert_int_eq(perfan_report_opts_set(&r, "no-children", NULL), 0);
	ck_assert_int_eq(r.no_children, 1);
	ck_assert_int_eq(perfan_report_opts_set(&r, "children", NULL), 0);
	ck_assert_int_eq(r.no_children, 0);
	ck_assert_int_eq(perfan_report_opts_set(&r, "call-graph", "callee"), 0);
	ck_assert_int_eq(r.call_graph, PERFAN_REPORT_GRAPH_CALLEE);
	ck_assert_int_eq(perfan_report_opts_set(&r, "percent-limit", "0"), 0);
	ck_assert_int_eq(perfan_report_opts_set(&r, "percent-limit", "2.5"), 0);
	ck_assert(r.percent_limit == 2.5);
	ck_assert_int_eq(perfan_report_opts_set(&r, "dsos", "libc.so.6"), 0);
	ck_assert_str_eq(r.dsos, "libc.so.6");
	ck_assert_int_eq(perfan_report_opts_set(&r, "call-graph", "fractal"),
			 PERFAN_EINVAL);
	ck_assert_str_eq(perfan_error_last(), "--call-graph: 'fractal' is none "
					      "of caller, callee, none");
	ck_assert_int_eq(perfan_report_opts_set(&r, "percent-limit", "101"),
			 PERFAN_EINVAL);
	ck_assert(r.percent_limit == 2.5);
	ck_assert_int_eq(r.call_graph, PERFAN_REPORT_GRAPH_CALLEE);
}
END_TEST

static Suite *opts_set_suite(void)
{
	Suite *s = suite_create("opts_set");
	TCase *tc = tcase_create("opts_set");
	tcase_add_test(tc, test_load);
	tcase_add_test(tc, test_flamegraph);
	tcase_add_test(tc, test_diff_scaling);
	tcase_add_test(tc, test_report);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(opts_set_suite)
