/* check_folded_threads.c: a pruned folded read on two threads gives what
 * one thread gives: the same stacks and weights, the same number of
 * nodes, the same return code and message, on inputs that cross many of
 * the reader's 1 MiB buffers and batches: sorted, out of order before and
 * after a fold, a bad line deep in the file, a line longer than a buffer,
 * blank lines, two-count lines, no newline at the end. */
#define _GNU_SOURCE
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* What one read gives, to be compared. */
struct outcome {
	int rc;
	char *msg;
	char *folded; /* every column's lines */
	size_t nodes;
};

static char *write_all(const perfan_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	for (size_t c = 0; c < perfan_profile_nr_columns(p); c++) {
		struct perfan_folded_write_opts o =
			PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
		o.column = c;
		fprintf(fp, "-- column %zu\n", c);
		ck_assert_int_eq(perfan_folded_write(p, fp, &o), 0);
	}
	fclose(fp);
	return buf;
}

static struct outcome read_with(const char *text, size_t len, double prune,
				int threads, const char *before_column)
{
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	FILE *fp = fmemopen((void *)text, len, "r");
	ck_assert_ptr_nonnull(fp);
	struct perfan_folded_read_opts o =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	o.prune = prune;
	o.threads = threads;
	o.before_column = before_column;
	struct outcome r;
	r.rc = perfan_folded_read(p, fp, "t.folded", NULL, &o);
	r.msg = strdup(r.rc ? perfan_error_last() : "");
	fclose(fp);
	r.folded = write_all(p);
	r.nodes = perfan_profile_nr_nodes(p);
	perfan_profile_free(p);
	return r;
}

/* One thread and two agree on TEXT; returns the one-thread rc. */
static int same(const char *what, const char *text, double prune,
		const char *before_column)
{
	size_t len = strlen(text);
	struct outcome a = read_with(text, len, prune, 1, before_column);
	struct outcome b = read_with(text, len, prune, 2, before_column);
	ck_assert_msg(a.rc == b.rc, "%s: rc %d with one thread, %d with two",
		      what, a.rc, b.rc);
	ck_assert_msg(!strcmp(a.msg, b.msg), "%s: '%s' against '%s'", what,
		      a.msg, b.msg);
	ck_assert_msg(!strcmp(a.folded, b.folded), "%s: stacks differ", what);
	ck_assert_msg(a.nodes == b.nodes, "%s: %zu nodes against %zu", what,
		      a.nodes, b.nodes);
	ck_assert_msg(strlen(a.folded) > 20, "%s: nothing read", what);
	free(a.msg);
	free(b.msg);
	free(a.folded);
	free(b.folded);
	return a.rc;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* N folded lines of a made-up call graph with names of many lengths
 * (about 150 bytes a line), sorted bytewise or not; TWO: "STACK BEFORE
 * AFTER". */
static char **made_up(size_t n, int two)
{
	static const char *const names[] = {
		"main",
		"parse_request",
		"eval",
		"alloc",
		"free",
		"hash_table_lookup_with_a_long_name",
		"b",
		"b-x",
		"write",
		"read",
		"std::vector<int>::push_back(int const&)"};
	char **lines = calloc(n, sizeof(*lines));
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < n; i++) {
		char buf[1024];
		size_t len = 0;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		int depth = 1 + (int)(x % 12);
		for (int d = 0; d < depth; d++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"%s%s", d ? ";" : "",
						names[x % 11]);
		}
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		unsigned long long w = 1 + (x % 1000 == 0 ? 5000 : x % 7);
		if (two)
			snprintf(buf + len, sizeof(buf) - len, " %llu %llu",
				 (unsigned long long)(x % 5), w);
		else
			snprintf(buf + len, sizeof(buf) - len, " %llu", w);
		lines[i] = strdup(buf);
	}
	return lines;
}

/* LINES[0..N) joined by '\n' (and freed), INSERT put before line AT. */
static char *join(char **lines, size_t n, size_t at, const char *insert)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	for (size_t i = 0; i < n; i++) {
		if (i == at && insert)
			fputs(insert, fp);
		fprintf(fp, "%s\n", lines[i]);
		free(lines[i]);
	}
	fclose(fp);
	free(lines);
	return text;
}

static char *sorted_text(size_t n, int two, size_t at, const char *insert)
{
	char **lines = made_up(n, two);
	qsort(lines, n, sizeof(*lines), cmp_line);
	return join(lines, n, at, insert);
}

#define N 60000 /* about 4.6 MB: five buffers, fifteen batches */

START_TEST(test_sorted)
{
	char *text = sorted_text(N, 0, 0, NULL);
	ck_assert_uint_gt(strlen(text), (size_t)4 << 20);
	ck_assert_int_eq(same("sorted", text, 2.0 / 1180, NULL), 0);
	ck_assert_int_eq(same("sorted, nothing folds", text, 1e-12, NULL), 0);
	/* blank lines and no newline at the end */
	char *t2 = NULL;
	ck_assert_int_gt(asprintf(&t2, "\n\n%.*s\n\n\nzz;top 3",
				  (int)strlen(text) - 1, text),
			 0);
	ck_assert_int_eq(same("blank lines", t2, 2.0 / 1180, NULL), 0);
	free(t2);
	/* buffers of nothing but blank lines: the line before them lies
	 * in a buffer handed back by then */
	size_t nl = (size_t)3 << 20, half = strlen(text) / 2;
	while (text[half - 1] != '\n')
		half++;
	t2 = malloc(strlen(text) + nl + 1);
	memcpy(t2, text, half);
	memset(t2 + half, '\n', nl);
	strcpy(t2 + half + nl, text + half);
	ck_assert_int_eq(same("a run of blank lines", t2, 2.0 / 1180, NULL), 0);
	free(t2);
	free(text);
}
END_TEST

START_TEST(test_two_counts)
{
	char *text = sorted_text(N, 1, 0, NULL);
	ck_assert_int_eq(same("two counts", text, 2.0 / 1180, "before"), 0);
	free(text);
}
END_TEST

START_TEST(test_out_of_order)
{
	/* before anything folds, deep in the file (batches queued): all is
	 * read whole from there */
	char *text = sorted_text(N, 0, N / 2, "a;out;of;order 7\n");
	ck_assert_int_eq(
		same("out of order, nothing folded", text, 1e-12, NULL), 0);
	/* after a fold: refused at that line, the same message */
	ck_assert_int_eq(same("out of order after a fold", text, 2.0 / 1180,
			      NULL),
			 PERFAN_EUNSUPPORTED);
	free(text);
	/* in random order: found at once */
	char *shuffled = join(made_up(N, 0), N, 0, NULL);
	ck_assert_int_eq(same("random order", shuffled, 0.01, NULL), 0);
	free(shuffled);
}
END_TEST

START_TEST(test_bad_line)
{
	char *text = sorted_text(N, 0, N - 100, "main;no count here\n");
	ck_assert_int_eq(same("a bad line", text, 2.0 / 1180, NULL),
			 PERFAN_EFORMAT);
	free(text);
}
END_TEST

START_TEST(test_long_line)
{
	/* a frame of 3 MiB, in its sorted place: a buffer grows for it */
	size_t big = (size_t)3 << 20;
	char **lines = made_up(N, 0);
	free(lines[0]);
	lines[0] = malloc(big + 32);
	memcpy(lines[0], "main;", 5);
	memset(lines[0] + 5, 'q', big);
	strcpy(lines[0] + 5 + big, " 9");
	qsort(lines, N, sizeof(*lines), cmp_line);
	char *text = join(lines, N, 0, NULL);
	ck_assert_int_eq(same("a long line", text, 2.0 / 1180, NULL), 0);
	free(text);
}
END_TEST

static Suite *folded_threads_suite(void)
{
	Suite *s = suite_create("folded_threads");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sorted);
	tcase_add_test(tc, test_two_counts);
	tcase_add_test(tc, test_out_of_order);
	tcase_add_test(tc, test_bad_line);
	tcase_add_test(tc, test_long_line);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(folded_threads_suite)
