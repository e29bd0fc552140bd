/* check_opts.c: options structs taken whatever their version
 * (util/opts.h, as libbpf's OPTS_VALID): an older, shorter struct reads as
 * defaults for the fields it lacks, a newer, longer one is taken when the
 * fields this version does not know are zero and refused with
 * PERFAN_EINVAL when one is set; through a public call too. */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <string.h>

#include <perfan/perfan.h>

#include "testutil.h"
#include "util/opts.h"

struct known {
	size_t sz;
	int a;
	long b;
};

/* A caller built against a later version: one more field. */
struct newer {
	size_t sz;
	int a;
	long b;
	long c;
};

START_TEST(test_null_is_defaults)
{
	struct known k;
	const struct known *none = NULL;
	memset(&k, 0xff, sizeof(k));
	ck_assert_int_eq(PERFAN__OPTS_COPY(k, none), 0);
	ck_assert_uint_eq(k.sz, sizeof(k));
	ck_assert_int_eq(k.a, 0);
	ck_assert_int_eq(k.b, 0);
}
END_TEST

START_TEST(test_older_is_cut)
{
	struct known src = {.sz = offsetof(struct known, b), .a = 7, .b = 9};
	const struct known *sp = &src;
	struct known k;
	ck_assert_int_eq(PERFAN__OPTS_COPY(k, sp), 0);
	ck_assert_uint_eq(k.sz, sizeof(k));
	ck_assert_int_eq(k.a, 7);
	ck_assert_int_eq(k.b, 0); /* past the caller's size: the default */
}
END_TEST

START_TEST(test_newer_with_zero_tail)
{
	struct newer src;
	memset(&src, 0, sizeof(src));
	src.sz = sizeof(src);
	src.a = 3;
	src.b = 4;
	const struct newer *sp = &src;
	struct known k;
	ck_assert_int_eq(PERFAN__OPTS_COPY(k, sp), 0);
	ck_assert_uint_eq(k.sz, sizeof(k));
	ck_assert_int_eq(k.a, 3);
	ck_assert_int_eq(k.b, 4);
}
END_TEST

START_TEST(test_newer_with_field_set)
{
	struct newer src;
	memset(&src, 0, sizeof(src));
	src.sz = sizeof(src);
	src.a = 3;
	src.c = 1; /* a field this version does not know */
	const struct newer *sp = &src;
	struct known k;
	ck_assert_int_eq(PERFAN__OPTS_COPY(k, sp), PERFAN_EINVAL);
	/* named after the function that took them (Check's _fn here) */
	ck_assert_ptr_nonnull(
		strstr(perfan_error_last(), "test_newer_with_field_set"));
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), ": options of"));
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "not know"));
	ck_assert_int_eq(k.a, 0); /* nothing taken */
}
END_TEST

/* The same through the library's entry: a folded writer's options from a
 * newer caller with an unknown field set are refused, nothing written. */
START_TEST(test_public_call_refuses)
{
	perfan_profile *p = NULL;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	struct {
		struct perfan_folded_write_opts o;
		long later;
	} big;
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(perfan_folded_write(p, fp, &big.o), 0);
	big.later = 1;
	ck_assert_int_eq(perfan_folded_write(p, fp, &big.o), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(
		strstr(perfan_error_last(), "perfan_folded_write: options of"));
	fclose(fp);
	ck_assert_uint_eq(len, 0);
	free(buf);
	perfan_profile_free(p);
}
END_TEST

static Suite *opts_suite(void)
{
	Suite *s = suite_create("opts");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_null_is_defaults);
	tcase_add_test(tc, test_older_is_cut);
	tcase_add_test(tc, test_newer_with_zero_tail);
	tcase_add_test(tc, test_newer_with_field_set);
	tcase_add_test(tc, test_public_call_refuses);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(opts_suite)
