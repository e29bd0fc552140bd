/* check_order.c: records come in time order, as perf delivers them: the
 * sample times equal the sequence `perf script` printed, and timed records
 * never go backwards even where the file holds them out of order. */
#include <perfan/perfan.h>

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

struct u64s {
	uint64_t *v;
	size_t n, cap;
};

static void push(struct u64s *a, uint64_t x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 1024;
		a->v = realloc(a->v, a->cap * sizeof(*a->v));
		ck_assert_ptr_nonnull(a->v);
	}
	a->v[a->n++] = x;
}

/* "486.913945:" -> 486913945 (microseconds), or 0 if TOK is no time. */
static int parse_time(const char *tok, uint64_t *us)
{
	const char *p = tok;
	uint64_t sec = 0, frac = 0;
	int nd = 0;

	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		sec = sec * 10 + (uint64_t)(*p++ - '0');
	if (*p++ != '.')
		return 0;
	while (isdigit((unsigned char)*p)) {
		frac = frac * 10 + (uint64_t)(*p++ - '0');
		nd++;
	}
	if (nd != 6 || strcmp(p, ":") != 0)
		return 0;
	*us = sec * 1000000 + frac;
	return 1;
}

/* The time of every sample line of a `perf script` capture, in order.
 * Sample lines are the ones not indented (callchain lines start with a
 * tab); the time is the first token shaped "SECONDS.USECS:". */
static void script_times(const char *path, struct u64s *out)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	ck_assert_msg(fp != NULL, "cannot open %s", path);
	while (getline(&line, &cap, fp) > 0) {
		char *save = NULL, *tok;
		uint64_t us;
		int found = 0;

		if (line[0] == '\t' || line[0] == '\n')
			continue;
		for (tok = strtok_r(line, " \n", &save); tok && !found;
		     tok = strtok_r(NULL, " \n", &save))
			if (parse_time(tok, &us)) {
				push(out, us);
				found = 1;
			}
		ck_assert_msg(found, "%s: sample line without a time", path);
	}
	free(line);
	fclose(fp);
}

/* A record's time, 0 when it has none. */
static uint64_t record_time(const struct perfan_record *r)
{
	if (r->type == PERFAN_REC_SAMPLE && r->event &&
	    (r->u.sample.type & PERFAN_SAMPLE_TIME))
		return r->u.sample.time;
	if (r->type != PERFAN_REC_SAMPLE &&
	    (r->sid.present & PERFAN_SAMPLE_TIME))
		return r->sid.time;
	return 0;
}

struct pass {
	int rc;
	struct u64s sample_us;    /* sample times in microseconds, as perf
				    prints them (truncated, not rounded) */
	struct u64s sample_ns;    /* sample times */
	uint64_t backwards;       /* samples earlier than the one before */
	uint64_t timed_backwards; /* same over every timed record */
	struct u64s keys;         /* (offset << 8 | type) of every record */
	int warnings;             /* the reader's warnings */
};

static void count_warning(enum perfan_log_level level, const char *msg,
			  void *payload)
{
	(void)msg;
	if (level == PERFAN_LOG_WARN)
		(*(int *)payload)++;
}

/* MAX_QUEUE: the reader's max_queue_bytes (0: its default). */
static void read_pass_max(const char *path, int unordered, size_t max_queue,
			  struct pass *p)
{
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	const struct perfan_record *r;
	perfan_perfdata *pd;
	uint64_t last_sample = 0, last_timed = 0;

	memset(p, 0, sizeof(*p));
	o.unordered = unordered;
	o.max_queue_bytes = max_queue;
	o.log = count_warning;
	o.log_payload = &p->warnings;
	ck_assert_msg(perfan_perfdata_open(&pd, path, &o) == 0, "%s",
		      perfan_error_last());
	while ((p->rc = perfan_perfdata_next(pd, &r)) == 0) {
		uint64_t t = record_time(r);

		push(&p->keys, r->offset << 8 | (r->type & 0xff));
		if (r->type == PERFAN_REC_SAMPLE &&
		    (r->u.sample.type & PERFAN_SAMPLE_TIME)) {
			push(&p->sample_us, r->u.sample.time / 1000);
			push(&p->sample_ns, r->u.sample.time);
			if (r->u.sample.time < last_sample)
				p->backwards++;
			last_sample = r->u.sample.time;
		}
		if (t) {
			if (t < last_timed)
				p->timed_backwards++;
			last_timed = t;
		}
	}
	ck_assert_msg(p->rc == PERFAN_ITEROVER, "%s: %s", path,
		      perfan_error_last());
	perfan_perfdata_free(pd);
}

static void read_pass(const char *path, int unordered, struct pass *p)
{
	read_pass_max(path, unordered, 0, p);
}

static void free_pass(struct pass *p)
{
	free(p->sample_us.v);
	free(p->sample_ns.v);
	free(p->keys.v);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Ordering only permutes: both passes hold the same records. */
static void assert_same_records(const char *path, struct pass *ord,
				struct pass *unord)
{
	ck_assert_msg(ord->keys.n == unord->keys.n, "%s: %zu vs %zu records",
		      path, ord->keys.n, unord->keys.n);
	qsort(ord->keys.v, ord->keys.n, sizeof(uint64_t), cmp_u64);
	qsort(unord->keys.v, unord->keys.n, sizeof(uint64_t), cmp_u64);
	ck_assert_msg(!memcmp(ord->keys.v, unord->keys.v,
			      ord->keys.n * sizeof(uint64_t)),
		      "%s: ordered and unordered passes differ in records",
		      path);
}

/* ---- cases -------------------------------------------------------------- */

struct ocase {
	char data[PATH_MAX];
	char script[PATH_MAX]; /* "" when there is none */
};

static struct ocase *cases;
static size_t ncases, nscript;

static void add_case(const char *data, const char *script)
{
	cases = realloc(cases, (ncases + 1) * sizeof(*cases));
	if (!cases)
		abort();
	tu_fmt(cases[ncases].data, PATH_MAX, "%s", data);
	tu_fmt(cases[ncases].script, PATH_MAX, "%s", script);
	ncases++;
}

/* testdata/CASE/perf[.X].data that perf read (stats[.X].txt), with
 * script[.X].txt where there is one; then the peer perf.data files (except
 * the one that is corrupt). */
static void find_cases(void)
{
	struct dirent **dirs, **files;
	char root[PATH_MAX];
	int nd, nf;

	tu_fmt(root, sizeof(root), "%s", tu_testdata(""));
	nd = scandir(root, &dirs, NULL, alphasort);
	for (int i = 0; i < nd; i++) {
		char dir[PATH_MAX];

		tu_fmt(dir, sizeof(dir), "%s/%s", root, dirs[i]->d_name);
		nf = dirs[i]->d_name[0] == '.'
			     ? -1
			     : scandir(dir, &files, NULL, alphasort);
		for (int j = 0; j < nf; j++) {
			const char *f = files[j]->d_name;
			size_t len = strlen(f);
			char data[PATH_MAX], script[PATH_MAX];
			char stats[PATH_MAX];
			FILE *fp;

			script[0] = '\0';
			if (!strcmp(f, "perf.data"))
				tu_fmt(script, sizeof(script), "%s/script.txt",
				       dir);
			else if (len > 10 && !strncmp(f, "perf.", 5) &&
				 !strcmp(f + len - 5, ".data"))
				tu_fmt(script, sizeof(script),
				       "%s/script.%.*s.txt", dir,
				       (int)(len - 10), f + 5);
			else {
				free(files[j]);
				continue;
			}
			tu_fmt(data, sizeof(data), "%s/%s", dir, f);
			/* only recordings perf read (with a stats oracle):
			 * one it cannot read may be corrupt on purpose */
			tu_fmt(stats, sizeof(stats), "%s/stats%s", dir,
			       script + strlen(dir) + 7);
			fp = fopen(stats, "r");
			if (!fp) {
				free(files[j]);
				continue;
			}
			fclose(fp);
			fp = fopen(script, "r");
			if (fp) {
				fclose(fp);
				nscript++;
			} else {
				script[0] = '\0';
			}
			add_case(data, script);
			free(files[j]);
		}
		if (nf >= 0)
			free(files);
		free(dirs[i]);
	}
	if (nd >= 0)
		free(dirs);

	nf = scandir(tu_peerdata("perf.data"), &files, NULL, alphasort);
	if (nf < 0)
		printf("SKIP: peer perf.data files: none at %s\n",
		       tu_peerdata("perf.data"));
	for (int j = 0; j < nf; j++) {
		const char *f = files[j]->d_name;
		char data[PATH_MAX];

		/* corrupt on purpose: check_record_counts covers it */
		if (f[0] != '.' && !strstr(f, "corrupted")) {
			tu_fmt(data, sizeof(data), "%s/%s",
			       tu_peerdata("perf.data"), f);
			add_case(data, "");
		}
		free(files[j]);
	}
	if (nf >= 0)
		free(files);
}

/* Sample times in delivery order equal perf script's, which prints samples
 * in the order perf delivers them. */
START_TEST(test_script_times)
{
	for (size_t c = 0; c < ncases; c++) {
		struct u64s want = {0};
		struct pass p;

		if (!cases[c].script[0])
			continue;
		script_times(cases[c].script, &want);
		read_pass(cases[c].data, 0, &p);
		ck_assert_msg(want.n > 0, "%s: no samples", cases[c].script);
		ck_assert_msg(p.sample_us.n == want.n,
			      "%s: %zu timed samples, perf script has %zu",
			      cases[c].data, p.sample_us.n, want.n);
		for (size_t i = 0; i < want.n; i++)
			ck_assert_msg(
				p.sample_us.v[i] == want.v[i],
				"%s: sample %zu at %llu.%06llu, perf script has %llu.%06llu",
				cases[c].data, i,
				(unsigned long long)(p.sample_us.v[i] /
						     1000000),
				(unsigned long long)(p.sample_us.v[i] %
						     1000000),
				(unsigned long long)(want.v[i] / 1000000),
				(unsigned long long)(want.v[i] % 1000000));
		free(want.v);
		free_pass(&p);
	}
	ck_assert_msg(nscript >= 12, "only %zu perf script captures", nscript);
}
END_TEST

/* Where the file holds samples out of time order, ordered delivery sorts
 * them; at least one input must have such samples, or the ordering would go
 * untested. */
START_TEST(test_sorted)
{
	size_t exercised = 0;

	for (size_t c = 0; c < ncases; c++) {
		struct pass ord, unord;

		read_pass(cases[c].data, 0, &ord);
		read_pass(cases[c].data, 1, &unord);
		ck_assert_msg(
			ord.backwards == 0,
			"%s: %llu samples delivered before an earlier one",
			cases[c].data, (unsigned long long)ord.backwards);
		ck_assert_msg(
			ord.timed_backwards == 0,
			"%s: %llu timed records delivered before an earlier one",
			cases[c].data, (unsigned long long)ord.timed_backwards);
		if (unord.backwards)
			exercised++;
		/* the same sample times, only sorted */
		ck_assert_uint_eq(ord.sample_ns.n, unord.sample_ns.n);
		qsort(unord.sample_ns.v, unord.sample_ns.n, sizeof(uint64_t),
		      cmp_u64);
		ck_assert_msg(
			!memcmp(ord.sample_ns.v, unord.sample_ns.v,
				ord.sample_ns.n * sizeof(uint64_t)),
			"%s: ordered sample times are not the file's, sorted",
			cases[c].data);
		assert_same_records(cases[c].data, &ord, &unord);
		free_pass(&ord);
		free_pass(&unord);
	}
	/* testdata/sched and multi-thread-fork hold samples out of order */
	ck_assert_msg(
		exercised >= 2,
		"only %zu inputs have samples out of time order in the file",
		exercised);
}
END_TEST

/* More bytes of copies between rounds than max_queue_bytes: the oldest go
 * out early, with a warning, and nothing is lost (testdata/zstd: every
 * record is a copy out of a COMPRESSED one). */
START_TEST(test_queue_overflow)
{
	const char *path = tu_testdata("zstd/perf.data");
	struct pass full, small;
	read_pass(path, 0, &full);
	read_pass_max(path, 0, 4096, &small);
	ck_assert_int_eq(full.warnings, 0);
	ck_assert_int_ge(small.warnings, 1);
	ck_assert_uint_gt(full.sample_ns.n, 100);
	assert_same_records(path, &full, &small);
	qsort(small.sample_ns.v, small.sample_ns.n, sizeof(uint64_t), cmp_u64);
	ck_assert(!memcmp(full.sample_ns.v, small.sample_ns.v,
			  full.sample_ns.n * sizeof(uint64_t)));
	free_pass(&full);
	free_pass(&small);
}
END_TEST

struct window_log {
	int warnings;
	char last[1024];
};

static void keep_warning(enum perfan_log_level level, const char *msg,
			 void *payload)
{
	struct window_log *w = payload;
	if (level != PERFAN_LOG_WARN)
		return;
	w->warnings++;
	tu_fmt(w->last, sizeof(w->last), "%s", msg);
}

/* A mapped file's records wait in the time-order window in place, and
 * count in it all the same: a window smaller than the file's rounds says
 * so once (its size, where it filled) and the oldest go out early, none
 * lost; the default window holds every round of a real recording, without
 * a word. testdata/sched: a perf.data read in place, its samples out of
 * time order in the file. */
START_TEST(test_window_in_place)
{
	const char *path = tu_testdata("sched/perf.data");
	struct pass full, small;
	struct window_log wl = {0};
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	const struct perfan_record *r;
	perfan_perfdata *pd;
	size_t n = 0;
	int rc;

	read_pass(path, 0, &full);
	ck_assert_int_eq(full.warnings, 0);
	ck_assert_uint_eq(full.backwards, 0);
	read_pass_max(path, 0, 4096, &small);
	ck_assert_int_eq(small.warnings, 1);
	assert_same_records(path, &full, &small);

	o.max_queue_bytes = 4096;
	o.log = keep_warning;
	o.log_payload = &wl;
	ck_assert_msg(perfan_perfdata_open(&pd, path, &o) == 0, "%s",
		      perfan_error_last());
	ck_assert_msg(perfan_perfdata_info(pd)->file_size > 0,
		      "%s: not read as a mapped file", path);
	while ((rc = perfan_perfdata_next(pd, &r)) == 0)
		n++;
	ck_assert_int_eq(rc, PERFAN_ITEROVER);
	perfan_perfdata_free(pd);
	ck_assert_uint_eq(n, full.keys.n);
	ck_assert_int_eq(wl.warnings, 1);
	ck_assert_msg(strstr(wl.last, "time-order window (4096 bytes") &&
			      strstr(wl.last, "larger than the window"),
		      "warning: %s", wl.last);
	free_pass(&full);
	free_pass(&small);
}
END_TEST

static Suite *order_suite(void)
{
	Suite *s = suite_create("order");
	TCase *tc = tcase_create("order");

	find_cases();
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_script_times);
	tcase_add_test(tc, test_sorted);
	tcase_add_test(tc, test_queue_overflow);
	tcase_add_test(tc, test_window_in_place);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(order_suite)
