/* render/record_counts_write.c: record counts in the lines of `perf report
 * --stats`, so the two can be compared with diff, or as JSON. */
#include <stdio.h>

#include "render/json.h"
#include "sources/perfdata/record_counts.h"
#include "util/error.h"
#include "util/opts.h"

#define NTYPES PERFAN__RECSTATS_NTYPES

static const char *type_name(unsigned t, char *buf, size_t n)
{
	const char *s = perfan_record_type_name(t);
	if (s)
		return s;
	snprintf(buf, n, "TYPE_%u", t);
	return buf;
}

static void write_text(FILE *fp, const struct perfan_recstats *c)
{
	char buf[32];
	fprintf(fp, "\nAggregated stats:%s\n",
		c->has_aux ? " (excludes AUX area (e.g. instruction trace) "
			     "decoded / synthesized events)"
			   : "");
	fprintf(fp, "%16s events: %10llu\n", "TOTAL",
		(unsigned long long)c->total);
	for (unsigned t = 1; t < NTYPES; t++) {
		if (!c->by_type[t])
			continue;
		fprintf(fp, "%16s events: %10llu  (%4.1f%%)\n",
			type_name(t, buf, sizeof(buf)),
			(unsigned long long)c->by_type[t],
			100.0 * (double)c->by_type[t] / (double)c->total);
	}
	for (size_t i = 0; i < c->nev; i++) {
		if (!c->samples[i] && !c->lost_samples[i])
			continue;
		fprintf(fp, "%s stats:\n",
			perfan_perfdata_event(c->pd, i)->name);
		if (c->samples[i])
			fprintf(fp, "%16s events: %10llu\n", "SAMPLE",
				(unsigned long long)c->samples[i]);
		if (c->lost_samples[i])
			fprintf(fp, "%16s events: %10llu\n", "LOST_SAMPLES",
				(unsigned long long)c->lost_samples[i]);
	}
}

static void write_json(FILE *fp, const struct perfan_recstats *c)
{
	char buf[32];
	const perfan_perfdata *pd = c->pd;
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_str(&j, "file", perfan_perfdata_name(pd));
	perfan__json_bool(&j, "pipe_mode", perfan_perfdata_info(pd)->pipe_mode);
	perfan__json_u64(&j, "total", c->total);
	perfan__json_open(&j, "types", '{');
	for (unsigned t = 1; t < NTYPES; t++)
		if (c->by_type[t])
			perfan__json_u64(&j, type_name(t, buf, sizeof(buf)),
					 c->by_type[t]);
	perfan__json_close(&j, '}');
	perfan__json_open(&j, "events", '[');
	size_t n = perfan_perfdata_nr_events(pd);
	for (size_t i = 0; i < n; i++) {
		perfan__json_open(&j, NULL, '{');
		perfan__json_str(&j, "name",
				 perfan_perfdata_event(pd, i)->name);
		perfan__json_u64(&j, "samples", i < c->nev ? c->samples[i] : 0);
		perfan__json_u64(&j, "lost_samples",
				 i < c->nev ? c->lost_samples[i] : 0);
		perfan__json_close(&j, '}');
	}
	perfan__json_end(&j);
}

int perfan_recstats_write(const perfan_recstats *rs, FILE *fp,
			  const struct perfan_recstats_write_opts *opts)
{
	struct perfan_recstats_write_opts o;
	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
	if (!rs || !fp)
		return perfan__err_null(__func__, rs ? "fp" : "stats");
	if (o.json)
		write_json(fp, rs);
	else
		write_text(fp, rs);
	return ferror(fp) ? perfan__err(PERFAN_EIO,
					"writing the stats of %s "
					"failed",
					perfan_perfdata_name(rs->pd))
			  : 0;
}
