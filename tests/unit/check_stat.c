/* check_stat.c: perfan_stat_parse on every perf stat sample in
 * ../shared/peer-data/perf-stat (and local-vm/): each parses, the counts
 * each MANIFEST row's human reading rests on come out exactly, and copies
 * varied in the test (rows reordered, other CSV separators, cut at every
 * byte, German and French number formats, CRLF) give the same numbers or
 * an error naming the line. */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define DIR "perf-stat/"

static const char *const files[] = {
	"02-perfdoc-make-user.txt",
	"03-swiftnio-high-ipc-nocommas.txt",
	"04-knapsack-stalled-frontend.txt",
	"05-ls-user-branchy.txt",
	"06-ivybridge-not-supported-backend.txt",
	"07-netdata-interval-detailed-TRUNCATED.txt",
	"10-cascadelake-topdown-csv-percore.txt",
	"12-hybrid-doc-thread-mode.txt",
	"13-json-stalled-multiplex-TRUNCATED.txt",
	"15-arm-bigLITTLE-percore-not-supported-TRUNCATED.txt",
	"17-amd-ryzen-raw-events.txt",
	"18-process-id-insns-legacy.txt",
	"20-repeat-tracepoints-2009.txt",
	"local-vm/csv-default.txt",
	"local-vm/csv-interval.txt",
	"local-vm/csv-no-aggr-A.txt",
	"local-vm/csv-per-core.txt",
	"local-vm/csv-repeat-semicolon.txt",
	"local-vm/json-default.txt",
	"local-vm/json-interval.txt",
	"local-vm/json-per-core.txt",
	"local-vm/text-default.txt",
	"local-vm/text-interval.txt",
	"local-vm/text-no-aggr-A.txt",
	"local-vm/text-per-core.txt",
	"local-vm/text-per-socket.txt",
	"local-vm/text-per-thread.txt",
	"local-vm/text-repeat.txt",
	"local-vm/text-topdown.txt",
};

/* Every .txt under perf-stat/ and perf-stat/local-vm/ (relative to the
 * peer data), sorted; NULL-terminated, the caller frees each and the list.
 * The fixed list above must be a part of it: a file added later is read
 * by the tests that go over them all. */
static char **list_files(size_t *n)
{
	static const char *const dirs[] = {DIR, DIR "local-vm/"};
	char **out = NULL;
	size_t d, cap = 0;

	*n = 0;
	for (d = 0; d < 2; d++) {
		struct dirent **ents;
		int k, m = scandir(tu_peerdata(dirs[d]), &ents, NULL,
				   alphasort);
		for (k = 0; k < m; k++) {
			size_t l = strlen(ents[k]->d_name);
			if (l > 4 && !strcmp(ents[k]->d_name + l - 4, ".txt")) {
				if (*n + 2 > cap) {
					cap = cap ? cap * 2 : 64;
					out = realloc(out, cap * sizeof(*out));
					ck_assert_ptr_nonnull(out);
				}
				ck_assert_int_ge(asprintf(&out[(*n)++], "%s%s",
							  dirs[d],
							  ents[k]->d_name),
						 0);
			}
			free(ents[k]);
		}
		free(ents);
	}
	if (out)
		out[*n] = NULL;
	return out;
}

static void free_list(char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

/* The file's bytes (NUL-terminated, *LEN without it). */
static char *slurp(const char *rel, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	tu_fmt(path, sizeof(path), "%s", tu_peerdata(rel));
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int parse_buf(perfan_stat **s, const char *buf, size_t len,
		     const char *name)
{
	struct perfan_stat_parse_opts o =
		PERFAN_OPTS_INIT(struct perfan_stat_parse_opts);
	o.name = name;
	return perfan_stat_parse(s, buf, len, &o);
}

static perfan_stat *parse_file(const char *rel)
{
	size_t len;
	char *buf = slurp(rel, &len);
	perfan_stat *s = NULL;
	int rc = parse_buf(&s, buf, len, rel);

	ck_assert_msg(rc == 0, "%s: %d %s", rel, rc, perfan_error_last());
	free(buf);
	return s;
}

/* The Nth counter (from 0) named EVENT, with PMU and AGGR when given. */
static const struct perfan_stat_counter *find_nth(const perfan_stat *s,
						  const char *event,
						  const char *pmu,
						  const char *aggr, int nth)
{
	size_t i;

	for (i = 0; i < perfan_stat_nr_counters(s); i++) {
		const struct perfan_stat_counter *c = perfan_stat_counter(s, i);
		if (strcmp(c->event, event))
			continue;
		if (pmu && (!c->pmu || strcmp(c->pmu, pmu)))
			continue;
		if (aggr && (!c->aggr || strcmp(c->aggr, aggr)))
			continue;
		if (nth-- == 0)
			return c;
	}
	ck_abort_msg("no counter %s (pmu %s, aggr %s)", event, pmu ? pmu : "-",
		     aggr ? aggr : "-");
	return NULL;
}

static const struct perfan_stat_counter *find(const perfan_stat *s,
					      const char *event)
{
	return find_nth(s, event, NULL, NULL, 0);
}

static double val(const perfan_stat *s, const char *event)
{
	return find(s, event)->value;
}

/* perf prints ratios with 2 decimals: the recomputed one rounds to it. */
#define ASSERT_ROUNDS(x, want)                                                 \
	ck_assert_msg(fabs((x) - (want)) <= 0.005 + 1e-9,                      \
		      "%s = %.4f, not %.2f", #x, (double)(x), (double)(want))

/* ---- every file ---------------------------------------------------------- */

START_TEST(test_every_file_parses)
{
	size_t i, n;
	char **all;

	TU_REQUIRE_PEERDATA(DIR "MANIFEST.md");
	all = list_files(&n);
	/* the 13 public samples and the 16 of local-vm at least */
	ck_assert_uint_ge(n, sizeof(files) / sizeof(files[0]));
	for (i = 0; i < n; i++) {
		const char *rel = all[i];
		size_t len;
		char *buf;
		perfan_stat *s = NULL;
		int rc;

		buf = slurp(rel, &len);
		rc = parse_buf(&s, buf, len, rel);
		if (strstr(rel, "text-topdown")) {
			/* perf refused to count: its complaint is the error */
			ck_assert_int_eq(rc, PERFAN_EFORMAT);
			ck_assert_ptr_null(s);
			ck_assert_ptr_nonnull(strstr(perfan_error_last(),
						     "requires system-wide"));
		} else {
			ck_assert_msg(rc == 0, "%s: %s", rel,
				      perfan_error_last());
			ck_assert_uint_gt(perfan_stat_nr_counters(s), 0);
		}
		perfan_stat_free(s);
		free(buf);
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t j;
		char rel[256];
		tu_fmt(rel, sizeof(rel), DIR "%s", files[i]);
		for (j = 0; j < n && strcmp(all[j], rel); j++)
			;
		ck_assert_msg(j < n, "%s is gone", rel);
	}
	free_list(all, n);
}
END_TEST

/* ---- the MANIFEST rows ---------------------------------------------------- */

START_TEST(test_02_make_user)
{
	perfan_stat *s;
	const struct perfan_stat_counter *c;

	TU_REQUIRE_PEERDATA(DIR "02-perfdoc-make-user.txt");
	s = parse_file(DIR "02-perfdoc-make-user.txt");
	ck_assert_int_eq(perfan_stat_format(s), PERFAN_STAT_TEXT);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 8);
	ck_assert_double_eq(val(s, "instructions"), 313163853778.0);
	ck_assert_double_eq(val(s, "cycles"), 229570665834.0);
	ck_assert_double_eq(val(s, "branches"), 69704684856.0);
	ck_assert_double_eq(val(s, "branch-misses"), 2078861393.0);
	ASSERT_ROUNDS(val(s, "instructions") / val(s, "cycles"), 1.36);
	ASSERT_ROUNDS(100 * val(s, "branch-misses") / val(s, "branches"), 2.98);
	c = find(s, "task-clock");
	ck_assert_double_eq_tol(c->value, 83723.452481, 1e-6);
	ck_assert_str_eq(c->unit, "msec");
	ck_assert_str_eq(c->raw_name, "task-clock:u");
	ck_assert_str_eq(c->modifiers, "u");
	ck_assert_ptr_null(c->pmu);
	ck_assert_ptr_null(c->aggr);
	ck_assert_double_eq(c->running_pct, 100);
	ck_assert_double_eq(c->variance_pct, -1);
	ck_assert_double_eq(c->interval, -1);
	ck_assert_uint_eq(c->line, 5);
	ck_assert_double_eq_tol(perfan_stat_elapsed(s), 83.409183620, 1e-9);
	ck_assert_double_eq_tol(perfan_stat_user(s), 74.684747, 1e-9);
	ck_assert_double_eq_tol(perfan_stat_sys(s), 8.739217, 1e-9);
	ck_assert_uint_eq(perfan_stat_runs(s), 1);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_03_nocommas_continuation)
{
	perfan_stat *s;

	TU_REQUIRE_PEERDATA(DIR "03-swiftnio-high-ipc-nocommas.txt");
	s = parse_file(DIR "03-swiftnio-high-ipc-nocommas.txt");
	/* the "# 0.01 stalled cycles per insn" line is not a counter */
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 9);
	ck_assert_double_eq(val(s, "cycles"), 1736698259.0);
	ck_assert_double_eq(val(s, "instructions"), 5927885177.0);
	ck_assert_double_eq(val(s, "stalled-cycles-frontend"), 53504877.0);
	ck_assert_double_eq(val(s, "page-faults"), 2989.0);
	ck_assert_double_eq_tol(val(s, "task-clock"), 449.96, 1e-9);
	ck_assert_str_eq(find(s, "task-clock")->unit, "msec");
	ASSERT_ROUNDS(val(s, "instructions") / val(s, "cycles"), 3.41);
	ASSERT_ROUNDS(100 * val(s, "branch-misses") / val(s, "branches"), 0.03);
	ASSERT_ROUNDS(100 * val(s, "stalled-cycles-frontend") /
			      val(s, "cycles"),
		      3.08);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_04_program_output)
{
	perfan_stat *s;

	TU_REQUIRE_PEERDATA(DIR "04-knapsack-stalled-frontend.txt");
	s = parse_file(DIR "04-knapsack-stalled-frontend.txt");
	/* "6623856" printed by the program is not a counter */
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 9);
	ck_assert_double_eq(val(s, "instructions"), 1050590561.0);
	ck_assert_double_eq(val(s, "cycles"), 475329928.0);
	ASSERT_ROUNDS(val(s, "instructions") / val(s, "cycles"), 2.21);
	ASSERT_ROUNDS(100 * val(s, "branch-misses") / val(s, "branches"), 0.26);
	ASSERT_ROUNDS(100 * val(s, "stalled-cycles-frontend") /
			      val(s, "cycles"),
		      39.86);
	ck_assert_str_eq(find(s, "task-clock")->unit, "msec");
	ck_assert_double_eq_tol(perfan_stat_elapsed(s), 0.199619504, 1e-12);
	ck_assert_double_eq(perfan_stat_user(s), -1);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_05_branchy)
{
	perfan_stat *s;

	TU_REQUIRE_PEERDATA(DIR "05-ls-user-branchy.txt");
	s = parse_file(DIR "05-ls-user-branchy.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 8);
	ASSERT_ROUNDS(val(s, "instructions") / val(s, "cycles"), 1.00);
	ASSERT_ROUNDS(100 * val(s, "branch-misses") / val(s, "branches"), 5.79);
	ck_assert_double_eq_tol(val(s, "task-clock"), 1.27, 1e-12);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_06_not_supported)
{
	perfan_stat *s;
	const struct perfan_stat_counter *c;

	TU_REQUIRE_PEERDATA(DIR "06-ivybridge-not-supported-backend.txt");
	s = parse_file(DIR "06-ivybridge-not-supported-backend.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 10);
	c = find(s, "stalled-cycles-backend");
	ck_assert_int_eq(c->supported, 0);
	ck_assert_int_eq(c->counted, 0);
	ck_assert_uint_eq(c->line, 9);
	ck_assert_int_eq(find(s, "stalled-cycles-frontend")->supported, 1);
	ASSERT_ROUNDS(val(s, "instructions") / val(s, "cycles"), 0.83);
	ASSERT_ROUNDS(100 * val(s, "branch-misses") / val(s, "branches"), 3.60);
	ASSERT_ROUNDS(100 * val(s, "stalled-cycles-frontend") /
			      val(s, "cycles"),
		      59.64);
	/* no unit column in this perf: still msec */
	ck_assert_double_eq_tol(val(s, "task-clock"), 1.388670, 1e-12);
	ck_assert_str_eq(find(s, "task-clock")->unit, "msec");
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_07_interval)
{
	perfan_stat *s;
	size_t i;

	TU_REQUIRE_PEERDATA(DIR "07-netdata-interval-detailed-TRUNCATED.txt");
	s = parse_file(DIR "07-netdata-interval-detailed-TRUNCATED.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 11);
	for (i = 0; i < perfan_stat_nr_counters(s); i++)
		ck_assert_double_eq_tol(perfan_stat_counter(s, i)->interval,
					123.100852112, 1e-9);
	ck_assert_double_eq_tol(val(s, "cpu-clock"), 8008.478891, 1e-6);
	ck_assert_str_eq(find(s, "cpu-clock")->unit, "msec");
	ck_assert_double_eq(find(s, "cpu-clock")->running_pct, 100);
	ck_assert_double_eq(val(s, "cycles"), 5109360888.0);
	ck_assert_double_eq_tol(find(s, "cycles")->running_pct, 38.46, 1e-9);
	ck_assert_double_eq(val(s, "instructions"), 5574865332.0);
	ck_assert_double_eq_tol(find(s, "instructions")->running_pct, 46.15,
				1e-9);
	ck_assert_double_eq_tol(find(s, "LLC-loads")->running_pct, 30.77, 1e-9);
	/* the human reading: perf's printed 0.53 disagrees, (calc) 1.09 */
	ASSERT_ROUNDS(val(s, "instructions") / val(s, "cycles"), 1.09);
	ck_assert_double_eq(val(s, "L1-dcache-load-misses"), 65228240.0);
	ck_assert_msg(fabs(100 * val(s, "L1-dcache-load-misses") /
				   val(s, "L1-dcache-loads") -
			   3.9) < 0.05,
		      "L1 miss calc 3.9 %%");
	ck_assert_double_eq(val(s, "branch-misses"), 9171905.0);
	ck_assert_double_eq(perfan_stat_elapsed(s), -1);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_10_topdown_csv_percore)
{
	perfan_stat *s;
	const struct perfan_stat_counter *c;

	TU_REQUIRE_PEERDATA(DIR "10-cascadelake-topdown-csv-percore.txt");
	s = parse_file(DIR "10-cascadelake-topdown-csv-percore.txt");
	ck_assert_int_eq(perfan_stat_format(s), PERFAN_STAT_CSV);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 4);
	c = find(s, "topdown-retiring");
	ck_assert_str_eq(c->raw_name, "retiring");
	ck_assert_str_eq(c->aggr, "S0-C0");
	ck_assert_double_eq(c->aggr_count, 1);
	ck_assert_double_eq(c->value, 151.0);
	ck_assert_double_eq_tol(val(s, "topdown-bad-spec"), 3.9, 1e-12);
	ck_assert_double_eq(val(s, "topdown-fe-bound"), 26.0);
	/* the empty field: not counted */
	ck_assert_int_eq(find(s, "topdown-be-bound")->counted, 0);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_12_hybrid)
{
	perfan_stat *s;
	const struct perfan_stat_counter *c;

	TU_REQUIRE_PEERDATA(DIR "12-hybrid-doc-thread-mode.txt");
	s = parse_file(DIR "12-hybrid-doc-thread-mode.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 4);
	c = find_nth(s, "cycles", "cpu_core", NULL, 0);
	ck_assert_double_eq(c->value, 6744979.0);
	ck_assert_str_eq(c->raw_name, "cpu_core/cycles/");
	ck_assert_double_eq(c->running_pct, 100);
	c = find_nth(s, "cycles", "cpu_core", NULL, 1);
	ck_assert_double_eq(c->value, 233066666.0);
	ck_assert_double_eq_tol(c->running_pct, 0.43, 1e-12);
	c = find_nth(s, "cycles", "cpu_atom", NULL, 1);
	ck_assert_double_eq(c->value, 604097080.0);
	ck_assert_double_eq_tol(c->running_pct, 99.57, 1e-12);
	ck_assert_ptr_null(c->modifiers);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_13_json)
{
	perfan_stat *s;
	const struct perfan_stat_counter *c;

	TU_REQUIRE_PEERDATA(DIR "13-json-stalled-multiplex-TRUNCATED.txt");
	s = parse_file(DIR "13-json-stalled-multiplex-TRUNCATED.txt");
	ck_assert_int_eq(perfan_stat_format(s), PERFAN_STAT_JSON);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 6);
	c = find(s, "task-clock");
	ck_assert_double_eq_tol(c->value, 1.397967, 1e-12);
	ck_assert_str_eq(c->unit, "msec");
	ck_assert_uint_eq(c->line, 3);
	c = find(s, "cycles");
	ck_assert_double_eq(c->value, 1419380.0);
	ck_assert_double_eq_tol(c->running_pct, 10.0, 1e-12);
	ck_assert_ptr_null(c->unit);
	ck_assert_double_eq(val(s, "stalled-cycles-frontend"), 141415.0);
	ck_assert_double_eq(find(s, "stalled-cycles-frontend")->running_pct,
			    100);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_15_percore_not_supported)
{
	perfan_stat *s;
	const struct perfan_stat_counter *c;

	TU_REQUIRE_PEERDATA(
		DIR "15-arm-bigLITTLE-percore-not-supported-TRUNCATED.txt");
	s = parse_file(DIR
		       "15-arm-bigLITTLE-percore-not-supported-TRUNCATED.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 12);
	c = find_nth(s, "cycles", NULL, "S0-C0", 0);
	ck_assert_double_eq(c->value, 237899272.0);
	ck_assert_double_eq(c->aggr_count, 1);
	ck_assert_double_eq(c->running_pct, 100);
	c = find_nth(s, "stalled-cycles-frontend", NULL, "S0-C8", 0);
	ck_assert_int_eq(c->supported, 0);
	ck_assert_double_eq(c->aggr_count, 1);
	ck_assert_int_eq(find_nth(s, "branches", NULL, "S0-C8", 0)->supported,
			 0);
	/* printed 0.25, (calc) 0.17 */
	ASSERT_ROUNDS(find_nth(s, "instructions", NULL, "S0-C0", 0)->value /
			      find_nth(s, "cycles", NULL, "S0-C0", 0)->value,
		      0.17);
	ck_assert_double_eq_tol(
		find_nth(s, "task-clock", NULL, "S0-C1", 0)->value, 1019.717708,
		1e-6);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_17_18_20_legacy)
{
	perfan_stat *s;
	const struct perfan_stat_counter *c;

	TU_REQUIRE_PEERDATA(DIR "17-amd-ryzen-raw-events.txt");
	s = parse_file(DIR "17-amd-ryzen-raw-events.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 4);
	c = find(s, "r0e25");
	ck_assert_str_eq(c->modifiers, "u");
	ck_assert_double_eq(c->value, 0);
	ck_assert_int_eq(c->counted, 1);
	perfan_stat_free(s);

	s = parse_file(DIR "18-process-id-insns-legacy.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 2);
	ASSERT_ROUNDS(val(s, "instructions") / val(s, "cycles"), 1.73);
	ck_assert_double_eq(find(s, "cycles")->running_pct, 100);
	ck_assert_double_eq_tol(perfan_stat_elapsed(s), 120.000838706, 1e-9);
	perfan_stat_free(s);

	s = parse_file(DIR "20-repeat-tracepoints-2009.txt");
	ck_assert_uint_eq(perfan_stat_runs(s), 5);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 4);
	c = find(s, "kmem:mm_page_pcpu_drain");
	ck_assert_double_eq(c->value, 12920);
	ck_assert_double_eq_tol(c->variance_pct, 3.359, 1e-12);
	ck_assert_ptr_null(c->modifiers);
	/* the row with a literal TAB */
	c = find(s, "kmem:mm_page_free");
	ck_assert_double_eq(c->value, 18376);
	ck_assert_double_eq_tol(c->variance_pct, 4.941, 1e-12);
	ck_assert_double_eq_tol(perfan_stat_elapsed(s), 0.643954516, 1e-12);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_local_vm)
{
	perfan_stat *s;
	const struct perfan_stat_counter *c;

	TU_REQUIRE_PEERDATA(DIR "local-vm");
	s = parse_file(DIR "local-vm/csv-repeat-semicolon.txt");
	ck_assert_int_eq(perfan_stat_format(s), PERFAN_STAT_CSV);
	c = find(s, "task-clock");
	ck_assert_double_eq_tol(c->value, 560.03, 1e-9);
	ck_assert_double_eq_tol(c->variance_pct, 8.45, 1e-12);
	ck_assert_double_eq(c->running_pct, 100);
	ck_assert_double_eq_tol(find(s, "page-faults")->variance_pct, 0.12,
				1e-12);
	ck_assert_int_eq(find(s, "cycles")->supported, 0);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/text-repeat.txt");
	ck_assert_uint_eq(perfan_stat_runs(s), 3);
	ck_assert_double_eq_tol(find(s, "task-clock")->variance_pct, 39.23,
				1e-12);
	ck_assert_double_eq_tol(perfan_stat_elapsed(s), 0.718, 1e-12);
	ck_assert_int_eq(find(s, "branch-misses")->supported, 0);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/csv-interval.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 6);
	ck_assert_double_eq_tol(
		find_nth(s, "task-clock", NULL, NULL, 1)->interval, 0.233716001,
		1e-12);
	ck_assert_double_eq_tol(val(s, "task-clock"), 199.67, 1e-9);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/text-interval.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 6);
	ck_assert_double_eq_tol(
		find_nth(s, "task-clock", NULL, NULL, 1)->interval, 0.285021933,
		1e-12);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/json-interval.txt");
	ck_assert_double_eq_tol(
		find_nth(s, "task-clock", NULL, NULL, 1)->interval, 0.246976957,
		1e-12);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/json-per-core.txt");
	c = find_nth(s, "cpu-clock", NULL, "S0-D0-C1", 0);
	ck_assert_double_eq_tol(c->value, 301.507432, 1e-9);
	ck_assert_double_eq(c->aggr_count, 1);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/csv-per-core.txt");
	c = find_nth(s, "cpu-clock", NULL, "S0-D0-C1", 0);
	ck_assert_double_eq_tol(c->value, 304.68, 1e-9);
	ck_assert_double_eq(c->aggr_count, 1);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/csv-no-aggr-A.txt");
	ck_assert_int_eq(find_nth(s, "cycles", NULL, "CPU1", 0)->supported, 0);
	ck_assert_double_eq(find_nth(s, "cycles", NULL, "CPU1", 0)->aggr_count,
			    0);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/text-no-aggr-A.txt");
	ck_assert_double_eq_tol(
		find_nth(s, "cpu-clock", NULL, "CPU1", 0)->value, 303.78, 1e-9);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/text-per-socket.txt");
	c = find_nth(s, "cpu-clock", NULL, "S0", 0);
	ck_assert_double_eq(c->aggr_count, 2);
	ck_assert_double_eq_tol(c->value, 603.56, 1e-9);
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/text-per-thread.txt");
	c = find_nth(s, "task-clock", NULL, "bash-2466", 0);
	ck_assert_int_eq(c->counted, 0);
	ck_assert_int_eq(c->supported, 1);
	ck_assert_str_eq(c->unit, "msec");
	perfan_stat_free(s);

	s = parse_file(DIR "local-vm/json-default.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 8);
	ck_assert_int_eq(find(s, "instructions")->supported, 0);
	ck_assert_double_eq(val(s, "context-switches"), 268);
	perfan_stat_free(s);
}
END_TEST

/* ---- hand-varied copies ------------------------------------------------- */

/* Every counter of A and B agrees, in order or not. */
static void assert_same(const perfan_stat *a, const perfan_stat *b,
			const char *what)
{
	size_t i, j;

	ck_assert_msg(perfan_stat_nr_counters(a) == perfan_stat_nr_counters(b),
		      "%s: %zu counters, not %zu", what,
		      perfan_stat_nr_counters(b), perfan_stat_nr_counters(a));
	for (i = 0; i < perfan_stat_nr_counters(a); i++) {
		const struct perfan_stat_counter *x = perfan_stat_counter(a, i);
		int found = 0;
		for (j = 0; j < perfan_stat_nr_counters(b) && !found; j++) {
			const struct perfan_stat_counter *y =
				perfan_stat_counter(b, j);
			found = !strcmp(x->raw_name, y->raw_name) &&
				!strcmp(x->aggr ? x->aggr : "",
					y->aggr ? y->aggr : "") &&
				x->interval == y->interval &&
				x->value == y->value &&
				x->supported == y->supported &&
				x->counted == y->counted &&
				x->running_pct == y->running_pct &&
				x->variance_pct == y->variance_pct &&
				x->aggr_count == y->aggr_count;
		}
		ck_assert_msg(found, "%s: %s = %f differs", what, x->raw_name,
			      x->value);
	}
	ck_assert_double_eq(perfan_stat_elapsed(a), perfan_stat_elapsed(b));
	ck_assert_double_eq(perfan_stat_user(a), perfan_stat_user(b));
	ck_assert_uint_eq(perfan_stat_runs(a), perfan_stat_runs(b));
}

/* Replace every FROM (a string) with TO in BUF into a new buffer. */
static char *replace(const char *buf, const char *from, const char *to,
		     size_t *len)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	char *out = malloc(strlen(buf) * (tl + 1) + 1), *o = out;
	const char *p = buf, *q;

	ck_assert_ptr_nonnull(out);
	while ((q = strstr(p, from))) {
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		memcpy(o, to, tl);
		o += tl;
		p = q + fl;
	}
	n = strlen(p);
	memcpy(o, p, n + 1);
	o += n;
	*len = (size_t)(o - out);
	return out;
}

START_TEST(test_reordered_rows)
{
	static const char *const rels[] = {
		DIR "02-perfdoc-make-user.txt",
		DIR "06-ivybridge-not-supported-backend.txt",
		DIR "15-arm-bigLITTLE-percore-not-supported-TRUNCATED.txt",
		DIR "local-vm/csv-repeat-semicolon.txt",
		DIR "local-vm/json-default.txt",
	};
	size_t r;

	TU_REQUIRE_PEERDATA(DIR "local-vm");
	for (r = 0; r < sizeof(rels) / sizeof(rels[0]); r++) {
		size_t len, nl = 0, i;
		char *buf = slurp(rels[r], &len), *copy, *lines[64], *tok,
		     *save = NULL;
		perfan_stat *a = parse_file(rels[r]), *b = NULL;
		int rc;

		/* The lines in reverse order: footers first, rows reversed. */
		copy = strdup(buf);
		for (tok = strtok_r(copy, "\n", &save); tok && nl < 64;
		     tok = strtok_r(NULL, "\n", &save))
			lines[nl++] = tok;
		char *rev = malloc(len + nl + 2), *o = rev;
		for (i = nl; i-- > 0;)
			o += sprintf(o, "%s\n", lines[i]);
		rc = parse_buf(&b, rev, (size_t)(o - rev), "reversed");
		ck_assert_msg(rc == 0, "%s reversed: %s", rels[r],
			      perfan_error_last());
		assert_same(a, b, rels[r]);
		perfan_stat_free(a);
		perfan_stat_free(b);
		free(rev);
		free(copy);
		free(buf);
	}
}
END_TEST

START_TEST(test_csv_separators)
{
	static const char *const rels[] = {
		DIR "local-vm/csv-default.txt",
		DIR "local-vm/csv-interval.txt",
		DIR "local-vm/csv-no-aggr-A.txt",
		DIR "local-vm/csv-per-core.txt",
		DIR "10-cascadelake-topdown-csv-percore.txt",
	};
	static const char *const seps[] = {";", "\t", "|", "!!", " ; ", "#"};
	size_t r, i;

	TU_REQUIRE_PEERDATA(DIR "local-vm");
	for (r = 0; r < sizeof(rels) / sizeof(rels[0]); r++) {
		size_t len;
		char *buf = slurp(rels[r], &len);
		perfan_stat *a = parse_file(rels[r]);

		for (i = 0; i < sizeof(seps) / sizeof(seps[0]); i++) {
			size_t n;
			char *v = replace(buf, ",", seps[i], &n);
			perfan_stat *b = NULL;
			int rc = parse_buf(&b, v, n, "sep");
			ck_assert_msg(rc == 0, "%s with \"%s\": %s", rels[r],
				      seps[i], perfan_error_last());
			ck_assert_int_eq(perfan_stat_format(b),
					 PERFAN_STAT_CSV);
			assert_same(a, b, seps[i]);
			perfan_stat_free(b);
			free(v);
		}
		perfan_stat_free(a);
		free(buf);
	}

	/* and the -r file from ';' to ',' */
	{
		size_t len, n;
		char *buf = slurp(DIR "local-vm/csv-repeat-semicolon.txt",
				  &len),
		     *v = replace(buf, ";", ",", &n);
		perfan_stat *a = parse_file(
				    DIR "local-vm/csv-repeat-semicolon.txt"),
			    *b = NULL;
		ck_assert_int_eq(parse_buf(&b, v, n, "comma"), 0);
		assert_same(a, b, "comma");
		perfan_stat_free(a);
		perfan_stat_free(b);
		free(v);
		free(buf);
	}
}
END_TEST

/* Cut every file at every byte: a clean parse of what is left (the rows
 * before the last line exactly as in the whole file) or a clear error;
 * never a crash. */
START_TEST(test_cut_anywhere)
{
	size_t f, nall;
	char **all;

	TU_REQUIRE_PEERDATA(DIR "local-vm");
	all = list_files(&nall);
	for (f = 0; f < nall; f++) {
		const char *rel = all[f];
		size_t len, cut;
		char *buf;
		perfan_stat *whole = NULL;

		buf = slurp(rel, &len);
		if (parse_buf(&whole, buf, len, rel)) {
			free(buf);
			continue;
		}
		for (cut = 0; cut < len; cut++) {
			perfan_stat *s = NULL;
			char *part = malloc(cut + 1);
			uint32_t last = 1;
			size_t i, j;
			int rc;

			memcpy(part, buf, cut);
			for (i = 0; i < cut; i++)
				last += buf[i] == '\n';
			rc = parse_buf(&s, part, cut, "cut");
			if (rc) {
				/* only "nothing in it" may fail */
				ck_assert_msg(
					rc == PERFAN_EFORMAT &&
						strstr(perfan_error_last(),
						       "no perf stat"),
					"%s cut at %zu: %s", rel, cut,
					perfan_error_last());
				free(part);
				continue;
			}
			for (i = 0; i < perfan_stat_nr_counters(s); i++) {
				const struct perfan_stat_counter *c =
					perfan_stat_counter(s, i);
				int ok = 0;
				if (c->line == last)
					continue; /* the cut line */
				for (j = 0; j < perfan_stat_nr_counters(whole);
				     j++) {
					const struct perfan_stat_counter *w =
						perfan_stat_counter(whole, j);
					ok |= w->line == c->line &&
					      w->value == c->value &&
					      !strcmp(w->raw_name, c->raw_name);
				}
				ck_assert_msg(ok, "%s cut at %zu: line %u", rel,
					      cut, c->line);
			}
			perfan_stat_free(s);
			free(part);
		}
		perfan_stat_free(whole);
		free(buf);
	}
	free_list(all, nall);
}
END_TEST

/* A truncated last line is dropped; the same cut row in the middle of the
 * input is an error naming its line. */
START_TEST(test_truncated_rows)
{
	static const char text[] =
		"   123.100852112      5,109,360,888      cycles    # 0.638 "
		"GHz  (38.46%)\n"
		"   123.100852112      1,674,4";
	static const char mid[] =
		"   123.100852112      1,674,4\n"
		"   123.100852112      5,109,360,888      cycles    # 0.638 "
		"GHz  (38.46%)\n";
	static const char paren[] =
		"          12920  kmem:mm_page_pcpu_drain    ( +-   3.3\n"
		"          25035  kmem:mm_page_alloc         ( +-   3.783% )\n";
	static const char csv[] = "494.02,msec,task-clock,494021724,100.00,,\n"
				  "134,,context-swi\n"
				  "957,,page-faults,494021724,100.00,1.937,K/"
				  "sec\n";
	static const char json[] =
		"{\"counter-value\" : \"66.000000\", \"unit\" : \"\", "
		"\"event\" : \"page-faults\", \"pcnt-running\" : 100.00}\n"
		"{\"counter-value\" : \"1419380.000000\", \"unit\" : \"\", "
		"\"event\" : \"cycl\n"
		"{\"counter-value\" : \"1.000000\", \"unit\" : \"\", "
		"\"event\" : \"context-switches\"}\n";
	perfan_stat *s = NULL;

	ck_assert_int_eq(parse_buf(&s, text, strlen(text), "t.txt"), 0);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 1);
	perfan_stat_free(s);
	s = NULL;

	ck_assert_int_eq(parse_buf(&s, mid, strlen(mid), "t.txt"),
			 PERFAN_EFORMAT);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "t.txt:1:"));

	ck_assert_int_eq(parse_buf(&s, paren, strlen(paren), "p.txt"),
			 PERFAN_EFORMAT);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "p.txt:1:"));
	/* without its newline, the same cut line is the end of the input */
	ck_assert_int_eq(parse_buf(&s, paren, strchr(paren, '\n') - paren,
				   "p.txt"),
			 PERFAN_EFORMAT); /* nothing else in it */
	ck_assert_int_eq(
		parse_buf(&s, paren + 56, strlen(paren) - 56, "p2.txt"), 0);
	perfan_stat_free(s);
	s = NULL;

	ck_assert_int_eq(parse_buf(&s, csv, strlen(csv), "c.csv"),
			 PERFAN_EFORMAT);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "c.csv:2:"));

	ck_assert_int_eq(parse_buf(&s, json, strlen(json), "j.json"),
			 PERFAN_EFORMAT);
	ck_assert_ptr_nonnull(strstr(perfan_error_last(), "j.json:2:"));
	/* the same JSON cut at its end is fine */
	ck_assert_int_eq(parse_buf(&s, json, strrchr(json, '{') - json - 1,
				   "j.json"),
			 0);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 1);
	perfan_stat_free(s);
}
END_TEST

/* Swap '.' and ',' in the numbers of a file, as de_DE prints them. */
static char *german(const char *buf, size_t len)
{
	char *out = malloc(len + 1);
	size_t i;

	ck_assert_ptr_nonnull(out);
	for (i = 0; i < len; i++) {
		char c = buf[i];
		int num = i > 0 && i + 1 < len && buf[i - 1] >= '0' &&
			  buf[i - 1] <= '9' && buf[i + 1] >= '0' &&
			  buf[i + 1] <= '9';
		if (num && c == '.')
			c = ',';
		else if (num && c == ',')
			c = '.';
		out[i] = c;
	}
	out[len] = 0;
	return out;
}

START_TEST(test_german_locale)
{
	static const char *const rels[] = {
		DIR "02-perfdoc-make-user.txt",
		DIR "04-knapsack-stalled-frontend.txt",
		DIR "05-ls-user-branchy.txt",
		DIR "07-netdata-interval-detailed-TRUNCATED.txt",
		DIR "15-arm-bigLITTLE-percore-not-supported-TRUNCATED.txt",
		DIR "local-vm/text-repeat.txt",
		DIR "local-vm/csv-repeat-semicolon.txt",
	};
	static const char de[] =
		" Performance counter stats for './a':\n\n"
		"      1.234.567,89 msec task-clock    #    1,004 CPUs "
		"utilized\n"
		"     1.234.567      cycles           #    2,742 GHz      "
		"(99,50%)\n"
		"           123      instructions\n\n"
		"       1,234567890 seconds time elapsed\n";
	/* fr_FR: U+202F and plain spaces as grouping */
	static const char fr[] = "  1\xe2\x80\xaf"
				 "234\xe2\x80\xaf"
				 "567,89 msec task-clock\n"
				 "     1 234 567      cycles\n"
				 "   2\xc2\xa0"
				 "345      instructions\n"
				 "       1,234567890 seconds time elapsed\n";
	size_t r;
	perfan_stat *s = NULL;

	TU_REQUIRE_PEERDATA(DIR "local-vm");
	for (r = 0; r < sizeof(rels) / sizeof(rels[0]); r++) {
		size_t len;
		char *buf = slurp(rels[r], &len), *v = german(buf, len);
		perfan_stat *a = parse_file(rels[r]), *b = NULL;
		int rc = parse_buf(&b, v, len, "de");
		ck_assert_msg(rc == 0, "%s in German: %s", rels[r],
			      perfan_error_last());
		assert_same(a, b, rels[r]);
		perfan_stat_free(a);
		perfan_stat_free(b);
		free(v);
		free(buf);
	}

	ck_assert_int_eq(parse_buf(&s, de, strlen(de), "de"), 0);
	ck_assert_double_eq_tol(val(s, "task-clock"), 1234567.89, 1e-6);
	ck_assert_double_eq(val(s, "cycles"), 1234567);
	ck_assert_double_eq_tol(find(s, "cycles")->running_pct, 99.5, 1e-12);
	ck_assert_double_eq(val(s, "instructions"), 123);
	ck_assert_double_eq_tol(perfan_stat_elapsed(s), 1.23456789, 1e-12);
	perfan_stat_free(s);

	/* no decimals at all: "1.234" is still grouping in a count */
	{
		static const char de2[] = "  1.234.567 cycles\n"
					  "  5.678 instructions\n";
		ck_assert_int_eq(parse_buf(&s, de2, strlen(de2), "de2"), 0);
	}
	ck_assert_double_eq(val(s, "cycles"), 1234567);
	ck_assert_double_eq(val(s, "instructions"), 5678);
	perfan_stat_free(s);
	ck_assert_int_eq(parse_buf(&s, "  5.678 instructions\n", 21, "de3"), 0);
	ck_assert_double_eq(val(s, "instructions"), 5678);
	perfan_stat_free(s);

	ck_assert_int_eq(parse_buf(&s, fr, strlen(fr), "fr"), 0);
	ck_assert_double_eq_tol(val(s, "task-clock"), 1234567.89, 1e-6);
	ck_assert_double_eq(val(s, "cycles"), 1234567);
	ck_assert_double_eq(val(s, "instructions"), 2345);
	perfan_stat_free(s);
}
END_TEST

START_TEST(test_crlf_and_noise)
{
	size_t len, n;
	char *buf, *v;
	perfan_stat *a, *b = NULL;
	static const char noise[] = "hello\nWarning: something\n42\n";

	TU_REQUIRE_PEERDATA(DIR "02-perfdoc-make-user.txt");
	buf = slurp(DIR "02-perfdoc-make-user.txt", &len);
	v = replace(buf, "\n", "\r\n", &n);
	a = parse_file(DIR "02-perfdoc-make-user.txt");
	ck_assert_int_eq(parse_buf(&b, v, n, "crlf"), 0);
	assert_same(a, b, "crlf");
	perfan_stat_free(a);
	perfan_stat_free(b);
	free(v);
	free(buf);

	ck_assert_int_eq(parse_buf(&b, noise, strlen(noise), "noise"),
			 PERFAN_EFORMAT);
	ck_assert_ptr_null(b);
	ck_assert_int_eq(parse_buf(&b, "", 0, NULL), PERFAN_EFORMAT);
	ck_assert_int_eq(perfan_stat_parse(NULL, "", 0, NULL), PERFAN_EINVAL);
	perfan_stat_free(NULL);
	ck_assert_uint_eq(perfan_stat_nr_counters(NULL), 0);
	ck_assert_ptr_null(perfan_stat_counter(NULL, 0));
}
END_TEST

/* Formats no sample has, written the way perf's sources print them. */
START_TEST(test_made_up_formats)
{
	static const char tma[] =
		" Performance counter stats for 'system wide':\n\n"
		"     5,005,539,116      TOPDOWN.SLOTS                    #     "
		"27.4 %  tma_backend_bound\n"
		"                                                  #     11.4 %  "
		"tma_bad_speculation\n"
		"       412,113,310      cpu_core/topdown-retiring/u      #     "
		"27.0 %  tma_retiring\n"
		"     <not counted>      cpu_atom/cycles/u                        "
		"                (0.00%)\n"
		"         1,234,567      L1-dcache-load-misses:k   #    1.2% of "
		"all L1-dcache hits   [ 74.99%]\n";
	static const char json[] =
		"{\"cpu\" : \"3\", \"counter-value\" : \"12.000000\", \"unit\" : "
		"\"\", \"event\" : \"cycles\", \"variance\" : 1.50, "
		"\"event-runtime\" : 100, \"pcnt-running\" : 50.00, "
		"\"metric-value\" : \"0.10\", \"metric-unit\" : \"x\"}\n"
		"{\"metric-value\" : \"30.5\", \"metric-unit\" : \"% "
		"tma_retiring\"}\n";
	static const char csv[] =
		"     1.000,S0-D0-C0,2,1234,,cycles,1000,50.00,,\n"
		",,,,,,,30.5,% tma_retiring\n";
	/* perf 6.x --topdown -x, (print_metric_headers_csv): a header of
	 * time, aggregation and "%  tma_*" columns, then values */
	static const char tdcsv[] = "time,core,cpus,%  tma_retiring,%  "
				    "tma_backend_bound\n"
				    "     1.001,S0-D0-C0,2,30.5,40.2\n";
	perfan_stat *s = NULL;
	const struct perfan_stat_counter *c;

	ck_assert_int_eq(parse_buf(&s, tdcsv, strlen(tdcsv), "tdcsv"), 0);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 2);
	c = find(s, "tma_backend_bound");
	ck_assert_double_eq_tol(c->value, 40.2, 1e-12);
	ck_assert_str_eq(c->aggr, "S0-D0-C0");
	ck_assert_double_eq_tol(c->interval, 1.001, 1e-12);
	ck_assert_double_eq(c->aggr_count, 2);
	perfan_stat_free(s);

	ck_assert_int_eq(parse_buf(&s, tma, strlen(tma), "tma"), 0);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 7);
	/* the comment column's metrics, with the PMU of their row */
	c = find(s, "tma_backend_bound");
	ck_assert_double_eq_tol(c->value, 27.4, 1e-12);
	ck_assert_str_eq(c->unit, "%");
	ck_assert_ptr_null(c->pmu);
	ck_assert_double_eq_tol(val(s, "tma_bad_speculation"), 11.4, 1e-12);
	c = find(s, "tma_retiring");
	ck_assert_str_eq(c->pmu, "cpu_core");
	ck_assert_double_eq(val(s, "TOPDOWN.SLOTS"), 5005539116.0);
	c = find(s, "topdown-retiring");
	ck_assert_str_eq(c->pmu, "cpu_core");
	ck_assert_str_eq(c->modifiers, "u");
	c = find_nth(s, "cycles", "cpu_atom", NULL, 0);
	ck_assert_int_eq(c->counted, 0);
	ck_assert_int_eq(c->supported, 1);
	ck_assert_double_eq(c->running_pct, 0);
	c = find(s, "L1-dcache-load-misses");
	ck_assert_str_eq(c->modifiers, "k");
	ck_assert_double_eq_tol(c->running_pct, 74.99, 1e-12);
	perfan_stat_free(s);

	ck_assert_int_eq(parse_buf(&s, json, strlen(json), "json"), 0);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 2);
	ck_assert_double_eq_tol(val(s, "tma_retiring"), 30.5, 1e-12);
	c = find_nth(s, "cycles", NULL, "3", 0);
	ck_assert_double_eq(c->value, 12);
	ck_assert_double_eq_tol(c->variance_pct, 1.5, 1e-12);
	ck_assert_double_eq(c->running_pct, 50);
	perfan_stat_free(s);

	ck_assert_int_eq(parse_buf(&s, csv, strlen(csv), "csv"), 0);
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 2);
	c = find(s, "tma_retiring");
	ck_assert_double_eq_tol(c->value, 30.5, 1e-12);
	ck_assert_str_eq(c->aggr, "S0-D0-C0"); /* of the row before */
	c = find_nth(s, "cycles", NULL, "S0-D0-C0", 0);
	ck_assert_double_eq(c->value, 1234);
	ck_assert_double_eq(c->aggr_count, 2);
	ck_assert_double_eq(c->interval, 1);
	ck_assert_double_eq(c->running_pct, 50);
	perfan_stat_free(s);
}
END_TEST

/* Several runs in one input: each header, "# started on" line or repeated
 * counter begins one, with its command and times; a counter printed twice
 * in a row (a hybrid machine's event without its PMU) does not. */
static perfan_stat *parse_testdata(const char *rel)
{
	size_t len;
	char *buf = tu_slurp(tu_testdata(rel), &len);
	perfan_stat *s = NULL;
	ck_assert_ptr_nonnull(buf);
	ck_assert_msg(parse_buf(&s, buf, len, rel) == 0, "%s: %s", rel,
		      perfan_error_last());
	free(buf);
	return s;
}

START_TEST(test_runs)
{
	static const char *const two[] = {"perf-stat-local/two-commands.txt",
					  "perf-stat-local/two-commands.csv",
					  "perf-stat-local/two-commands.json"};
	for (size_t k = 0; k < 3; k++) {
		perfan_stat *s = parse_testdata(two[k]);
		ck_assert_uint_eq(perfan_stat_nr_runs(s), 2);
		const struct perfan_stat_run *a = perfan_stat_run(s, 0),
					     *b = perfan_stat_run(s, 1);
		ck_assert_uint_eq(a->first, 0);
		ck_assert_uint_eq(a->count, 6);
		ck_assert_uint_eq(b->first, 6);
		ck_assert_uint_eq(b->count, 6);
		for (size_t i = 0; i < 12; i++)
			ck_assert_uint_eq(perfan_stat_counter(s, i)->run,
					  i < 6 ? 0 : 1);
		ck_assert_ptr_null(perfan_stat_run(s, 2));
		ck_assert(a->elapsed > 0 && b->elapsed > 0);
		if (k == 0) { /* the footers */
			ck_assert_str_eq(a->command, "sleep 0.3");
			ck_assert(!strncmp(b->command, "awk", 3));
			ck_assert_double_eq_tol(a->elapsed, 0.305212048, 1e-12);
			ck_assert_double_eq(perfan_stat_elapsed(s), a->elapsed);
		} else { /* task-clock over perf's "CPUs utilized" */
			const struct perfan_stat_counter *tc =
				perfan_stat_counter(s, 6);
			ck_assert_str_eq(tc->event, "task-clock");
			ck_assert(b->elapsed > tc->value / 1000 &&
				  b->elapsed < tc->value / 1000 / 0.98);
			ck_assert_ptr_null(a->command);
		}
		perfan_stat_free(s);
	}
	/* adjacent repeats are one run: 45 counters, the cache events twice */
	perfan_stat *s =
		parse_testdata("perf-stat-public/hybrid-intel-detailed-tdl1-"
			       "per-pmu.txt");
	ck_assert_uint_eq(perfan_stat_nr_runs(s), 1);
	ck_assert_uint_eq(perfan_stat_run(s, 0)->count, 45);
	ck_assert_double_eq_tol(perfan_stat_run(s, 0)->elapsed, 8.493866, 1e-9);
	perfan_stat_free(s);
	/* two blocks without footers: the header begins the second */
	s = parse_testdata("perf-stat-public/two-runs-ipc-rav1e.txt");
	ck_assert_uint_eq(perfan_stat_nr_runs(s), 2);
	ck_assert_uint_eq(perfan_stat_run(s, 1)->first, 8);
	ck_assert_uint_eq(perfan_stat_run(s, 1)->line, 21);
	/* perf 6.2-6.4 printed task-clock in ns without a unit */
	ck_assert_str_eq(perfan_stat_counter(s, 0)->event, "task-clock");
	ck_assert_str_eq(perfan_stat_counter(s, 0)->unit, "nsec");
	ck_assert_double_eq(perfan_stat_counter(s, 0)->value, 5685451288.0);
	perfan_stat_free(s);
	/* the same counter again without a header: another run */
	static const char again[] = "1,,cycles,100,100.00,,\n"
				    "2,,instructions,100,100.00,,\n"
				    "3,,cycles,100,100.00,,\n";
	ck_assert_int_eq(parse_buf(&s, again, strlen(again), "again"), 0);
	ck_assert_uint_eq(perfan_stat_nr_runs(s), 2);
	ck_assert_uint_eq(perfan_stat_run(s, 1)->first, 2);
	perfan_stat_free(s);
}
END_TEST

/* The top-down tables of perf stat --topdown: one row per metric. */
START_TEST(test_topdown_tables)
{
	perfan_stat *s =
		parse_testdata("perf-stat-public/td-interval-tma-doc.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 24);
	const struct perfan_stat_counter *c = perfan_stat_counter(s, 1);
	ck_assert_str_eq(c->event, "tma_backend_bound");
	ck_assert_str_eq(c->unit, "%");
	ck_assert_double_eq_tol(c->value, 34.9, 1e-12);
	ck_assert_double_eq_tol(c->interval, 1.001141351, 1e-12);
	perfan_stat_free(s);
	s = parse_testdata(
		"perf-stat-public/td-5x-percore-skl-system-wide.txt");
	ck_assert_uint_eq(perfan_stat_nr_counters(s), 16);
	c = perfan_stat_counter(s, 13);
	ck_assert_str_eq(c->event, "tma_bad_speculation");
	ck_assert_str_eq(c->raw_name, "tma_bad_speculation");
	ck_assert_str_eq(c->aggr, "S0-C3");
	ck_assert_double_eq_tol(c->value, 32.3, 1e-12);
	ck_assert_double_eq(c->aggr_count, 1);
	perfan_stat_free(s);
	/* a values row that does not match its names is an error */
	static const char bad[] =
		" Performance counter stats for 'x':\n\n"
		" %  tma_retiring  %  tma_backend_bound  %  tma_frontend_bound\n"
		"        30.0        40.0\n\n"
		"       1.0 seconds time elapsed\n";
	ck_assert_int_eq(parse_buf(&s, bad, strlen(bad), "bad"),
			 PERFAN_EFORMAT);
	ck_assert(strstr(perfan_error_last(), "bad:4:") != NULL);
}
END_TEST

static Suite *stat_suite(void)
{
	Suite *s = suite_create("stat");
	TCase *tc = tcase_create("peer-data");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_every_file_parses);
	tcase_add_test(tc, test_02_make_user);
	tcase_add_test(tc, test_03_nocommas_continuation);
	tcase_add_test(tc, test_04_program_output);
	tcase_add_test(tc, test_05_branchy);
	tcase_add_test(tc, test_06_not_supported);
	tcase_add_test(tc, test_07_interval);
	tcase_add_test(tc, test_10_topdown_csv_percore);
	tcase_add_test(tc, test_12_hybrid);
	tcase_add_test(tc, test_13_json);
	tcase_add_test(tc, test_15_percore_not_supported);
	tcase_add_test(tc, test_17_18_20_legacy);
	tcase_add_test(tc, test_local_vm);
	tcase_add_test(tc, test_runs);
	tcase_add_test(tc, test_topdown_tables);
	suite_add_tcase(s, tc);

	tc = tcase_create("varied");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_reordered_rows);
	tcase_add_test(tc, test_csv_separators);
	tcase_add_test(tc, test_cut_anywhere);
	tcase_add_test(tc, test_truncated_rows);
	tcase_add_test(tc, test_german_locale);
	tcase_add_test(tc, test_crlf_and_noise);
	tcase_add_test(tc, test_made_up_formats);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(stat_suite)
