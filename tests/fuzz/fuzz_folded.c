/* fuzz_folded.c: libFuzzer target for the folded reader
 * (sources/folded_read.c, folded_reader.c, folded_pipe.c). Each input is read
 * as one file, and one more way its last byte picks: with annotations and
 * process roots, as "STACK BEFORE AFTER" lines, pruned on one thread and
 * on two, or as a pair (its two halves, before and after). The promises: 0, or
 * PERFAN_EFORMAT with a message "fz:LINE: ..." (PERFAN_EUNSUPPORTED too
 * when pruned); the total weight is the sum of the counts read; a pruned
 * read gives one thread's result on two threads: the same return code,
 * message, stacks and weights. */
#define _GNU_SOURCE
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fuzz_folded_fail(const char *what)
{
	fprintf(stderr, "fuzz_folded: %s\n", what);
	abort();
}

/* The counts of a column's lines T[0..N), summed, are its TOTAL. */
static void fuzz_folded_check_sum(const char *t, size_t n, uint64_t total)
{
	const char *s = t, *end = t + n;
	uint64_t got = 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			fuzz_folded_fail("a line without its newline");
		const char *sp = nl;
		while (sp > s && sp[-1] != ' ')
			sp--;
		got += strtoull(sp, NULL, 10);
		s = nl + 1;
	}
	if (got != total)
		fuzz_folded_fail("the lines do not add up to the total");
}

/* What one read gave. */
struct fuzz_folded_out {
	int rc;
	char msg[1024];
	char *text; /* the profile as folded lines, every column */
	size_t len;
};

static struct fuzz_folded_out fuzz_folded_read(const uint8_t *data, size_t size,
					       double prune, int threads,
					       const char *before, int annotate)
{
	struct fuzz_folded_out o;
	memset(&o, 0, sizeof(o));
	perfan_profile *p;
	if (perfan_profile_new(&p, NULL))
		fuzz_folded_fail("no profile");
	FILE *fp = fmemopen((void *)data, size, "r");
	if (!fp) {
		perfan_profile_free(p);
		return o;
	}
	struct perfan_folded_read_opts ro =
		PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
	ro.prune = prune;
	ro.threads = threads;
	ro.before_column = before;
	ro.annotations = ro.process_root = annotate;
	o.rc = perfan_folded_read(p, fp, "fz", NULL, &ro);
	fclose(fp);
	if (o.rc) {
		snprintf(o.msg, sizeof(o.msg), "%s", perfan_error_last());
		if (o.rc != PERFAN_EFORMAT &&
		    !(prune > 0 && o.rc == PERFAN_EUNSUPPORTED))
			fuzz_folded_fail("an unexpected error code");
		if (strncmp(o.msg, "fz:", 3))
			fuzz_folded_fail("a message without the input's name");
	}
	FILE *out = open_memstream(&o.text, &o.len);
	for (size_t c = 0; c < perfan_profile_nr_columns(p); c++) {
		struct perfan_folded_write_opts wo =
			PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
		wo.column = c;
		char *t = NULL;
		size_t n = 0;
		FILE *col = open_memstream(&t, &n);
		if (perfan_folded_write(p, col, &wo))
			fuzz_folded_fail("writing failed");
		fclose(col);
		fuzz_folded_check_sum(t, n, perfan_profile_total(p, c));
		fprintf(out, "-- column %zu\n", c);
		fwrite(t, 1, n, out);
		free(t);
	}
	fclose(out);
	perfan_profile_free(p);
	return o;
}

static void fuzz_folded_done(struct fuzz_folded_out *o)
{
	free(o->text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* every input is read plainly; its last byte picks one more way
	 * (all of them per input cost 7 reads: a campaign then runs a tenth
	 * as many inputs) */
	struct fuzz_folded_out a = fuzz_folded_read(data, size, 0, 1, NULL, 0);
	fuzz_folded_done(&a);
	double prune = size ? 1.0 / (double)(1 + data[0] % 50) : 0.1;
	switch (size ? data[size - 1] % 4 : 0) {
	case 0:
		a = fuzz_folded_read(data, size, 0, 1, NULL, 1);
		fuzz_folded_done(&a);
		return 0;
	case 1:
		a = fuzz_folded_read(data, size, 0, 1, "before", 0);
		fuzz_folded_done(&a);
		return 0;
	case 2: {
		/* pruned, one thread and two */
		a = fuzz_folded_read(data, size, prune, 1, NULL, 0);
		struct fuzz_folded_out b =
			fuzz_folded_read(data, size, prune, 2, NULL, 0);
		if (a.rc != b.rc || strcmp(a.msg, b.msg) || a.len != b.len ||
		    (a.len && memcmp(a.text, b.text, a.len)))
			fuzz_folded_fail("two threads read what one did not");
		fuzz_folded_done(&a);
		fuzz_folded_done(&b);
		return 0;
	}
	default: break;
	}
	/* a pair: the halves */
	perfan_profile *p;
	if (perfan_profile_new(&p, NULL))
		fuzz_folded_fail("no profile");
	size_t h = size / 2;
	FILE *fb = fmemopen((void *)data, h ? h : 1, "r");
	FILE *fa = fmemopen((void *)(data + h), size - h ? size - h : 1, "r");
	if (fb && fa && h && size - h) {
		struct perfan_folded_read_opts ro =
			PERFAN_OPTS_INIT(struct perfan_folded_read_opts);
		ro.prune = prune;
		int rc = perfan_folded_read_pair(p, fb, "fz", fa, "fz", NULL,
						 NULL, &ro);
		if (rc && rc != PERFAN_EFORMAT && rc != PERFAN_EUNSUPPORTED)
			fuzz_folded_fail("a pair: an unexpected error code");
		if (rc && strncmp(perfan_error_last(), "fz:", 3))
			fuzz_folded_fail("a pair: a message without a name");
	}
	if (fb)
		fclose(fb);
	if (fa)
		fclose(fa);
	perfan_profile_free(p);
	return 0;
}
