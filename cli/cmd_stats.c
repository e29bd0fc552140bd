/* cli/cmd_stats.c: perfan stats: record counts per type and per event, in the
 * lines of `perf report --stats` so the two can be compared with diff. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "cli.h"

#define NTYPES 256

static const char usage_text[] =
	"usage: perfan stats [--json] [-o FILE] FILE\n"
	"\n"
	"Count the records of a perf.data file per record type and the samples\n"
	"per event, printed as `perf report --stats` prints them.\n"
	"FILE may be '-' for standard input (pipe mode).\n"
	"\n"
	"  --json        print a JSON object instead\n"
	"  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
	"  -h, --help    show this help\n";

struct counts {
	uint64_t total;
	uint64_t by_type[NTYPES];
	uint64_t other_types; /* type >= NTYPES */
	size_t nev;
	uint64_t *samples, *lost_samples;
	int has_aux;
};

static void warn_cb(enum perfan_log_level lvl, const char *msg, void *payload)
{
	(void)payload;
	if (lvl == PERFAN_LOG_WARN)
		cli_warn("stats", "%s", msg);
}

static int grow(struct counts *c, size_t nev)
{
	if (nev <= c->nev)
		return 0;
	uint64_t *s = realloc(c->samples, nev * sizeof(*s));
	if (!s)
		return -1;
	c->samples = s;
	uint64_t *l = realloc(c->lost_samples, nev * sizeof(*l));
	if (!l)
		return -1;
	c->lost_samples = l;
	memset(c->samples + c->nev, 0, (nev - c->nev) * sizeof(*s));
	memset(c->lost_samples + c->nev, 0, (nev - c->nev) * sizeof(*l));
	c->nev = nev;
	return 0;
}

static int count(perfan_perfdata *pd, struct counts *c)
{
	const struct perfan_record *r;
	int rc;
	while ((rc = perfan_perfdata_next(pd, &r)) == 0) {
		c->total++;
		if (r->type < NTYPES)
			c->by_type[r->type]++;
		else
			c->other_types++;
		if (!r->event)
			continue;
		if (r->type != PERFAN_REC_SAMPLE &&
		    r->type != PERFAN_REC_LOST_SAMPLES)
			continue;
		if (grow(c, perfan_perfdata_nr_events(pd)))
			return PERFAN_ENOMEM;
		if (r->type == PERFAN_REC_SAMPLE)
			c->samples[r->event->index]++;
		else
			c->lost_samples[r->event->index] +=
				r->u.lost_samples.lost;
	}
	return rc == PERFAN_ITEROVER ? 0 : rc;
}

static const char *type_name(unsigned t, char *buf, size_t n)
{
	const char *s = perfan_record_type_name(t);
	if (s)
		return s;
	snprintf(buf, n, "TYPE_%u", t);
	return buf;
}

static void print_text(FILE *fp, perfan_perfdata *pd, const struct counts *c)
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
		fprintf(fp, "%s stats:\n", perfan_perfdata_event(pd, i)->name);
		if (c->samples[i])
			fprintf(fp, "%16s events: %10llu\n", "SAMPLE",
				(unsigned long long)c->samples[i]);
		if (c->lost_samples[i])
			fprintf(fp, "%16s events: %10llu\n", "LOST_SAMPLES",
				(unsigned long long)c->lost_samples[i]);
	}
}

static void print_json(FILE *fp, perfan_perfdata *pd, const struct counts *c)
{
	char buf[32];
	const struct perfan_file_info *info = perfan_perfdata_info(pd);
	fprintf(fp, "{\"file\": ");
	perfan_json_string(fp, perfan_perfdata_name(pd));
	fprintf(fp, ", \"pipe_mode\": %s, \"total\": %llu, \"types\": {",
		info->pipe_mode ? "true" : "false",
		(unsigned long long)c->total);
	int first = 1;
	for (unsigned t = 1; t < NTYPES; t++) {
		if (!c->by_type[t])
			continue;
		fprintf(fp, "%s", first ? "" : ", ");
		perfan_json_string(fp, type_name(t, buf, sizeof(buf)));
		fprintf(fp, ": %llu", (unsigned long long)c->by_type[t]);
		first = 0;
	}
	fprintf(fp, "}, \"events\": [");
	size_t n = perfan_perfdata_nr_events(pd);
	for (size_t i = 0; i < n; i++) {
		uint64_t s = i < c->nev ? c->samples[i] : 0;
		uint64_t l = i < c->nev ? c->lost_samples[i] : 0;
		fprintf(fp, "%s{\"name\": ", i ? ", " : "");
		perfan_json_string(fp, perfan_perfdata_event(pd, i)->name);
		fprintf(fp, ", \"samples\": %llu, \"lost_samples\": %llu}",
			(unsigned long long)s, (unsigned long long)l);
	}
	fprintf(fp, "]}\n");
}

int cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int json = 0, opt;
	const char *out_path = NULL;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (optind + 1 != argc) {
		fputs(usage_text, stderr);
		return 2;
	}
	const char *in[] = {argv[optind]};
	if (cli_output_guard("stats", out_path, in, 1))
		return 1;
	struct perfan_perfdata_opts o =
		PERFAN_OPTS_INIT(struct perfan_perfdata_opts);
	o.unordered = 1;
	o.skip_sample_fields = 1;
	o.log = warn_cb;
	perfan_perfdata *pd;
	if (perfan_perfdata_open(&pd, argv[optind], &o)) {
		cli_error("stats", "%s", perfan_error_last());
		return 1;
	}
	struct counts c;
	memset(&c, 0, sizeof(c));
	int rc = count(pd, &c);
	int status = 0;
	if (rc) {
		/* print what was counted, then the error */
		cli_error("stats", "%s", perfan_error_last());
		status = 1;
	}
	grow(&c, perfan_perfdata_nr_events(pd));
	c.has_aux = perfan_features_has(perfan_perfdata_features(pd),
					PERFAN_FEAT_AUXTRACE);
	struct cli_output out;
	if (cli_output_open(&out, out_path)) {
		cli_error("stats", "cannot write %s", out_path);
		status = 1;
	} else {
		if (json)
			print_json(out.fp, pd, &c);
		else
			print_text(out.fp, pd, &c);
		/* what was counted before an error goes to stdout, but -o
		 * keeps no file then (an existing one stays as it was) */
		if (cli_output_close(&out, status == 0))
			status = 1;
	}
	free(c.samples);
	free(c.lost_samples);
	perfan_perfdata_free(pd);
	return status;
}
