/* check_scaling.c: perfan_scaling on made-up profiles whose weights follow
 * exact power laws: k recovered exactly, the interval around it, repeats
 * giving a finite interval, the whole per doubling, recursion counted once,
 * functions absent at a size or below the floor, the flag, the order, JSON,
 * and the errors. */
#define _GNU_SOURCE
#include <math.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static perfan_profile *profile(const char *name, const char *unit)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_profile_add_column(p, name, unit), 0);
	return p;
}

/* Add "a;b;c" with weight W. */
static void add(perfan_profile *p, const char *stack, uint64_t w)
{
	tu_add_stack(p, 0, stack, w);
}

static const struct perfan_scaling_row *row(const perfan_scaling *s,
					    const char *name)
{
	for (size_t i = 0; i < perfan_scaling_nr_rows(s); i++)
		if (!strcmp(perfan_scaling_row(s, i)->name, name))
			return perfan_scaling_row(s, i);
	return NULL;
}

#define NSIZES 4
static const double sizes[NSIZES] = {1000, 2000, 4000, 8000};

/* A run at size N: quad ~ n^2 (its own code), lin ~ n, rec ~ n recursive
 * (once on the stack, twice on another), FACTOR times all. */
static perfan_profile *run_at(double n, double factor)
{
	perfan_profile *p = profile("cpu-clock", "period");
	add(p, "main;quad", (uint64_t)llround(factor * n * n));
	add(p, "main;lin", (uint64_t)llround(factor * 1000 * n));
	add(p, "main;rec;rec", (uint64_t)llround(factor * 500 * n));
	add(p, "main;rec", (uint64_t)llround(factor * 500 * n));
	return p;
}

START_TEST(test_exact_power_laws)
{
	perfan_profile *p[NSIZES];
	struct perfan_scaling_run r[NSIZES];
	for (int i = 0; i < NSIZES; i++) {
		p[i] = run_at(sizes[i], 1);
		r[i] = (struct perfan_scaling_run){sizes[i], p[i], 0, NULL};
	}
	perfan_scaling *s;
	ck_assert_int_eq(perfan_scaling_new(&s, r, NSIZES, NULL), 0);
	ck_assert_str_eq(perfan_scaling_unit(s), "ns"); /* a clock's period */
	const struct perfan_scaling_row *q = row(s, "quad");
	ck_assert_ptr_nonnull(q);
	ck_assert(q->fitted);
	ck_assert_double_eq_tol(q->total.exponent, 2, 1e-9);
	ck_assert_double_eq_tol(q->self.exponent, 2, 1e-9);
	ck_assert_uint_eq(q->total.df, NSIZES - 2);
	/* no scatter: an interval of no width, around 2 */
	ck_assert(q->total.lo <= 2 + 1e-9 && q->total.hi >= 2 - 1e-9);
	ck_assert_double_eq_tol(q->total.hi - q->total.lo, 0, 1e-6);
	ck_assert(q->flagged);
	const struct perfan_scaling_row *l = row(s, "lin");
	ck_assert_double_eq_tol(l->total.exponent, 1, 1e-9);
	ck_assert(!l->flagged);
	/* rec counted once per stack: 1000 n, not 1500 n */
	const struct perfan_scaling_row *rc = row(s, "rec");
	ck_assert_double_eq_tol(rc->at_smallest, 1000.0 * 1000, 1e-6);
	ck_assert_double_eq_tol(rc->at_largest, 1000.0 * 8000, 1e-6);
	ck_assert_double_eq_tol(rc->self.exponent, 1, 1e-9);
	/* main has no self weight: no self fit */
	const struct perfan_scaling_row *m = row(s, "main");
	ck_assert(m->fitted && isnan(m->self.exponent));
	/* by exponent: quad first */
	ck_assert_str_eq(perfan_scaling_row(s, 0)->name, "quad");
	/* the whole: n^2 + 2000 n; per doubling (t2 / t1) */
	ck_assert_uint_eq(perfan_scaling_nr_sizes(s), NSIZES);
	for (size_t i = 0; i < NSIZES; i++) {
		const struct perfan_scaling_size *z = perfan_scaling_size(s, i);
		double n = sizes[i], t = n * n + 2000 * n;
		ck_assert_double_eq(z->size, n);
		ck_assert_double_eq_tol(z->mean, t, 1e-6);
		if (!i) {
			ck_assert(isnan(z->per_doubling));
			continue;
		}
		double pn = sizes[i - 1], pt = pn * pn + 2000 * pn;
		ck_assert_double_eq_tol(z->per_doubling, t / pt, 1e-9);
		ck_assert_double_eq_tol(z->exponent, log2(t / pt), 1e-9);
	}
	const struct perfan_scaling_fit *w = perfan_scaling_whole(s);
	ck_assert(w->exponent > 1.2 && w->exponent < 2);
	/* curved on log-log: residuals, so a real interval */
	ck_assert(w->lo < w->exponent && w->exponent < w->hi);
	perfan_scaling_free(s);

	/* the order by time at the largest size, and by name */
	struct perfan_scaling_opts o =
		PERFAN_OPTS_INIT(struct perfan_scaling_opts);
	o.sort = PERFAN_SCALING_SORT_NAME;
	ck_assert_int_eq(perfan_scaling_new(&s, r, NSIZES, &o), 0);
	ck_assert_str_eq(perfan_scaling_row(s, 0)->name, "lin");
	perfan_scaling_free(s);
	o.sort = PERFAN_SCALING_SORT_TIME;
	ck_assert_int_eq(perfan_scaling_new(&s, r, NSIZES, &o), 0);
	ck_assert_str_eq(perfan_scaling_row(s, 0)->name, "main");
	ck_assert_str_eq(perfan_scaling_row(s, 1)->name, "quad");
	perfan_scaling_free(s);

	/* two runs: the exponent, but no degrees of freedom */
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2, NULL), 0);
	q = row(s, "quad");
	ck_assert_double_eq_tol(q->total.exponent, 2, 1e-9);
	ck_assert(isnan(q->total.lo) && isnan(q->total.hi));
	ck_assert_uint_eq(q->total.df, 0);
	perfan_scaling_free(s);
	for (int i = 0; i < NSIZES; i++)
		perfan_profile_free(p[i]);
}
END_TEST

START_TEST(test_repeats)
{
	/* two runs a size, 32 % apart (a drifting machine): the slope is
	 * still 2, the interval finite, around it, and wider than none */
	perfan_profile *p[2 * NSIZES];
	struct perfan_scaling_run r[2 * NSIZES];
	for (int i = 0; i < 2 * NSIZES; i++) {
		double n = sizes[i / 2];
		p[i] = run_at(n, i % 2 ? 1.15 : 1 / 1.15);
		r[i] = (struct perfan_scaling_run){n, p[i], 0, "run"};
	}
	perfan_scaling *s;
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2 * NSIZES, NULL), 0);
	const struct perfan_scaling_row *q = row(s, "quad");
	ck_assert_double_eq_tol(q->total.exponent, 2, 1e-6);
	ck_assert_uint_eq(q->total.df, 2 * NSIZES - 2);
	ck_assert(isfinite(q->total.lo) && isfinite(q->total.hi));
	ck_assert(q->total.lo < 2 && 2 < q->total.hi);
	ck_assert(q->total.hi - q->total.lo > 0.01);
	ck_assert(q->total.hi - q->total.lo < 1);
	/* a wider level, a wider interval */
	struct perfan_scaling_opts o =
		PERFAN_OPTS_INIT(struct perfan_scaling_opts);
	o.level = 0.99;
	perfan_scaling *s99;
	ck_assert_int_eq(perfan_scaling_new(&s99, r, 2 * NSIZES, &o), 0);
	const struct perfan_scaling_row *q99 = row(s99, "quad");
	ck_assert(q99->total.hi - q99->total.lo > q->total.hi - q->total.lo);
	perfan_scaling_free(s99);
	const struct perfan_scaling_size *z = perfan_scaling_size(s, 0);
	ck_assert_uint_eq(z->nr_runs, 2);
	ck_assert(z->max > 1.2 * z->min);

	/* JSON names the function, its exponent and interval */
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_int_eq(
		perfan_scaling_write(
			s, fp,
			&(struct perfan_scaling_write_opts){
				sizeof(struct perfan_scaling_write_opts),
				PERFAN_SCALING_JSON}),
		0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "\"name\": \"quad\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"interval\": ["));
	ck_assert_ptr_nonnull(strstr(buf, "\"per_doubling\""));
	free(buf);
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(perfan_scaling_write(s, fp, NULL), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "runs of one size differ"));
	ck_assert_ptr_nonnull(strstr(buf, "  2.00* ["));
	free(buf);
	perfan_scaling_free(s);
	for (int i = 0; i < 2 * NSIZES; i++)
		perfan_profile_free(p[i]);
}
END_TEST

START_TEST(test_absent_and_floor)
{
	perfan_profile *p[NSIZES];
	struct perfan_scaling_run r[NSIZES];
	for (int i = 0; i < NSIZES; i++) {
		p[i] = run_at(sizes[i], 1);
		/* late: only from the second size on; tiny: 1e-4 share */
		if (i)
			add(p[i], "main;late", (uint64_t)(sizes[i] * 1000));
		add(p[i], "main;tiny", (uint64_t)(sizes[i] / 10));
		r[i] = (struct perfan_scaling_run){sizes[i], p[i], 0, NULL};
	}
	perfan_scaling *s;
	ck_assert_int_eq(perfan_scaling_new(&s, r, NSIZES, NULL), 0);
	const struct perfan_scaling_row *late = row(s, "late");
	ck_assert_ptr_nonnull(late);
	ck_assert(!late->fitted && late->nr_absent == 1);
	ck_assert(isnan(late->total.exponent) && !late->flagged);
	/* the unfitted come last */
	ck_assert_ptr_eq(perfan_scaling_row(s, perfan_scaling_nr_rows(s) - 1),
			 late);
	ck_assert_ptr_null(row(s, "tiny"));
	ck_assert_uint_eq(perfan_scaling_nr_below(s), 1);
	perfan_scaling_free(s);
	/* no floor: tiny is fitted, exactly linear */
	struct perfan_scaling_opts o =
		PERFAN_OPTS_INIT(struct perfan_scaling_opts);
	o.min_share = -1;
	ck_assert_int_eq(perfan_scaling_new(&s, r, NSIZES, &o), 0);
	ck_assert_double_eq_tol(row(s, "tiny")->total.exponent, 1, 1e-9);
	ck_assert_uint_eq(perfan_scaling_nr_below(s), 0);
	perfan_scaling_free(s);
	for (int i = 0; i < NSIZES; i++)
		perfan_profile_free(p[i]);
}
END_TEST

START_TEST(test_errors)
{
	perfan_profile *a = run_at(1000, 1), *b = run_at(2000, 1);
	perfan_profile *c = profile("samples", "samples");
	perfan_profile *e = profile("cpu-clock", "period");
	add(c, "main;quad", 10);
	perfan_scaling *s = (perfan_scaling *)1;
	struct perfan_scaling_run r[2] = {{1000, a, 0, "a"}, {1000, b, 0, "b"}};
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2, NULL), PERFAN_EINVAL);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "two sizes"));
	ck_assert_int_eq(perfan_scaling_new(&s, r, 1, NULL), PERFAN_EINVAL);
	r[1].size = 0;
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2, NULL), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "run b"));
	r[1].size = -3;
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2, NULL), PERFAN_EINVAL);
	r[1].size = 2000;
	r[1].column = 5;
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2, NULL), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "column 5"));
	r[1].column = 0;
	r[1].profile = c; /* samples against ns */
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2, NULL), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "samples"));
	r[1].profile = e; /* no weight */
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2, NULL), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "no samples"));
	/* unknown options must be zero */
	struct {
		struct perfan_scaling_opts o;
		int extra;
	} big = {{.sz = sizeof(big)}, 1};
	r[1].profile = b;
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2, &big.o), PERFAN_EINVAL);
	big.extra = 0;
	ck_assert_int_eq(perfan_scaling_new(&s, r, 2, &big.o), 0);
	perfan_scaling_free(s);
	ck_assert_int_eq(perfan_scaling_sort_parse("time"),
			 PERFAN_SCALING_SORT_TIME);
	ck_assert_int_eq(perfan_scaling_sort_parse("k"), -1);
	ck_assert_int_eq(perfan_scaling_write(NULL, stdout, NULL),
			 PERFAN_EINVAL);
	perfan_scaling_free(NULL);
	perfan_profile_free(a);
	perfan_profile_free(b);
	perfan_profile_free(c);
	perfan_profile_free(e);
}
END_TEST

static Suite *scaling_suite(void)
{
	Suite *s = suite_create("scaling");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_exact_power_laws);
	tcase_add_test(tc, test_repeats);
	tcase_add_test(tc, test_absent_and_floor);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(scaling_suite)
