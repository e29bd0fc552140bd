/* fuzz_pstats.c: libFuzzer target for the cProfile dump reader
 * (perfan_pstats_parse): every function, edge and label is read, the
 * report is written as text and JSON and the flame graph estimate built,
 * and the API's promises are checked: only a format, truncation or
 * unsupported-type error, with a message naming the input and an offset;
 * no more functions or edges than the input has bytes; edges in range and
 * sorted. */
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile size_t fuzz_pstats_sink;

static void fuzz_pstats_fail(const char *what)
{
	fprintf(stderr, "fuzz_pstats: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfan_pstats_opts o =
		PERFAN_OPTS_INIT(struct perfan_pstats_opts);
	struct perfan_pstats_write_opts wo =
		PERFAN_OPTS_INIT(struct perfan_pstats_write_opts);
	perfan_pstats *s = NULL;
	perfan_profile *p = NULL;
	size_t i, n, ne;
	FILE *null;
	int rc;

	o.name = "fuzz-input";
	rc = perfan_pstats_parse(&s, data, size, &o);
	if (rc) {
		if ((rc != PERFAN_EFORMAT && rc != PERFAN_ETRUNCATED &&
		     rc != PERFAN_EUNSUPPORTED) ||
		    s)
			fuzz_pstats_fail("an error other than EFORMAT, "
					 "ETRUNCATED, EUNSUPPORTED");
		if (!strstr(perfan_error_last(), "fuzz-input"))
			fuzz_pstats_fail("a message without the input's name");
		return 0;
	}
	n = perfan_pstats_nr_funcs(s);
	ne = perfan_pstats_nr_edges(s);
	if (n > size || ne > size)
		fuzz_pstats_fail("more functions or edges than input bytes");
	for (i = 0; i < n; i++) {
		const struct perfan_pstats_func *f = perfan_pstats_func(s, i);
		const size_t *ce;
		size_t nc = perfan_pstats_callees(s, i, &ce);
		fuzz_pstats_sink += strlen(f->file) + strlen(f->name) +
				    strlen(perfan_pstats_func_label(s, i));
		if (f->nr_callers > ne || f->callers > ne - f->nr_callers)
			fuzz_pstats_fail("callers out of range");
		for (size_t k = 0; k < nc; k++)
			if (ce[k] >= ne ||
			    perfan_pstats_edge(s, ce[k])->caller != i)
				fuzz_pstats_fail("a callee edge of another "
						 "function");
	}
	for (i = 0; i < ne; i++) {
		const struct perfan_pstats_edge *e = perfan_pstats_edge(s, i);
		if (e->caller >= n || e->callee >= n)
			fuzz_pstats_fail("an edge to no function");
	}
	null = fopen("/dev/null", "w");
	if (null) {
		for (int json = 0; json < 2; json++) {
			wo.json = json;
			wo.sort = json ? PERFAN_PSTATS_SORT_TOTTIME
				       : PERFAN_PSTATS_SORT_CUMULATIVE;
			if (perfan_pstats_write(s, null, &wo))
				fuzz_pstats_fail("the report failed");
		}
		fclose(null);
	}
	rc = perfan_pstats_profile(s, &p);
	if (rc && rc != PERFAN_EFORMAT)
		fuzz_pstats_fail("the profile failed other than EFORMAT");
	perfan_profile_free(p);
	perfan_pstats_free(s);
	return 0;
}
