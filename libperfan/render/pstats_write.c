/* render/pstats_write.c: the report of a cProfile dump: pstats' own
 * table, caller and callee tables (print_stats, print_callers,
 * print_callees, column for column), with notes on the top rows that say
 * what the columns mean there, as text or JSON. */
#include <stdlib.h>
#include <string.h>

#include <perfan/text.h>

#include "render/json.h"
#include "sources/pstats_result.h"
#include "util/cmp.h"
#include "util/error.h"
#include "util/log.h"
#include "util/opts.h"

/* The notes look at this many rows from the top. */
#define NOTE_ROWS 10
/* An inline cost: own time at least this share of the whole, and at
 * least this share of the function's own cumtime (its callees cheap). */
#define INLINE_MIN_SHARE 0.05
#define INLINE_MIN_SELF 0.8
/* Work done too often: at least this many calls, this share of all the
 * calls, and this share of the time. */
#define OFTEN_MIN_CALLS 1000
#define OFTEN_MIN_CALL_SHARE 0.05
#define OFTEN_MIN_SHARE 0.02

int perfan_pstats_sort_parse(const char *s)
{
	static const struct {
		const char *name;
		int sort;
	} names[] = {
		{"cumulative", PERFAN_PSTATS_SORT_CUMULATIVE},
		{"cumtime", PERFAN_PSTATS_SORT_CUMULATIVE},
		{"tottime", PERFAN_PSTATS_SORT_TOTTIME},
		{"time", PERFAN_PSTATS_SORT_TOTTIME},
		{"ncalls", PERFAN_PSTATS_SORT_CALLS},
		{"calls", PERFAN_PSTATS_SORT_CALLS},
		{"name", PERFAN_PSTATS_SORT_NAME},
	};
	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].sort;
	return -1;
}

static const char *sort_title(int sort)
{
	switch (sort) {
	case PERFAN_PSTATS_SORT_TOTTIME: return "internal time";
	case PERFAN_PSTATS_SORT_CALLS: return "call count";
	case PERFAN_PSTATS_SORT_NAME:
		return "file name, line number, function name";
	}
	return "cumulative time";
}

static const char *sort_key(int sort)
{
	switch (sort) {
	case PERFAN_PSTATS_SORT_TOTTIME: return "tottime";
	case PERFAN_PSTATS_SORT_CALLS: return "ncalls";
	case PERFAN_PSTATS_SORT_NAME: return "name";
	}
	return "cumulative";
}

struct order {
	const perfan_pstats *s;
	int sort;
};

struct row {
	double key;
	size_t i; /* function index: name order, the tie-break */
};

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = perfan__cmp_f64(y->key, x->key); /* the largest first */
	return c ? c : perfan__cmp_u64(x->i, y->i);
}

/* By the key, largest first; ties (and the name sort) in name order. */
static int sort_rows(const perfan_pstats *s, int sort, size_t *rows, size_t n)
{
	struct row *r = calloc(n + 1, sizeof(*r));
	if (!r)
		return perfan__nomem(NULL);
	for (size_t k = 0; k < n; k++) {
		const struct perfan_pstats_func *f = &s->funcs[rows[k]];
		r[k].i = rows[k];
		r[k].key = sort == PERFAN_PSTATS_SORT_CUMULATIVE ? f->ct
			   : sort == PERFAN_PSTATS_SORT_TOTTIME  ? f->tt
			   : sort == PERFAN_PSTATS_SORT_CALLS    ? (double)f->nc
								 : 0;
	}
	qsort(r, n, sizeof(*r), row_cmp);
	for (size_t k = 0; k < n; k++)
		rows[k] = r[k].i;
	free(r);
	return 0;
}

static void write_ncalls(FILE *fp, uint64_t nc, uint64_t cc, int width)
{
	char buf[48];
	if (nc != cc)
		snprintf(buf, sizeof(buf), "%llu/%llu", (unsigned long long)nc,
			 (unsigned long long)cc);
	else
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)nc);
	fprintf(fp, "%*s", width, buf);
}

/* One row as pstats' print_line prints it. */
static void write_row(FILE *fp, const perfan_pstats *s, size_t i)
{
	const struct perfan_pstats_func *f = &s->funcs[i];
	write_ncalls(fp, f->nc, f->cc, 9);
	fprintf(fp, " %8.3f ", f->tt);
	if (f->nc)
		fprintf(fp, "%8.3f ", f->tt / (double)f->nc);
	else
		fprintf(fp, "%8s ", "");
	fprintf(fp, "%8.3f ", f->ct);
	if (f->cc)
		fprintf(fp, "%8.3f ", f->ct / (double)f->cc);
	else
		fprintf(fp, "%8s ", "");
	perfan_text_escape(fp, s->labels[i]);
	fputc('\n', fp);
}

/* The callees' cumtime of function I, recursive calls left out: what its
 * own time is to be weighed against. */
static double callees_ct(const perfan_pstats *s, size_t i)
{
	const size_t *e;
	size_t n = perfan_pstats_callees(s, i, &e);
	double t = 0;
	for (size_t k = 0; k < n; k++)
		if (s->edges[e[k]].callee != i)
			t += s->edges[e[k]].ct;
	return t;
}

enum note_kind { NOTE_INLINE = 1, NOTE_OFTEN = 2 };

static int note_of(const perfan_pstats *s, size_t i, double total,
		   uint64_t calls)
{
	const struct perfan_pstats_func *f = &s->funcs[i];
	int k = 0;
	if (total <= 0)
		return 0;
	if (f->nc >= OFTEN_MIN_CALLS &&
	    (double)f->nc >= OFTEN_MIN_CALL_SHARE * (double)calls &&
	    f->ct >= OFTEN_MIN_SHARE * total)
		k |= NOTE_OFTEN;
	/* Own time spread over that many cheap calls is the count's cost,
	 * not a body to look into. */
	if (!k && f->tt >= INLINE_MIN_SHARE * total && f->ct > 0 &&
	    f->tt >= INLINE_MIN_SELF * f->ct)
		k |= NOTE_INLINE;
	return k;
}

/* The note of KIND on function I: to FP, or as "text" of J's object. */
static void note_text(FILE *fp, const perfan_pstats *s, size_t i, int kind,
		      double total, uint64_t calls, struct perfan__json *j)
{
	const struct perfan_pstats_func *f = &s->funcs[i];
	char buf[640], rec[64] = "";
	if (f->nc != f->cc)
		snprintf(rec, sizeof(rec), ", %llu of them recursive",
			 (unsigned long long)(f->nc - f->cc));
	if (kind == NOTE_INLINE)
		snprintf(buf, sizeof(buf),
			 "an inline cost: %.3f s of its own time (%.1f%% of "
			 "the whole), its callees take %.3f s: the time is "
			 "in its own body (loops, arithmetic, attribute "
			 "access, `in` on a list), not in a call. To see "
			 "which line, move the suspect expression into a "
			 "small function and profile again, or use a "
			 "sampling profiler that reports line numbers.",
			 f->tt, 100.0 * f->tt / total, callees_ct(s, i));
	else
		snprintf(buf, sizeof(buf),
			 "work done too often: %llu calls%s (%.1f%% of all "
			 "calls), %.3g us each, %.1f%% of the time in all: "
			 "each call is cheap, their number is the cost. A "
			 "function called once per item where once per "
			 "request would do shows here first: call it less "
			 "(hoist it out of the loop, cache its result).",
			 (unsigned long long)f->nc, rec,
			 100.0 * (double)f->nc / (double)calls,
			 1e6 * f->ct / (double)(f->nc ? f->nc : 1),
			 100.0 * f->ct / total);
	if (j)
		perfan__json_str(j, "text", buf);
	else
		fputs(buf, fp);
}

/* pstats' name column: the longest label + 2. */
static size_t name_width(const perfan_pstats *s)
{
	size_t w = 0;
	for (size_t i = 0; i < s->nr_funcs; i++)
		if (s->funcs[i].listed && strlen(s->labels[i]) > w)
			w = strlen(s->labels[i]);
	return w + 2;
}

static void pad(FILE *fp, size_t n)
{
	while (n--)
		fputc(' ', fp);
}

/* One function's callers (or callees) as print_call_line prints them. */
static void write_call_line(FILE *fp, const perfan_pstats *s, size_t width,
			    size_t i, int callers)
{
	const size_t *ce = NULL;
	size_t n = callers ? s->funcs[i].nr_callers
			   : perfan_pstats_callees(s, i, &ce);
	perfan_text_escape(fp, s->labels[i]);
	size_t l = strlen(s->labels[i]);
	pad(fp, l < width ? width - l : 0);
	fputs(callers ? "<- " : "-> ", fp);
	if (!n)
		fputc('\n', fp);
	for (size_t k = 0; k < n; k++) {
		const struct perfan_pstats_edge *e =
			&s->edges[callers ? s->funcs[i].callers + k : ce[k]];
		if (k)
			pad(fp, width + 1);
		write_ncalls(fp, e->nc, e->cc, k ? 9 : 7);
		fprintf(fp, " %8.3f %8.3f  ", e->tt, e->ct);
		perfan_text_escape(fp,
				   s->labels[callers ? e->caller : e->callee]);
		fputc('\n', fp);
	}
}

static void write_text(const perfan_pstats *s, FILE *fp,
		       const struct perfan_pstats_write_opts *o,
		       const size_t *rows, size_t n, double total,
		       uint64_t calls, uint64_t prim)
{
	size_t i, width = name_width(s);
	int any = 0;

	fprintf(fp, "%llu function calls", (unsigned long long)calls);
	if (calls != prim)
		fprintf(fp, " (%llu primitive calls)",
			(unsigned long long)prim);
	fprintf(fp, " in %.3f seconds\n\n", total);
	fprintf(fp, "   Ordered by: %s\n\n", sort_title(o->sort));
	fputs("   ncalls  tottime  percall  cumtime  percall "
	      "filename:lineno(function)\n",
	      fp);
	for (i = 0; i < n; i++)
		write_row(fp, s, rows[i]);
	for (i = 0; !o->no_notes && i < n && i < NOTE_ROWS; i++) {
		int k = note_of(s, rows[i], total, calls);
		for (int b = NOTE_INLINE; b <= NOTE_OFTEN; b <<= 1) {
			if (!(k & b))
				continue;
			if (!any++)
				fputs("\nNotes on the top rows:\n", fp);
			fputs("  ", fp);
			perfan_text_escape(fp, s->labels[rows[i]]);
			fputs(": ", fp);
			note_text(fp, s, rows[i], b, total, calls, NULL);
			fputc('\n', fp);
		}
	}
	for (int callers = 1; callers >= 0; callers--) {
		if (callers ? o->no_callers : o->no_callees)
			continue;
		fprintf(fp, "\n\n   Ordered by: %s\n\n", sort_title(o->sort));
		fputs("Function ", fp);
		pad(fp, width > 9 ? width - 9 : 0);
		fputs(callers ? "was called by...\n" : "called...\n", fp);
		pad(fp, width);
		fputs("    ncalls  tottime  cumtime\n", fp);
		for (i = 0; i < n; i++)
			write_call_line(fp, s, width, rows[i], callers);
	}
}

static void json_edges(struct perfan__json *j, const char *key,
		       const perfan_pstats *s, size_t i, int callers)
{
	const size_t *ce = NULL;
	size_t n = callers ? s->funcs[i].nr_callers
			   : perfan_pstats_callees(s, i, &ce);
	perfan__json_open(j, key, '[');
	for (size_t k = 0; k < n; k++) {
		const struct perfan_pstats_edge *e =
			&s->edges[callers ? s->funcs[i].callers + k : ce[k]];
		perfan__json_open(j, NULL, '{');
		perfan__json_str(j, "function",
				 s->labels[callers ? e->caller : e->callee]);
		perfan__json_u64(j, "ncalls", e->nc);
		perfan__json_u64(j, "primitive_calls", e->cc);
		perfan__json_g(j, "tottime", e->tt, 17);
		perfan__json_g(j, "cumtime", e->ct, 17);
		perfan__json_close(j, '}');
	}
	perfan__json_close(j, ']');
}

static void json_func(struct perfan__json *j, const perfan_pstats *s,
		      const struct perfan_pstats_write_opts *o, size_t i)
{
	const struct perfan_pstats_func *f = &s->funcs[i];
	perfan__json_break(j, 2);
	perfan__json_open(j, NULL, '{');
	perfan__json_str(j, "function", s->labels[i]);
	perfan__json_str(j, "file", f->file ? f->file : "");
	perfan__json_u64(j, "line", f->line);
	perfan__json_str(j, "name", f->name ? f->name : "");
	perfan__json_u64(j, "ncalls", f->nc);
	perfan__json_u64(j, "primitive_calls", f->cc);
	perfan__json_g(j, "tottime", f->tt, 17);
	perfan__json_g(j, "cumtime", f->ct, 17);
	if (!o->no_callers)
		json_edges(j, "callers", s, i, 1);
	if (!o->no_callees)
		json_edges(j, "callees", s, i, 0);
	perfan__json_close(j, '}');
}

static void write_json(const perfan_pstats *s, FILE *fp,
		       const struct perfan_pstats_write_opts *o,
		       const size_t *rows, size_t n, double total,
		       uint64_t calls, uint64_t prim)
{
	struct perfan__json j;
	perfan__json_init(&j, fp, 0);
	perfan__json_open(&j, NULL, '{');
	perfan__json_str(&j, "format", "pstats");
	perfan__json_u64(&j, "total_calls", calls);
	perfan__json_u64(&j, "primitive_calls", prim);
	perfan__json_g(&j, "total_time", total, 17);
	perfan__json_str(&j, "sort", sort_key(o->sort));
	perfan__json_break(&j, 1);
	perfan__json_open(&j, "functions", '[');
	for (size_t i = 0; i < n; i++)
		json_func(&j, s, o, rows[i]);
	perfan__json_close(&j, ']');
	perfan__json_break(&j, 1);
	perfan__json_open(&j, "notes", '[');
	for (size_t i = 0; !o->no_notes && i < n && i < NOTE_ROWS; i++) {
		int k = note_of(s, rows[i], total, calls);
		for (int b = NOTE_INLINE; b <= NOTE_OFTEN; b <<= 1) {
			if (!(k & b))
				continue;
			perfan__json_break(&j, 2);
			perfan__json_open(&j, NULL, '{');
			perfan__json_str(&j, "function", s->labels[rows[i]]);
			perfan__json_str(&j, "kind",
					 b == NOTE_INLINE ? "inline-cost"
							  : "too-often");
			note_text(fp, s, rows[i], b, total, calls, &j);
			perfan__json_close(&j, '}');
		}
	}
	perfan__json_end(&j);
}

int perfan_pstats_write(const perfan_pstats *s, FILE *fp,
			const struct perfan_pstats_write_opts *opts)
{
	struct perfan_pstats_write_opts o;
	uint64_t calls = 0, prim = 0;
	size_t *rows, n = 0;

	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
	rows = calloc(s->nr_funcs + 1, sizeof(*rows));
	if (!rows)
		return perfan__nomem(NULL);
	for (size_t i = 0; i < s->nr_funcs; i++) {
		if (!s->funcs[i].listed)
			continue;
		calls += s->funcs[i].nc;
		prim += s->funcs[i].cc;
		rows[n++] = i;
	}
	if (sort_rows(s, o.sort, rows, n)) {
		free(rows);
		return PERFAN_ENOMEM;
	}
	if (o.limit && o.limit < n)
		n = o.limit;
	if (o.json)
		write_json(s, fp, &o, rows, n, perfan_pstats_total(s), calls,
			   prim);
	else {
		if (o.name)
			fprintf(fp,
				"# perfan report of %s (a cProfile dump)\n#\n",
				o.name);
		write_text(s, fp, &o, rows, n, perfan_pstats_total(s), calls,
			   prim);
	}
	free(rows);
	if (ferror(fp))
		return perfan__err(PERFAN_EIO, "write error");
	return 0;
}
