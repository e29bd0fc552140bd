/* fuzz_stat.c: libFuzzer target for the perf stat output reader
 * (perfan_stat_parse): every string of every counter is read so that ASan
 * sees a pointer past its end, and the API's promises are checked: 0 or
 * PERFAN_EFORMAT only, a message naming the input on failure, no more
 * counters than lines can hold (32 metrics on a line of a top-down table),
 * line numbers within the input, runs that cover the counters in order;
 * and what parses is classified (perfan_classify_stat) and written. */
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile size_t fuzz_stat_sink;

static void fuzz_stat_fail(const char *what)
{
	fprintf(stderr, "fuzz_stat: %s\n", what);
	abort();
}

static void fuzz_stat_str(const char *s, int may_be_null)
{
	if (!s) {
		if (!may_be_null)
			fuzz_stat_fail("NULL string");
		return;
	}
	fuzz_stat_sink += strlen(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfan_stat_parse_opts o =
		PERFAN_OPTS_INIT(struct perfan_stat_parse_opts);
	perfan_stat *s = NULL;
	size_t lines = 1, i;
	int rc;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	o.name = "fuzz-input";
	rc = perfan_stat_parse(&s, (const char *)data, size, &o);
	if (rc) {
		if (rc != PERFAN_EFORMAT || s)
			fuzz_stat_fail("an error other than EFORMAT");
		if (!strstr(perfan_error_last(), "fuzz-input"))
			fuzz_stat_fail("a message without the input's name");
		return 0;
	}
	if (perfan_stat_nr_counters(s) > lines * 32)
		fuzz_stat_fail("more counters than the input can hold");
	for (i = 0; i < perfan_stat_nr_counters(s); i++) {
		const struct perfan_stat_counter *c = perfan_stat_counter(s, i);
		fuzz_stat_str(c->event, 0);
		fuzz_stat_str(c->raw_name, 0);
		fuzz_stat_str(c->pmu, 1);
		fuzz_stat_str(c->modifiers, 1);
		fuzz_stat_str(c->unit, 1);
		fuzz_stat_str(c->aggr, 1);
		if (c->line < 1 || c->line > lines)
			fuzz_stat_fail("a line number outside the input");
	}
	size_t next = 0;
	for (i = 0; i < perfan_stat_nr_runs(s); i++) {
		const struct perfan_stat_run *r = perfan_stat_run(s, i);
		fuzz_stat_str(r->command, 1);
		if (r->first != next || !r->count)
			fuzz_stat_fail("runs that do not follow each other");
		for (size_t k = r->first; k < r->first + r->count; k++)
			if (perfan_stat_counter(s, k)->run != i)
				fuzz_stat_fail("a counter of another run");
		next = r->first + r->count;
	}
	if (next != perfan_stat_nr_counters(s))
		fuzz_stat_fail("counters outside every run");
	perfan_classify *c = NULL;
	if (perfan_stat_nr_counters(s)) {
		if (perfan_classify_stat(&c, s, NULL))
			fuzz_stat_fail("classify failed on parsed counters");
		FILE *null = fopen("/dev/null", "w");
		if (null) {
			perfan_classify_write(
				c, null,
				&(struct perfan_classify_write_opts){
					sizeof(struct perfan_classify_write_opts),
					PERFAN_CLASSIFY_JSON});
			perfan_classify_write(c, null, NULL);
			fclose(null);
		}
		perfan_classify_free(c);
	}
	perfan_stat_free(s);
	return 0;
}
