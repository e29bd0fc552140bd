/* fuzz_pyspy.c: libFuzzer target for the py-spy raw reader
 * (sources/pyspy.c). Each input is opened through the registry from a
 * memfd, as a file would be; what the registry detects must agree with
 * perfan_source_detect on the same bytes. Then the py-spy reader reads it
 * whatever was detected, with line numbers folded and kept, and the
 * promises are checked: 0 or PERFAN_EFORMAT only, a message naming the
 * input and its line; no more frames than the input has bytes; folded
 * Python frames carry no line, kept ones their line; roots are process
 * frames. */
#define _GNU_SOURCE
#include <perfan/perfan.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memfd.h"
#include "sources/internal.h"

static void fuzz_pyspy_fail(const char *what)
{
	fprintf(stderr, "fuzz_pyspy: %s\n", what);
	abort();
}

/* Read DATA with the py-spy reader (LINENO, ROOT); the profile, or NULL
 * after an error. */
static perfan_profile *fuzz_pyspy_read(const uint8_t *data, size_t size,
				       int lineno, int root)
{
	struct perfan_source_opts so =
		PERFAN_OPTS_INIT(struct perfan_source_opts);
	perfan_source *s = NULL;
	perfan_profile *p = NULL;
	int fd = fuzz_memfd("fuzz-pyspy", data, size), rc;
	so.pyspy.lineno = lineno;
	so.root = root;
	if (fd < 0)
		return NULL; /* the machine's fault, not the reader's */
	if (perfan_source_open_fd(&s, fd, "fuzz-input", &so))
		fuzz_pyspy_fail("a memfd did not open");
	{
		const char *a = perfan_source_format(s);
		const char *b =
			perfan_source_detect(data, size < 65536 ? size : 65536);
		if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
			fuzz_pyspy_fail("the registry and perfan_source_detect "
					"disagree");
	}
	s->fmt = &perfan__format_pyspy; /* read it whatever it is */
	if (perfan_profile_new(&p, NULL))
		fuzz_pyspy_fail("no profile");
	rc = perfan_source_load(s, p, NULL);
	perfan_source_free(s);
	close(fd);
	if (rc) {
		if (rc != PERFAN_EFORMAT)
			fuzz_pyspy_fail("an error other than EFORMAT");
		if (!strstr(perfan_error_last(), "fuzz-input: offset ") ||
		    !strstr(perfan_error_last(), "(line "))
			fuzz_pyspy_fail("a message without the input's name, "
					"offset and line");
		perfan_profile_free(p);
		return NULL;
	}
	return p;
}

static void fuzz_pyspy_check(const perfan_profile *p, size_t size, int lineno)
{
	size_t nf = perfan_profile_nr_frames(p);
	if (nf > size + 1)
		fuzz_pyspy_fail("more frames than input bytes");
	for (size_t i = 0; i < nf; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(p, (uint32_t)i);
		if (!f || !f->name || !*f->name)
			fuzz_pyspy_fail("a frame without a name");
		if (f->kind == PERFAN_FRAME_PYTHON && !lineno && f->line)
			fuzz_pyspy_fail("a line number kept");
		if (f->kind == PERFAN_FRAME_PYTHON && !f->module)
			fuzz_pyspy_fail("a Python frame without its file");
	}
	/* a process frame is a root or right below one */
	for (perfan_node_id n = 1; n < perfan_profile_nr_nodes(p); n++) {
		const struct perfan_frame *f = perfan_profile_frame_get(
			p, perfan_profile_node_frame(p, n));
		if (f->kind == PERFAN_FRAME_PROCESS &&
		    perfan_profile_node_depth(p, n) > 2)
			fuzz_pyspy_fail("a process frame below the roots");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int lineno = 0; lineno < 2; lineno++) {
		perfan_profile *p = fuzz_pyspy_read(data, size, lineno,
						    lineno ? PERFAN_ROOT_PID_TID
							   : PERFAN_ROOT_COMM);
		if (p) {
			fuzz_pyspy_check(p, size, lineno);
			perfan_profile_free(p);
		}
	}
	return 0;
}
