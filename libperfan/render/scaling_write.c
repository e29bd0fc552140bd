/* render/scaling_write.c: a scaling result as text (the runs, the whole
 * program per size and per doubling, the functions by exponent) and as
 * JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <perfan/scaling.h>

#include "analysis/scaling_result.h"
#include "render/json.h"
#include "render/sink.h"

/* Runs of one size that differ more than this (max / min) get a note:
 * the machine's speed drifted, or the runs did different work. */
#define DRIFT 1.25

/* ---- text ------------------------------------------------------------------ */

/* A weight in the result's unit: time scaled to ns, us, ms or s. */
static void fmt_weight(char *buf, size_t n, const perfan_scaling *s, double v)
{
	if (strcmp(s->unit, "ns")) {
		snprintf(buf, n, "%.0f", v);
		return;
	}
	if (v < 1e3)
		snprintf(buf, n, "%.0f ns", v);
	else if (v < 1e6)
		snprintf(buf, n, "%.1f us", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, n, "%.1f ms", v / 1e6);
	else
		snprintf(buf, n, "%.2f s", v / 1e9);
}

static void put_unit(FILE *fp, const perfan_scaling *s)
{
	if (!strcmp(s->unit, "ns"))
		fprintf(fp, "time in ns (%s)", s->event);
	else if (!strcmp(s->unit, "samples"))
		fprintf(fp, "samples (%s)", s->event);
	else
		fprintf(fp, "%s's %s", s->event, s->unit);
}

static void put_fit(FILE *fp, const struct perfan_scaling_fit *f)
{
	if (isnan(f->lo))
		fprintf(fp, " %-16s", "[n/a]");
	else
		fprintf(fp, " [%6.2f, %6.2f]", f->lo, f->hi);
}

static void write_sizes(const perfan_scaling *s, FILE *fp)
{
	char a[32], b[32], c[32];
	fputs("The whole program:\n", fp);
	fprintf(fp, "%12s %5s %11s  %-25s %12s %6s\n", "size", "runs", "time",
		"(min - max)", "per doubling", "k");
	for (size_t i = 0; i < s->nsizes; i++) {
		const struct perfan_scaling_size *z = &s->sizes[i];
		char range[80] = "";
		fmt_weight(a, sizeof(a), s, z->mean);
		if (z->nr_runs > 1) {
			fmt_weight(b, sizeof(b), s, z->min);
			fmt_weight(c, sizeof(c), s, z->max);
			snprintf(range, sizeof(range), "(%s - %s)", b, c);
		}
		fprintf(fp, "%12g %5zu %11s  %-*s", z->size, z->nr_runs, a,
			i ? 25 : 0, range);
		if (i)
			fprintf(fp, " %11.2fx %6.2f", z->per_doubling,
				z->exponent);
		fputc('\n', fp);
	}
	const struct perfan_scaling_fit *w = &s->whole;
	fprintf(fp, "  exponent k = %.2f", w->exponent);
	if (isnan(w->lo))
		fputs(", no interval (two runs leave no degrees of freedom)",
		      fp);
	else
		fprintf(fp, ", %g%% interval %.2f to %.2f", 100 * s->o.level,
			w->lo, w->hi);
	fprintf(fp,
		"; least squares on log-log over %zu runs, %zu degree%s "
		"of freedom\n",
		s->nr, w->df, w->df == 1 ? "" : "s");
	size_t drift = 0;
	for (size_t i = 0; i < s->nsizes; i++) {
		const struct perfan_scaling_size *z = &s->sizes[i];
		if (z->nr_runs < 2 || !(z->max > DRIFT * z->min))
			continue;
		fputs(drift++ ? ", " : "  note: runs of one size differ: at ",
		      fp);
		fmt_weight(b, sizeof(b), s, z->min);
		fmt_weight(c, sizeof(c), s, z->max);
		fprintf(fp, "%g: %.2fx (%s to %s)", z->size, z->max / z->min, b,
			c);
	}
	if (drift)
		fputs("; the machine's speed drifted or the runs did "
		      "different work, and the intervals include that "
		      "spread\n",
		      fp);
}

static void write_row(const perfan_scaling *s, FILE *fp,
		      const struct perfan_scaling_row *r)
{
	char a[32], b[32];
	fmt_weight(a, sizeof(a), s, r->at_smallest);
	fmt_weight(b, sizeof(b), s, r->at_largest);
	if (r->fitted) {
		fprintf(fp, "%6.2f%c", r->total.exponent,
			r->flagged ? '*' : ' ');
		put_fit(fp, &r->total);
		if (isnan(r->self.exponent))
			fprintf(fp, " %6s", "-");
		else
			fprintf(fp, " %6.2f", r->self.exponent);
	} else {
		char absent[40];
		snprintf(absent, sizeof(absent), "absent in %zu of %zu",
			 r->nr_absent, s->nr);
		fprintf(fp, "%6s  %-16s %6s", "-", absent, "-");
	}
	fprintf(fp, " %11s %11s  %s\n", a, b, r->name);
}

static void write_text(const void *result, FILE *fp)
{
	const perfan_scaling *s = result;
	const struct perfan_scaling_size *lo = &s->sizes[0],
					 *hi = &s->sizes[s->nsizes - 1];
	char a[32];
	fprintf(fp,
		"# perfan scaling: %zu runs at %zu sizes (%g to %g); weights: ",
		s->nr, s->nsizes, lo->size, hi->size);
	put_unit(fp, s);
	fputc('\n', fp);
	for (size_t r = 0; r < s->nr; r++) {
		fmt_weight(a, sizeof(a), s, s->run_total[r]);
		fprintf(fp, "#   %g: %s %s\n", s->size[r],
			s->runname[r] ? s->runname[r] : "-", a);
	}
	fputc('\n', fp);
	write_sizes(s, fp);

	const char *by = s->o.sort == PERFAN_SCALING_SORT_TIME ? "time at the "
								 "largest size"
			 : s->o.sort == PERFAN_SCALING_SORT_NAME ? "name"
								 : "exponent";
	fprintf(fp,
		"\nFunctions by %s: k of time ~ n^k, with what they call "
		"(total) and their own code (self); * k >= %g: grows faster "
		"than linear, look for a scan inside a loop\n",
		by, s->o.flag);
	char lh[24], hh[24];
	snprintf(lh, sizeof(lh), "at %g", lo->size);
	snprintf(hh, sizeof(hh), "at %g", hi->size);
	char iv[24];
	snprintf(iv, sizeof(iv), "%g%% interval", 100 * s->o.level);
	fprintf(fp, "%6s  %-16s %6s %11s %11s  %s\n", "k", iv, "self k", lh, hh,
		"function");
	size_t shown = 0, more = 0, absent = 0;
	for (size_t i = 0; i < s->nrows; i++) {
		const struct perfan_scaling_row *r = &s->rows[i];
		absent += !r->fitted;
		if (s->o.limit && shown >= s->o.limit) {
			more++;
			continue;
		}
		write_row(s, fp, r);
		shown++;
	}
	if (!s->nrows)
		fputs("  (none)\n", fp);
	if (absent)
		fprintf(fp,
			"# %zu function%s absent at some size: not fitted "
			"(k -)\n",
			absent, absent == 1 ? "" : "s");
	if (more)
		fprintf(fp, "# %zu more not shown (limit %zu)\n", more,
			s->o.limit);
	if (s->nbelow)
		fprintf(fp,
			"# %zu function%s below %g%% of the runs' totals (on "
			"average) left out\n",
			s->nbelow, s->nbelow == 1 ? "" : "s",
			100 * s->o.min_share);
}

/* ---- JSON ----------------------------------------------------------------------- */

static void json_num(struct perfan__json *j, const char *key, double v)
{
	perfan__json_item(j, key);
	if (isnan(v) || isinf(v))
		fputs("null", j->fp);
	else
		fprintf(j->fp, "%.10g", v);
}

static void json_fit(struct perfan__json *j, const char *key,
		     const char *interval, const struct perfan_scaling_fit *f)
{
	json_num(j, key, f->exponent);
	if (isnan(f->lo)) {
		perfan__json_item(j, interval);
		fputs("null", j->fp);
	} else {
		perfan__json_open(j, interval, '[');
		json_num(j, NULL, f->lo);
		json_num(j, NULL, f->hi);
		perfan__json_close(j, ']');
	}
}

static void json_runs(struct perfan__json *j, const char *key, const double *v,
		      size_t n)
{
	perfan__json_open(j, key, '[');
	for (size_t i = 0; i < n; i++)
		json_num(j, NULL, v[i]);
	perfan__json_close(j, ']');
}

static void write_json(const void *result, FILE *fp)
{
	const perfan_scaling *s = result;
	struct perfan__json j;
	perfan__json_init(&j, fp, 1);
	perfan__json_open(&j, NULL, '{');
	perfan__json_str(&j, "unit", s->unit);
	perfan__json_str(&j, "event", s->event);
	json_num(&j, "level", s->o.level);
	json_num(&j, "flag", s->o.flag);
	json_num(&j, "min_share", s->o.min_share > 0 ? s->o.min_share : 0);
	perfan__json_open(&j, "runs", '[');
	for (size_t r = 0; r < s->nr; r++) {
		perfan__json_open(&j, NULL, '{');
		json_num(&j, "size", s->size[r]);
		perfan__json_str(&j, "name", s->runname[r]);
		json_num(&j, "total", s->run_total[r]);
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_open(&j, "whole", '{');
	json_fit(&j, "exponent", "interval", &s->whole);
	json_num(&j, "se", s->whole.se);
	perfan__json_u64(&j, "df", s->whole.df);
	perfan__json_open(&j, "sizes", '[');
	for (size_t i = 0; i < s->nsizes; i++) {
		const struct perfan_scaling_size *z = &s->sizes[i];
		perfan__json_open(&j, NULL, '{');
		json_num(&j, "size", z->size);
		perfan__json_u64(&j, "runs", z->nr_runs);
		json_num(&j, "mean", z->mean);
		json_num(&j, "min", z->min);
		json_num(&j, "max", z->max);
		json_num(&j, "per_doubling", z->per_doubling);
		json_num(&j, "exponent", z->exponent);
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_close(&j, '}');
	perfan__json_open(&j, "functions", '[');
	for (size_t i = 0; i < s->nrows; i++) {
		const struct perfan_scaling_row *r = &s->rows[i];
		perfan__json_open(&j, NULL, '{');
		perfan__json_str(&j, "name", r->name);
		perfan__json_bool(&j, "fitted", r->fitted);
		json_fit(&j, "exponent", "interval", &r->total);
		json_num(&j, "se", r->total.se);
		json_fit(&j, "self_exponent", "self_interval", &r->self);
		perfan__json_bool(&j, "flagged", r->flagged);
		perfan__json_u64(&j, "absent_runs", r->nr_absent);
		json_num(&j, "at_smallest", r->at_smallest);
		json_num(&j, "at_largest", r->at_largest);
		json_num(&j, "share_at_largest", r->share_at_largest);
		json_runs(&j, "runs_total", r->runs_total, s->nr);
		json_runs(&j, "runs_self", r->runs_self, s->nr);
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_u64(&j, "below_share", s->nbelow);
	perfan__json_end(&j);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_SCALING_TEXT] = write_text,
	[PERFAN_SCALING_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_scaling_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_scaling_write(const perfan_scaling *s, FILE *fp,
			 const struct perfan_scaling_write_opts *opts)
{
	return perfan__sink_write(&sink, s, fp, opts);
}
