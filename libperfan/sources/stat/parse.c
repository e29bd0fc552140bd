/* sources/stat/parse.c: perfan_stat_parse: telling the format of perf stat output,
 * feeding its lines to the text, CSV or JSON reader, then reading the
 * numbers once the decimal point is known; and the accessors. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/stat/internal.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

static int conv(perfan_stat *s, const struct perfan__span *sp, char dec,
		uint32_t line, const char *what, double *out)
{
	if (!sp->n)
		return 0;
	if (perfan__stat_is_nonfinite(sp->p, sp->n))
		return perfan__err(PERFAN_EFORMAT,
				   "%s:%u: %s \"%.*s\" is not a finite number",
				   s->name, line, what, (int)sp->n, sp->p);
	if (perfan__stat_num(sp->p, sp->n, dec, out))
		return perfan__err(PERFAN_EFORMAT, "%s:%u: bad %s \"%.*s\"",
				   s->name, line, what, (int)sp->n, sp->p);
	return 0;
}

/* Read every number kept as text, now that the decimal point is known. */
static int finish(perfan_stat *s)
{
	char dec = s->votes_comma > s->votes_dot ? ',' : '.';

	if (s->votes_comma == s->votes_dot && s->weak_comma > s->weak_dot)
		dec = ',';
	size_t i;
	int rc = 0;

	for (i = 0; i < s->nrows && !rc; i++) {
		struct perfan__stat_row *r = &s->rows[i];
		uint32_t l = r->c.line;
		rc = conv(s, &r->value, dec, l, "count", &r->c.value);
		if (!rc)
			rc = conv(s, &r->interval, dec, l, "time",
				  &r->c.interval);
		if (!rc)
			rc = conv(s, &r->aggr_count, dec, l, "aggregate count",
				  &r->c.aggr_count);
		if (!rc)
			rc = conv(s, &r->variance, dec, l, "variance",
				  &r->c.variance_pct);
		if (!rc)
			rc = conv(s, &r->running, dec, l, "running share",
				  &r->c.running_pct);
	}
	return rc ? rc : perfan__stat_runs_finish(s, dec);
}

static int is_json(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p < e && *p == '{' &&
		    (memmem(p, (size_t)(e - p), "\"event\"", 7) ||
		     memmem(p, (size_t)(e - p), "\"counter-value\"", 15)))
			return 1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* One reading of the whole input as FORMAT. */
static int pass(perfan_stat **out, const char *text, size_t len,
		const char *name, int format)
{
	const char *p = text, *end = text + len, *sep = NULL;
	struct perfan__stat_line l = {0};
	perfan_stat *s;
	int rc = 0;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return perfan__nomem(NULL);
	s->format = format;
	s->runs = 1;
	s->elapsed_v = s->user_v = s->sys_v = -1;
	s->name = perfan__stat_dup(s, name, strlen(name));
	if (!s->name) {
		perfan_stat_free(s);
		return perfan__nomem(NULL);
	}
	if (format == PERFAN_STAT_CSV &&
	    !(sep = perfan__stat_csv_sep(s, text, len))) {
		perfan_stat_free(s);
		return PERFAN_EUNSUPPORTED; /* no separator fits */
	}

	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		l.p = p;
		l.n = (size_t)((nl ? nl : end) - p);
		l.no++;
		l.last_open = !nl;
		if (l.n && p[l.n - 1] == '\r')
			l.n--;
		switch (format) {
		case PERFAN_STAT_JSON:
			rc = perfan__stat_json_line(s, &l);
			break;
		case PERFAN_STAT_CSV:
			rc = perfan__stat_csv_line(s, &l, sep);
			break;
		default: rc = perfan__stat_text_line(s, &l); break;
		}
		p = nl ? nl + 1 : end;
	}
	if (!rc)
		rc = finish(s);
	if (!rc && s->suspect_line) {
		size_t i;
		for (i = 0; i < s->nrows && s->rows[i].c.interval < 0; i++)
			;
		if (i < s->nrows)
			rc = perfan__err(PERFAN_EFORMAT,
					 "%s:%u: interval row without an event "
					 "name",
					 s->name, s->suspect_line);
	}
	if (!rc && !s->nrows && s->elapsed_v < 0) {
		/* Often perf's own complaint: show it. */
		const char *q = text, *e = text + len, *nl;
		while (q < e && (*q == '\n' || *q == ' ' || *q == '\r'))
			q++;
		nl = memchr(q, '\n', (size_t)(e - q));
		rc = perfan__err(PERFAN_EFORMAT,
				 "%s: no perf stat output in it", s->name);
		if (q < e)
			perfan__err_append("; it begins \"%.*s\"",
					   (int)((nl ? nl : e) - q < 200
							 ? (nl ? nl : e) - q
							 : 200),
					   q);
	}
	if (rc) {
		perfan_stat_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

static int all_digits(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return n > 0;
}

static int pid_like(const struct perfan__span *t)
{
	const char *slash = memchr(t->p, '/', t->n);
	size_t pn = slash ? (size_t)(slash - t->p) : t->n;
	return all_digits(t->p, pn) &&
	       (!slash || all_digits(slash + 1, t->n - pn - 1));
}

/* "SECONDS.FRACTION:" or "EVENT:" */
static int time_or_event(const struct perfan__span *t)
{
	if (t->n < 2 || t->p[t->n - 1] != ':')
		return 0;
	const char *dot = memchr(t->p, '.', t->n);
	if (dot && all_digits(t->p, (size_t)(dot - t->p)) &&
	    all_digits(dot + 1, (size_t)(t->p + t->n - 2 - dot)))
		return 1;
	return (t->p[0] | 32) >= 'a' && (t->p[0] | 32) <= 'z';
}

/* perf script's sample line: "COMM PID[/TID] [CPU] SECONDS.FRACTION:"
 * or, without the time, "COMM PID EVENT:". perf stat never prints a
 * number followed by a word that ends in ':'. */
static int script_sample_line(const char *p, size_t n)
{
	struct perfan__span t[8];
	size_t nt = 0, i = 0;
	while (nt < 8) {
		while (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i >= n)
			break;
		t[nt].p = p + i;
		while (i < n && p[i] != ' ' && p[i] != '\t')
			i++;
		t[nt].n = (size_t)(p + i - t[nt].p);
		nt++;
	}
	/* a comm may have blanks: the PID is any token after the first */
	for (size_t k = 1; k + 1 < nt; k++) {
		if (!pid_like(&t[k]))
			continue;
		size_t j = k + 1;
		if (t[j].n > 2 && t[j].p[0] == '[' && t[j].p[t[j].n - 1] == ']')
			j++; /* [CPU] */
		if (j < nt && time_or_event(&t[j]))
			return 1;
	}
	return 0;
}

/* Text that perf script printed (its sample lines, and none of perf
 * stat's own lines) would otherwise read as counters: its frame lines
 * look like "COUNT EVENT" rows. */
static int refuse_script(const char *text, size_t len, const char *name)
{
	if (memmem(text, len, "Performance counter stats", 25) ||
	    memmem(text, len, "seconds time elapsed", 20))
		return 0;
	const char *p = text, *end = text + len;
	for (uint32_t no = 1; p < end; no++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (script_sample_line(p, n))
			return perfan__err(
				PERFAN_EFORMAT,
				"%s:%u: perf script output (a sample "
				"line \"%.*s\"), not perf stat "
				"output",
				name, no, (int)(n < 100 ? n : 100), p);
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int perfan_stat_parse(perfan_stat **out, const char *text, size_t len,
		      const struct perfan_stat_parse_opts *opts)
{
	struct perfan_stat_parse_opts o;
	perfan_stat *csv = NULL, *txt = NULL;
	const char *name;
	char csv_msg[512];
	int rc_csv, rc_txt;

	if (!out || (!text && len))
		return perfan__err(PERFAN_EINVAL,
				   "perfan_stat_parse: no input");
	*out = NULL;
	if (!text)
		text = "";
	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
	name = o.name ? o.name : "<input>";
	if (is_json(text, len))
		return pass(out, text, len, name, PERFAN_STAT_JSON);
	rc = refuse_script(text, len, name);
	if (rc)
		return rc;

	/* Text and CSV both, when a separator seems to fit: program output
	 * can look like a CSV row, so the reading with more rows wins. */
	rc_csv = pass(&csv, text, len, name, PERFAN_STAT_CSV);
	snprintf(csv_msg, sizeof(csv_msg), "%s", perfan_error_last());
	if (rc_csv == PERFAN_ENOMEM)
		return rc_csv;
	rc_txt = pass(&txt, text, len, name, PERFAN_STAT_TEXT);
	if (rc_txt == PERFAN_ENOMEM) {
		perfan_stat_free(csv);
		return rc_txt;
	}
	if (!rc_csv && (rc_txt || csv->nrows >= txt->nrows)) {
		perfan_stat_free(txt);
		*out = csv;
		return 0;
	}
	if (!rc_txt &&
	    (rc_csv == PERFAN_EUNSUPPORTED || !rc_csv || txt->nrows)) {
		perfan_stat_free(csv);
		*out = txt;
		return 0;
	}
	perfan_stat_free(csv);
	perfan_stat_free(txt);
	if (rc_csv == PERFAN_EUNSUPPORTED)
		return rc_txt; /* its message is the last one */
	/* A broken CSV row, and no text rows: the CSV error it is. */
	return perfan__err(rc_csv, "%s", csv_msg);
}

void perfan_stat_free(perfan_stat *s)
{
	if (!s)
		return;
	free(s->rows);
	free(s->rr);
	perfan__htab_free(&s->seen);
	perfan__arena_free(&s->arena);
	free(s);
}

int perfan_stat_format(const perfan_stat *s)
{
	return s ? s->format : 0;
}

size_t perfan_stat_nr_counters(const perfan_stat *s)
{
	return s ? s->nrows : 0;
}

const struct perfan_stat_counter *perfan_stat_counter(const perfan_stat *s,
						      size_t i)
{
	return s && i < s->nrows ? &s->rows[i].c : NULL;
}

double perfan_stat_elapsed(const perfan_stat *s)
{
	return s ? s->elapsed_v : -1;
}

double perfan_stat_user(const perfan_stat *s)
{
	return s ? s->user_v : -1;
}

double perfan_stat_sys(const perfan_stat *s)
{
	return s ? s->sys_v : -1;
}

unsigned perfan_stat_runs(const perfan_stat *s)
{
	return s ? s->runs : 1;
}

size_t perfan_stat_nr_runs(const perfan_stat *s)
{
	return s ? s->nruns : 0;
}

const struct perfan_stat_run *perfan_stat_run(const perfan_stat *s, size_t i)
{
	return s && i < s->nruns ? &s->runv[i] : NULL;
}
