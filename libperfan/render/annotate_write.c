/* render/annotate_write.c: the annotate sink: a text listing a perf
 * annotate user can read (summary, then source and instructions) and the
 * per-line view (--source); JSON is annotate_json.c's. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/annotate.h>

#include "render/annotate.h"
#include "render/sink.h"

/* Source text: tabs as four spaces; TRIM drops the indentation (in the
 * summary, where lines of several depths are listed together). */
static void src_text(FILE *fp, const char *t, int trim)
{
	if (!t)
		return;
	if (trim)
		while (*t == ' ' || *t == '\t')
			t++;
	fputs("    ", fp);
	for (; *t; t++)
		if (*t == '\t')
			fputs("    ", fp);
		else
			fputc(*t, fp);
}

static const char *base(const char *path);

static void inline_note(FILE *fp, const struct perfan_annotate_line *l)
{
	for (size_t k = 0; k < l->nr_inlined; k++)
		fprintf(fp, "%s%s() inlined at %s:%" PRIu32,
			k ? ", in " : "   [",
			l->inlined[k].function ? l->inlined[k].function : "?",
			l->inlined[k].file ? base(l->inlined[k].file) : "?",
			l->inlined[k].line);
	if (l->nr_inlined)
		fputc(']', fp);
}

static const char *base(const char *path)
{
	const char *b = path;
	for (const char *p = path; *p; p++)
		if (*p == '/')
			b = p + 1;
	return b;
}

static void line_ref(FILE *fp, const struct perfan_annotate_line *l)
{
	fprintf(fp, "%s:%" PRIu32, base(l->file), l->line);
}

/* The hottest loops with samples, at most HOT_LOOPS (JSON has them all). */
#define HOT_LOOPS 5
static void hot_loops(FILE *fp, const struct perfan_annotate_func *f)
{
	size_t shown[HOT_LOOPS], n = 0;
	for (size_t i = 0; i < f->nr_loops; i++) {
		if (!f->loops[i].samples)
			continue;
		size_t at = n;
		while (at > 0 &&
		       f->loops[shown[at - 1]].period < f->loops[i].period)
			at--;
		if (at >= HOT_LOOPS)
			continue;
		if (n < HOT_LOOPS)
			n++;
		memmove(shown + at + 1, shown + at,
			(n - 1 - at) * sizeof(*shown));
		shown[at] = i;
	}
	if (n)
		fprintf(fp, "   hottest loops (%zu in all):\n", f->nr_loops);
	for (size_t k = 0; k < n; k++) {
		const struct perfan_annotate_loop *l = &f->loops[shown[k]];
		fprintf(fp,
			"     %6.2f%%  %" PRIx64 "..%" PRIx64
			"  (back from %" PRIx64 ")\n",
			l->local_percent, l->head, l->back_jump, l->back_jump);
	}
}

static void head(FILE *fp, const struct perfan_annotate_result *r,
		 const struct perfan_annotate_func *f)
{
	fprintf(fp, "\n== %s  [%s]  %" PRIu64 " samples, %.2f%% of %s\n",
		f->name, f->dso ? f->dso : "?", f->samples, f->percent,
		r->event ? r->event : "samples");
	fprintf(fp, "   file: %s", f->binary ? f->binary : f->dso_path);
	if (f->build_id)
		fprintf(fp, "  build-id %s", f->build_id);
	fputc('\n', fp);
	if (f->debug_file)
		fprintf(fp, "   debug info: %s\n", f->debug_file);
	if (f->status) {
		fprintf(fp, "   not annotated: %s\n",
			f->status_text ? f->status_text : "?");
		return;
	}
	if (!f->has_lines)
		fputs("   no source lines: the binary has no DWARF line table "
		      "(install its debug info, or give --debug-dir)\n",
		      fp);
	if (f->nr_hot_lines)
		fputs("   hottest lines:\n", fp);
	for (size_t i = 0; i < f->nr_hot_lines; i++) {
		const struct perfan_annotate_line *l =
			&f->lines[f->hot_lines[i]];
		fprintf(fp, "     %6.2f%%  ", l->local_percent);
		line_ref(fp, l);
		src_text(fp, l->text, 1);
		inline_note(fp, l);
		fputc('\n', fp);
	}
	if (f->nr_hot_insns)
		fputs("   hottest instructions:\n", fp);
	for (size_t i = 0; i < f->nr_hot_insns; i++) {
		const struct perfan_annotate_insn *in =
			&f->insns[f->hot_insns[i]];
		fprintf(fp, "     %6.2f%%  %8" PRIx64 ":  %s",
			in->local_percent, in->addr, in->text);
		if (in->line >= 0) {
			fputs("    ", fp);
			line_ref(fp, &f->lines[in->line]);
		}
		fputc('\n', fp);
	}
	hot_loops(fp, f);
}

static void listing(FILE *fp, const struct perfan_annotate_func *f)
{
	fputs("\n  local  global :      addr:  instruction\n", fp);
	int64_t last = -2;
	for (size_t i = 0; i < f->nr_insns; i++) {
		const struct perfan_annotate_insn *in = &f->insns[i];
		if (in->line != last && in->line >= 0) {
			const struct perfan_annotate_line *l =
				&f->lines[in->line];
			fputs("                :  ", fp);
			line_ref(fp, l);
			src_text(fp, l->text, 0);
			inline_note(fp, l);
			fputc('\n', fp);
		}
		last = in->line;
		char mark = (in->flags & PERFAN_INSN_LOOP_HEAD)     ? 'L'
			    : (in->flags & PERFAN_INSN_JUMP_TARGET) ? '>'
								    : ' ';
		fprintf(fp, " %6.2f %7.2f : %c%8" PRIx64 ":  %s",
			in->local_percent, in->global_percent, mark, in->addr,
			in->text);
		if (in->flags & PERFAN_INSN_BACK_JUMP)
			fprintf(fp, "    # loop back to %" PRIx64, in->target);
		else if ((in->flags & PERFAN_INSN_BRANCH) &&
			 in->target >= f->start &&
			 in->target - f->start < f->size)
			fprintf(fp, "    # -> %" PRIx64, in->target);
		fputc('\n', fp);
	}
}

static int by_file_line(const void *x, const void *y)
{
	const struct perfan_annotate_line *a = *(const void *const *)x;
	const struct perfan_annotate_line *b = *(const void *const *)y;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	return (a->line > b->line) - (a->line < b->line);
}

/* The lines in source order, each with its cost. */
static void source_view(FILE *fp, const struct perfan_annotate_func *f)
{
	if (f->status || !f->nr_lines)
		return;
	const struct perfan_annotate_line **v =
		malloc(f->nr_lines * sizeof(*v));
	if (!v) {
		fputs("   (out of memory)\n", fp);
		return;
	}
	for (size_t i = 0; i < f->nr_lines; i++)
		v[i] = &f->lines[i];
	qsort(v, f->nr_lines, sizeof(*v), by_file_line);
	fputs("\n  local  global  samples  line\n", fp);
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct perfan_annotate_line *l = v[i];
		fprintf(fp, " %6.2f %7.2f %8" PRIu64 "  ", l->local_percent,
			l->global_percent, l->samples);
		line_ref(fp, l);
		src_text(fp, l->text, 0);
		inline_note(fp, l);
		fputc('\n', fp);
	}
	free(v);
}

static void text(FILE *fp, const struct perfan_annotate_result *r, int source)
{
	fprintf(fp, "# perfan annotate: %s, %" PRIu64 " samples",
		r->event ? r->event : "no samples", r->total_samples);
	if (r->unattributed_samples)
		fprintf(fp,
			" (%" PRIu64 " outside the functions of files read)",
			r->unattributed_samples);
	fputc('\n', fp);
	if (r->other_event_samples)
		fprintf(fp,
			"# %" PRIu64 " samples of other events not counted "
			"(choose one with --event)\n",
			r->other_event_samples);
	for (size_t i = 0; i < r->nr_unresolved; i++) {
		const struct perfan_annotate_unresolved *u = &r->unresolved[i];
		fprintf(fp, "# %" PRIu64 " samples in %s: %s%s\n", u->samples,
			u->dso_path,
			u->found ? "no symbol covers them"
			: u->why ? u->why
				 : "file not found",
			u->found ? "" : " (give --symfs or --buildid-dir)");
	}
	fprintf(fp, "# %s\n", r->note);
	for (size_t i = 0; i < r->nr_missing; i++)
		fprintf(fp, "# %s: no samples in a function of that name\n",
			r->missing[i]);
	for (size_t i = 0; i < r->nr_functions; i++) {
		const struct perfan_annotate_func *f = &r->functions[i];
		head(fp, r, f);
		if (source)
			source_view(fp, f);
		else if (!f->status)
			listing(fp, f);
	}
}

static void write_text(const void *a, FILE *fp)
{
	text(fp, perfan_annotate_result(a), 0);
}

static void write_source(const void *a, FILE *fp)
{
	text(fp, perfan_annotate_result(a), 1);
}

static void write_json(const void *a, FILE *fp)
{
	perfan__annotate_json(fp, perfan_annotate_result(a));
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_ANNOTATE_TEXT] = write_text,
	[PERFAN_ANNOTATE_SOURCE] = write_source,
	[PERFAN_ANNOTATE_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_annotate_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_annotate_write(const perfan_annotate *a, FILE *fp,
			  const struct perfan_annotate_write_opts *opts)
{
	return perfan__sink_write(&sink, a, fp, opts);
}
