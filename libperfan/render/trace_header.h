/* render/trace_header.h: what perfan_trace_header_write's text and JSON
 * writers share: the facts of a trace, counted once. */
#ifndef PERFAN_RENDER_TRACE_HEADER_H
#define PERFAN_RENDER_TRACE_HEADER_H

#include <stdint.h>
#include <stdio.h>

#include <perfan/trace.h>

/* Device indexes asked for a name (deviceProperties). */
#define PERFAN__TRACE_MAX_DEVICE 1024

struct perfan__trace_facts {
	const perfan_trace *t;
	const struct perfan_trace_info *ti;
	uint64_t kinds[PERFAN_TRACE_NKINDS]; /* events per kind */
	uint64_t *per_thread;                /* events per thread */
	int have_time;
	int64_t first, last_end; /* the first start, the last end, ns */
	/* kernels, copies and sets, and those whose correlation is a
	 * runtime or driver call's */
	uint64_t gpu_work, linked;
	size_t nr_streams;
	int32_t last_device; /* the highest device with a stream or a name */
};

/* Count T's facts into F (PERFAN_ENOMEM: none counted). */
int perfan__trace_facts(struct perfan__trace_facts *f, const perfan_trace *t);
void perfan__trace_facts_free(struct perfan__trace_facts *f);

void perfan__trace_header_text(FILE *fp, const struct perfan__trace_facts *f,
			       const char *name, const char *format);
void perfan__trace_header_json(FILE *fp, const struct perfan__trace_facts *f,
			       const char *format);

#endif
