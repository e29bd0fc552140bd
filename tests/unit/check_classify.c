/* check_classify.c: perfan_classify on made-up counters: each rule, the
 * issue's matrix multiply (54 % misses per reference, 3 per 1000
 * instructions, IPC 2.2: not memory-bound), multiplexed scaling, hybrid
 * weighting, TMA, groups per interval, and unknown without counters. */
#include <math.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MAXC 32

struct set {
	struct perfan_stat_counter c[MAXC];
	size_t n;
};

static struct perfan_stat_counter *add(struct set *s, const char *ev, double v)
{
	ck_assert_uint_lt(s->n, MAXC);
	struct perfan_stat_counter *c = &s->c[s->n++];
	memset(c, 0, sizeof(*c));
	c->event = c->raw_name = ev;
	c->value = v;
	c->supported = c->counted = 1;
	c->running_pct = 100;
	c->variance_pct = -1;
	c->interval = -1;
	c->line = (uint32_t)s->n;
	return c;
}

static void not_supported(struct set *s, const char *ev)
{
	struct perfan_stat_counter *c = add(s, ev, 0);
	c->supported = c->counted = 0;
}

/* The basic set: IPC INS/CYC, cache and branch misses per kinsn. */
static void basic(struct set *s, double cyc, double ins, double cref,
		  double cmiss, double br, double brmiss)
{
	add(s, "cycles", cyc);
	add(s, "instructions", ins);
	if (cref >= 0) {
		add(s, "cache-references", cref);
		add(s, "cache-misses", cmiss);
	}
	if (br >= 0) {
		add(s, "branches", br);
		add(s, "branch-misses", brmiss);
	}
}

static perfan_classify *run(struct set *s, int unscaled)
{
	struct perfan_classify_opts o =
		PERFAN_OPTS_INIT(struct perfan_classify_opts);
	o.unscaled = unscaled;
	perfan_classify *c = NULL;
	ck_assert_int_eq(perfan_classify_new(&c, s->c, s->n, &o), 0);
	ck_assert_ptr_nonnull(c);
	return c;
}

static int verdict(struct set *s)
{
	perfan_classify *c = run(s, 0);
	int v = perfan_classify_whole(c)->verdict;
	perfan_classify_free(c);
	return v;
}

static int has_evidence(const struct perfan_classify_group *g,
			const char *metric)
{
	for (size_t i = 0; i < g->nr_evidence; i++)
		if (!strcmp(g->evidence[i].metric, metric))
			return 1;
	return 0;
}

START_TEST(test_matrix_multiply_not_memory_bound)
{
	/* IPC 2.2; 3 cache misses per 1000 instructions, 54 % of references */
	struct set s = {0};
	double ins = 2.2e9, miss = 3 * ins / 1000;
	basic(&s, 1e9, ins, miss / 0.54, miss, 2e8, 2e5);
	perfan_classify *c = run(&s, 0);
	const struct perfan_classify_group *g = perfan_classify_whole(c);
	ck_assert_double_eq_tol(g->m.ipc, 2.2, 1e-9);
	ck_assert_double_eq_tol(g->m.cache_miss_ratio, 0.54, 1e-9);
	ck_assert_double_eq_tol(g->m.cache_mpki, 3, 1e-9);
	ck_assert_int_ne(g->verdict, PERFAN_VERDICT_MEMORY_BOUND);
	ck_assert_int_eq(g->verdict, PERFAN_VERDICT_WELL_OPTIMISED);
	ck_assert(has_evidence(g, "cache_miss_ratio")); /* noted, not used */
	ck_assert(!has_evidence(g, "cache_mpki"));
	ck_assert(g->confidence > 0 && g->confidence < 0.9);
	perfan_classify_free(c);
}
END_TEST

START_TEST(test_rules)
{
	struct set s = {0};
	/* IPC 0.5, 20 cache misses per kinsn */
	basic(&s, 2e9, 1e9, 1e8, 2e7, 1e8, 1e6);
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_MEMORY_BOUND);

	/* IPC 0.8, 8 % branches mispredicted, few cache misses */
	s.n = 0;
	basic(&s, 1e9, 8e8, 1e7, 1e5, 1e8, 8e6);
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_BAD_SPECULATION);

	/* branch misses by MPKI alone: 2 % of branches but 12 per kinsn */
	s.n = 0;
	basic(&s, 1e9, 8e8, 1e7, 1e5, 4.8e8, 9.6e6);
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_BAD_SPECULATION);

	/* IPC 0.8, front end idle 55 % of cycles */
	s.n = 0;
	basic(&s, 1e9, 8e8, 1e7, 1e5, 1e8, 1e5);
	add(&s, "stalled-cycles-frontend", 5.5e8);
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_FRONTEND_BOUND);

	/* IPC 0.7, back end idle 60 %, 1 cache miss per kinsn: the core */
	s.n = 0;
	basic(&s, 1e9, 7e8, 1e7, 7e5, 1e8, 1e5);
	add(&s, "stalled-cycles-backend", 6e8);
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_CORE_BOUND);

	/* the same without cache counters: memory or core stays open */
	s.n = 0;
	basic(&s, 1e9, 7e8, -1, 0, 1e8, 1e5);
	add(&s, "stalled-cycles-backend", 6e8);
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_MIXED);

	/* many cache and many branch misses */
	s.n = 0;
	basic(&s, 2e9, 1e9, 1e8, 2e7, 1e8, 1e7);
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_MIXED);

	/* IPC 3 */
	s.n = 0;
	basic(&s, 1e9, 3e9, -1, 0, -1, 0);
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_WELL_OPTIMISED);

	/* IPC 1.4, nothing else: no verdict the counts don't support */
	s.n = 0;
	basic(&s, 1e9, 1.4e9, -1, 0, 1e8, 1e6);
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_UNKNOWN);
}
END_TEST

START_TEST(test_unknown_without_counters)
{
	struct set s = {0};
	add(&s, "task-clock", 12.5)->unit = "msec";
	add(&s, "context-switches", 3);
	not_supported(&s, "cycles");
	not_supported(&s, "instructions");
	not_supported(&s, "branches");
	not_supported(&s, "branch-misses");
	perfan_classify *c = run(&s, 0);
	ck_assert_uint_eq(perfan_classify_nr_groups(c), 1);
	const struct perfan_classify_group *g = perfan_classify_whole(c);
	ck_assert_int_eq(g->verdict, PERFAN_VERDICT_UNKNOWN);
	ck_assert_ptr_nonnull(strstr(g->reason, "no hardware counters"));
	ck_assert(isnan(g->m.ipc));
	ck_assert(g->confidence == 0);
	ck_assert_str_eq(perfan_verdict_name(g->verdict), "unknown");
	perfan_classify_free(c);

	/* cycles only */
	s.n = 0;
	add(&s, "cycles", 1e9);
	c = run(&s, 0);
	g = perfan_classify_whole(c);
	ck_assert_int_eq(g->verdict, PERFAN_VERDICT_UNKNOWN);
	ck_assert_ptr_nonnull(strstr(g->reason, "instructions missing"));
	perfan_classify_free(c);

	ck_assert_int_eq(perfan_classify_new(&c, s.c, 0, NULL), PERFAN_EINVAL);
}
END_TEST

START_TEST(test_multiplexed)
{
	/* cycles ran half the time: raw (--no-scale) counts are doubled,
	 * counts perf already scaled are kept; either way the confidence
	 * drops below the same counts without multiplexing. */
	struct set s = {0};
	basic(&s, 1e9, 4e8, 1e8, 2e7, 1e8, 1e6);
	perfan_classify *c = run(&s, 0);
	double full = perfan_classify_whole(c)->confidence;
	perfan_classify_free(c);

	s.c[0].running_pct = 50;
	c = run(&s, 0);
	const struct perfan_classify_group *g = perfan_classify_whole(c);
	ck_assert_double_eq_tol(g->m.ipc, 0.4, 1e-12);
	ck_assert_double_eq_tol(g->m.min_running_pct, 50, 1e-12);
	ck_assert(g->confidence < full);
	ck_assert(g->confidence > 0);
	perfan_classify_free(c);

	c = run(&s, 1);
	g = perfan_classify_whole(c);
	ck_assert_double_eq_tol(g->m.cycles, 2e9, 1e-3);
	ck_assert_double_eq_tol(g->m.ipc, 0.2, 1e-12);
	perfan_classify_free(c);
}
END_TEST

START_TEST(test_hybrid)
{
	/* P-cores IPC 3 over 1e9 cycles, E-cores IPC 1 over 3e9: the whole
	 * is weighted by cycles, 0.25 * 3 + 0.75 * 1 = 1.5. */
	struct set s = {0};
	add(&s, "cycles", 1e9)->pmu = "cpu_core";
	add(&s, "instructions", 3e9)->pmu = "cpu_core";
	add(&s, "cycles", 3e9)->pmu = "cpu_atom";
	add(&s, "instructions", 3e9)->pmu = "cpu_atom";
	perfan_classify *c = run(&s, 0);
	const struct perfan_classify_group *g = perfan_classify_whole(c);
	ck_assert_double_eq_tol(g->m.ipc, 1.5, 1e-12);
	ck_assert_uint_eq(g->nr_pmus, 2);
	ck_assert_str_eq(g->pmus[0].pmu, "cpu_core");
	ck_assert_double_eq_tol(g->pmus[0].ipc, 3, 1e-12);
	ck_assert_str_eq(g->pmus[1].pmu, "cpu_atom");
	ck_assert_double_eq_tol(g->pmus[1].ipc, 1, 1e-12);
	perfan_classify_free(c);
}
END_TEST

START_TEST(test_tma)
{
	/* slot counts: back end 65 %, of which memory 50 % */
	struct set s = {0};
	add(&s, "slots", 1000);
	add(&s, "topdown-retiring", 200);
	add(&s, "topdown-bad-spec", 50);
	add(&s, "topdown-fe-bound", 100);
	add(&s, "topdown-be-bound", 650);
	add(&s, "topdown-mem-bound", 500);
	perfan_classify *c = run(&s, 0);
	const struct perfan_classify_group *g = perfan_classify_whole(c);
	ck_assert_double_eq_tol(g->m.tma_backend_bound, 0.65, 1e-12);
	ck_assert_double_eq_tol(g->m.tma_core_bound, 0.15, 1e-12);
	ck_assert_int_eq(g->verdict, PERFAN_VERDICT_MEMORY_BOUND);
	ck_assert(has_evidence(g, "tma_memory_bound"));
	perfan_classify_free(c);

	/* percentages (tma_* metrics): front end 40 % */
	s.n = 0;
	add(&s, "tma_retiring", 35)->unit = "%";
	add(&s, "tma_bad_speculation", 5)->unit = "%";
	add(&s, "tma_frontend_bound", 40)->unit = "%";
	add(&s, "tma_backend_bound", 20)->unit = "%";
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_FRONTEND_BOUND);

	/* retiring 70 %, nothing over its threshold */
	s.n = 0;
	add(&s, "tma_retiring", 70)->unit = "%";
	add(&s, "tma_bad_speculation", 5)->unit = "%";
	add(&s, "tma_frontend_bound", 10)->unit = "%";
	add(&s, "tma_backend_bound", 15)->unit = "%";
	ck_assert_int_eq(verdict(&s), PERFAN_VERDICT_WELL_OPTIMISED);

	/* old --topdown percentages that make no sense (pmu-tools #203) */
	s.n = 0;
	add(&s, "topdown-retiring", 151)->unit = "%";
	add(&s, "topdown-bad-spec", 3.9)->unit = "%";
	add(&s, "topdown-fe-bound", 26)->unit = "%";
	c = run(&s, 0);
	g = perfan_classify_whole(c);
	ck_assert_int_eq(g->verdict, PERFAN_VERDICT_UNKNOWN);
	ck_assert_ptr_nonnull(strstr(g->reason, "invalid"));
	perfan_classify_free(c);
}
END_TEST

START_TEST(test_groups)
{
	/* two intervals of one second, then the whole */
	struct set s = {0};
	add(&s, "task-clock", 500)->interval = 1.0;
	add(&s, "cycles", 1e9)->interval = 1.0;
	add(&s, "instructions", 3e9)->interval = 1.0;
	add(&s, "task-clock", 2000)->interval = 2.0;
	add(&s, "cycles", 1e9)->interval = 2.0;
	add(&s, "instructions", 1e9)->interval = 2.0;
	perfan_classify *c = run(&s, 0);
	ck_assert_uint_eq(perfan_classify_nr_groups(c), 3);
	const struct perfan_classify_group *g0 = perfan_classify_group(c, 0),
					   *g1 = perfan_classify_group(c, 1),
					   *w = perfan_classify_whole(c);
	ck_assert_double_eq(g0->interval, 1.0);
	ck_assert_double_eq_tol(g0->m.ipc, 3, 1e-12);
	ck_assert_double_eq_tol(g0->m.cpus_utilized, 0.5, 1e-12);
	ck_assert_double_eq_tol(g1->m.ipc, 1, 1e-12);
	ck_assert_double_eq_tol(g1->m.cpus_utilized, 2, 1e-12);
	ck_assert(w->whole);
	ck_assert_double_eq_tol(w->m.ipc, 2, 1e-12);
	ck_assert_double_eq_tol(w->m.cpus_utilized, 1.25, 1e-12);
	ck_assert_ptr_eq(w, perfan_classify_group(c, 2));

	/* per core: the aggregation keys in input order */
	s.n = 0;
	add(&s, "cycles", 1e9)->aggr = "S0-C0";
	add(&s, "instructions", 5e8)->aggr = "S0-C0";
	add(&s, "cycles", 1e9)->aggr = "S0-C1";
	not_supported(&s, "instructions");
	s.c[s.n - 1].aggr = "S0-C1";
	perfan_classify_free(c);
	c = run(&s, 0);
	ck_assert_uint_eq(perfan_classify_nr_groups(c), 3);
	ck_assert_str_eq(perfan_classify_group(c, 0)->aggr, "S0-C0");
	ck_assert_str_eq(perfan_classify_group(c, 1)->aggr, "S0-C1");
	ck_assert_int_eq(perfan_classify_group(c, 1)->verdict,
			 PERFAN_VERDICT_UNKNOWN);
	ck_assert(isnan(perfan_classify_group(c, 1)->m.ipc));
	perfan_classify_free(c);
}
END_TEST

START_TEST(test_write)
{
	struct set s = {0};
	basic(&s, 1e9, 8e8, 1e7, 1e5, 1e8, 8e6);
	perfan_classify *c = run(&s, 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_int_eq(perfan_classify_write(c, fp, NULL), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "whole: bad-speculation"));
	ck_assert_ptr_nonnull(strstr(buf, "stat-shadow.c"));
	free(buf);
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(
		perfan_classify_write(
			c, fp,
			&(struct perfan_classify_write_opts){
				sizeof(struct perfan_classify_write_opts),
				PERFAN_CLASSIFY_JSON}),
		0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "\"verdict\": \"bad-speculation\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"ipc\": 0.8"));
	free(buf);
	perfan_classify_free(c);
}
END_TEST

START_TEST(test_from_parser)
{
	/* ../shared/peer-data/perf-stat/05: IPC 1.00, 5.79 % branch misses */
	static const char text[] =
		" Performance counter stats for 'ls':\n"
		"         1,036,537      cycles:u\n"
		"         1,040,272      instructions:u            #    1.00  "
		"insn per cycle\n"
		"           208,875      branches:u\n"
		"            12,090      branch-misses:u           #    5.79% "
		"of all branches\n"
		"\n       0.002599947 seconds time elapsed\n";
	perfan_stat *st = NULL;
	int rc = perfan_stat_parse(&st, text, sizeof(text) - 1, NULL);
	if (rc) {
		fprintf(stderr, "SKIP: perf stat parser: %s\n",
			perfan_error_last());
		return;
	}
	size_t n = perfan_stat_nr_counters(st);
	ck_assert_uint_eq(n, 4);
	struct perfan_stat_counter cs[4];
	for (size_t i = 0; i < n; i++)
		cs[i] = *perfan_stat_counter(st, i);
	perfan_classify *c = NULL;
	ck_assert_int_eq(perfan_classify_new(&c, cs, n, NULL), 0);
	const struct perfan_classify_group *g = perfan_classify_whole(c);
	ck_assert_double_eq_tol(g->m.ipc, 1040272.0 / 1036537, 1e-12);
	ck_assert_int_eq(g->verdict, PERFAN_VERDICT_BAD_SPECULATION);
	perfan_classify_free(c);
	perfan_stat_free(st);
}
END_TEST

/* perfan_classify_stat on real files: a verdict per run, per PMU, and a
 * combined reading only where runs of one command complement each other. */
static perfan_classify *classify_testdata(const char *rel, perfan_stat **st)
{
	size_t len;
	char *buf = tu_slurp(tu_testdata(rel), &len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(perfan_stat_parse(st, buf, len, NULL), 0);
	free(buf);
	perfan_classify *c = NULL;
	ck_assert_int_eq(perfan_classify_stat(&c, *st, NULL), 0);
	return c;
}

START_TEST(test_stat_runs)
{
	perfan_stat *st = NULL;
	perfan_classify *c =
		classify_testdata("perf-stat-local/two-commands.txt", &st);
	ck_assert_uint_eq(perfan_classify_nr_groups(c), 2);
	const struct perfan_classify_group *a = perfan_classify_group(c, 0),
					   *b = perfan_classify_group(c, 1);
	ck_assert(a->whole && b->whole);
	ck_assert_uint_eq(a->run, 0);
	ck_assert_uint_eq(b->run, 1);
	ck_assert_str_eq(a->command, "sleep 0.3");
	ck_assert_int_eq(a->verdict, PERFAN_VERDICT_MOSTLY_WAITING);
	ck_assert_int_eq(b->verdict, PERFAN_VERDICT_CPU_BOUND);
	ck_assert(a->time.on_cpu < 0.05 && b->time.on_cpu > 0.95);
	ck_assert_ptr_eq(perfan_classify_whole(c), b);
	perfan_classify_free(c);
	perfan_stat_free(st);

	c = classify_testdata("perf-stat-local/complementary.txt", &st);
	size_t n = perfan_classify_nr_groups(c);
	ck_assert_uint_eq(n, 3);
	const struct perfan_classify_group *w = perfan_classify_whole(c);
	ck_assert_ptr_eq(w, perfan_classify_group(c, 2));
	ck_assert(w->combined && w->whole);
	ck_assert(!isnan(w->time.on_cpu));
	ck_assert(!isnan(w->time.context_switches_per_sec));
	ck_assert(isnan(
		perfan_classify_group(c, 0)->time.context_switches_per_sec));
	perfan_classify_free(c);
	perfan_stat_free(st);

	/* hybrid: the run's whole, then cpu_atom's and cpu_core's */
	c = classify_testdata(
		"perf-stat-public/hybrid-intel-detailed-tdl1-per-pmu.txt", &st);
	ck_assert_uint_eq(perfan_classify_nr_groups(c), 3);
	w = perfan_classify_whole(c);
	ck_assert_ptr_eq(w, perfan_classify_group(c, 0));
	ck_assert_ptr_nonnull(w->warning);
	ck_assert_uint_eq(w->nr_pmus, 2);
	const struct perfan_classify_group *core = perfan_classify_group(c, 2);
	ck_assert_str_eq(core->pmu, "cpu_core");
	ck_assert_double_eq_tol(core->m.ipc, 42089779793.0 / 38479933210.0,
				1e-12);
	ck_assert_double_eq_tol(core->m.min_running_pct, 35.64, 1e-12);
	ck_assert_int_eq(core->verdict, PERFAN_VERDICT_BACKEND_BOUND);
	/* cycle-weighted: the whole's IPC is all instructions over all
	 * cycles */
	ck_assert_double_eq_tol(w->m.ipc,
				(42089779793.0 + 22109621224.0) /
					(38479933210.0 + 29425190356.0),
				1e-12);
	perfan_classify_free(c);
	perfan_stat_free(st);
}
END_TEST

static Suite *classify_suite(void)
{
	Suite *s = suite_create("classify");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_matrix_multiply_not_memory_bound);
	tcase_add_test(tc, test_rules);
	tcase_add_test(tc, test_unknown_without_counters);
	tcase_add_test(tc, test_multiplexed);
	tcase_add_test(tc, test_hybrid);
	tcase_add_test(tc, test_tma);
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_from_parser);
	tcase_add_test(tc, test_stat_runs);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(classify_suite)
