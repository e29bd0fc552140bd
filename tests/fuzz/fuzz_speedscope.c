/* fuzz_speedscope.c: libFuzzer target for the speedscope reader
 * (sources/speedscope.c, through perfan__speedscope_parse, the registry's
 * load without the file): the profile it builds is walked (every frame's
 * strings, every node) and written as folded text, and its promises are
 * checked: only a format, truncation or unsupported-type error, with a
 * message naming the input and an offset; no more frames or nodes than the
 * input has bytes; at most three columns (time, bytes, counts); a file it
 * reads is one JSON text by the JSON reader's own check; detection never
 * claims what it cannot read as JSON's first byte. */
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/internal.h"
#include "util/json_read.h"

static volatile size_t fuzz_speedscope_sink;

static void fuzz_speedscope_fail(const char *what)
{
	fprintf(stderr, "fuzz_speedscope: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfan_source_opts so =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	perfan_profile *p = NULL;
	int rc;

	so.root = PERFAN_ROOT_PID_TID;
	if (perfan_profile_new(&p, NULL))
		fuzz_speedscope_fail("no profile");
	rc = perfan__speedscope_parse(p, data, size, "fuzz-input", &so);
	if (rc) {
		const char *msg = perfan_error_last();
		if (rc != PERFAN_EFORMAT && rc != PERFAN_ETRUNCATED &&
		    rc != PERFAN_EUNSUPPORTED)
			fuzz_speedscope_fail("an error other than EFORMAT, "
					     "ETRUNCATED, EUNSUPPORTED");
		if (strncmp(msg, "fuzz-input: offset ", 19) ||
		    strtoull(msg + 19, NULL, 10) > size)
			fuzz_speedscope_fail("a message without the input's "
					     "name and an offset in it");
	} else if (perfan__jread_check(data, size, "fuzz-input", 0))
		fuzz_speedscope_fail("read a file that is not JSON");
	/* what was read before an error stays in the profile: walk it too */
	size_t nf = perfan_profile_nr_frames(p),
	       nn = perfan_profile_nr_nodes(p);
	if (nf > size || nn > size + 1)
		fuzz_speedscope_fail("more frames or nodes than input bytes");
	if (perfan_profile_nr_columns(p) > 3)
		fuzz_speedscope_fail("more than three columns");
	for (size_t i = 0; i < nf; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(p, (perfan_frame_id)i);
		fuzz_speedscope_sink += strlen(f->name);
		if (f->module)
			fuzz_speedscope_sink += strlen(f->module);
		if (f->file)
			fuzz_speedscope_sink += strlen(f->file);
	}
	for (size_t n = 1; n < nn; n++)
		if (perfan_profile_node_frame(p, (perfan_node_id)n) >= nf)
			fuzz_speedscope_fail("a node of no frame");
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		struct perfan_folded_write_opts wo =
			PERFAN_OPTS_INIT(struct perfan_folded_write_opts);
		for (size_t c = 0; c < perfan_profile_nr_columns(p); c++) {
			wo.column = c;
			if (perfan_folded_write(p, null, &wo))
				fuzz_speedscope_fail("the folded write failed");
		}
		fclose(null);
	}
	perfan_profile_free(p);
	const char *fmt = perfan_source_detect(data, size);
	if (fmt && !strcmp(fmt, "speedscope")) {
		size_t i = 0;
		if (size >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
			i = 3;
		while (i < size && strchr(" \t\r\n", data[i]) && data[i])
			i++;
		if (i >= size || data[i] != '{')
			fuzz_speedscope_fail("detected without a '{'");
	}
	return 0;
}
