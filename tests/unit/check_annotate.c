/* check_annotate.c: the annotate analysis through the public API on
 * testdata/annotate (frame pointers): the stream frames' DSO handle and
 * ELF address, perfan_stream_dso / perfan_stream_symbol, the per-address
 * histogram against perf annotate's sample counts, hottest and named
 * selection, and the feed interface giving what the one-call form gives. */
#include <check.h>
#include <perfan/perfan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void pinned(struct perfan_resolve_opts *ro)
{
	static char symfs[4096], kallsyms[4096];
	snprintf(symfs, sizeof(symfs), "%s", tu_testdata("annotate"));
	snprintf(kallsyms, sizeof(kallsyms), "%s",
		 tu_testdata("annotate/kallsyms"));
	*ro = PERFAN_RESOLVE_OPTS_INIT;
	ro->host = tu_host();
	ro->symfs = symfs;
	ro->kallsyms = kallsyms;
	ro->buildid_dir = "/nonexistent/perfan-no-cache";
}

static perfan_perfdata *open_fp(void)
{
	perfan_perfdata *pd;
	ck_assert_int_eq(
		perfan_perfdata_open(&pd, tu_testdata("annotate/perf.fp.data"),
				     NULL),
		0);
	return pd;
}

/* perf annotate's "(N samples" header of testdata/annotate/annotate-SYM.txt. */
static uint64_t perf_samples(const char *sym)
{
	char rel[128], buf[512];
	snprintf(rel, sizeof(rel), "annotate/annotate-%s.txt", sym);
	FILE *fp = fopen(tu_testdata(rel), "r");
	ck_assert_ptr_nonnull(fp);
	unsigned long long n = 0;
	while (fgets(buf, sizeof(buf), fp)) {
		const char *p = strstr(buf, "for cpu-clock (");
		if (p && sscanf(p, "for cpu-clock (%llu samples", &n) == 1)
			break;
	}
	fclose(fp);
	ck_assert_uint_gt(n, 0);
	return n;
}

/* The build-id perf recorded for the workload, from buildids.fp.txt. */
static void recorded_buildid(char *hex, size_t len)
{
	FILE *fp = fopen(tu_testdata("annotate/buildids.fp.txt"), "r");
	ck_assert_ptr_nonnull(fp);
	char buf[4096];
	hex[0] = 0;
	while (fgets(buf, sizeof(buf), fp)) {
		char id[64], path[4000];
		if (sscanf(buf, "%63s %3999s", id, path) == 2 &&
		    strlen(path) > 9 &&
		    !strcmp(path + strlen(path) - 9, "/annotate"))
			snprintf(hex, len, "%s", id);
	}
	fclose(fp);
	ck_assert_uint_eq(strlen(hex), 40);
}

START_TEST(test_stream_dso)
{
	perfan_perfdata *pd = open_fp();
	struct perfan_resolve_opts ro;
	pinned(&ro);
	perfan_stream *s;
	ck_assert_int_eq(perfan_stream_open(&s, pd, &ro), 0);
	char want_id[64];
	recorded_buildid(want_id, sizeof(want_id));
	const struct perfan_stream_event *ev;
	size_t user = 0, kernel = 0, checked = 0;
	while (!perfan_stream_next(s, &ev)) {
		if (ev->type != PERFAN_STREAM_SAMPLE || !ev->u.sample.nr_frames)
			continue;
		const struct perfan_stream_frame *f = &ev->u.sample.frames[0];
		if (f->kind == PERFAN_FRAME_KERNEL) {
			ck_assert_ptr_null(f->dso);
			ck_assert_uint_eq(f->dso_addr, 0);
			kernel++;
			continue;
		}
		if (!f->dso || !f->module || strcmp(f->module, "annotate"))
			continue;
		user++;
		struct perfan_stream_dso d;
		ck_assert_int_eq(perfan_stream_dso(s, f->dso, &d), 0);
		ck_assert_str_eq(d.short_name, "annotate");
		ck_assert_uint_eq(d.machine, 62);
		ck_assert_ptr_nonnull(d.binary);
		ck_assert_uint_eq(d.build_id_size, 20);
		char hex[41];
		for (int i = 0; i < 20; i++)
			snprintf(hex + 2 * i, 3, "%02x", d.build_id[i]);
		ck_assert_str_eq(hex, want_id);
		/* a PIE: the ELF address is the file offset here, and the
		 * symbol holding it is the frame's own name */
		struct perfan_stream_symbol sym;
		ck_assert_int_eq(
			perfan_stream_symbol(s, f->dso, f->dso_addr, &sym), 0);
		ck_assert_str_eq(sym.name, f->name);
		ck_assert_uint_ge(f->dso_addr, sym.start);
		ck_assert_uint_lt(f->dso_addr, sym.start + sym.size);
		ck_assert_uint_ne(f->dso_addr, f->addr);
		checked++;
	}
	ck_assert_uint_gt(user, 1000);
	ck_assert_uint_eq(checked, user);
	struct perfan_stream_symbol sym;
	const struct perfan_stream_frame dummy = {0};
	ck_assert_int_ne(perfan_stream_symbol(s, dummy.dso, 0, &sym), 0);
	(void)kernel;
	perfan_stream_free(s);
	perfan_perfdata_free(pd);
}
END_TEST

static const struct perfan_annotate_func *
find(const struct perfan_annotate_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_functions; i++)
		if (!strcmp(r->functions[i].name, name))
			return &r->functions[i];
	return NULL;
}

START_TEST(test_hottest)
{
	perfan_perfdata *pd = open_fp();
	struct perfan_resolve_opts ro;
	pinned(&ro);
	struct perfan_annotate_opts ao =
		PERFAN_OPTS_INIT(struct perfan_annotate_opts);
	ao.top = 3;
	perfan_annotate *a;
	ck_assert_int_eq(perfan_annotate_perfdata(&a, pd, &ro, &ao), 0);
	const struct perfan_annotate_result *r = perfan_annotate_result(a);
	ck_assert_str_eq(r->event, "cpu-clock");
	ck_assert_uint_eq(r->nr_functions, 3);
	static const char *const hot[] = {"crc_all", "insertion_sort",
					  "bsearch_all"};
	uint64_t sum = 0;
	for (size_t i = 0; i < 3; i++) {
		const struct perfan_annotate_func *f = &r->functions[i];
		ck_assert_str_eq(f->name, hot[i]);
		ck_assert_uint_eq(f->samples, perf_samples(hot[i]));
		ck_assert_uint_eq(f->status, PERFAN_ANNOTATE_OK);
		ck_assert(f->has_lines);
		uint64_t isum = 0, lsum = 0;
		double pct = 0;
		for (size_t k = 0; k < f->nr_insns; k++) {
			isum += f->insns[k].period;
			pct += f->insns[k].local_percent;
			if (k)
				ck_assert_uint_gt(f->insns[k].addr,
						  f->insns[k - 1].addr);
		}
		for (size_t k = 0; k < f->nr_lines; k++)
			lsum += f->lines[k].period;
		ck_assert_uint_eq(isum, f->period);
		ck_assert_uint_eq(lsum, f->period);
		ck_assert_double_eq_tol(pct, 100.0, 1e-6);
		ck_assert_uint_ge(f->nr_loops, 1);
		ck_assert_uint_ge(f->nr_hot_insns, 1);
		/* the hottest instruction is hottest */
		for (size_t k = 0; k < f->nr_insns; k++)
			ck_assert_uint_le(f->insns[k].period,
					  f->insns[f->hot_insns[0]].period);
		sum += f->samples;
	}
	ck_assert_uint_lt(sum, r->total_samples);
	perfan_annotate_free(a);
	perfan_annotate_free(NULL);
	perfan_perfdata_free(pd);
}
END_TEST

/* Named functions, fed event by event: the same numbers as the one call;
 * a name without samples is missing. */
START_TEST(test_named_feed)
{
	perfan_perfdata *pd = open_fp();
	struct perfan_resolve_opts ro;
	pinned(&ro);
	perfan_stream *s;
	ck_assert_int_eq(perfan_stream_open(&s, pd, &ro), 0);
	const char *names[] = {"hash_all", "no_such_function", "crc_all"};
	struct perfan_annotate_opts ao =
		PERFAN_OPTS_INIT(struct perfan_annotate_opts);
	ao.symbols = names;
	ao.nr_symbols = 3;
	perfan_annotate *a;
	ck_assert_int_eq(perfan_annotate_new(&a, s, &ao), 0);
	names[0] = "overwritten"; /* the analysis keeps its own copy */
	const struct perfan_stream_event *ev;
	int err;
	while (!(err = perfan_stream_next(s, &ev)))
		ck_assert_int_eq(perfan_annotate_feed(a, ev), 0);
	ck_assert_int_eq(err, PERFAN_ITEROVER);
	ck_assert_int_eq(perfan_annotate_finish(a), 0);
	const struct perfan_annotate_result *r = perfan_annotate_result(a);
	ck_assert_uint_eq(r->nr_functions, 2);
	ck_assert_str_eq(r->functions[0].name, "crc_all"); /* hottest first */
	ck_assert_uint_eq(r->functions[0].samples, perf_samples("crc_all"));
	const struct perfan_annotate_func *h = find(r, "hash_all");
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(r->nr_missing, 1);
	ck_assert_str_eq(r->missing[0], "no_such_function");
	/* hash_all has mix32 inlined from annotate_inl.h */
	size_t inl = 0;
	for (size_t k = 0; k < h->nr_lines; k++)
		if (h->lines[k].nr_inlined) {
			ck_assert_str_eq(h->lines[k].inlined[0].function,
					 "mix32");
			ck_assert_ptr_nonnull(
				strstr(h->lines[k].file, "annotate_inl.h"));
			inl++;
		}
	ck_assert_uint_gt(inl, 0);
	perfan_annotate_free(a);
	perfan_stream_free(s);
	perfan_perfdata_free(pd);
}
END_TEST

static Suite *annotate_suite(void)
{
	Suite *s = suite_create("annotate");
	TCase *tc = tcase_create("annotate");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_stream_dso);
	tcase_add_test(tc, test_hottest);
	tcase_add_test(tc, test_named_feed);
	suite_add_tcase(s, tc);
	return s;
}

PERFAN_TEST_MAIN(annotate_suite)
