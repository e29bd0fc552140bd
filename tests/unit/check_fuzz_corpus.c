/* check_fuzz_corpus.c: replays every input in tests/fuzz/corpus/ through the
 * fuzz target itself, so an input that once crashed the reader stays fixed. */
#include "../fuzz/fuzz_perfdata.c"

#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "testutil.h"

static char corpus_dir[PATH_MAX];
static struct dirent **inputs;
static int ninputs;

/* Regular files other than README*: the corpus keeps raw inputs only. */
static int is_input(const struct dirent *d)
{
	char path[PATH_MAX];
	struct stat st;

	if (d->d_name[0] == '.' || !strncmp(d->d_name, "README", 6))
		return 0;
	if (snprintf(path, sizeof(path), "%s/%s", corpus_dir, d->d_name) >=
	    (int)sizeof(path))
		return 0;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

START_TEST(test_corpus_present)
{
	struct stat st;

	ck_assert_msg(stat(corpus_dir, &st) == 0 && S_ISDIR(st.st_mode),
		      "no corpus directory at %s", corpus_dir);
	printf("%d fuzz corpus inputs in %s\n", ninputs, corpus_dir);
}
END_TEST

START_TEST(test_replay)
{
	char path[PATH_MAX];
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *fp;

	ck_assert_int_lt(snprintf(path, sizeof(path), "%s/%s", corpus_dir,
				  inputs[_i]->d_name),
			 (int)sizeof(path));
	fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	fclose(fp);
	/* a failure aborts with the input's name on stderr */
	fuzz_input_name = path;
	fuzz_every_way = 1;
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
}
END_TEST

static Suite *fuzz_corpus_suite(void)
{
	Suite *s = suite_create("fuzz_corpus");
	TCase *tc = tcase_create("corpus");

	snprintf(corpus_dir, sizeof(corpus_dir), "%s",
		 tu_testdata("../tests/fuzz/corpus"));
	ninputs = scandir(corpus_dir, &inputs, is_input, alphasort);
	if (ninputs < 0)
		ninputs = 0;
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_corpus_present);
	tcase_add_loop_test(tc, test_replay, 0, ninputs);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(fuzz_corpus_suite)
