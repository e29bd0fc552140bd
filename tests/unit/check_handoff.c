/* check_handoff.c: the queue of batches between two threads
 * (util/handoff.c): batches come out in the order they were put, never
 * more than DEPTH wait, a batch given back is the next spare, a stopped
 * consumer lets a waiting producer go on with its batch still queued,
 * and the end is seen once the queue is empty. */
#include <pthread.h>
#include <stdlib.h>

#include "testutil.h"
#include "util/handoff.h"

struct item {
	struct perfan__hitem link;
	int seq;
};

struct run {
	struct perfan__handoff q;
	int n;          /* batches to put */
	int max_queued; /* the most seen waiting */
	int stopped_at; /* the batch whose put saw the stop, or -1 */
};

static void item_free(struct perfan__hitem *it)
{
	free(it);
}

static void *producer(void *arg)
{
	struct run *r = arg;
	for (int i = 0; i < r->n; i++) {
		struct item *it = (struct item *)perfan__handoff_spare(&r->q);
		if (!it)
			it = calloc(1, sizeof(*it));
		it->seq = i;
		int stop = perfan__handoff_put(&r->q, &it->link);
		pthread_mutex_lock(&r->q.mu);
		if (r->q.queued > (size_t)r->max_queued)
			r->max_queued = (int)r->q.queued;
		pthread_mutex_unlock(&r->q.mu);
		if (stop) {
			r->stopped_at = i;
			break;
		}
	}
	perfan__handoff_end(&r->q);
	return NULL;
}

START_TEST(test_order_and_depth)
{
	struct run r = {.n = 10000, .stopped_at = -1};
	perfan__handoff_init(&r.q, 3);
	pthread_t th;
	ck_assert_int_eq(pthread_create(&th, NULL, producer, &r), 0);
	struct perfan__hitem *done = NULL;
	int want = 0;
	struct item *it;
	while ((it = (struct item *)perfan__handoff_take(&r.q, done))) {
		ck_assert_int_eq(it->seq, want);
		want++;
		done = &it->link;
	}
	pthread_join(th, NULL);
	ck_assert_int_eq(want, r.n);
	ck_assert_int_le(r.max_queued, 3);
	ck_assert_int_eq(r.stopped_at, -1);
	/* the last one given back is the spare taken next */
	ck_assert_ptr_eq(perfan__handoff_spare(&r.q), done);
	free(done);
	perfan__handoff_destroy(&r.q, item_free);
}
END_TEST

START_TEST(test_spare_is_the_batch_given_back)
{
	struct perfan__handoff q;
	perfan__handoff_init(&q, 2);
	struct item *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	ck_assert_int_eq(perfan__handoff_put(&q, &a->link), 0);
	ck_assert_int_eq(perfan__handoff_put(&q, &b->link), 0);
	ck_assert_ptr_eq(perfan__handoff_take(&q, NULL), &a->link);
	ck_assert_ptr_eq(perfan__handoff_spare(&q), NULL);
	ck_assert_ptr_eq(perfan__handoff_take(&q, &a->link), &b->link);
	ck_assert_ptr_eq(perfan__handoff_spare(&q), &a->link);
	free(a);
	/* the end: NULL once nothing is queued, without waiting */
	perfan__handoff_end(&q);
	ck_assert_ptr_eq(perfan__handoff_take(&q, &b->link), NULL);
	perfan__handoff_destroy(&q, item_free); /* frees b, a spare */
}
END_TEST

START_TEST(test_stop_lets_the_producer_go)
{
	struct run r = {.n = 50, .stopped_at = -1};
	perfan__handoff_init(&r.q, 2);
	pthread_t th;
	ck_assert_int_eq(pthread_create(&th, NULL, producer, &r), 0);
	/* take one, then stop: the producer, blocked on a full queue,
	 * puts its batch anyway and sees the stop */
	struct perfan__hitem *first = perfan__handoff_take(&r.q, NULL);
	ck_assert_ptr_nonnull(first);
	ck_assert_int_eq(((struct item *)first)->seq, 0);
	ck_assert_int_eq(perfan__handoff_stopped(&r.q), 0);
	perfan__handoff_stop(&r.q);
	ck_assert_int_eq(perfan__handoff_stopped(&r.q), 1);
	pthread_join(th, NULL);
	ck_assert_int_ge(r.stopped_at, 1);
	ck_assert_int_lt(r.stopped_at, r.n);
	/* every batch put is still there, in order, after the join */
	int want = 1;
	struct perfan__hitem *it;
	while ((it = perfan__handoff_take(&r.q, NULL))) {
		ck_assert_int_eq(((struct item *)it)->seq, want++);
		free(it);
	}
	ck_assert_int_eq(want, r.stopped_at + 1);
	free(first);
	perfan__handoff_destroy(&r.q, item_free);
}
END_TEST

static Suite *handoff_suite(void)
{
	Suite *s = suite_create("handoff");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_order_and_depth);
	tcase_add_test(tc, test_spare_is_the_batch_given_back);
	tcase_add_test(tc, test_stop_lets_the_producer_go);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(handoff_suite)
