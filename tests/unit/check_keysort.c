/* check_keysort.c: util/keysort.c's radix sort against qsort with the
 * place as the tie-break (the stable order, by definition), on keys that
 * differ in few bytes, in all eight, negative ones, many ties, already
 * sorted; and records moved in place into that order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/keysort.h"

/* what the sort is compared with: key, then place */
static int cmp_stable(const void *a, const void *b)
{
	const struct perfan__keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* a record as large as a trace event, its key inside */
struct rec {
	int64_t key;
	uint32_t at;
	char pad[124];
};

static void check_keys(size_t n, int64_t (*gen)(size_t))
{
	struct perfan__keyed *v = malloc((n ? n : 1) * sizeof(*v));
	struct perfan__keyed *w = malloc((n ? n : 1) * sizeof(*w));
	struct rec *r = malloc((n ? n : 1) * sizeof(*r));
	ck_assert_ptr_nonnull(v);
	ck_assert_ptr_nonnull(w);
	ck_assert_ptr_nonnull(r);
	for (size_t i = 0; i < n; i++) {
		v[i] = (struct perfan__keyed){gen(i), (uint32_t)i};
		memset(&r[i], (int)(i & 0xff), sizeof(r[i]));
		r[i].key = v[i].key;
		r[i].at = (uint32_t)i;
	}
	memcpy(w, v, n * sizeof(*v));
	qsort(w, n, sizeof(*w), cmp_stable);
	ck_assert_int_eq(perfan__keysort(v, n), 0);
	/* compared in plain C, asserted once: check's asserts mark their
	 * place through a pipe, and 100 000 of them took the test past its
	 * 4 s timeout on a loaded machine */
	size_t i = 0;
	while (i < n && v[i].key == w[i].key && v[i].at == w[i].at)
		i++;
	ck_assert_msg(i == n, "sorted keys differ from qsort's at %zu", i);
	perfan__keysort_apply(r, sizeof(*r), v, n);
	/* the whole record moved, not its key alone */
	i = 0;
	while (i < n && r[i].key == w[i].key && r[i].at == w[i].at &&
	       (unsigned char)r[i].pad[123] == (w[i].at & 0xff))
		i++;
	ck_assert_msg(i == n, "records differ from qsort's order at %zu", i);
	free(v);
	free(w);
	free(r);
}

/* a trace's times: ns of one day, nearly in order, interleaved streams */
static int64_t near_times(size_t i)
{
	return 1669783687384669000LL + (int64_t)(i * 1000) -
	       (int64_t)(next_rand() % 50000);
}

static int64_t any_i64(size_t i)
{
	(void)i;
	return (int64_t)next_rand();
}

static int64_t few_values(size_t i)
{
	(void)i;
	return (int64_t)(next_rand() % 5) - 2;
}

static int64_t sorted(size_t i)
{
	return (int64_t)i / 3;
}

static int64_t descending(size_t i)
{
	return -(int64_t)i;
}

START_TEST(test_stable_as_qsort)
{
	check_keys(0, any_i64);
	check_keys(1, any_i64);
	check_keys(20000, near_times);
	check_keys(20000, any_i64);
	check_keys(20000, few_values);
	check_keys(1000, sorted);
	check_keys(1000, descending);
}
END_TEST

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

START_TEST(test_sort_unless_sorted)
{
	int v[200];
	for (int i = 0; i < 200; i++)
		v[i] = i / 2;
	perfan__sort_unless_sorted(v, 200, sizeof(*v), cmp_int);
	for (int i = 0; i < 200; i++)
		ck_assert_int_eq(v[i], i / 2);
	for (int i = 0; i < 200; i++)
		v[i] = (i * 37) % 200;
	v[0] = 150; /* sorted after the first: still sorted whole */
	perfan__sort_unless_sorted(v, 200, sizeof(*v), cmp_int);
	for (int i = 1; i < 200; i++)
		ck_assert_int_le(v[i - 1], v[i]);
}
END_TEST

static Suite *keysort_suite(void)
{
	Suite *s = suite_create("keysort");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_stable_as_qsort);
	tcase_add_test(tc, test_sort_unless_sorted);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(keysort_suite)
