/* check_diff.c: perfan_diff on made-up profiles (shares, recursion counted
 * once, new and vanished functions, order of the sections, Amdahl), the
 * false-alarm rate on unchanged
 * synthetic runs (a Zipf profile, 3 runs of 1000 samples a side) and the
 * detection of a planted 10 % growth, sides without variance, a share
 * that grows only because the rest shrank, and the three-column folded
 * output. */
#define _GNU_SOURCE
#include <math.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static perfan_profile *profile(void)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, "samples", "samples"), 0);
	return p;
}

/* Add "a;b;c" with weight W. */
static void add(perfan_profile *p, const char *stack, uint64_t w)
{
	perfan_frame_id f[32];
	size_t n = 0;
	char *copy = strdup(stack), *save = NULL;
	for (char *t = strtok_r(copy, ";", &save); t;
	     t = strtok_r(NULL, ";", &save))
		ck_assert_int_eq(perfan_profile_frame(p, &f[n++], t, NULL, NULL,
						      0, PERFAN_FRAME_NATIVE),
				 0);
	ck_assert_int_eq(perfan_profile_add(p, f, n, 0, w, NULL, NULL), 0);
	free(copy);
}

static const struct perfan_diff_row *row(const perfan_diff *d, const char *name)
{
	for (size_t i = 0; i < perfan_diff_nr_rows(d); i++)
		if (!strcmp(perfan_diff_row(d, i)->name, name))
			return perfan_diff_row(d, i);
	ck_abort_msg("no row %s", name);
	return NULL;
}

START_TEST(test_shares_and_sections)
{
	/* before: main 100 = fix 60 (recursive) + keep 30 + old 10
	 * after:  main  50 = fix 10 + keep 30 + new 10 */
	perfan_profile *b = profile(), *a = profile();
	add(b, "main;fix;fix", 40);
	add(b, "main;fix", 20);
	add(b, "main;keep", 30);
	add(b, "main;old", 10);
	add(a, "main;fix", 10);
	add(a, "main;keep", 30);
	add(a, "main;new", 10);
	struct perfan_diff_run rb = {b, 0, "b"}, ra = {a, 0, "a"};
	perfan_diff *d;
	ck_assert_int_eq(perfan_diff_new(&d, &rb, 1, &ra, 1, NULL), 0);
	ck_assert(!perfan_diff_tested(d));
	const struct perfan_diff_row *fix = row(d, "fix");
	ck_assert_double_eq_tol(fix->before_total, 0.6, 1e-12); /* once */
	ck_assert_double_eq_tol(fix->before_self, 0.6, 1e-12);
	ck_assert_double_eq_tol(fix->after_total, 0.2, 1e-12);
	ck_assert_double_eq_tol(fix->total_change, -0.4, 1e-12);
	ck_assert_double_eq_tol(fix->total_relative, -0.4 / 0.6, 1e-12);
	const struct perfan_diff_row *keep = row(d, "keep");
	ck_assert_double_eq_tol(keep->before_total, 0.3, 1e-12);
	ck_assert_double_eq_tol(keep->after_total, 0.6, 1e-12); /* share */
	ck_assert(row(d, "new")->is_new);
	ck_assert(row(d, "old")->vanished);
	ck_assert(isinf(row(d, "new")->self_relative));
	/* shrinking first, largest drop first; then growth */
	ck_assert_str_eq(perfan_diff_row(d, 0)->name, "fix");
	ck_assert_str_eq(perfan_diff_row(d, 1)->name, "old");
	ck_assert_str_eq(perfan_diff_row(d, 2)->name, "keep");
	/* Amdahl: by weight, fix -50, old -10, new +10; keep 0 */
	struct perfan_diff_amdahl am;
	perfan_diff_amdahl(d, &am);
	ck_assert_double_eq_tol(am.speedup_whole, 2.0, 1e-12);
	ck_assert_double_eq_tol(am.speedup_top, 2.0, 1e-12);
	ck_assert_str_eq(am.top[0]->name, "fix");
	char *txt = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&txt, &len);
	ck_assert_int_eq(perfan_diff_write(d, fp, NULL), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(txt, "cannot be judged"));
	ck_assert_ptr_nonnull(strstr(txt, "Shrank:"));
	ck_assert_ptr_nonnull(strstr(txt, "Grew:"));
	ck_assert_ptr_nonnull(strstr(txt, "vanished"));
	ck_assert_ptr_nonnull(strstr(txt, "2.00x faster"));
	free(txt);
	perfan_diff_free(d);
	/* absolute: raw weights */
	struct perfan_diff_opts o = PERFAN_OPTS_INIT(struct perfan_diff_opts);
	o.absolute = 1;
	ck_assert_int_eq(perfan_diff_new(&d, &rb, 1, &ra, 1, &o), 0);
	ck_assert_double_eq(row(d, "keep")->total_change, 0);
	ck_assert_double_eq(row(d, "fix")->before_total, 60);
	perfan_diff_free(d);
	perfan_profile_free(a);
	perfan_profile_free(b);
}
END_TEST

/* ---- synthetic runs ---------------------------------------------------------- */

static uint64_t rng_state;
static double uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}

#define NFUNC 12
/* A run of N samples over NFUNC functions (main;fK), with shares W (sum
 * 1): multinomial sampling noise, as a profiler's. */
static perfan_profile *synthetic(const double *w, int n)
{
	perfan_profile *p = profile();
	uint64_t count[NFUNC] = {0};
	for (int i = 0; i < n; i++) {
		double u = uniform(), acc = 0;
		int k = 0;
		for (; k < NFUNC - 1; k++) {
			acc += w[k];
			if (u < acc)
				break;
		}
		count[k]++;
	}
	for (int k = 0; k < NFUNC; k++) {
		char s[32];
		snprintf(s, sizeof(s), "main;f%d", k);
		if (count[k])
			add(p, s, count[k]);
	}
	return p;
}

/* Significant rows of 5 runs each of BEFORE and AFTER shares; whether
 * WANT is among them. */
static size_t significant(const double *wb, const double *wa, const char *want,
			  int *found, const struct perfan_diff_opts *o)
{
	perfan_profile *p[10];
	struct perfan_diff_run r[10];
	for (int i = 0; i < 10; i++) {
		/* a minute at 999 Hz, give or take, as real runs differ */
		p[i] = synthetic(i < 5 ? wb : wa,
				 50000 + (int)(20000 * uniform()));
		r[i] = (struct perfan_diff_run){p[i], 0, NULL};
	}
	perfan_diff *d;
	ck_assert_int_eq(perfan_diff_new(&d, r, 5, r + 5, 5, o), 0);
	ck_assert(perfan_diff_tested(d));
	ck_assert(!isnan(perfan_diff_noise_floor(d)));
	size_t sig = 0;
	for (size_t i = 0; i < perfan_diff_nr_rows(d); i++)
		if (perfan_diff_row(d, i)->significant) {
			const struct perfan_diff_row *w = perfan_diff_row(d, i);
			if (want && !strcmp(w->name, want))
				*found = 1;
			sig++;
		}
	perfan_diff_free(d);
	for (int i = 0; i < 10; i++)
		perfan_profile_free(p[i]);
	return sig;
}

START_TEST(test_noise_and_planted_growth)
{
	double w[NFUNC], g[NFUNC], sum = 0;
	for (int k = 0; k < NFUNC; k++)
		sum += w[k] = 1.0 / (k + 2);
	for (int k = 0; k < NFUNC; k++)
		w[k] /= sum;
	/* f3 grows by 10 % of its own time: the others' shares shrink */
	memcpy(g, w, sizeof(g));
	g[3] *= 1.10;
	sum = 0;
	for (int k = 0; k < NFUNC; k++)
		sum += g[k];
	for (int k = 0; k < NFUNC; k++)
		g[k] /= sum;
	/* runs of about a minute each, not of the same work: the shares
	 * are what compares (--shares) */
	struct perfan_diff_opts o = PERFAN_OPTS_INIT(struct perfan_diff_opts);
	o.shares_only = 1;
	/* unchanged: any false finding in at most a few of 20 trials
	 * (with all functions unchanged, Benjamini-Hochberg keeps the
	 * chance per trial under 5 %) */
	rng_state = 0x9E3779B97F4A7C15ull;
	int alarms = 0;
	for (int t = 0; t < 20; t++)
		alarms += significant(w, w, NULL, NULL, &o) > 0;
	ck_assert_int_le(alarms, 1);
	/* planted: found every time (others may be too: their shares did
	 * drop a little as f3's grew, and false alarms stay possible) */
	for (int t = 0; t < 5; t++) {
		int found = 0;
		significant(w, g, "f3", &found, &o);
		ck_assert_msg(found, "trial %d: f3 not found", t);
	}
}
END_TEST

/* A run of N samples drawn from shares W over NW functions "fK" under
 * main, into P: a profiler's multinomial sampling. */
static void draw(perfan_profile *p, const double *w, int nw, int n)
{
	uint64_t *count = calloc((size_t)nw, sizeof(*count));
	for (int i = 0; i < n; i++) {
		double u = uniform(), acc = 0;
		int k = 0;
		for (; k < nw - 1; k++) {
			acc += w[k];
			if (u < acc)
				break;
		}
		count[k]++;
	}
	for (int k = 0; k < nw; k++) {
		char s[32];
		snprintf(s, sizeof(s), "main;f%d", k);
		if (count[k])
			add(p, s, count[k]);
	}
	free(count);
}

START_TEST(test_unchanged_zipf)
{
	/* the trial: 3 runs a side of 1000 samples over 200
	 * functions with shares ~ 1/rank, both sides from one distribution:
	 * no significant row in at least 95 % of 20 trials */
	enum { NW = 200, RUNS = 3, TRIALS = 20 };
	double w[NW], sum = 0;
	for (int k = 0; k < NW; k++)
		sum += w[k] = 1.0 / (k + 1);
	for (int k = 0; k < NW; k++)
		w[k] /= sum;
	rng_state = 0x2545F4914F6CDD1Dull;
	int alarms = 0;
	size_t tested = 0;
	for (int t = 0; t < TRIALS; t++) {
		perfan_profile *p[2 * RUNS];
		struct perfan_diff_run r[2 * RUNS];
		for (int i = 0; i < 2 * RUNS; i++) {
			p[i] = profile();
			draw(p[i], w, NW, 1000);
			r[i] = (struct perfan_diff_run){p[i], 0, NULL};
		}
		perfan_diff *d;
		ck_assert_int_eq(
			perfan_diff_new(&d, r, RUNS, r + RUNS, RUNS, NULL), 0);
		size_t sig = 0;
		for (size_t i = 0; i < perfan_diff_nr_rows(d); i++) {
			sig += perfan_diff_row(d, i)->significant;
			tested += perfan_diff_row(d, i)->tested;
		}
		alarms += sig > 0;
		perfan_diff_free(d);
		for (int i = 0; i < 2 * RUNS; i++)
			perfan_profile_free(p[i]);
	}
	printf("unchanged Zipf: %d of %d trials with a significant row; "
	       "%.1f functions tested a trial\n",
	       alarms, TRIALS, (double)tested / TRIALS);
	ck_assert_int_le(alarms, 1);
	ck_assert_uint_gt(tested, 10 * TRIALS); /* the test did run */
}
END_TEST

/* RUNS profiles of main;f (counts F[i]) and main;g (the rest of 100). */
static void counted(perfan_profile **p, struct perfan_diff_run *r, const int *f,
		    int runs)
{
	for (int i = 0; i < runs; i++) {
		p[i] = profile();
		if (f[i])
			add(p[i], "main;f", (uint64_t)f[i]);
		add(p[i], "main;g", (uint64_t)(100 - f[i]));
		r[i] = (struct perfan_diff_run){p[i], 0, NULL};
	}
}

START_TEST(test_zero_variance)
{
	const int zero[] = {0, 0, 0}, nine[] = {9, 9, 7}, one[] = {1, 0, 1};
	perfan_profile *p[6];
	struct perfan_diff_run r[6];
	perfan_diff *d;
	/* 0,0,0 against 9,9,7: new, and significant */
	counted(p, r, zero, 3);
	counted(p + 3, r + 3, nine, 3);
	ck_assert_int_eq(perfan_diff_new(&d, r, 3, r + 3, 3, NULL), 0);
	const struct perfan_diff_row *f = row(d, "f");
	ck_assert(f->is_new && f->tested);
	ck_assert_msg(f->significant && f->self_significant, "q %g", f->p_self);
	ck_assert(!row(d, "main")->significant); /* 100 % both sides */
	perfan_diff_free(d);
	for (int i = 0; i < 6; i++)
		perfan_profile_free(p[i]);
	/* 1,0,1 against 0,0,0: sampling noise, whatever the floor */
	struct perfan_diff_opts o = PERFAN_OPTS_INIT(struct perfan_diff_opts);
	for (int floor = 0; floor < 2; floor++) {
		o.min_share = floor ? 1e-6 : 0;
		counted(p, r, one, 3);
		counted(p + 3, r + 3, zero, 3);
		ck_assert_int_eq(perfan_diff_new(&d, r, 3, r + 3, 3, &o), 0);
		ck_assert(!row(d, "f")->significant);
		ck_assert(!row(d, "g")->significant);
		perfan_diff_free(d);
		for (int i = 0; i < 6; i++)
			perfan_profile_free(p[i]);
	}
}
END_TEST

START_TEST(test_share_of_the_rest)
{
	/* the same work: fix drops from 900 to 100 samples a run, keep
	 * stays at 100; keep's share grows from 10 % to 50 % but its time
	 * per run does not: not a change of keep, unless asked for shares
	 * only. fix's change, with its untested callee's, is all of the
	 * whole's, and Amdahl says so. */
	perfan_profile *p[6];
	struct perfan_diff_run r[6];
	const int fixb[] = {900, 905, 895}, fixa[] = {100, 98, 103};
	const int keep[] = {100, 97, 103, 101, 99, 100};
	for (int i = 0; i < 6; i++) {
		p[i] = profile();
		add(p[i], "main;fix",
		    (uint64_t)(i < 3 ? fixb[i] : fixa[i - 3]));
		add(p[i], "main;keep", (uint64_t)keep[i]);
		/* a callee too small to test: its time goes with fix's */
		if (i < 3)
			add(p[i], "main;fix;tiny", 4);
		r[i] = (struct perfan_diff_run){p[i], 0, NULL};
	}
	perfan_diff *d;
	ck_assert_int_eq(perfan_diff_new(&d, r, 3, r + 3, 3, NULL), 0);
	ck_assert(row(d, "fix")->significant);
	ck_assert(!row(d, "tiny")->tested && !row(d, "tiny")->amdahl);
	ck_assert(row(d, "fix")->amdahl && !row(d, "keep")->amdahl);
	ck_assert_double_eq_tol(row(d, "fix")->before_amdahl_weight, 904, 1e-9);
	ck_assert_double_eq_tol(row(d, "fix")->after_amdahl_weight, 301.0 / 3,
				1e-9);
	ck_assert(row(d, "keep")->self_change > 0.3);
	ck_assert(!row(d, "keep")->significant);
	struct perfan_diff_amdahl am;
	perfan_diff_amdahl(d, &am);
	ck_assert_uint_eq(am.nr_top, 1);
	ck_assert_str_eq(am.top[0]->name, "fix");
	/* 1004 / (1004 - 803.67): the whole's change */
	ck_assert_double_eq_tol(am.speedup_top, 1004.0 / 200.33, 0.001);
	ck_assert_double_eq_tol(am.speedup_whole, 1004.0 / 200.33, 0.001);
	double scale;
	ck_assert_str_eq(perfan_diff_unit(d, &scale), "samples");
	ck_assert_double_eq(scale, 1);
	char *txt = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&txt, &len);
	ck_assert_int_eq(perfan_diff_write(d, fp, NULL), 0);
	fclose(fp);
	ck_assert_msg(strstr(txt, "the significant changes, each with its "
				  "callees that did not change (fix -803.7) "
				  "sum to -803.7 samples per run"),
		      "%s", txt);
	ck_assert_ptr_nonnull(strstr(txt, "the whole changed -803.7 samples"));
	free(txt);
	perfan_diff_free(d);
	struct perfan_diff_opts o = PERFAN_OPTS_INIT(struct perfan_diff_opts);
	o.shares_only = 1;
	ck_assert_int_eq(perfan_diff_new(&d, r, 3, r + 3, 3, &o), 0);
	ck_assert(row(d, "keep")->significant);
	perfan_diff_free(d);
	/* one run a side: no test, but the sampling noise of the change */
	ck_assert_int_eq(perfan_diff_new(&d, r, 1, r + 3, 1, NULL), 0);
	ck_assert(!perfan_diff_tested(d));
	const struct perfan_diff_row *k = row(d, "keep");
	ck_assert(!k->significant && isnan(k->p_self));
	/* 1.96 sqrt(p0 (1 - p0) (1 / 1004 + 1 / 201)), p0 = 201 / 1205:
	 * the binomial noise of both shares at the pooled one */
	double p0 = 201.0 / 1205;
	ck_assert_double_eq_tol(
		k->self_noise,
		1.959964 * sqrt(p0 * (1 - p0) * (1.0 / 1004 + 1.0 / 201)),
		1e-9);
	perfan_diff_free(d);
	for (int i = 0; i < 6; i++)
		perfan_profile_free(p[i]);
}
END_TEST

START_TEST(test_folded_three_columns)
{
	perfan_profile *b = profile(), *a = profile();
	add(b, "main;x", 3);
	add(b, "main;y", 1);
	add(a, "main;x", 2);
	add(a, "main;z", 6);
	char *txt = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&txt, &len);
	ck_assert_int_eq(perfan_diff_write_folded(b, 0, a, 0, 1, fp), 0);
	fclose(fp);
	ck_assert_str_eq(txt, "main;x 3 2\nmain;y 1 0\nmain;z 0 6\n");
	free(txt);
	/* normalized: BEFORE scaled by 8/4, exactly */
	fp = open_memstream(&txt, &len);
	ck_assert_int_eq(perfan_diff_write_folded(b, 0, a, 0, 0, fp), 0);
	fclose(fp);
	ck_assert_str_eq(txt, "main;x 6 2\nmain;y 2 0\nmain;z 0 6\n");
	free(txt);
	add(a, "main;z", 1); /* 9/4: not whole */
	fp = open_memstream(&txt, &len);
	ck_assert_int_eq(perfan_diff_write_folded(b, 0, a, 0, 0, fp), 0);
	fclose(fp);
	ck_assert_str_eq(txt, "main;x 6.75 2\nmain;y 2.25 0\nmain;z 0 7\n");
	free(txt);
	perfan_profile_free(a);
	perfan_profile_free(b);
}
END_TEST

START_TEST(test_errors)
{
	perfan_diff *d;
	perfan_profile *p = profile();
	struct perfan_diff_run r = {p, 3, "x"};
	ck_assert_int_eq(perfan_diff_new(&d, &r, 1, &r, 0, NULL),
			 PERFAN_EINVAL);
	ck_assert_int_eq(perfan_diff_new(&d, &r, 1, &r, 1, NULL),
			 PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "column 3"));
	ck_assert_int_eq(perfan_diff_sort_parse("total"),
			 PERFAN_DIFF_SORT_TOTAL);
	ck_assert_int_eq(perfan_diff_sort_parse("x"), -1);
	perfan_profile_free(p);
}
END_TEST

static Suite *diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_shares_and_sections);
	tcase_add_test(tc, test_noise_and_planted_growth);
	tcase_add_test(tc, test_unchanged_zipf);
	tcase_add_test(tc, test_zero_variance);
	tcase_add_test(tc, test_share_of_the_rest);
	tcase_add_test(tc, test_folded_three_columns);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(diff_suite)
