/* check_kineto.c: the Kineto trace reader's edges: exact decimal times
 * (util/decimal.c, against arithmetic done by hand), every prefix of a
 * small real trace (../shared/peer-data/kineto) read in memory, every cut
 * of a small gzip trace and copies of it with bits flipped read through the
 * registry: a trace or a clear error naming the input and an offset, never
 * a crash; every peer trace and every prefix read as a stream (the file
 * through the registry, gzip inflated as it comes; the text through a
 * small window) gives what the whole text in memory gives. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "../fuzz/fuzz_kineto.c"
#include "sources/input_all.h"
#include "sources/kineto_internal.h"
#include "testutil.h"
#include "util/decimal.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "%s", path);
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	ck_assert(b != NULL);
	ck_assert_int_eq(fread(b, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return b;
}

START_TEST(test_decimal)
{
	static const struct {
		const char *s;
		int64_t ns;
	} ok[] = {
		/* us with their ns fraction: a double would round these */
		{"1712195495505582.988", 1712195495505582988LL},
		{"4458676983543.183", 4458676983543183LL},
		{"1623142623460111", 1623142623460111000LL},
		{"0", 0},
		{"-2.5", -2500},
		{"0.0005", 1}, /* half a ns: away from zero */
		{"0.0004", 0},
		{"1.5e3", 1500000},
		{"25E-3", 25},
		{"9223372036854775.807", INT64_MAX},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int64_t v = -7;
		ck_assert_int_eq(perfan__decimal_scaled(ok[i].s,
							strlen(ok[i].s), 3, &v),
				 0);
		ck_assert_msg(v == ok[i].ns, "%s: %lld", ok[i].s, (long long)v);
	}
	static const char *const bad[] = {"9223372036854775.808",
					  "1e16",
					  "",
					  "-",
					  "1.",
					  ".5",
					  "1x",
					  "1e",
					  "--1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t v;
		ck_assert_msg(perfan__decimal_scaled(bad[i], strlen(bad[i]), 3,
						     &v) == -1,
			      "%s", bad[i]);
	}
}
END_TEST

/* An error must be a format or truncation error naming NAME and an
 * offset. */
static void clear_error(int rc, const char *name, const char *what)
{
	const char *msg = perfan_error_last();
	ck_assert_msg(rc == PERFAN_EFORMAT || rc == PERFAN_ETRUNCATED ||
			      rc == PERFAN_EUNSUPPORTED,
		      "%s: rc %d: %s", what, rc, msg);
	ck_assert_msg(!strncmp(msg, name, strlen(name)) &&
			      (strstr(msg, ": offset ") ||
			       strstr(msg, "without traceEvents") ||
			       strstr(msg, "any other format")),
		      "%s: %s", what, msg);
}

START_TEST(test_prefixes)
{
	TU_REQUIRE_PEERDATA("kineto/hta-call_stack-backward_thread.json");
	size_t len;
	char *all =
		slurp(tu_peerdata("kineto/hta-call_stack-backward_thread.json"),
		      &len);
	size_t whole = len;
	while (whole && strchr(" \n\r\t", all[whole - 1]))
		whole--;
	for (size_t n = 0; n <= len; n++) {
		char *b = malloc(n ? n : 1); /* exactly N: ASan sees overruns */
		memcpy(b, all, n);
		perfan_trace *t = NULL;
		int rc = perfan__kineto_parse(b, n, "cut.json", &t);
		char what[64];
		snprintf(what, sizeof(what), "prefix %zu", n);
		if (n >= whole) {
			ck_assert_msg(rc == 0, "%s: %s", what,
				      perfan_error_last());
			ck_assert_int_eq(perfan_trace_info(t)->nr_events, 7);
		} else {
			ck_assert_msg(rc != 0 && !t, "%s read", what);
			clear_error(rc, "cut.json", what);
		}
		perfan_trace_free(t);
		/* the fuzz target's promises: a stream reads the same */
		LLVMFuzzerTestOneInput((const uint8_t *)b, n);
		free(b);
	}
	free(all);
}
END_TEST

static const char *const peer[] = {
	"kineto/hta-amd-mi250-rocm6.2.json.gz",
	"kineto/hta-call_stack-backward_thread.json",
	"kineto/hta-cpu_only.pt.trace.json.gz",
	"kineto/hta-critical-alexnet-a100.json.gz",
	"kineto/hta-critical-simple_add-a100.HTA-OUTPUT.json.gz",
	"kineto/hta-critical-simple_add-a100.json.gz",
	"kineto/hta-df_index_resolver-v100-2022.json.gz",
	"kineto/hta-event_sync-a100.json.gz",
	"kineto/hta-event_sync_multi_stream-a100.json.gz",
	"kineto/hta-nccl-a100-2024.json.gz",
	"kineto/hta-ns_resolution-v100-2024.pt.trace.json.gz",
	"kineto/hta-triton-driver-api.json.gz",
	"kineto/tb-resnet50-workers0-v100-2021.pt.trace.json.gz",
};

/* A peer trace read through the registry (a stream, inflated as it comes)
 * equals its whole text read in memory; and the fuzz target's promises on
 * that text (a stream through a small window reads the same). */
START_TEST(test_stream_equals_memory)
{
	TU_REQUIRE_PEERDATA(peer[_i]);
	const char *path = tu_peerdata(peer[_i]);
	perfan_source *s = NULL;
	perfan_trace *a = NULL, *b = NULL;
	char *text;
	size_t len;
	ck_assert_int_eq(perfan_source_open(&s, path, NULL), 0);
	ck_assert_int_eq(perfan__input_all(s, UINT64_MAX, &text, &len), 0);
	perfan_source_free(s);
	ck_assert_msg(perfan__kineto_parse(text, len, path, &b) == 0, "%s: %s",
		      path, perfan_error_last());
	/* one thread, and gzip inflated ahead on a second */
	for (int threads = 0; threads <= 2; threads += 2) {
		struct perfan_source_opts o = {.sz = sizeof(o),
					       .threads = threads};
		ck_assert_int_eq(perfan_source_open(&s, path, &o), 0);
		ck_assert_msg(perfan_source_caps(s) & PERFAN_SOURCE_TRACE, "%s",
			      path);
		ck_assert_msg(perfan_source_trace(s, &a) == 0, "%s: %s", path,
			      perfan_error_last());
		perfan_source_free(s);
		ck_assert_msg(perfan_trace_info(a)->nr_events > 0, "%s", path);
		ck_assert_msg(same_trace(a, b),
			      "%s: the stream read another trace (threads %d)",
			      path, threads);
		perfan_trace_free(a);
	}
	perfan_trace_free(b);
	LLVMFuzzerTestOneInput((const uint8_t *)text, len);
	free(text);
}
END_TEST

/* B's N bytes as a file, read through the registry as a trace (gzip
 * inflated on THREADS - 1 threads of its own, at most 1). */
static int read_file_on(const char *dir, const void *b, size_t n, int threads,
			perfan_trace **t)
{
	struct perfan_source_opts o = {.sz = sizeof(o), .threads = threads};
	char path[4096];
	snprintf(path, sizeof(path), "%s/t.json.gz", dir);
	FILE *fp = fopen(path, "wb");
	ck_assert(fp != NULL);
	ck_assert_int_eq(fwrite(b, 1, n, fp), n);
	fclose(fp);
	perfan_source *s = NULL;
	*t = NULL;
	int rc = perfan_source_open(&s, path, &o);
	if (!rc)
		rc = perfan_source_caps(s) & PERFAN_SOURCE_TRACE
			     ? perfan_source_trace(s, t)
			     : PERFAN_EFORMAT;
	perfan_source_free(s);
	unlink(path);
	return rc;
}

/* Read on one thread and with gzip inflated ahead: the same trace or the
 * same error, which is returned. */
static int read_file(const char *dir, const void *b, size_t n, perfan_trace **t)
{
	perfan_trace *u = NULL;
	char msg[1024];
	int rc = read_file_on(dir, b, n, 0, t);
	snprintf(msg, sizeof(msg), "%s", perfan_error_last());
	int rc2 = read_file_on(dir, b, n, 2, &u);
	ck_assert_msg(rc == rc2, "cut at %zu: %d, ahead %d", n, rc, rc2);
	if (rc)
		ck_assert_msg(!strcmp(msg, perfan_error_last()),
			      "cut at %zu: '%s', ahead '%s'", n, msg,
			      perfan_error_last());
	else
		ck_assert_msg(same_trace(*t, u), "cut at %zu", n);
	perfan_trace_free(u);
	return rc;
}

START_TEST(test_gzip_cuts_and_flips)
{
	TU_REQUIRE_PEERDATA("kineto/hta-event_sync-a100.json.gz");
	size_t len;
	char *all =
		slurp(tu_peerdata("kineto/hta-event_sync-a100.json.gz"), &len);
	char dir[] = "/tmp/check_kineto.XXXXXX";
	ck_assert(mkdtemp(dir) != NULL);
	perfan_trace *t;
	ck_assert_int_eq(read_file(dir, all, len, &t), 0);
	ck_assert_int_eq(perfan_trace_info(t)->nr_events, 32);
	perfan_trace_free(t);
	/* every cut from the first block on: detected, then cut short */
	for (size_t n = 20; n < len; n++) {
		int rc = read_file(dir, all, n, &t);
		ck_assert_msg(rc != 0 && !t, "cut at %zu read", n);
		if (rc == PERFAN_ETRUNCATED)
			ck_assert_msg(strstr(perfan_error_last(), "cut short"),
				      "%s", perfan_error_last());
	}
	/* bits flipped: a trace (what the damage left valid) or an error */
	srand(37);
	for (int k = 0; k < 300; k++) {
		char *b = malloc(len);
		memcpy(b, all, len);
		for (int f = 0, nf = 1 + rand() % 4; f < nf; f++)
			b[10 + (size_t)rand() % (len - 10)] ^=
				(char)(1 << (rand() % 8));
		int rc = read_file(dir, b, len, &t);
		if (rc)
			ck_assert_msg(strstr(perfan_error_last(), "t.json.gz"),
				      "%s", perfan_error_last());
		perfan_trace_free(t);
		free(b);
	}
	rmdir(dir);
	free(all);
}
END_TEST

static Suite *kineto_suite(void)
{
	Suite *s = suite_create("kineto");
	TCase *tc = tcase_create("kineto");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_decimal);
	tcase_add_test(tc, test_prefixes);
	tcase_add_test(tc, test_gzip_cuts_and_flips);
	tcase_add_loop_test(tc, test_stream_equals_memory, 0,
			    (int)(sizeof(peer) / sizeof(peer[0])));
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(kineto_suite)
