/* check_source.c: the registry of input formats (perfan/source.h): each
 * format told from its content, an input of none refused naming it, and a
 * stream read once, its bytes giving the same profile as the file. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "testutil.h"

/* The whole of testdata file REL; *N gets its length. */
static char *slurp(const char *rel, size_t *n)
{
	FILE *fp = fopen(tu_testdata(rel), "rb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
	long len = ftell(fp);
	ck_assert_int_ge(len, 1);
	rewind(fp);
	char *b = malloc((size_t)len);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(fread(b, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	*n = (size_t)len;
	return b;
}

START_TEST(test_detect_bytes)
{
	size_t n;
	char *b = slurp("fp/perf.data", &n);
	ck_assert_str_eq(perfan_source_detect(b, 8), "perf.data");
	free(b);
	b = slurp("fp/script.txt", &n);
	ck_assert_str_eq(perfan_source_detect(b, n < 65536 ? n : 65536),
			 "perf script");
	free(b);
	b = slurp("script-wild/fnobj-v.folded", &n);
	ck_assert_str_eq(perfan_source_detect(b, n), "folded");
	free(b);
	ck_assert_ptr_null(perfan_source_detect("", 0));
	ck_assert_ptr_null(perfan_source_detect("ab\0cd", 5));
	ck_assert_ptr_null(perfan_source_detect(NULL, 8));
}
END_TEST

/* The text classifier behind the registry: perf.data, perf script text
 * and folded stacks told apart from their first bytes (moved from
 * check_profile.c with perfan_input_detect, now the registry's). */
START_TEST(test_detect_text)
{
	ck_assert_str_eq(perfan_source_detect("PERFILE2\x68", 9), "perf.data");
	ck_assert_str_eq(perfan_source_detect("2ELIFREP", 8), "perf.data");
	ck_assert_ptr_null(perfan_source_detect("", 0));
	ck_assert_ptr_null(perfan_source_detect("ab\0cd", 5));
	const char *folded_text = "a;b;c 12\nmain 3\r\n\nx;y z 1\n";
	ck_assert_str_eq(perfan_source_detect(folded_text, strlen(folded_text)),
			 "folded");
	const char *script = "prog 7010   486.913945:    1001001 cpu-clock: \n"
			     "\t 11cc hot_a+0x2c (/x/prog)\n\n";
	ck_assert_str_eq(perfan_source_detect(script, strlen(script)),
			 "perf script");
	/* a header line alone that ends in a number is still script */
	const char *tp =
		"sched 7 [000] 496.947751: sched:sched_switch: x 120\n";
	ck_assert_str_eq(perfan_source_detect(tp, strlen(tp)), "perf script");
	const char *hdr = "# ========\n# captured on: x\n";
	ck_assert_str_eq(perfan_source_detect(hdr, strlen(hdr)), "perf script");
	/* a first line longer than the bytes given */
	const char *long_line = "a;b;c;d;e;f;g;h";
	ck_assert_str_eq(perfan_source_detect(long_line, strlen(long_line)),
			 "folded");
	/* a cut last line does not count */
	const char *cut = "a;b 1\nc;d 2\nprog 1 [0";
	ck_assert_str_eq(perfan_source_detect(cut, strlen(cut)), "folded");
}
END_TEST

/* Each file opens as its format, with the caps callers decide by. */
START_TEST(test_open_formats)
{
	static const struct {
		const char *rel, *format;
		unsigned caps;
	} cases[] = {
		{"fp/perf.data", "perf.data",
		 PERFAN_SOURCE_RECORDS | PERFAN_SOURCE_EVENTS |
			 PERFAN_SOURCE_FRAMES},
		{"fp/script.txt", "perf script",
		 PERFAN_SOURCE_EVENTS | PERFAN_SOURCE_FRAMES},
		{"script-wild/fnobj-v.folded", "folded",
		 PERFAN_SOURCE_COUNTED | PERFAN_SOURCE_PAIRED |
			 PERFAN_SOURCE_PRUNED},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		perfan_source *s;
		const char *path = tu_testdata(cases[i].rel);
		ck_assert_int_eq(perfan_source_open(&s, path, NULL), 0);
		ck_assert_str_eq(perfan_source_format(s), cases[i].format);
		ck_assert_uint_eq(perfan_source_caps(s), cases[i].caps);
		ck_assert_str_eq(perfan_source_name(s), path);
		ck_assert_int_eq(perfan_source_empty(s), 0);
		size_t n;
		free(slurp(cases[i].rel, &n));
		ck_assert_uint_eq(perfan_source_size(s), n);
		perfan_source_free(s);
	}
}
END_TEST

struct feed {
	int fd;
	const char *buf;
	size_t n;
};

static void *feed(void *arg)
{
	struct feed *f = arg;
	for (size_t off = 0; off < f->n;) {
		ssize_t w = write(f->fd, f->buf + off, f->n - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(f->fd);
	return NULL;
}

/* A source on a pipe that a thread fills with N bytes at BUF. */
static perfan_source *open_pipe(const char *buf, size_t n, const char *name,
				const struct perfan_source_opts *o,
				pthread_t *th, struct feed *f, int *rfd)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	f->fd = fds[1];
	f->buf = buf;
	f->n = n;
	ck_assert_int_eq(pthread_create(th, NULL, feed, f), 0);
	perfan_source *s;
	ck_assert_int_eq(perfan_source_open_fd(&s, fds[0], name, o), 0);
	*rfd = fds[0];
	return s;
}

START_TEST(test_unknown_named)
{
	static const char junk[] = "\x7f"
				   "ELF\0\0\0 not a profile";
	pthread_t th;
	struct feed f;
	int rfd;
	perfan_source *s = open_pipe(junk, sizeof(junk), "junk-input", NULL,
				     &th, &f, &rfd);
	ck_assert_ptr_null(perfan_source_format(s));
	ck_assert_uint_eq(perfan_source_caps(s), 0);
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_source_load(s, p, NULL), PERFAN_EFORMAT);
	/* the message lists the formats perfan reads, from the registry */
	const char *msg = perfan_error_last();
	ck_assert_msg(!strncmp(msg,
			       "junk-input: neither perf.data nor any other "
			       "format perfan reads (",
			       60),
		      "message '%s'", msg);
	ck_assert_ptr_nonnull(strstr(msg, "perf script"));
	ck_assert_ptr_nonnull(strstr(msg, "folded"));
	ck_assert_ptr_nonnull(strstr(msg, "cProfile"));
	perfan_source_free(s);
	pthread_join(th, NULL);
	close(rfd);

	/* an empty input is no error, and no samples */
	s = open_pipe("", 0, "empty-input", NULL, &th, &f, &rfd);
	ck_assert_ptr_null(perfan_source_format(s));
	ck_assert_int_eq(perfan_source_empty(s), 1);
	ck_assert_int_eq(perfan_source_load(s, p, NULL), 0);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 0);
	perfan_source_free(s);
	pthread_join(th, NULL);
	close(rfd);
	perfan_profile_free(p);

	ck_assert_int_eq(perfan_source_open(&s, "no/such/input", NULL),
			 PERFAN_ENOTFOUND);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "no/such/input"));
}
END_TEST

static void count_bytes(uint64_t n, void *payload)
{
	*(uint64_t *)payload += n;
}

/* Two profiles with the same columns and totals. */
static void same_totals(const perfan_profile *a, const perfan_profile *b)
{
	ck_assert_uint_ge(perfan_profile_nr_columns(a), 1);
	ck_assert_uint_eq(perfan_profile_nr_columns(a),
			  perfan_profile_nr_columns(b));
	for (size_t c = 0; c < perfan_profile_nr_columns(a); c++) {
		ck_assert_str_eq(perfan_profile_column_name(a, c),
				 perfan_profile_column_name(b, c));
		ck_assert_uint_gt(perfan_profile_total(a, c), 0);
		ck_assert_uint_eq(perfan_profile_total(a, c),
				  perfan_profile_total(b, c));
	}
	ck_assert_uint_eq(perfan_profile_nr_nodes(a),
			  perfan_profile_nr_nodes(b));
}

/* A cProfile dump through a pipe: told by its first bytes, its call tables
 * read once (perfan_source_pstats) as from the file, or its estimated
 * stacks loaded as perfan_pstats_profile builds them. */
START_TEST(test_cprofile)
{
	size_t n;
	char *b = slurp("pstats/py3.11.pstats", &n);
	pthread_t th;
	struct feed f;
	int rfd;
	perfan_source *s = open_pipe(b, n, "dump-pipe", NULL, &th, &f, &rfd);
	ck_assert_str_eq(perfan_source_format(s), "cProfile");
	ck_assert_uint_eq(perfan_source_caps(s),
			  PERFAN_SOURCE_CALLS | PERFAN_SOURCE_ESTIMATED);
	perfan_pstats *piped, *file;
	ck_assert_int_eq(perfan_source_pstats(s, &piped), 0);
	ck_assert_int_eq(perfan_source_pstats(s, &file), PERFAN_EINVAL);
	ck_assert_ptr_null(file);
	perfan_source_free(s);
	pthread_join(th, NULL);
	close(rfd);
	ck_assert_int_eq(perfan_pstats_read_path(
				 &file, tu_testdata("pstats/py3.11.pstats"),
				 NULL),
			 0);
	ck_assert_uint_gt(perfan_pstats_nr_funcs(file), 10);
	ck_assert_uint_eq(perfan_pstats_nr_funcs(piped),
			  perfan_pstats_nr_funcs(file));
	ck_assert_uint_eq(perfan_pstats_nr_edges(piped),
			  perfan_pstats_nr_edges(file));
	ck_assert(perfan_pstats_total(piped) == perfan_pstats_total(file));

	perfan_profile *est, *p;
	ck_assert_int_eq(perfan_pstats_profile(file, &est), 0);
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	s = open_pipe(b, n, "dump-pipe", NULL, &th, &f, &rfd);
	ck_assert_int_eq(perfan_source_load(s, p, NULL), 0);
	same_totals(p, est);
	perfan_source_free(s);
	pthread_join(th, NULL);
	close(rfd);
	perfan_profile_free(p);
	perfan_profile_free(est);
	perfan_pstats_free(piped);
	perfan_pstats_free(file);
	free(b);
}
END_TEST

/* Text through a pipe: every byte read once (the peeked ones given again,
 * not read twice), the same profile as from the file, and no second
 * load. */
START_TEST(test_stream_text_once)
{
	size_t n;
	char *b = slurp("fp/script.txt", &n);
	uint64_t got = 0;
	struct perfan_source_opts o =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	o.on_read = count_bytes;
	o.read_payload = &got;
	pthread_t th;
	struct feed f;
	int rfd;
	perfan_source *s = open_pipe(b, n, "script-pipe", &o, &th, &f, &rfd);
	ck_assert_str_eq(perfan_source_format(s), "perf script");
	ck_assert_uint_eq(perfan_source_size(s), 0);
	perfan_profile *piped, *file;
	ck_assert_int_eq(perfan_profile_new(&piped, NULL), 0);
	ck_assert_int_eq(perfan_profile_new(&file, NULL), 0);
	struct perfan_source_stats st;
	ck_assert_int_eq(perfan_source_load(s, piped, &st), 0);
	ck_assert_uint_eq(got, n);
	ck_assert_uint_gt(st.script.samples, 0);
	ck_assert_int_eq(perfan_source_load(s, piped, NULL), PERFAN_EINVAL);
	perfan_source_free(s);
	pthread_join(th, NULL);
	close(rfd);

	ck_assert_int_eq(
		perfan_source_open(&s, tu_testdata("fp/script.txt"), NULL), 0);
	struct perfan_source_stats fst;
	ck_assert_int_eq(perfan_source_load(s, file, &fst), 0);
	ck_assert_uint_eq(fst.script.samples, st.script.samples);
	perfan_source_free(s);
	same_totals(piped, file);
	perfan_profile_free(piped);
	perfan_profile_free(file);
	free(b);
}
END_TEST

/* The resolver's options of the unit tests: the recording's host, its
 * binaries by build-id under testdata/pipe, no build-id cache. */
static void fp_resolve(struct perfan_resolve_opts *ro, char *symfs,
		       char *kallsyms, char *nocache)
{
	*ro = PERFAN_RESOLVE_OPTS_INIT;
	ro->host = tu_host();
	tu_fmt(symfs, 4096, "%s", tu_testdata("pipe"));
	tu_fmt(kallsyms, 4096, "%s", tu_testdata("kallsyms"));
	tu_fmt(nocache, 4096, "%s", tu_testdata("no-such-cache"));
	ro->symfs = symfs;
	ro->kallsyms = kallsyms;
	ro->buildid_dir = nocache;
}

/* A perf.data through a pipe (perf record -o -, which a stream can hold)
 * is read once, as a stream, to the same profile as the mapped file; its
 * reader is handed out once. */
START_TEST(test_stream_perfdata_once)
{
	char symfs[4096], kallsyms[4096], nocache[4096];
	struct perfan_resolve_opts ro;
	fp_resolve(&ro, symfs, kallsyms, nocache);
	struct perfan_source_opts o =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	o.perfdata.resolve = &ro;
	uint64_t got = 0;
	o.on_read = count_bytes;
	o.read_payload = &got;
	size_t n;
	char *b = slurp("pipe/perf.data", &n);
	pthread_t th;
	struct feed f;
	int rfd;
	perfan_source *s = open_pipe(b, n, "perfdata-pipe", &o, &th, &f, &rfd);
	ck_assert_str_eq(perfan_source_format(s), "perf.data");
	perfan_profile *piped, *file;
	ck_assert_int_eq(perfan_profile_new(&piped, NULL), 0);
	ck_assert_int_eq(perfan_profile_new(&file, NULL), 0);
	struct perfan_source_stats st;
	ck_assert_int_eq(perfan_source_load(s, piped, &st), 0);
	ck_assert_uint_gt(st.resolve.samples, 0);
	ck_assert_uint_lt(got, n); /* the bytes past the peek, if any */
	/* what the header says stays after the load: a pipe is read once */
	const perfan_perfdata *hdr = perfan_source_reader(s);
	ck_assert_ptr_nonnull(hdr);
	ck_assert_uint_gt(perfan_perfdata_nr_events(hdr), 0);
	perfan_perfdata *pd;
	ck_assert_int_eq(perfan_source_perfdata(s, &pd, NULL), PERFAN_EINVAL);
	ck_assert_ptr_null(pd);
	perfan_source_free(s);
	pthread_join(th, NULL);
	close(rfd);

	ck_assert_int_eq(
		perfan_source_open(&s, tu_testdata("pipe/perf.data"), &o), 0);
	struct perfan_source_stats fst;
	ck_assert_int_eq(perfan_source_load(s, file, &fst), 0);
	ck_assert_uint_eq(fst.resolve.samples, st.resolve.samples);
	perfan_source_free(s);
	same_totals(piped, file);

	/* the reader itself, for the stream: its first record is there */
	ck_assert_int_eq(
		perfan_source_open(&s, tu_testdata("fp/perf.data"), NULL), 0);
	ck_assert_int_eq(perfan_source_perfdata(s, &pd, NULL), 0);
	const struct perfan_record *rec;
	ck_assert_int_eq(perfan_perfdata_next(pd, &rec), 0);
	perfan_perfdata_free(pd);
	ck_assert_int_eq(perfan_source_load(s, file, NULL), PERFAN_EINVAL);
	perfan_source_free(s);

	/* text has no reader */
	ck_assert_int_eq(
		perfan_source_open(&s, tu_testdata("fp/script.txt"), NULL), 0);
	ck_assert_int_eq(perfan_source_perfdata(s, &pd, NULL), PERFAN_EINVAL);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "not a perf.data"));
	perfan_profile *text;
	ck_assert_int_eq(perfan_profile_new(&text, NULL), 0);
	ck_assert_int_eq(perfan_source_load(s, text, NULL), 0);
	ck_assert_ptr_null(perfan_source_reader(s)); /* only a perf.data's */
	perfan_profile_free(text);
	perfan_source_free(s);
	perfan_profile_free(piped);
	perfan_profile_free(file);
	free(b);
}
END_TEST

/* Two folded files read as one two-column profile. */
START_TEST(test_pair)
{
	perfan_source *a, *b;
	const char *path = tu_testdata("script-wild/fnobj-v.folded");
	ck_assert_int_eq(perfan_source_open(&a, path, NULL), 0);
	ck_assert_int_eq(perfan_source_open(&b, path, NULL), 0);
	perfan_profile *p;
	ck_assert_int_eq(perfan_profile_new(&p, NULL), 0);
	ck_assert_int_eq(perfan_source_load_pair(p, a, b, "before", "after"),
			 0);
	ck_assert_uint_eq(perfan_profile_nr_columns(p), 2);
	ck_assert_uint_gt(perfan_profile_total(p, 0), 0);
	ck_assert_uint_eq(perfan_profile_total(p, 0),
			  perfan_profile_total(p, 1));
	perfan_source_free(a);
	perfan_source_free(b);
	ck_assert_int_eq(
		perfan_source_open(&a, tu_testdata("fp/script.txt"), NULL), 0);
	ck_assert_int_eq(perfan_source_open(&b, path, NULL), 0);
	ck_assert_int_eq(perfan_source_load_pair(p, a, b, NULL, NULL),
			 PERFAN_EINVAL);
	perfan_source_free(a);
	perfan_source_free(b);
	perfan_profile_free(p);
}
END_TEST

static Suite *source_suite(void)
{
	Suite *s = suite_create("source");
	TCase *tc = tcase_create("registry");
	tcase_add_test(tc, test_detect_bytes);
	tcase_add_test(tc, test_detect_text);
	tcase_add_test(tc, test_open_formats);
	tcase_add_test(tc, test_unknown_named);
	tcase_add_test(tc, test_stream_text_once);
	tcase_add_test(tc, test_stream_perfdata_once);
	tcase_add_test(tc, test_pair);
	tcase_add_test(tc, test_cprofile);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(source_suite)
