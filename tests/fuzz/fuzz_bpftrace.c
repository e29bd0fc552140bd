/* fuzz_bpftrace.c: libFuzzer target for the reader of bpftrace's printed
 * maps (sources/bpftrace.c): the input is read from a stream twice (the
 * default root; comm-PID/TID roots with addrs and kernel), every frame's
 * strings are read, and the reader's promises are checked: only a format
 * or truncation error, with a message naming the input and an offset; no
 * more frames than the input has bytes; frames of the kinds the reader
 * makes (kernel ones in [kernel.kallsyms]); the same counts whatever the
 * naming. Detection is run on it too. */
#include "sources/bpftrace_internal.h"

#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile size_t fuzz_bpftrace_sink;

static void fuzz_bpftrace_fail(const char *what)
{
	fprintf(stderr, "fuzz_bpftrace: %s\n", what);
	abort();
}

/* Read DATA with ROOT into a new profile (*OUT); the reader's result. */
static int fuzz_bpftrace_read(const uint8_t *data, size_t size, int root,
			      perfan_profile **out)
{
	struct perfan_source_opts o =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	o.root = root;
	o.script.addrs = o.script.kernel = root == PERFAN_ROOT_PID_TID;
	if (perfan_profile_new(out, NULL))
		fuzz_bpftrace_fail("no profile");
	/* fmemopen cannot open 0 bytes */
	FILE *fp = size ? fmemopen((void *)data, size, "r")
			: fopen("/dev/null", "r");
	if (!fp)
		fuzz_bpftrace_fail("no stream");
	int rc = perfan__bpftrace_read(*out, fp, "fuzz-input", &o);
	fclose(fp);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* two reads: the default, and every naming option at once (the
	 * unit suite reads the real outputs with each root) */
	static const int roots[] = {PERFAN_ROOT_COMM, PERFAN_ROOT_PID_TID};
	fuzz_bpftrace_sink += (size_t)perfan__bpftrace_detect(data, size);
	uint64_t first_total = 0;
	int first_rc = 0;
	for (size_t k = 0; k < sizeof(roots) / sizeof(roots[0]); k++) {
		perfan_profile *p = NULL;
		int rc = fuzz_bpftrace_read(data, size, roots[k], &p);
		if (rc) {
			if (rc != PERFAN_EFORMAT && rc != PERFAN_ETRUNCATED)
				fuzz_bpftrace_fail("an error other than "
						   "EFORMAT, ETRUNCATED");
			if (!strstr(perfan_error_last(), "fuzz-input"))
				fuzz_bpftrace_fail("a message without the "
						   "input's name");
			if (rc == PERFAN_ETRUNCATED &&
			    !strstr(perfan_error_last(), ": offset "))
				fuzz_bpftrace_fail("a cut without an offset");
		}
		size_t nf = perfan_profile_nr_frames(p);
		if (nf > size)
			fuzz_bpftrace_fail("more frames than input bytes");
		for (size_t i = 0; i < nf; i++) {
			const struct perfan_frame *f =
				perfan_profile_frame_get(p, (perfan_frame_id)i);
			fuzz_bpftrace_sink +=
				strlen(f->name) +
				(f->module ? strlen(f->module) : 0);
			if (f->kind == PERFAN_FRAME_KERNEL &&
			    (!f->module ||
			     strcmp(f->module, "[kernel.kallsyms]")))
				fuzz_bpftrace_fail("a kernel frame elsewhere");
			if (f->kind != PERFAN_FRAME_KERNEL &&
			    f->kind != PERFAN_FRAME_NATIVE &&
			    f->kind != PERFAN_FRAME_INLINED &&
			    f->kind != PERFAN_FRAME_UNKNOWN &&
			    f->kind != PERFAN_FRAME_PROCESS)
				fuzz_bpftrace_fail("a frame of another kind");
		}
		/* the roots change names, never the counts */
		uint64_t total = 0;
		for (size_t c = 0; c < perfan_profile_nr_columns(p); c++)
			total += perfan_profile_total(p, c);
		if (!k) {
			first_total = total;
			first_rc = rc;
		} else if (total != first_total || rc != first_rc) {
			fuzz_bpftrace_fail("another root, other counts");
		}
		perfan_profile_free(p);
	}
	return 0;
}
