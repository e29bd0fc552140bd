/* render/diff_write.c: a diff as text (sections of shrinking and growing
 * functions, the test's verdict, the noise floor, the Amdahl line) and as
 * JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <perfan/diff.h>

#include "analysis/diff_result.h"
#include "render/json.h"
#include "render/sink.h"
#include <perfan/text.h>

/* ---- text ------------------------------------------------------------------ */

/* A share as percent, or a weight. */
static void put_value(FILE *fp, const perfan_diff *d, double v)
{
	if (d->o.absolute)
		fprintf(fp, " %12.0f", v);
	else
		fprintf(fp, " %7.2f%%", 100 * v);
}

static void put_change(FILE *fp, const perfan_diff *d, double v)
{
	if (d->o.absolute)
		fprintf(fp, " %+12.0f", v);
	else
		fprintf(fp, " %+7.2f", 100 * v);
}

static void put_relative(FILE *fp, const struct perfan_diff_row *r,
			 double before, double after, double relv)
{
	if (before == 0 && after > 0)
		fprintf(fp, " %9s", "new");
	else if (after == 0 && before > 0)
		fprintf(fp, " %9s", "vanished");
	else if (before == 0)
		fprintf(fp, " %9s", "-");
	else
		fprintf(fp, " %+8.1f%%", 100 * relv);
	(void)r;
}

static void put_row(FILE *fp, const perfan_diff *d,
		    const struct perfan_diff_row *r)
{
	put_value(fp, d, r->before_self);
	put_value(fp, d, r->after_self);
	put_change(fp, d, r->self_change);
	put_relative(fp, r, r->before_self, r->after_self, r->self_relative);
	fputs("  ", fp);
	put_value(fp, d, r->before_total);
	put_value(fp, d, r->after_total);
	put_change(fp, d, r->total_change);
	put_relative(fp, r, r->before_total, r->after_total, r->total_relative);
	if (d->tested) {
		double p = isnan(r->p_self) ? r->p_total
			   : r->p_self < r->p_total || isnan(r->p_total)
				   ? r->p_self
				   : r->p_total;
		if (isnan(p))
			fprintf(fp, "  %8s ", "-");
		else
			fprintf(fp, "  %8.2g%s", p, r->significant ? "*" : " ");
	} else if (d->counts) {
		/* the effect's sampling noise: one run cannot say more */
		if (d->o.absolute)
			fprintf(fp, "  +-%7.0f", r->self_noise);
		else
			fprintf(fp, "  +-%7.2f", 100 * r->self_noise);
	}
	fprintf(fp, "  %s\n", r->name);
	if (!d->tested)
		return;
	/* the spread the test saw: each run's total share (or weight) */
	fputs("      runs (total):", fp);
	for (size_t i = 0; i < d->nr; i++) {
		if (i == d->nb)
			fputs(" |", fp);
		if (d->o.absolute)
			fprintf(fp, " %.0f", r->runs_total[i]);
		else
			fprintf(fp, " %.2f%%", 100 * r->runs_total[i]);
	}
	fputc('\n', fp);
}

static void put_header(FILE *fp, const perfan_diff *d)
{
	int v = d->o.absolute ? 13 : 9, c = d->o.absolute ? 13 : 8;
	int half = 2 * v + c + 10;
	fprintf(fp, "#%-*s  %-*s\n", half - 1, " own time (self)", half,
		"with what it calls (total)");
	fprintf(fp, "#%*s%*s%*s%*s  %*s%*s%*s%*s%s  function\n", v - 1,
		"before", v, "after", c, "change", 10, "relative", v, "before",
		v, "after", c, "change", 10, "relative",
		d->tested   ? "          q"
		: d->counts ? "   noise+-"
			    : "");
}

static int shown(const perfan_diff *d, const struct perfan_diff_row *r)
{
	if (r->self_change == 0 && r->total_change == 0)
		return 0;
	return d->o.all || !d->tested || r->significant;
}

/* The Amdahl line: the changes that count, summed in the weights' unit
 * per run, beside the whole's measured change. */
static void write_amdahl(const perfan_diff *d, FILE *fp)
{
	struct perfan_diff_amdahl a;
	perfan_diff_amdahl(d, &a);
	if (!(a.before_total > 0) || isnan(a.speedup_top))
		return; /* no time, or the bound does not hold */
	double k;
	const char *u = perfan_diff_unit(d, &k);
	double b = a.before_total * k, w = a.after_total * k;
	double est = isinf(a.speedup_top) ? -b : b / a.speedup_top - b;
	const char *what = d->tested   ? "significant changes"
			   : d->counts ? "changes beyond sampling noise"
				       : "changes (untested)";
	size_t counted = 0;
	for (size_t i = 0; i < d->nrows; i++)
		counted += (size_t)d->rows[i].amdahl;
	fprintf(fp, "#\n# Amdahl: ");
	if (!a.nr_top)
		fprintf(fp, "no %s", what);
	else {
		fprintf(fp,
			"the %s, each with its callees that did not change "
			"(",
			what);
		for (size_t i = 0; i < a.nr_top; i++)
			fprintf(fp, "%s%s %+.1f", i ? ", " : "", a.top[i]->name,
				k * (a.top[i]->after_amdahl_weight -
				     a.top[i]->before_amdahl_weight));
		fprintf(fp, "%s) sum to %+.1f %s per run and make it %.2fx %s",
			a.nr_top < counted ? ", ..." : "", est, u,
			a.speedup_top >= 1 ? a.speedup_top : 1 / a.speedup_top,
			a.speedup_top >= 1 ? "faster" : "slower");
	}
	fprintf(fp,
		"; the whole changed %+.1f %s per run (%.1f to %.1f), "
		"%.2fx\n",
		w - b, u, b, w, a.speedup_whole);
}

static void write_text(const void *result, FILE *fp)
{
	const perfan_diff *d = result;
	const char *what = d->o.absolute ? "weights (counts or periods) per run"
					 : "shares of each run's total";
	fprintf(fp,
		"# perfan diff: %zu run%s before, %zu after; %s, "
		"averaged over a side's runs\n",
		d->nb, d->nb == 1 ? "" : "s", d->na, what);
	for (size_t r = 0; r < d->nr; r++)
		if (d->runname[r])
			fprintf(fp, "#   %s %s: %.0f\n",
				r < d->nb ? "before" : "after ", d->runname[r],
				d->run_total[r]);
	size_t sig = 0, changed = 0, hidden = 0;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct perfan_diff_row *r = &d->rows[i];
		if (r->self_change != 0 || r->total_change != 0)
			changed++;
		sig += r->significant;
		if ((r->self_change != 0 || r->total_change != 0) &&
		    !shown(d, r))
			hidden++;
	}
	if (d->tested) {
		fprintf(fp,
			"# tested %zu of %zu functions (mean share >= %g %%%s): "
			"Welch's test on the per-run %s with a sampling-noise "
			"floor%s, Benjamini-Hochberg q < %g: %zu changed "
			"significantly (*)",
			d->nr_tested, d->nrows,
			100 * (d->o.min_share > 0 ? d->o.min_share : 0.005),
			d->counts ? ", 6 samples" : "",
			d->o.absolute      ? "weights"
			: d->o.shares_only ? "shares"
					   : "shares and weights",
			d->counts ? " and a count test" : "", d->o.alpha, sig);
		if (hidden)
			fprintf(fp,
				"; %zu other changes hidden (--all "
				"shows them)",
				hidden);
		fputc('\n', fp);
		if (!isnan(d->noise)) {
			fprintf(fp, "# noise floor: ");
			if (d->o.absolute)
				fprintf(fp, "%.0f", d->noise);
			else
				fprintf(fp, "%.2f points", 100 * d->noise);
			fprintf(fp, " (the change a typical function needs "
				    "to be told from run-to-run variation)\n");
		}
	} else {
		fprintf(fp, "# one run on a side: whether a change is more "
			    "than run-to-run noise cannot be judged; record "
			    "several runs of each (-b FILE... -a FILE...)\n");
		if (d->counts)
			fprintf(fp, "# noise+-: the 95 %% interval of the "
				    "self change that sampling alone gives; "
				    "run-to-run variation adds to it\n");
	}
	fputs("#\n", fp);
	put_header(fp, d);
	int change_sort = d->o.sort <= PERFAN_DIFF_SORT_RELATIVE;
	const char *section = NULL;
	size_t in_section = 0;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct perfan_diff_row *r = &d->rows[i];
		if (!shown(d, r))
			continue;
		if (change_sort) {
			double k = d->o.sort == PERFAN_DIFF_SORT_SELF
					   ? r->self_change
				   : d->o.sort == PERFAN_DIFF_SORT_TOTAL
					   ? r->total_change
					   : r->total_relative;
			const char *s = k < 0   ? "Shrank"
					: k > 0 ? "Grew"
					: d->o.sort == PERFAN_DIFF_SORT_SELF
						? "Own time unchanged"
						: "Unchanged";
			if (s != section) {
				fprintf(fp, "%s:\n", s);
				section = s;
				in_section = 0;
			}
		}
		if (d->o.limit && in_section >= d->o.limit)
			continue;
		in_section++;
		put_row(fp, d, r);
	}
	if (!changed)
		fputs("(no function changed)\n", fp);
	else if (d->tested && !sig && !d->o.all)
		fputs("(no significant change)\n", fp);

	write_amdahl(d, fp);
}

/* ---- JSON ----------------------------------------------------------------------- */

static void json_runs(struct perfan__json *j, const char *key, const double *v,
		      size_t from, size_t to)
{
	perfan__json_open_tight(j, key, '[');
	for (size_t i = from; i < to; i++)
		perfan__json_g(j, NULL, v[i], 10);
	perfan__json_close(j, ']');
}

static void json_sides(struct perfan__json *j, const perfan_diff *d)
{
	for (int side = 0; side < 2; side++) {
		size_t from = side ? d->nb : 0, to = side ? d->nr : d->nb;
		perfan__json_open(j, side ? "after" : "before", '{');
		perfan__json_open(j, "runs", '[');
		for (size_t r = from; r < to; r++)
			perfan__json_str(j, NULL,
					 d->runname[r] ? d->runname[r] : "");
		perfan__json_close(j, ']');
		json_runs(j, "totals", d->run_total, from, to);
		perfan__json_close(j, '}');
	}
}

/* "amdahl": the bound on the whole from the functions that changed. */
static void json_amdahl(struct perfan__json *j, const perfan_diff *d, double *k)
{
	struct perfan_diff_amdahl a;
	perfan_diff_amdahl(d, &a);
	const char *u = perfan_diff_unit(d, k);
	double b = a.before_total * *k;
	if (isnan(a.speedup_top)) { /* the bound does not hold */
		perfan__json_item(j, "amdahl");
		fputs("null", j->fp);
		return;
	}
	perfan__json_open(j, "amdahl", '{');
	perfan__json_str(j, "unit", u ? u : "");
	perfan__json_g(j, "before_total", b, 10);
	perfan__json_g(j, "after_total", a.after_total * *k, 10);
	perfan__json_g(j, "estimate_change",
		       isinf(a.speedup_top) ? -b : b / a.speedup_top - b, 10);
	perfan__json_g(j, "whole_change", a.after_total * *k - b, 10);
	perfan__json_g(j, "speedup_top", a.speedup_top, 10);
	perfan__json_g(j, "speedup_whole", a.speedup_whole, 10);
	perfan__json_open(j, "top", '[');
	for (size_t i = 0; i < a.nr_top; i++)
		perfan__json_str(j, NULL, a.top[i]->name);
	perfan__json_close(j, ']');
	perfan__json_close(j, '}');
}

static void json_row(struct perfan__json *j, const perfan_diff *d,
		     const struct perfan_diff_row *r, double k)
{
	const struct {
		const char *k;
		double v;
	} f[] = {
		{"before_self", r->before_self},
		{"after_self", r->after_self},
		{"self_change", r->self_change},
		{"self_relative", r->self_relative},
		{"before_total", r->before_total},
		{"after_total", r->after_total},
		{"total_change", r->total_change},
		{"total_relative", r->total_relative},
		{"p_self", r->p_self},
		{"p_total", r->p_total},
		{"self_noise", r->self_noise},
		{"total_noise", r->total_noise},
		{"before_amdahl", r->before_amdahl_weight * k},
		{"after_amdahl", r->after_amdahl_weight * k},
	};
	perfan__json_open(j, NULL, '{');
	perfan__json_str(j, "function", r->name ? r->name : "");
	for (size_t i = 0; i < sizeof(f) / sizeof(*f); i++)
		perfan__json_g(j, f[i].k, f[i].v, 10);
	perfan__json_bool(j, "significant", r->significant);
	perfan__json_bool(j, "new", r->is_new);
	perfan__json_bool(j, "vanished", r->vanished);
	perfan__json_bool(j, "tested", r->tested);
	perfan__json_bool(j, "self_significant", r->self_significant);
	perfan__json_bool(j, "total_significant", r->total_significant);
	perfan__json_bool(j, "amdahl", r->amdahl);
	json_runs(j, "runs_before_self", r->runs_self, 0, d->nb);
	json_runs(j, "runs_after_self", r->runs_self, d->nb, d->nr);
	json_runs(j, "runs_before_total", r->runs_total, 0, d->nb);
	json_runs(j, "runs_after_total", r->runs_total, d->nb, d->nr);
	perfan__json_close(j, '}');
}

static void write_json(const void *result, FILE *fp)
{
	const perfan_diff *d = result;
	struct perfan__json j;
	double k;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_bool(&j, "absolute", d->o.absolute);
	perfan__json_g(&j, "alpha", d->o.alpha, 6);
	perfan__json_bool(&j, "tested", d->tested);
	perfan__json_g(&j, "noise_floor", d->noise, 10);
	json_sides(&j, d);
	perfan__json_g(&j, "tested_functions", (double)d->nr_tested, 10);
	json_amdahl(&j, d, &k);
	perfan__json_open_lines(&j, "rows", '[');
	for (size_t i = 0; i < d->nrows; i++)
		json_row(&j, d, &d->rows[i], k);
	if (!d->nrows)
		fputc('\n', fp); /* "[\n]" even when empty */
	perfan__json_end(&j);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_DIFF_TEXT] = write_text,
	[PERFAN_DIFF_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_diff_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_diff_write(const perfan_diff *d, FILE *fp,
		      const struct perfan_diff_write_opts *opts)
{
	return perfan__sink_write(&sink, d, fp, opts);
}
