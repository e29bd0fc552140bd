/* check_host.c: the facts about the machine perfan runs on (struct
 * perfan_host) decide what a resolve trusts, and nothing else does: the
 * same recording read "on the recording machine" and "elsewhere", the
 * running kernel's symbols, the build-id cache under HOME, and a recording
 * that does not name its kernel. Every host here is pinned, so the results
 * are the same on any machine. */
#define _GNU_SOURCE
#include <perfan/perfan.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

struct logbuf {
	char text[16384];
	size_t len;
	int warnings;
};

static void collect(enum perfan_log_level level, const char *msg, void *payload)
{
	struct logbuf *b = payload;
	if (level == PERFAN_LOG_WARN)
		b->warnings++;
	if (level > PERFAN_LOG_INFO)
		return;
	int n = snprintf(b->text + b->len, sizeof(b->text) - b->len, "%s\n",
			 msg);
	if (n > 0 && b->len + (size_t)n < sizeof(b->text))
		b->len += (size_t)n;
}

struct run {
	perfan_profile *p;
	struct perfan_resolve_stats st;
	struct logbuf log;
};

/* Resolve PD with the host H; SYMFS (a testdata case) and BUILDID_DIR may
 * be NULL: no symfs and the cache under H's home. */
static void resolve_pd(struct run *r, perfan_perfdata *pd,
		       const struct perfan_host *h, const char *symfs,
		       const char *buildid_dir)
{
	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(perfan_profile_new(&r->p, NULL), 0);
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	o.host = h;
	o.log = collect;
	o.log_payload = &r->log;
	char sf[4096];
	if (symfs) {
		snprintf(sf, sizeof(sf), "%s", tu_testdata(symfs));
		o.symfs = sf;
	}
	o.buildid_dir = buildid_dir;
	ck_assert_msg(!perfan_resolve_perfdata(r->p, pd, &o, &r->st), "%s",
		      perfan_error_last());
}

static void resolve(struct run *r, const char *rel, const struct perfan_host *h,
		    const char *symfs, const char *buildid_dir)
{
	perfan_perfdata *pd;
	ck_assert_msg(!perfan_perfdata_open(&pd, tu_testdata(rel), NULL), "%s",
		      perfan_error_last());
	resolve_pd(r, pd, h, symfs, buildid_dir);
	perfan_perfdata_free(pd);
}

/* Whether P interned a frame named NAME. */
static int has_frame(perfan_profile *p, const char *name)
{
	for (size_t i = 0; i < perfan_profile_nr_frames(p); i++)
		if (!strcmp(perfan_profile_frame_get(p, (perfan_frame_id)i)
				    ->name,
			    name))
			return 1;
	return 0;
}

static void run_free(struct run *r)
{
	perfan_profile_free(r->p);
}

/* cpu-pagefaults has kernel samples (elf_load, 0.70 %): on the recording
 * machine its kernel is the running one, whose symbols are the host's
 * kallsyms; elsewhere they are not used, and perfan says why. */
START_TEST(test_running_kernel_symbols_only_on_that_kernel)
{
	struct run r;
	resolve(&r, "cpu-pagefaults/perf.data", tu_host(), "cpu-pagefaults",
		"");
	ck_assert_msg(has_frame(r.p, "elf_load"), "%s", r.log.text);
	ck_assert_ptr_nonnull(strstr(r.log.text, "(running kernel)"));
	run_free(&r);

	resolve(&r, "cpu-pagefaults/perf.data", tu_foreign_host(),
		"cpu-pagefaults", "");
	ck_assert(!has_frame(r.p, "elf_load"));
	ck_assert_ptr_nonnull(strstr(
		r.log.text, "kernel symbols: recorded on kernel "
			    "6.18.44-fc-v782, running 5.10.0-elsewhere"));
	run_free(&r);

	/* the recording's kernel, but its symbols unknown */
	struct perfan_host h = *tu_host();
	h.kallsyms = "";
	resolve(&r, "cpu-pagefaults/perf.data", &h, "cpu-pagefaults", "");
	ck_assert(!has_frame(r.p, "elf_load"));
	ck_assert_ptr_nonnull(
		strstr(r.log.text, "the running kernel's are not known"));
	run_free(&r);
}
END_TEST

/* A recording cut before its feature section names no kernel release: the
 * message says so (it printed an uninitialised utsname once). */
START_TEST(test_recording_without_osrelease)
{
	FILE *f = fopen(tu_testdata("cpu-pagefaults/perf.data"), "rb");
	ck_assert_ptr_nonnull(f);
	static unsigned char data[1 << 20];
	size_t n = fread(data, 1, sizeof(data), f);
	fclose(f);
	ck_assert_uint_gt(n, 4096);
	ck_assert_uint_lt(n, sizeof(data));
	/* the last sample records are past 3/4 of the file; the features are
	 * at its end */
	size_t cut = n - n / 8;
	int fd = memfd_create("cut", 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, cut), (ssize_t)cut);
	lseek(fd, 0, SEEK_SET);
	perfan_perfdata *pd;
	ck_assert_int_eq(perfan_perfdata_open_fd(&pd, fd, "cut", NULL), 0);
	struct run r;
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(perfan_profile_new(&r.p, NULL), 0);
	struct perfan_resolve_opts o = PERFAN_RESOLVE_OPTS_INIT;
	o.host = tu_host();
	o.log = collect;
	o.log_payload = &r.log;
	/* cut inside the data: an error after the samples read */
	(void)perfan_resolve_perfdata(r.p, pd, &o, &r.st);
	perfan_perfdata_free(pd);
	ck_assert_uint_gt(r.st.samples, 0);
	ck_assert_msg(strstr(r.log.text, "kernel symbols: the recording does "
					 "not name its kernel"),
		      "%s", r.log.text);
	ck_assert_ptr_null(strstr(r.log.text, "running"));
	run_free(&r);
}
END_TEST

/* sched/ has no build-ids (perf record wrote none for it): the binary
 * found is used either way, verified by nothing, and perfan warns only
 * when the recording came from another machine. */
START_TEST(test_unverified_binary_warned_on_another_machine)
{
	struct run r;
	resolve(&r, "sched/perf.data", tu_host(), "sched", "");
	ck_assert(has_frame(r.p, "main"));
	ck_assert_ptr_null(strstr(r.log.text, "another machine"));
	int same_warnings = r.log.warnings;
	run_free(&r);

	resolve(&r, "sched/perf.data", tu_foreign_host(), "sched", "");
	ck_assert(has_frame(r.p, "main"));
	ck_assert_msg(strstr(r.log.text, "/sched: no build-id recorded and "
					 "recorded on another machine; using "),
		      "%s", r.log.text);
	ck_assert_int_gt(r.log.warnings, same_warnings);
	run_free(&r);

	/* the hostname alone makes it another machine */
	struct perfan_host h = *tu_host();
	h.hostname = "elsewhere";
	resolve(&r, "sched/perf.data", &h, "sched", "");
	ck_assert_ptr_nonnull(strstr(r.log.text, "another machine"));
	run_free(&r);
}
END_TEST

static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	ck_assert_int_eq(fclose(out), 0);
}

/* perf's build-id cache is HOME/.debug, HOME being the host's: fp/prog
 * put into a home's cache under its build-id is found there and only
 * there (symfs points at a case without it). */
START_TEST(test_buildid_cache_under_home)
{
	char home[] = "/tmp/perfan-home-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(home));
	char dir[4096], file[4096];
	const char *id = "228966694bdd4aef97825e766724b423ce7c7d6c";
	tu_fmt(dir, sizeof(dir), "%s/.debug", home);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	tu_fmt(dir, sizeof(dir), "%s/.debug/.build-id", home);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	tu_fmt(dir, sizeof(dir), "%s/.debug/.build-id/%.2s", home, id);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	tu_fmt(dir, sizeof(dir), "%s/.debug/.build-id/%.2s/%s", home, id,
	       id + 2);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	tu_fmt(file, sizeof(file), "%s/elf", dir);
	copy_file(tu_testdata("fp/prog"), file);

	struct perfan_host h = *tu_host();
	h.home = home;
	struct run r;
	resolve(&r, "fp/perf.data", &h, "sched", NULL);
	ck_assert_msg(has_frame(r.p, "hot_a"), "%s", r.log.text);
	run_free(&r);

	h.home = "";
	resolve(&r, "fp/perf.data", &h, "sched", NULL);
	ck_assert(!has_frame(r.p, "hot_a"));
	run_free(&r);

	unlink(file);
	rmdir(dir);
	tu_fmt(dir, sizeof(dir), "%s/.debug/.build-id/%.2s", home, id);
	rmdir(dir);
	tu_fmt(dir, sizeof(dir), "%s/.debug/.build-id", home);
	rmdir(dir);
	tu_fmt(dir, sizeof(dir), "%s/.debug", home);
	rmdir(dir);
	rmdir(home);
}
END_TEST

/* An options struct from an older caller (only sz and osrelease) reads the
 * rest as unpinned; a NULL host is the real machine. */
START_TEST(test_host_opts_versions)
{
	struct run r;
	resolve(&r, "fp/perf.data", NULL, "fp", "");
	ck_assert(has_frame(r.p, "hot_a"));
	run_free(&r);
	struct perfan_host h = {.sz = offsetof(struct perfan_host, hostname),
				.osrelease = "5.10.0-elsewhere",
				.hostname = "ignored"};
	resolve(&r, "cpu-pagefaults/perf.data", &h, "cpu-pagefaults", "");
	ck_assert(!has_frame(r.p, "elf_load"));
	ck_assert_ptr_nonnull(strstr(r.log.text, "running 5.10.0-elsewhere"));
	run_free(&r);
}
END_TEST

static Suite *host_suite(void)
{
	Suite *s = suite_create("host");
	TCase *tc = tcase_create("host");
	tcase_add_test(tc, test_running_kernel_symbols_only_on_that_kernel);
	tcase_add_test(tc, test_recording_without_osrelease);
	tcase_add_test(tc, test_unverified_binary_warned_on_another_machine);
	tcase_add_test(tc, test_buildid_cache_under_home);
	tcase_add_test(tc, test_host_opts_versions);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(host_suite)
