/* check_cut.c: recordings whose perf record never finished (testdata/killed)
 * keep their samples: read to the last whole record with a warning, the
 * same samples as the recording that perf record closed after them. */
#define _GNU_SOURCE /* memfd_create, popen */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "testutil.h"

struct logged {
	int warnings;
	char first[1024];
};

static void on_log(enum perfan_log_level lvl, const char *msg, void *payload)
{
	struct logged *l = payload;
	if (lvl != PERFAN_LOG_WARN)
		return;
	if (!l->warnings++)
		snprintf(l->first, sizeof(l->first), "%s", msg);
}

/* A sample as a comparable key: time, thread, period and the callchain. */
struct key {
	uint64_t time, period, hash;
	uint32_t tid;
	uint64_t nr;
};

struct samples {
	struct key *v;
	size_t n, cap;
	size_t records;
	int rc;
};

static uint64_t chain_hash(const uint64_t *ips, uint64_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (uint64_t i = 0; i < n; i++)
		h = (h ^ ips[i]) * 1099511628211ull;
	return h;
}

/* Every sample of PATH, in file order (UNORDERED) or time order. */
static void read_samples(const char *path, int unordered, struct samples *s,
			 struct logged *l)
{
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	o.unordered = unordered;
	o.log = on_log;
	o.log_payload = l;
	memset(s, 0, sizeof(*s));
	perfan_perfdata *pd;
	ck_assert_msg(perfan_perfdata_open(&pd, path, &o) == 0, "%s: %s", path,
		      perfan_error_last());
	const struct perfan_record *r;
	while ((s->rc = perfan_perfdata_next(pd, &r)) == 0) {
		s->records++;
		if (r->type != PERFAN_REC_SAMPLE)
			continue;
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 1024;
			s->v = realloc(s->v, s->cap * sizeof(*s->v));
			ck_assert_ptr_nonnull(s->v);
		}
		const struct perfan_sample *x = &r->u.sample;
		s->v[s->n++] = (struct key){
			.time = x->time,
			.period = x->period,
			.tid = x->tid,
			.nr = x->callchain_nr,
			.hash = chain_hash(x->callchain, x->callchain_nr),
		};
	}
	perfan_perfdata_free(pd);
}

static int key_eq(const struct key *a, const struct key *b)
{
	return a->time == b->time && a->period == b->period &&
	       a->tid == b->tid && a->nr == b->nr && a->hash == b->hash;
}

/* The SAMPLE count of tests/tools/walk_pipe.py's walk (structure*.txt). */
static size_t walked_samples(const char *rel)
{
	FILE *f = fopen(tu_testdata(rel), "r");
	ck_assert_ptr_nonnull(f);
	char line[256];
	size_t n = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " SAMPLE events: %zu", &n) == 1)
			break;
	fclose(f);
	ck_assert_uint_gt(n, 0);
	return n;
}

/* perf record killed with SIGKILL: data size 0 in the header, feature bits
 * set but no feature sections. Every whole record comes out, one warning
 * says the recording was cut, and the end is not an error. */
START_TEST(test_killed_recording)
{
	const char *path = tu_testdata("killed/perf.data");
	struct samples s;
	struct logged l = {0};
	perfan_perfdata *pd;
	ck_assert_int_eq(perfan_perfdata_open(&pd, path, NULL), 0);
	const struct perfan_file_info *fi = perfan_perfdata_info(pd);
	ck_assert_uint_eq(fi->data_size, 0);
	ck_assert_uint_ne(fi->feature_bits[0], 0); /* what perf set first */
	ck_assert_int_eq(fi->cut, 1);
	/* no feature was decoded from the samples after the header */
	const struct perfan_features *f = perfan_perfdata_features(pd);
	for (int i = 0; i < PERFAN_FEAT_MAX; i++)
		ck_assert_msg(!perfan_features_has(f, i), "feature %d", i);
	perfan_perfdata_free(pd);

	read_samples(path, 0, &s, &l);
	ck_assert_int_eq(s.rc, PERFAN_ITEROVER);
	ck_assert_uint_eq(s.n, walked_samples("killed/structure.txt"));
	ck_assert_int_eq(l.warnings, 1);
	ck_assert_msg(strstr(l.first, "the recording was cut") &&
			      strstr(l.first, "data size 0"),
		      "%s", l.first);
	free(s.v);
}
END_TEST

/* perf.cut.data is the file of a perf record stopped with SIGSTOP (what
 * SIGKILL would have left then), perf.closed.data the same perf record's
 * file after it went on and finished. The cut one gives the closed one's
 * first samples, decoded the same, and perf's own perf script of the
 * closed recording has each of them (same thread, same time). */
START_TEST(test_cut_is_prefix_of_closed)
{
	struct samples cut, closed;
	struct logged lc = {0}, lf = {0};
	read_samples(tu_testdata("killed/perf.cut.data"), 1, &cut, &lc);
	read_samples(tu_testdata("killed/perf.closed.data"), 1, &closed, &lf);
	ck_assert_int_eq(cut.rc, PERFAN_ITEROVER);
	ck_assert_int_eq(closed.rc, PERFAN_ITEROVER);
	ck_assert_int_eq(lc.warnings, 1);
	ck_assert_int_eq(lf.warnings, 0);
	ck_assert_uint_eq(cut.n, walked_samples("killed/structure.cut.txt"));
	ck_assert_uint_gt(closed.n, cut.n + 100); /* it went on recording */
	for (size_t i = 0; i < cut.n; i++)
		ck_assert_msg(key_eq(&cut.v[i], &closed.v[i]), "sample %zu", i);

	/* perf script's "comm TID TIME: PERIOD cpu-clock:" lines */
	char cmd[4200];
	tu_fmt(cmd, sizeof(cmd), "zstd -dc '%s'",
	       tu_testdata("killed/script.closed.txt.zst"));
	FILE *f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	char line[4096];
	size_t nperf = 0, cap = 4096;
	uint64_t *perf_us = malloc(cap * sizeof(*perf_us));
	uint32_t *perf_tid = malloc(cap * sizeof(*perf_tid));
	while (fgets(line, sizeof(line), f)) {
		char comm[64];
		unsigned tid;
		unsigned long long sec, us;
		if (line[0] == '\t' || sscanf(line, "%63s %u %llu.%llu:", comm,
					      &tid, &sec, &us) != 4)
			continue;
		ck_assert_uint_lt(nperf, cap);
		perf_tid[nperf] = tid;
		perf_us[nperf++] = sec * 1000000 + us;
	}
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_uint_eq(nperf, closed.n);
	size_t found = 0;
	for (size_t i = 0; i < cut.n; i++)
		for (size_t k = 0; k < nperf; k++)
			if (perf_us[k] == cut.v[i].time / 1000 &&
			    perf_tid[k] == cut.v[i].tid) {
				found++;
				break;
			}
	ck_assert_uint_eq(found, cut.n);
	free(perf_us);
	free(perf_tid);
	free(cut.v);
	free(closed.v);
}
END_TEST

/* Every prefix of the killed recording (a SIGKILL at any byte): records to
 * the last whole one, a warning, never an error past the header. */
START_TEST(test_every_cut)
{
	FILE *f = fopen(tu_testdata("killed/perf.data"), "rb");
	ck_assert_ptr_nonnull(f);
	static unsigned char data[1 << 17];
	size_t len = fread(data, 1, sizeof(data), f);
	fclose(f);
	size_t last = 0;
	for (size_t cut = 264; cut <= len; cut += cut < 2048 ? 1 : 331) {
		int fd = memfd_create("cut", 0);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, data, cut), (ssize_t)cut);
		struct logged l = {0};
		struct perfan_perfdata_opts o =
			PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
		o.log = on_log;
		o.log_payload = &l;
		perfan_perfdata *pd;
		ck_assert_msg(perfan_perfdata_open_fd(&pd, fd, "cut", &o) == 0,
			      "%zu: %s", cut, perfan_error_last());
		const struct perfan_record *r;
		size_t n = 0;
		int rc;
		while ((rc = perfan_perfdata_next(pd, &r)) == 0)
			n++;
		ck_assert_msg(rc == PERFAN_ITEROVER, "cut at %zu: %s", cut,
			      perfan_error_last());
		ck_assert_uint_ge(n, last); /* more bytes, never fewer */
		ck_assert_int_ge(l.warnings, 1);
		last = n;
		perfan_perfdata_free(pd);
		close(fd);
	}
}
END_TEST

static Suite *cut_suite(void)
{
	Suite *s = suite_create("cut");
	TCase *tc = tcase_create("killed");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_killed_recording);
	tcase_add_test(tc, test_cut_is_prefix_of_closed);
	tcase_add_test(tc, test_every_cut);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(cut_suite)
