/* check_load.c: load/ (perfan/load.h), the library's one door from inputs
 * to a profile: a folded pair as one differential profile, the column of
 * a recording of several events (and the advice naming them), a pruned
 * read of an unsorted folded file started again whole, the time view of a
 * recording and of what is none, and the flame graph's prune fraction; an
 * input read once, its reader and its time view read again, from a pipe
 * too. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "testutil.h"

/* What the advice callback was given. */
struct heard {
	int n[4];
	char last[1024];
};

static int hear(int level, const char *msg, void *payload)
{
	struct heard *h = payload;
	if (level >= 1 && level <= 3)
		h->n[level]++;
	snprintf(h->last, sizeof(h->last), "%s", msg);
	return 0;
}

/* A temporary file holding TEXT; its path in PATH (free with unlink). */
static void temp_file(char *path, size_t n, const char *text)
{
	tu_fmt(path, n, "%s", "/tmp/check_load_XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *fp = fdopen(fd, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	ck_assert_int_eq(fclose(fp), 0);
}

static struct perfan_load_opts opts_heard(struct heard *h)
{
	struct perfan_load_opts o = PERFAN_LOAD_OPTS_INIT;
	o.host = tu_host();
	o.advice = hear;
	o.advice_payload = h;
	return o;
}

/* Two folded files: AFTER in column 0, BEFORE in column 1, whole; and
 * read together only when asked for folded pairs alone. */
START_TEST(test_folded_pair)
{
	char before[64], after[64];
	temp_file(before, sizeof(before), "a;b 3\na;c 2\n");
	temp_file(after, sizeof(after), "a;b 1\na;d 7\n");
	struct heard h = {0};
	struct perfan_load_opts o = opts_heard(&h);
	perfan_load *l;
	ck_assert_int_eq(perfan_load_pair(&l, before, after, &o, 0), 0);
	ck_assert_uint_eq(perfan_load_nr_columns(l), 2);
	const perfan_profile *p = perfan_load_profile(l);
	ck_assert_str_eq(perfan_profile_column_name(p, 0), PERFAN_LOAD_AFTER);
	ck_assert_str_eq(perfan_profile_column_name(p, 1), PERFAN_LOAD_BEFORE);
	ck_assert_uint_eq(perfan_load_total(l, 0), 8);
	ck_assert_uint_eq(perfan_load_total(l, 1), 5);
	ck_assert_uint_eq(perfan_load_total(l, 2), 0); /* no such column */
	/* the pair says the format of its inputs */
	ck_assert_str_eq(perfan_load_info(l)->format, "folded");
	ck_assert(perfan_load_info(l)->caps & PERFAN_SOURCE_PAIRED);
	perfan_load_free(l);

	/* a perf.data is no folded pair: nothing read */
	ck_assert_int_eq(perfan_load_pair(&l, tu_testdata("fp/perf.data"),
					  after, &o,
					  PERFAN_LOAD_PAIR_FOLDED_ONLY),
			 PERFAN_LOAD_NOT_PAIR);
	ck_assert_ptr_null(l);
	ck_assert_int_eq(h.n[PERFAN_ADVICE_ERROR], 0);
	unlink(before);
	unlink(after);
}
END_TEST

/* A recording of two events: the first with weight, and the advice
 * naming how many there are; --event's column when one is named. */
START_TEST(test_column_of_several)
{
	struct heard h = {0};
	struct perfan_load_opts o = opts_heard(&h);
	o.root = PERFAN_ROOT_NONE;
	perfan_load *l;
	ck_assert_int_eq(
		perfan_load_open(&l, tu_testdata("two-events/perf.data"), &o),
		0);
	const struct perfan_load_info *in = perfan_load_info(l);
	ck_assert_str_eq(in->format, "perf.data");
	ck_assert(in->caps & PERFAN_SOURCE_RECORDS);
	ck_assert_uint_gt(in->resolve.samples, 0);
	ck_assert_uint_ge(perfan_load_nr_columns(l), 2);
	size_t col = perfan_load_column(l, NULL, NULL);
	ck_assert_uint_gt(perfan_load_total(l, col), 0);
	ck_assert_int_eq(h.n[PERFAN_ADVICE_WARN], 1);
	ck_assert_ptr_nonnull(strstr(h.last, "has samples of 2 events"));
	const char *other = perfan_profile_column_name(perfan_load_profile(l),
						       col == 0 ? 1 : 0);
	char event[256];
	tu_fmt(event, sizeof(event), "%s", other);
	perfan_load_free(l);

	/* the other one, by name: no advice */
	memset(&h, 0, sizeof(h));
	o.filter.event = event;
	ck_assert_int_eq(
		perfan_load_open(&l, tu_testdata("two-events/perf.data"), &o),
		0);
	col = perfan_load_column(l, NULL, NULL);
	ck_assert_str_eq(
		perfan_profile_column_name(perfan_load_profile(l), col), event);
	ck_assert_int_eq(h.n[PERFAN_ADVICE_WARN], 0);
	perfan_load_free(l);
}
END_TEST

/* A pruned read of folded lines out of order starts again whole: the
 * same profile as a read without pruning. */
START_TEST(test_unsorted_read_again)
{
	char path[64];
	temp_file(path, sizeof(path), "b;x 5\na;y 1\nb;z 2\na;w 100\n");
	struct heard h = {0};
	struct perfan_load_opts o = opts_heard(&h);
	o.folded_prune = 0.02;
	perfan_load *pruned, *whole;
	ck_assert_int_eq(perfan_load_open(&pruned, path, &o), 0);
	o.folded_prune = 0;
	ck_assert_int_eq(perfan_load_open(&whole, path, &o), 0);
	ck_assert_uint_eq(perfan_load_total(pruned, 0), 108);
	ck_assert_uint_eq(perfan_load_total(whole, 0), 108);
	ck_assert_uint_eq(perfan_profile_nr_nodes(perfan_load_profile(pruned)),
			  perfan_profile_nr_nodes(perfan_load_profile(whole)));
	ck_assert_uint_eq(perfan_load_info(pruned)->inputs, 1);
	ck_assert_int_eq(h.n[PERFAN_ADVICE_ERROR], 0);
	perfan_load_free(pruned);
	perfan_load_free(whole);
	unlink(path);
}
END_TEST

/* The off-CPU view of a recording with switches, kept with its analysis;
 * of folded stacks, an error naming what it needs. */
START_TEST(test_time_view)
{
	struct heard h = {0};
	struct perfan_load_opts o = opts_heard(&h);
	o.time_view = PERFAN_VIEW_OFFCPU;
	o.root = PERFAN_ROOT_PID_TID;
	o.kallsyms = tu_testdata("offcpu/kallsyms");
	perfan_load *l;
	int rc = perfan_load_open(&l, tu_testdata("offcpu/perf.offcpu.data"),
				  &o);
	ck_assert_int_ge(rc, 0);
	ck_assert_ptr_nonnull(perfan_load_offcpu(l));
	ck_assert_str_eq(perfan_profile_column_name(perfan_load_profile(l), 0),
			 "off-cpu");
	ck_assert_uint_gt(perfan_load_total(l, 0), 0);
	perfan_load_free(l);

	char path[64];
	temp_file(path, sizeof(path), "a;b 3\n");
	ck_assert_int_eq(perfan_load_open(&l, path, &o), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "not a perf.data"));
	ck_assert_int_eq(perfan_load_info(l)->read, 0);
	ck_assert_ptr_null(perfan_load_offcpu(l));
	perfan_load_free(l);
	unlink(path);
}
END_TEST

/* The options of another format: advice, unless the caller checks. */
static int opened_count(const struct perfan_load_info *in, void *payload)
{
	(void)in;
	(*(int *)payload)++;
	return 0;
}

START_TEST(test_options_do_not_apply)
{
	char path[64];
	temp_file(path, sizeof(path), "a;b 3\n");
	struct heard h = {0};
	struct perfan_load_opts o = opts_heard(&h);
	o.filter.pid = 1;
	perfan_load *l;
	ck_assert_int_eq(perfan_load_open(&l, path, &o), 0);
	ck_assert_int_eq(h.n[PERFAN_ADVICE_WARN], 1);
	ck_assert_ptr_nonnull(strstr(h.last, "is not a perf.data"));
	perfan_load_free(l);
	int called = 0;
	o.opened = opened_count;
	o.opened_payload = &called;
	ck_assert_int_eq(perfan_load_open(&l, path, &o), 0);
	ck_assert_int_eq(called, 1);
	ck_assert_int_eq(h.n[PERFAN_ADVICE_WARN], 1);
	perfan_load_free(l);
	unlink(path);
}
END_TEST

/* The flame graph's minimum width as a share of its total. */
START_TEST(test_prune_fraction)
{
	struct perfan_flamegraph_opts fo = PERFAN_FG_OPTS_INIT;
	ck_assert(perfan_flamegraph_prune_fraction(&fo) == 0.1 / 1180);
	fo.width = 600;
	fo.minwidth = 2;
	ck_assert(perfan_flamegraph_prune_fraction(&fo) == 2.0 / 580);
	fo.minwidth_percent = 1;
	ck_assert(perfan_flamegraph_prune_fraction(&fo) == 2.0 / 100);
	fo.reverse = 1;
	ck_assert(perfan_flamegraph_prune_fraction(&fo) == 0);
}
END_TEST

/* A recording read once: its reader's header after the read, and its
 * time view read again from the same input, through a pipe too. */
START_TEST(test_read_once)
{
	struct heard h = {0};
	struct perfan_load_opts o = opts_heard(&h);
	const char *path = tu_testdata("offcpu/perf.data");
	perfan_load *l, *again;
	ck_assert_int_eq(perfan_load_open(&l, path, &o), 0);
	const perfan_perfdata *pd = perfan_load_reader(l);
	ck_assert_ptr_nonnull(pd);
	ck_assert_uint_gt(perfan_perfdata_nr_events(pd), 0);
	ck_assert_int_eq(perfan_offcpu_recorded(pd), 1);
	struct perfan_load_opts to = o;
	to.time_view = PERFAN_VIEW_OFFCPU;
	to.quiet_advice = PERFAN_LOAD_QUIET_VIEW;
	ck_assert_int_eq(perfan_load_again(&again, l, &to), 0);
	ck_assert_ptr_nonnull(perfan_load_offcpu(again));
	ck_assert_str_eq(perfan_profile_column_name(perfan_load_profile(again),
						    0),
			 "off-cpu");
	uint64_t off = perfan_load_total(again, 0);
	ck_assert_uint_gt(off, 0);
	ck_assert_ptr_nonnull(perfan_load_reader(again));
	perfan_load_free(again);
	perfan_load_free(l);

	/* the same through a pipe: kept as it was read, read again */
	char cmd[4200], name[32];
	tu_fmt(cmd, sizeof(cmd), "cat '%s'", path);
	FILE *pp = popen(cmd, "r");
	ck_assert_ptr_nonnull(pp);
	tu_fmt(name, sizeof(name), "/dev/fd/%d", fileno(pp));
	ck_assert_int_eq(perfan_load_open(&l, name, &o), 0);
	ck_assert_int_eq(perfan_offcpu_recorded(perfan_load_reader(l)), 1);
	ck_assert_int_eq(perfan_load_again(&again, l, &to), 0);
	ck_assert_uint_eq(perfan_load_total(again, 0), off);
	perfan_load_free(again);
	perfan_load_free(l);
	ck_assert_int_eq(pclose(pp), 0);

	/* a text input has no reader */
	char folded[64];
	temp_file(folded, sizeof(folded), "a;b 3\n");
	ck_assert_int_eq(perfan_load_open(&l, folded, &o), 0);
	ck_assert_ptr_null(perfan_load_reader(l));
	perfan_load_free(l);
	unlink(folded);
	ck_assert_int_eq(h.n[PERFAN_ADVICE_ERROR], 0);
}
END_TEST

static Suite *load_suite(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("load");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_folded_pair);
	tcase_add_test(tc, test_column_of_several);
	tcase_add_test(tc, test_unsorted_read_again);
	tcase_add_test(tc, test_time_view);
	tcase_add_test(tc, test_options_do_not_apply);
	tcase_add_test(tc, test_prune_fraction);
	tcase_add_test(tc, test_read_once);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(load_suite)
