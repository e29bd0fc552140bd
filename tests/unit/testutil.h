/* testutil.h: what every Check suite shares: a main that runs one suite,
 * paths to the test data, skipping a test whose data is absent, and
 * interning a frame. */
#ifndef PERFAN_TESTUTIL_H
#define PERFAN_TESTUTIL_H

#include <check.h>
#include <perfan/host.h>
#include <perfan/profile.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A frame of P interned as perfan_profile_frame does, which must work. */
static inline perfan_frame_id tu_frame(perfan_profile *p, const char *name,
				       const char *module, const char *file,
				       uint32_t line, uint32_t kind)
{
	perfan_frame_id id;
	ck_assert_int_eq(perfan_profile_frame(p, &id, name, module, file, line,
					      kind),
			 0);
	return id;
}

/* Add WEIGHT to column COL of the stack "a;b;c" (root first, native
 * frames without module) of P, which must work. */
static inline void tu_add_stack(perfan_profile *p, size_t col,
				const char *stack, uint64_t weight)
{
	perfan_frame_id f[64];
	size_t n = 0;
	for (const char *s = stack; *s && n < 64;) {
		size_t len = strcspn(s, ";");
		char name[256];
		ck_assert_uint_lt(len, sizeof(name));
		memcpy(name, s, len);
		name[len] = '\0';
		f[n++] = tu_frame(p, name, NULL, NULL, 0, PERFAN_FRAME_NATIVE);
		s += len + (s[len] == ';');
	}
	ck_assert_int_eq(perfan_profile_add(p, f, n, col, weight, NULL, NULL),
			 0);
}

/* int main(void) running SUITE_FN() with CK_NORMAL output; the exit status
 * is non-zero if any test failed. */
#define PERFAN_TEST_MAIN(suite_fn)                                             \
	int main(void)                                                         \
	{                                                                      \
		SRunner *sr = srunner_create(suite_fn());                      \
		srunner_run_all(sr, CK_NORMAL);                                \
		int failed = srunner_ntests_failed(sr);                        \
		srunner_free(sr);                                              \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;                   \
	}

#ifndef PERFAN_TESTDATA_DEFAULT
#define PERFAN_TESTDATA_DEFAULT "testdata"
#endif
#ifndef PERFAN_PEERDATA_DEFAULT
#define PERFAN_PEERDATA_DEFAULT "../shared/peer-data"
#endif

/* ENV's value (or DEF) joined with REL. The result lives in one of a few
 * static buffers, so up to four paths can be used at once. */
static inline const char *tu_path(const char *env, const char *def,
				  const char *rel)
{
	static char bufs[4][4096];
	static unsigned next;
	char *b = bufs[next++ % 4];
	const char *dir = getenv(env);

	if (!dir || !*dir)
		dir = def;
	snprintf(b, sizeof(bufs[0]), "%s/%s", dir, rel);
	return b;
}

/* A path under testdata/ (PERFAN_TESTDATA). */
static inline const char *tu_testdata(const char *rel)
{
	return tu_path("PERFAN_TESTDATA", PERFAN_TESTDATA_DEFAULT, rel);
}

/* A path under ../shared/peer-data (PERFAN_PEERDATA), which exists on the
 * project's machines and CI but not on a user's. */
static inline const char *tu_peerdata(const char *rel)
{
	return tu_path("PERFAN_PEERDATA", PERFAN_PEERDATA_DEFAULT, rel);
}

/* The machine every resolve in the tests runs on, whatever the real one:
 * the one that made testdata/ (kernel 6.18.44-fc-v782, hostname vm; see
 * testdata/README.md) with testdata/kallsyms as its /proc/kallsyms, no
 * kernel notes and no home (so no ~/.debug). */
#define TU_RECORDING_OSRELEASE "6.18.44-fc-v782"
#define TU_RECORDING_HOSTNAME "vm"
static inline const struct perfan_host *tu_host(void)
{
	static char kallsyms[4096];
	static struct perfan_host h;
	snprintf(kallsyms, sizeof(kallsyms), "%s", tu_testdata("kallsyms"));
	h = (struct perfan_host){.sz = sizeof(h),
				 .osrelease = TU_RECORDING_OSRELEASE,
				 .hostname = TU_RECORDING_HOSTNAME,
				 .kallsyms = kallsyms,
				 .kernel_notes = "",
				 .home = ""};
	return &h;
}

/* Another machine: a kernel and hostname that no recording names. */
static inline const struct perfan_host *tu_foreign_host(void)
{
	static struct perfan_host h;
	h = (struct perfan_host){.sz = sizeof(h),
				 .osrelease = "5.10.0-elsewhere",
				 .hostname = "elsewhere",
				 .kallsyms = "",
				 .kernel_notes = "",
				 .home = ""};
	return &h;
}

/* Check has no skip: say why on stdout and leave the test, which passes. */
/* snprintf for paths: too long a path stops the run rather than test the
 * wrong file. */
static inline void tu_fmt(char *out, size_t n, const char *f, ...)
	__attribute__((format(printf, 3, 4)));
static inline void tu_fmt(char *out, size_t n, const char *f, ...)
{
	va_list ap;
	int len;

	va_start(ap, f);
	len = vsnprintf(out, n, f, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= n) {
		fprintf(stderr, "path too long: %s\n", out);
		abort();
	}
}

/* The whole file PATH, NUL-terminated (its length in *LEN); the test
 * fails if it cannot be read. The caller frees it. */
static inline char *tu_slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;
	*len = 0;
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	do {
		if (*len + 4097 > cap) {
			cap = 2 * cap + 8192;
			buf = (char *)realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
		n = fread(buf + *len, 1, cap - *len - 1, fp);
		*len += n;
	} while (n > 0);
	fclose(fp);
	buf[*len] = '\0';
	return buf;
}

/* FN (a fuzz target) on the LEN bytes at DATA with each byte changed,
 * one at a time: damaged copies of a real input. Every byte is inverted;
 * every third is also given its top bit and its low bit flipped (the
 * three ways on every byte cost too long under ASan for a text input). */
static inline void tu_damage_each_byte(char *data, size_t len,
				       int (*fn)(const uint8_t *, size_t))
{
	static const uint8_t how[] = {0xff, 0x80, 0x01};
	for (size_t i = 0; i < len; i++)
		for (size_t k = 0; k < (i % 3 ? 1 : sizeof(how)); k++) {
			data[i] ^= (char)how[k];
			fn((const uint8_t *)data, len);
			data[i] ^= (char)how[k];
		}
}

#define TU_SKIP(...)                                                           \
	do {                                                                   \
		printf("SKIP: %s: ", __func__);                                \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
		fflush(stdout);                                                \
		return;                                                        \
	} while (0)

/* Skip the test unless peer data REL (a file or folder) can be read. */
#define TU_REQUIRE_PEERDATA(rel)                                               \
	do {                                                                   \
		const char *tu_p_ = tu_peerdata(rel);                          \
		if (access(tu_p_, R_OK) != 0)                                  \
			TU_SKIP("no peer data at %s", tu_p_);                  \
	} while (0)

#endif
