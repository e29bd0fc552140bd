/* check_smoke.c: the library links and answers; proves the test pipeline
 * (build, Check, ctest) works end to end. */
#include <perfan/perfan.h>
#include <string.h>

#include "testutil.h"

START_TEST(test_version)
{
	ck_assert_str_eq(perfan_version(), "0.1.0");
}
END_TEST

START_TEST(test_error_name)
{
	const char *name = perfan_error_name(PERFAN_EFORMAT);

	ck_assert_ptr_nonnull(name);
	ck_assert_int_gt(strlen(name), 0);
	ck_assert_str_ne(name, perfan_error_name(12345));
}
END_TEST

START_TEST(test_error_last_never_null)
{
	ck_assert_ptr_nonnull(perfan_error_last());
}
END_TEST

static Suite *smoke_suite(void)
{
	Suite *s = suite_create("smoke");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_version);
	tcase_add_test(tc, test_error_name);
	tcase_add_test(tc, test_error_last_never_null);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(smoke_suite)
