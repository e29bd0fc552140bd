/* sources/bpftrace_internal.h: the bpftrace map reader's entry point, for
 * the registry adapter and the fuzz target (tests/fuzz/fuzz_bpftrace.c). */
#ifndef PERFAN_SOURCES_BPFTRACE_INTERNAL_H
#define PERFAN_SOURCES_BPFTRACE_INTERNAL_H

#include <stdio.h>

#include <perfan/source.h>

/* Read bpftrace's printed maps (text or -f json) from FP into P: one
 * column per map, named as the map ("@", "@k"), or only O->event's map.
 * NAME names the input in messages. Returns 0, or PERFAN_EFORMAT /
 * PERFAN_ETRUNCATED ("NAME: offset N (line L): ..."), PERFAN_EIO,
 * PERFAN_ENOMEM, the complete entries before the error kept in P. */
int perfan__bpftrace_read(perfan_profile *p, FILE *fp, const char *name,
			  const struct perfan_source_opts *o);

/* Non-zero when the LEN bytes at BUF begin bpftrace's output. */
int perfan__bpftrace_detect(const void *buf, size_t len);

#endif
