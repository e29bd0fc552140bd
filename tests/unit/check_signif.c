/* check_signif.c: the significance tests of analysis/signif.c against
 * known values: Welch's t-test and its degrees of freedom, t quantiles,
 * Holm's and Benjamini-Hochberg's corrections, the two-sided Poisson test
 * of two counts, and the variance floor of a side without variance (moved
 * from check_diff.c, which tests the diff that uses them). */
#include <math.h>

#include "analysis/signif.h"
#include "testutil.h"

START_TEST(test_statistics)
{
	/* t = -1, df = 8: p = 0.34659 (two-sided) */
	double x[] = {1, 2, 3, 4, 5}, y[] = {2, 3, 4, 5, 6}, se, df;
	ck_assert_double_eq_tol(perfan__welch(x, 5, y, 5, &se, &df), 0.346594,
				1e-5);
	ck_assert_double_eq_tol(df, 8, 1e-9);
	ck_assert_double_eq_tol(perfan__t_quantile(0.05, 8), 2.306004, 1e-5);
	ck_assert_double_eq_tol(perfan__t_quantile(0.05, 1e6), 1.959966, 1e-4);
	/* unequal variances: Welch's df */
	double u[] = {10, 12, 11, 13, 9}, v[] = {20, 30, 25, 35, 15};
	ck_assert_double_lt(perfan__welch(u, 5, v, 5, &se, &df), 0.02);
	ck_assert_double_lt(df, 5);
	/* Holm: 0.01 0.04 0.03 0.005 -> 0.03 0.06 0.06 0.02 */
	double p[] = {0.01, 0.04, 0.03, 0.005};
	ck_assert_int_eq(perfan__holm(p, 4), 0);
	ck_assert_double_eq_tol(p[0], 0.03, 1e-12);
	ck_assert_double_eq_tol(p[1], 0.06, 1e-12);
	ck_assert_double_eq_tol(p[2], 0.06, 1e-12);
	ck_assert_double_eq_tol(p[3], 0.02, 1e-12);
	/* Benjamini-Hochberg: 0.005 0.01 0.03 0.04 ranked 1..4 ->
	 * 0.02 0.02 0.04 0.04 */
	double q[] = {0.01, 0.04, 0.03, 0.005, NAN};
	ck_assert_int_eq(perfan__bh(q, 5), 0);
	ck_assert_double_eq_tol(q[0], 0.02, 1e-12);
	ck_assert_double_eq_tol(q[1], 0.04, 1e-12);
	ck_assert_double_eq_tol(q[2], 0.04, 1e-12);
	ck_assert_double_eq_tol(q[3], 0.02, 1e-12);
	ck_assert(isnan(q[4]));
	/* counts: 6 against 0 with equal exposure: 2 / 2^6; 2 against 0:
	 * 2 / 2^2; 10 of 100 against 10 of 100: 1 */
	ck_assert_double_eq_tol(perfan__poisson_two_sided(0, 1, 6, 1), 0.03125,
				1e-9);
	ck_assert_double_eq_tol(perfan__poisson_two_sided(2, 3, 0, 3), 0.5,
				1e-9);
	ck_assert_double_eq_tol(perfan__poisson_two_sided(10, 100, 10, 100), 1,
				1e-9);
	/* 3 against 30 in equal exposure: far from chance */
	ck_assert_double_lt(perfan__poisson_two_sided(3, 1, 30, 1), 1e-5);
	/* a side without variance is floored: 1,0,1 against 0,0,0 shares
	 * of 100 samples is what sampling gives; 0,0,0 against 9,9,7 is
	 * not (the floor is the variance of a run of 100 samples at the
	 * pooled share) */
	double one[] = {0.01, 0, 0.01}, none[] = {0, 0, 0};
	double p0 = 2.0 / 600, fl = p0 * (1 - p0) / 100;
	ck_assert_double_gt(
		perfan__welch_floor(one, 3, fl, none, 3, fl, &se, &df), 0.05);
	double nine[] = {0.09, 0.09, 0.07};
	p0 = 25.0 / 600;
	fl = p0 * (1 - p0) / 100;
	ck_assert_double_lt(
		perfan__welch_floor(none, 3, fl, nine, 3, fl, &se, &df), 1e-4);
	ck_assert(isinf(df)); /* both at their floor: known variances */
	/* without the floor, 0,0,0 against 1,1,1 would be p = 0 */
	double ones[] = {0.01, 0.01, 0.01};
	ck_assert_double_eq(perfan__welch(none, 3, ones, 3, &se, &df), 0);
	ck_assert_double_gt(
		perfan__welch_floor(none, 3, fl, ones, 3, fl, &se, &df), 0.05);
}
END_TEST

static Suite *signif_suite(void)
{
	Suite *s = suite_create("signif");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_statistics);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(signif_suite)
