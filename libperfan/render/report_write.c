/* render/report_write.c: report's sink: perf report --stdio's columns and
 * call graphs, or one JSON object; with the head perfan report prints, the
 * per-thread table of a time view and the native detail of Python rows. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/python.h>
#include <perfan/report.h>
#include <perfan/resolve.h>
#include <perfan/threads.h>

#include "analysis/report_result.h"
#include "render/gil_section.h"
#include "render/json.h"
#include "render/outbuf.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/opts.h"

static const char *kind_name(uint32_t kind)
{
	switch (kind) {
	case PERFAN_FRAME_NATIVE: return "native";
	case PERFAN_FRAME_KERNEL: return "kernel";
	case PERFAN_FRAME_PYTHON: return "python";
	case PERFAN_FRAME_JIT: return "jit";
	case PERFAN_FRAME_INLINED: return "inlined";
	case PERFAN_FRAME_PROCESS: return "process";
	default: return "unknown";
	}
}

/* A frame as a graph line names it: inlined frames marked as perf marks
 * them. */
static void put_frame_name(FILE *fp, const struct perfan_frame *f)
{
	fputs(f->name, fp);
	if (f->kind == PERFAN_FRAME_INLINED)
		fputs(" (inlined)", fp);
}

struct prefix {
	char *s;
	size_t n, cap;
};

static int prefix_put(struct prefix *pf, const char *s, size_t n)
{
	if (perfan__grow((void **)&pf->s, &pf->cap, pf->n + n + 1, 1))
		return perfan__nomem("report");
	memcpy(pf->s + pf->n, s, n);
	pf->n += n;
	pf->s[pf->n] = '\0';
	return 0;
}

static int prefix_spaces(struct prefix *pf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int err = prefix_put(pf, " ", 1);
		if (err)
			return err;
	}
	return 0;
}

/* The children of N, whose line is written, drawn as perf draws graphs: a
 * chain of single callers or callees one under the other, branches with
 * their percentages. PF is the prefix of lines under N. */
static int text_graph(FILE *fp, const perfan_report *r,
		      const struct perfan__report_graph *g, uint32_t n,
		      uint64_t total, struct prefix *pf)
{
	for (;;) {
		size_t nv = perfan__report_graph_nr_visible(r, g, n, total);
		if (nv != 1)
			break;
		uint32_t only = 0;
		for (uint32_t k = g->kid_start[n]; k < g->kid_start[n + 1]; k++)
			if (perfan__report_graph_visible(r, g, g->kids[k],
							 total))
				only = g->kids[k];
		if (g->w[only] != g->w[n])
			break;
		fprintf(fp, "%s", pf->s);
		put_frame_name(fp,
			       perfan_profile_frame_get(g->p, g->frame[only]));
		fputc('\n', fp);
		n = only;
	}
	size_t nv = perfan__report_graph_nr_visible(r, g, n, total), seen = 0;
	for (uint32_t k = g->kid_start[n]; k < g->kid_start[n + 1]; k++) {
		uint32_t kid = g->kids[k];
		if (!perfan__report_graph_visible(r, g, kid, total))
			continue;
		int last = ++seen == nv;
		char pct[64];
		int pl = snprintf(pct, sizeof(pct), "--%.2f%%--",
				  100.0 * (double)g->w[kid] /
					  (double)(total ? total : 1));
		fprintf(fp, "%s|\n%s%s%s", pf->s, pf->s, last ? " " : "|", pct);
		put_frame_name(fp,
			       perfan_profile_frame_get(g->p, g->frame[kid]));
		fputc('\n', fp);
		size_t keep = pf->n;
		int err = prefix_put(pf, last ? " " : "|", 1);
		if (!err)
			err = prefix_spaces(pf, (size_t)pl);
		if (!err)
			err = text_graph(fp, r, g, kid, total, pf);
		if (err)
			return err;
		pf->n = keep;
		pf->s[keep] = '\0';
	}
	return 0;
}

static int text_row_graph(FILE *fp, const perfan_report *r, size_t col,
			  size_t i)
{
	struct perfan__report_graph g;
	int err = perfan__report_graph_build(
		r, col, i, perfan__report_opts(r)->call_graph, &g);
	if (err) {
		perfan__report_graph_free(&g);
		return err;
	}
	uint64_t total = perfan_report_total(r, col);
	struct prefix pf = {0};
	err = prefix_spaces(&pf, 12);
	if (!err && perfan__report_graph_nr_visible(r, &g, 0, total)) {
		/* a single path carrying the whole row starts with "---" */
		uint32_t first = g.kid_start[1] > g.kid_start[0] ? g.kids[0]
								 : 0;
		if (perfan__report_graph_nr_visible(r, &g, 0, total) == 1 &&
		    g.w[first] == g.w[0]) {
			fprintf(fp, "%s|\n%s---", pf.s, pf.s);
			put_frame_name(fp, perfan_profile_frame_get(
						   g.p, g.frame[first]));
			fputc('\n', fp);
			err = prefix_spaces(&pf, 3);
			if (!err)
				err = text_graph(fp, r, &g, first, total, &pf);
		} else {
			err = text_graph(fp, r, &g, 0, total, &pf);
		}
		fputc('\n', fp);
	}
	free(pf.s);
	perfan__report_graph_free(&g);
	return err;
}

/* S[0..LEN) at BUF + *AT, as much as fits N - 1 bytes. */
static void put_str(char *buf, size_t n, size_t *at, const char *s, size_t len)
{
	if (*at + len >= n)
		len = n - 1 - *at;
	memcpy(buf + *at, s, len);
	*at += len;
}

/* The text of key K of ROW into BUF. */
static const char *key_text(const struct perfan_report_row *row,
			    enum perfan_report_key k, char *buf, size_t n)
{
	switch (k) {
	case PERFAN_REPORT_KEY_COMM: return row->comm ? row->comm : "";
	case PERFAN_REPORT_KEY_PID:
		if (perfan__report_thread(row) >= 0)
			snprintf(buf, n, "%7d:%s", perfan__report_thread(row),
				 row->comm ? row->comm : "");
		else
			snprintf(buf, n, "%7s:%s", "?",
				 row->comm ? row->comm : "");
		return buf;
	case PERFAN_REPORT_KEY_DSO: return row->dso ? row->dso : "";
	case PERFAN_REPORT_KEY_SYM: {
		/* "[k] name" or "[.] name (inlined)": once per row for the
		 * widths and once to write it, so not through printf */
		size_t at = 0;
		put_str(buf, n, &at,
			row->kind == PERFAN_FRAME_KERNEL ? "[k] " : "[.] ", 4);
		if (row->sym)
			put_str(buf, n, &at, row->sym, strlen(row->sym));
		if (row->kind == PERFAN_FRAME_INLINED)
			put_str(buf, n, &at, " (inlined)", 10);
		buf[at] = '\0';
		return buf;
	}
	}
	return "";
}

/* Rows of text fit this many columns unless wide (issue 35): long paths
 * and symbols are cut in the middle. */
#define TEXT_COLUMNS 160
#define ELLIPSIS "\xe2\x80\xa6" /* U+2026, one column */

/* T cut to W columns (W >= 2) into BUF with an ellipsis in the middle: what
 * comes before its first '/' (a symbol's name, up to half of W) and the
 * end (a path's file name); T itself when it fits. */
static const char *fit(const char *t, size_t w, char *buf, size_t n)
{
	size_t len = strlen(t);
	if (len <= w || n < w + 4)
		return t;
	size_t keep = w - 1;
	size_t head = strcspn(t, "/");
	if (head > keep / 2)
		head = keep / 2;
	const char *tail = t + len - (keep - head);
	/* from a '/' on: whole path components */
	const char *slash = strchr(tail, '/');
	if (slash && slash + 8 < t + len)
		tail = slash;
	snprintf(buf, n, "%.*s" ELLIPSIS "%s", (int)head, t, tail);
	return buf;
}

static const char *key_header(enum perfan_report_key k)
{
	switch (k) {
	case PERFAN_REPORT_KEY_COMM: return "Command";
	case PERFAN_REPORT_KEY_PID: return "Pid:Command";
	case PERFAN_REPORT_KEY_DSO: return "Shared Object";
	case PERFAN_REPORT_KEY_SYM: return "Symbol";
	}
	return "";
}

static void put_dots(FILE *fp, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc('.', fp);
}

static void put_speedup(struct perfan__outbuf *out, double s)
{
	char t[64];
	int n;
	if (isnan(s))
		n = snprintf(t, sizeof(t), "  %11s", "-");
	else if (isinf(s))
		n = snprintf(t, sizeof(t), "  %11s", "inf");
	else
		n = snprintf(t, sizeof(t), "  %10.2fx", s);
	if (n > 0)
		perfan__outbuf_put(out, t,
				   (size_t)n < sizeof(t) ? (size_t)n
							 : sizeof(t) - 1);
}

/* The widths of the key columns of column COL: the longest of each. */
static void key_widths(const perfan_report *r, size_t col,
		       const enum perfan_report_key *keys, size_t nkeys,
		       size_t *width)
{
	char buf[8192];
	for (size_t k = 0; k < nkeys; k++) {
		width[k] = strlen(key_header(keys[k]));
		for (size_t i = 0; i < perfan_report_nr_rows(r, col); i++) {
			size_t l = strlen(key_text(perfan_report_row(r, col, i),
						   keys[k], buf, sizeof(buf)));
			if (l > width[k])
				width[k] = l;
		}
	}
}

/* Whether column COL shows the Max speedup: asked for, and the bound
 * holds on some row (perfan_report_row's NAN where it does not). */
static int shows_speedup(const perfan_report *r, size_t col)
{
	if (perfan__report_opts(r)->no_speedup)
		return 0;
	for (size_t i = 0; i < perfan_report_nr_rows(r, col); i++)
		if (!isnan(perfan_report_row(r, col, i)->speedup_total))
			return 1;
	return 0;
}

/* "# Children      Self  Max speedup  Command ..." and its dots. */
static void text_heading(FILE *fp, const struct perfan_report_opts *o,
			 int speedup, const enum perfan_report_key *keys,
			 size_t nkeys, const size_t *width)
{
	fputs("# ", fp);
	if (o->no_children)
		fprintf(fp, "%8s", "Overhead");
	else
		fprintf(fp, "%8s  %8s", "Children", "Self");
	if (speedup)
		fprintf(fp, "  %11s", "Max speedup");
	for (size_t k = 0; k < nkeys; k++) {
		if (k + 1 < nkeys)
			fprintf(fp, "  %-*s", (int)width[k],
				key_header(keys[k]));
		else
			fprintf(fp, "  %s", key_header(keys[k]));
	}
	fputs("\n# ", fp);
	put_dots(fp, 8);
	if (!o->no_children) {
		fputs("  ", fp);
		put_dots(fp, 8);
	}
	if (speedup) {
		fputs("  ", fp);
		put_dots(fp, 11);
	}
	for (size_t k = 0; k < nkeys; k++) {
		fputs("  ", fp);
		put_dots(fp, width[k]);
	}
	fputs("\n#\n", fp);
}

/* V as printf's "%7.2f%%" writes it, at BUF (32 bytes at least); its
 * length. Without printf where V * 100 is not within 1e-6 of half a unit:
 * there the product's rounding error (under 1e-8 for V below 1e6, 2e-12
 * for a percentage) cannot change which way the exact value rounds. */
static size_t pct_text(char *buf, double v)
{
	double x = v * 100.0, fl = floor(x), d = x - fl;
	if (!(v >= 0 && v < 1e6) || fabs(d - 0.5) < 1e-6) {
		int k = snprintf(buf, 32, "%7.2f%%", v);
		return k < 0 ? 0 : k < 32 ? (size_t)k : 31;
	}
	uint64_t c = (uint64_t)fl + (d > 0.5);
	char t[24];
	size_t n = 0;
	t[n++] = '%';
	t[n++] = (char)('0' + c % 10);
	t[n++] = (char)('0' + c / 10 % 10);
	t[n++] = '.';
	c /= 100;
	do {
		t[n++] = (char)('0' + c % 10);
		c /= 10;
	} while (c);
	size_t len = 0;
	for (size_t pad = n < 8 ? 8 - n : 0; pad; pad--)
		buf[len++] = ' ';
	while (n)
		buf[len++] = t[--n];
	return len;
}

static void put_pct(struct perfan__outbuf *out, double v)
{
	char t[32];
	perfan__outbuf_put(out, "  ", 2);
	perfan__outbuf_put(out, t, pct_text(t, v));
}

/* A row's line, gathered in OUT with the rows after it (with a printf for
 * each column, writing the 5,678 rows of a 10 MB system-wide recording
 * took 7 % of its report). */
static void text_row(struct perfan__outbuf *out,
		     const struct perfan_report_opts *o, int speedup,
		     const struct perfan_report_row *row,
		     const enum perfan_report_key *keys, size_t nkeys,
		     const size_t *width)
{
	char buf[8192], cut[8192];
	if (!o->no_children)
		put_pct(out, row->total_percent);
	put_pct(out, row->self_percent);
	if (speedup)
		put_speedup(out, o->no_children ? row->speedup_self
						: row->speedup_total);
	for (size_t k = 0; k < nkeys; k++) {
		const char *t = key_text(row, keys[k], buf, sizeof(buf));
		const char *c = fit(t, width[k], cut, sizeof(cut));
		size_t len = strlen(c);
		/* the ellipsis is one column of its 3 bytes */
		size_t cols = c != t ? len - 2 : len;
		perfan__outbuf_put(out, "  ", 2);
		perfan__outbuf_put(out, c, len);
		for (; k + 1 < nkeys && cols < width[k]; cols++)
			perfan__outbuf_put(out, " ", 1);
	}
	perfan__outbuf_put(out, "\n", 1);
}

/* Unless WIDE, the key columns' WIDTH cut so that rows fit TEXT_COLUMNS:
 * every key but the last at most 40 columns (its heading at least), the
 * last the rest. */
static void fit_widths(const struct perfan_report_opts *o, int speedup,
		       const enum perfan_report_key *keys, size_t nkeys,
		       size_t *width)
{
	size_t used = o->no_children ? 10 : 20;
	used += speedup ? 13 : 0;
	for (size_t k = 0; k + 1 < nkeys; k++) {
		size_t cap = strlen(key_header(keys[k]));
		cap = cap > 40 ? cap : 40;
		if (width[k] > cap)
			width[k] = cap;
		used += 2 + width[k];
	}
	size_t rest = used + 2 + 20 < TEXT_COLUMNS ? TEXT_COLUMNS - used - 2
						   : 20;
	if (nkeys && width[nkeys - 1] > rest)
		width[nkeys - 1] = rest;
}

static int write_text(const perfan_report *r, FILE *fp, int wide)
{
	const perfan_profile *p = perfan__report_profile(r);
	const struct perfan_report_opts *o = perfan__report_opts(r);
	const enum perfan_report_key *keys;
	size_t nkeys = perfan_report_keys(r, &keys);
	int first = 1;
	struct perfan__outbuf out;
	int err = perfan__outbuf_open(&out, fp);
	if (err)
		return perfan__err(err, "report: out of memory");
	for (size_t col = 0; col < perfan_report_nr_columns(r) && !err; col++) {
		uint64_t total = perfan_report_total(r, col);
		if (!total)
			continue;
		const char *ev = perfan_profile_column_name(p, col);
		const char *unit = perfan_profile_column_unit(p, col);
		if (!first)
			fputs("\n\n", fp);
		first = 0;
		if (unit && !strcmp(unit, "samples"))
			fprintf(fp, "# Samples: %llu  of event '%s'\n",
				(unsigned long long)total, ev);
		else
			fprintf(fp, "# Event count: %llu (%s)  of event '%s'\n",
				(unsigned long long)total, unit ? unit : "",
				ev);
		fputs("#\n", fp);
		size_t width[PERFAN_REPORT_MAX_KEYS];
		key_widths(r, col, keys, nkeys, width);
		int sp = shows_speedup(r, col);
		if (!wide)
			fit_widths(o, sp, keys, nkeys, width);
		text_heading(fp, o, sp, keys, nkeys, width);
		for (size_t i = 0; i < perfan_report_nr_rows(r, col) && !err;
		     i++) {
			text_row(&out, o, sp, perfan_report_row(r, col, i),
				 keys, nkeys, width);
			if (o->call_graph == PERFAN_REPORT_GRAPH_CALLER ||
			    o->call_graph == PERFAN_REPORT_GRAPH_CALLEE) {
				perfan__outbuf_flush(&out); /* the row first */
				err = text_row_graph(fp, r, col, i);
			}
		}
		perfan__outbuf_flush(&out); /* before the next heading */
	}
	if (perfan__outbuf_close(&out) && !err)
		err = perfan__err(PERFAN_EIO, "report: writing failed");
	return err;
}

/* ---- JSON --------------------------------------------------------------- */

static void json_graph(struct perfan__json *j, const perfan_report *r,
		       const struct perfan__report_graph *g, uint32_t n,
		       uint64_t total)
{
	for (uint32_t k = g->kid_start[n]; k < g->kid_start[n + 1]; k++) {
		uint32_t kid = g->kids[k];
		if (!perfan__report_graph_visible(r, g, kid, total))
			continue;
		const struct perfan_frame *f =
			perfan_profile_frame_get(g->p, g->frame[kid]);
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "name", f->name);
		perfan__json_str(j, "dso", perfan__report_module(f));
		perfan__json_str(j, "kind", kind_name(f->kind));
		perfan__json_u64(j, "weight", g->w[kid]);
		perfan__json_f64(j, "percent",
				 100.0 * (double)g->w[kid] /
					 (double)(total ? total : 1),
				 4);
		if (perfan__report_graph_nr_visible(r, g, kid, total)) {
			perfan__json_open(j, "children", '[');
			json_graph(j, r, g, kid, total);
			perfan__json_close(j, ']');
		}
		perfan__json_close(j, '}');
	}
}

static const char *key_name(enum perfan_report_key k)
{
	switch (k) {
	case PERFAN_REPORT_KEY_COMM: return "comm";
	case PERFAN_REPORT_KEY_PID: return "pid";
	case PERFAN_REPORT_KEY_DSO: return "dso";
	case PERFAN_REPORT_KEY_SYM: return "sym";
	}
	return "";
}

static int json_row(struct perfan__json *j, const perfan_report *r, size_t col,
		    size_t i, int has_pid)
{
	const struct perfan_report_row *row = perfan_report_row(r, col, i);
	int mode = perfan__report_opts(r)->call_graph, err = 0;
	perfan__json_open(j, NULL, '{');
	if (row->comm)
		perfan__json_str(j, "comm", row->comm);
	if (has_pid) {
		perfan__json_i64(j, "pid", row->pid);
		perfan__json_i64(j, "tid", row->tid);
	}
	if (row->dso)
		perfan__json_str(j, "dso", row->dso);
	if (row->sym) {
		perfan__json_str(j, "sym", row->sym);
		perfan__json_str(j, "kind", kind_name(row->kind));
	}
	perfan__json_u64(j, "self", row->self);
	perfan__json_u64(j, "total", row->total);
	perfan__json_f64(j, "self_percent", row->self_percent, 4);
	perfan__json_f64(j, "total_percent", row->total_percent, 4);
	perfan__json_f64(j, "max_speedup_self", row->speedup_self, 4);
	perfan__json_f64(j, "max_speedup_total", row->speedup_total, 4);
	if (mode == PERFAN_REPORT_GRAPH_CALLER ||
	    mode == PERFAN_REPORT_GRAPH_CALLEE) {
		struct perfan__report_graph g;
		err = perfan__report_graph_build(r, col, i, mode, &g);
		if (!err) {
			perfan__json_open(j, "call_graph", '{');
			perfan__json_str(j, "mode",
					 mode == PERFAN_REPORT_GRAPH_CALLER
						 ? "caller"
						 : "callee");
			perfan__json_open(j, "children", '[');
			json_graph(j, r, &g, 0, perfan_report_total(r, col));
			perfan__json_close(j, ']');
			perfan__json_close(j, '}');
		}
		perfan__report_graph_free(&g);
	}
	perfan__json_close(j, '}');
	return err;
}

/* {"sort", "children", "columns": [{"event", "unit", "total", "rows": [
 * a row a line ]}]} and a newline. */
static int write_json(const perfan_report *r, FILE *fp)
{
	const perfan_profile *p = perfan__report_profile(r);
	const enum perfan_report_key *keys;
	size_t nkeys = perfan_report_keys(r, &keys);
	int err = 0, has_pid = 0;
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_open(&j, "sort", '[');
	for (size_t k = 0; k < nkeys; k++) {
		perfan__json_str(&j, NULL, key_name(keys[k]));
		has_pid |= keys[k] == PERFAN_REPORT_KEY_PID;
	}
	perfan__json_close(&j, ']');
	perfan__json_bool(&j, "children", !perfan__report_opts(r)->no_children);
	perfan__json_open(&j, "columns", '[');
	for (size_t col = 0; col < perfan_report_nr_columns(r) && !err; col++) {
		perfan__json_open(&j, NULL, '{');
		const char *ev = perfan_profile_column_name(p, col);
		const char *unit = perfan_profile_column_unit(p, col);
		perfan__json_str(&j, "event", ev ? ev : "");
		perfan__json_str(&j, "unit", unit ? unit : "");
		perfan__json_u64(&j, "total", perfan_report_total(r, col));
		perfan__json_open_lines(&j, "rows", '[');
		for (size_t i = 0; i < perfan_report_nr_rows(r, col) && !err;
		     i++)
			err = json_row(&j, r, col, i, has_pid);
		perfan__json_close(&j, ']');
		perfan__json_close(&j, '}');
	}
	perfan__json_close(&j, ']');
	perfan__json_close(&j, '}');
	fputc('\n', fp);
	return err;
}

/* ---- the envelope --------------------------------------------------------- */

/* Text: what the rows below a per-thread table weigh. */
static void time_note(FILE *fp, const struct perfan_report_write_opts *o,
		      int no_speedup)
{
	fprintf(fp, "#\n#\n# The rows below weigh %s, in ns.\n",
		o->wall ? "wall-clock time (on-CPU and off-CPU time together)"
			: "off-CPU time only");
	/* the bound holds on the wall time of one thread only */
	if (!no_speedup)
		fputs("# Max speedup is the Amdahl bound on the thread's wall "
		      "time: how many times\n# sooner it would be done if the "
		      "row took no time, its waits included.\n",
		      fp);
	fputs("#\n", fp);
}

/* Text: "# perfan report of NAME", the counts of what was read, "#". */
static void text_head(FILE *fp, const struct perfan_report_write_opts *o)
{
	fprintf(fp, "# perfan report of %s\n", o->name);
	const struct perfan_resolve_stats *st = o->stats;
	if (st)
		fprintf(fp,
			"# %llu samples, %llu left out by filters; %llu "
			"stacks cut short; %llu of %llu frames unresolved\n",
			(unsigned long long)st->samples,
			(unsigned long long)st->samples_filtered,
			(unsigned long long)st->stacks_truncated,
			(unsigned long long)st->frames_unresolved,
			(unsigned long long)st->frames);
	fputs("#\n", fp);
}

static int write_detail(FILE *fp, const struct perfan_report_write_opts *o,
			struct perfan__json *j)
{
	int err = 0;
	if (j)
		perfan__json_open(j, "native_detail", '[');
	for (size_t i = 0; i < o->nr_native_detail && !err; i++) {
		if (j)
			perfan__json_item(j, NULL);
		else
			fputs("\n\n", fp);
		struct perfan_python_hotspots_write_opts ho = {
			sizeof(ho), j ? PERFAN_PYTHON_HOTSPOTS_JSON
				      : PERFAN_PYTHON_HOTSPOTS_TEXT};
		err = perfan_python_hotspots_write(o->native_detail[i], fp,
						   &ho);
	}
	if (j)
		perfan__json_close(j, ']');
	return err;
}

/* JSON with a per-thread table or native detail: one object holding the
 * report ({"view", "per_thread", "report", "native_detail"}). */
static int write_json_envelope(const perfan_report *r, FILE *fp,
			       const struct perfan_report_write_opts *o)
{
	struct perfan__json j;
	int err = 0;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	if (o->threads) {
		perfan__json_str(&j, "view", o->wall ? "wall" : "off-cpu");
		perfan__json_item(&j, "per_thread");
		struct perfan_threads_write_opts to = {sizeof(to),
						       PERFAN_THREADS_JSON};
		err = perfan_threads_write(o->threads, fp, &to);
	}
	perfan__json_item(&j, "report");
	if (!err)
		err = write_json(r, fp);
	if (!err && o->native_detail)
		err = write_detail(fp, o, &j);
	perfan__json_close(&j, '}');
	fputc('\n', fp);
	return err;
}

int perfan_report_write(const perfan_report *r, FILE *fp,
			const struct perfan_report_write_opts *opts)
{
	if (!r || !fp)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_report_write: %s is NULL",
				   r ? "stream" : "report");
	struct perfan_report_write_opts o;
	if (PERFAN__OPTS_COPY(o, opts))
		return PERFAN_EINVAL; /* named by perfan__opts_copy */
	int err = 0;
	if (o.format == PERFAN_REPORT_JSON) {
		err = o.threads || o.native_detail
			      ? write_json_envelope(r, fp, &o)
			      : write_json(r, fp);
	} else {
		if (o.name)
			text_head(fp, &o);
		if (o.threads) {
			err = perfan_threads_write(o.threads, fp, NULL);
			if (!err && perfan__gil_section_any(o.gil)) {
				fputs("#\n", fp);
				perfan__gil_section_text(fp, o.gil, "# ");
			}
			if (!err)
				time_note(fp, &o,
					  r && !(perfan_report_nr_columns(r) &&
						 shows_speedup(r, 0)));
		}
		if (!err)
			err = write_text(r, fp, o.wide);
		if (!err && o.native_detail)
			err = write_detail(fp, &o, NULL);
	}
	if (err)
		return err;
	if (fflush(fp) != 0 || ferror(fp))
		return perfan__err(PERFAN_EIO, "report: writing failed");
	return 0;
}
