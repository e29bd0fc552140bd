/* render/trace_header.c: perfan_trace_header_write, what a trace holds in
 * "key: value" lines. */
#include "render/trace_header.h"

#include <inttypes.h>

#include <perfan/header.h>

#include "util/error.h"
#include "util/opts.h"

static const char *or_none(const char *s)
{
	return s ? s : "(none)";
}

/* A device's streams are numbered by the trace; a thread is PID/TID. */
static void threads(FILE *fp, const struct perfan__trace_facts *f, int gpu)
{
	const struct perfan_trace_info *ti = f->ti;
	for (size_t i = 0; i < ti->nr_threads; i++) {
		const struct perfan_trace_thread *th = &ti->threads[i];
		if ((th->device >= 0) != gpu)
			continue;
		if (gpu)
			fprintf(fp, "#   device %" PRId32 " stream %" PRId64,
				th->device, th->stream);
		else
			fprintf(fp, "#   pid %" PRId64 " tid %" PRId64, th->pid,
				th->tid);
		fprintf(fp, ": %" PRIu64 " events", f->per_thread[i]);
		if (th->name)
			fprintf(fp, ", name \"%s\"", th->name);
		if (th->process)
			fprintf(fp, ", process \"%s\"", th->process);
		fputc('\n', fp);
	}
}

void perfan__trace_header_text(FILE *fp, const struct perfan__trace_facts *f,
			       const char *name, const char *format)
{
	const struct perfan_trace_info *ti = f->ti;
	fprintf(fp, "# trace: %s\n", name);
	if (format)
		fprintf(fp, "# format: %s\n", format);
	fprintf(fp, "# layout: %s\n", or_none(ti->layout));
	fprintf(fp, "# schema: %s\n", or_none(ti->schema));
	fprintf(fp, "# base time: %" PRId64 " ns\n", ti->base_ns);
	if (ti->rank >= 0)
		fprintf(fp, "# rank: %" PRId32 "\n", ti->rank);
	else
		fprintf(fp, "# rank: (none)\n");
	if (f->have_time)
		fprintf(fp,
			"# time: %" PRId64 " ns to %" PRId64 " ns (%" PRId64
			" ns)\n",
			f->first, f->last_end, f->last_end - f->first);
	for (int32_t d = 0; d <= f->last_device; d++) {
		const char *n = perfan_trace_device_name(f->t, d);
		fprintf(fp, "# device %" PRId32 ": %s\n", d, or_none(n));
	}
	fprintf(fp, "# events: %zu\n", ti->nr_events);
	for (int k = 0; k < PERFAN_TRACE_NKINDS; k++)
		if (f->kinds[k])
			fprintf(fp, "#   %s: %" PRIu64 "\n",
				perfan_trace_kind_name(
					(enum perfan_trace_kind)k),
				f->kinds[k]);
	fprintf(fp,
		"# GPU work linked to its launch: %" PRIu64 " of %" PRIu64 "\n",
		f->linked, f->gpu_work);
	fprintf(fp, "# CPU threads: %zu\n", ti->nr_threads - f->nr_streams);
	threads(fp, f, 0);
	fprintf(fp, "# GPU streams: %zu\n", f->nr_streams);
	threads(fp, f, 1);
	fprintf(fp, "# skipped: %" PRIu64 "\n", ti->skipped);
}

int perfan_trace_header_write(const perfan_trace *t, FILE *fp,
			      const struct perfan_trace_header_opts *opts)
{
	struct perfan_trace_header_opts o;
	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
	if (!t || !fp)
		return perfan__err_null(__func__, t ? "fp" : "trace");
	struct perfan__trace_facts f;
	if ((rc = perfan__trace_facts(&f, t)))
		return rc;
	if (o.json)
		perfan__trace_header_json(fp, &f, o.format);
	else
		perfan__trace_header_text(fp, &f, o.name ? o.name : "(trace)",
					  o.format);
	perfan__trace_facts_free(&f);
	return ferror(fp) ? perfan__err(PERFAN_EIO,
					"writing the header of %s failed",
					o.name ? o.name : "a trace")
			  : 0;
}
