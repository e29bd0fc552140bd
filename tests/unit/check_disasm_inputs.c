/* check_disasm_inputs.c: replays every input in tests/fuzz/disasm-inputs/
 * (ELF files that once broke what annotate reads) and the ELF files of
 * testdata/ it starts from through the fuzz target fuzz_disasm.c itself,
 * so that a fixed input stays fixed without clang. */
#include "../fuzz/fuzz_disasm.c"

#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "testutil.h"

static void replay(const char *path)
{
	FILE *fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "%s", path);
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	ck_assert_int_ge(n, 0);
	rewind(fp);
	uint8_t *buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	ck_assert_int_eq(LLVMFuzzerTestOneInput(buf, (size_t)n), 0);
	free(buf);
}

START_TEST(test_inputs)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s",
		 tu_testdata("../tests/fuzz/disasm-inputs"));
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "no %s", dir);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[PATH_MAX * 2];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		replay(path);
		n++;
	}
	closedir(d);
	ck_assert_int_ge(n, 1);
}
END_TEST

START_TEST(test_seeds)
{
	static const char *const seeds[] = {"annotate/annotate",
					    "annotate-aarch64/loop",
					    "unwind-aarch64/frames", "fp/prog",
					    "debug-buildid/prog"};
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		replay(tu_testdata(seeds[i]));
}
END_TEST

static Suite *inputs_suite(void)
{
	Suite *s = suite_create("disasm_inputs");
	TCase *tc = tcase_create("disasm_inputs");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_inputs);
	tcase_add_test(tc, test_seeds);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(inputs_suite)
