/* render/svg.c: the flame graph as one SVG document: frames as rects with
 * their names, weights and positions (data-o offset, data-w width, data-d
 * depth, in weight units; differential graphs add the self weights data-s
 * and data-b, the before side's data-bo and data-bw and the union's data-uo
 * and data-uw, the view buttons and the summary line that
 * render/svg_diff.c decides), a legend, and the script
 * (render/flamegraph.js) that makes it interactive. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/flamegraph.h>
#include <perfan/offcpu.h>
#include <perfan/text.h>

#include "render/fgjs.h"
#include "render/internal.h"
#include "render/markup.h"
#include "render/svg_diff.h"
#include "util/error.h"
#include "util/log.h"

#define FONTWIDTH 0.59 /* average glyph width per px of font size */

/* ---- text ------------------------------------------------------------------- */

struct out {
	FILE *fp;
	int err;
};

static size_t utf8_len(const unsigned char *s, size_t n)
{
	return perfan__markup_utf8_len(s, n);
}

static size_t put_text(struct out *o, const char *s, size_t n)
{
	return perfan__markup_text(o->fp, s, n);
}

static void put_str(struct out *o, const char *s)
{
	put_text(o, s, strlen(s));
}

/* A JavaScript string literal (inside CDATA: no "]]>", no markup). */
static void put_js_str(struct out *o, const char *s)
{
	fputc('"', o->fp);
	for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
		if ((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z') ||
		    (*u >= '0' && *u <= '9') || *u == ' ' || *u == ':' ||
		    *u == '-' || *u == '_' || *u == '.' || *u == ',')
			fputc(*u, o->fp);
		else if (*u >= 0x80) {
			/* whole UTF-8 sequences; a broken one is U+FFFD */
			size_t l = utf8_len(u, strlen((const char *)u));
			if (!l) {
				fputs("\\ufffd", o->fp);
				continue;
			}
			fwrite(u, 1, l, o->fp);
			u += l - 1;
		} else
			fprintf(o->fp, "\\u%04x", *u);
	}
	fputc('"', o->fp);
}

/* How much of NAME fits in WIDTH px: the whole name, its start with "..",
 * or nothing (fewer than three characters' room). */
static size_t fit(const char *name, size_t len, double width, double fs,
		  int *dots)
{
	double room = (width - 6) / (fs * FONTWIDTH);
	*dots = 0;
	if (room < 3)
		return 0;
	size_t chars = 0, i = 0;
	const unsigned char *u = (const unsigned char *)name;
	while (i < len) {
		size_t l = utf8_len(u + i, len - i);
		i += l ? l : 1;
		chars++;
	}
	if ((double)chars <= room)
		return len;
	size_t keep = (size_t)room - 2;
	for (i = 0, chars = 0; i < len && chars < keep; chars++) {
		size_t l = utf8_len(u + i, len - i);
		i += l ? l : 1;
	}
	*dots = 1;
	return i;
}

/* ---- the document ----------------------------------------------------------- */

struct geom {
	/* fs the font's size, ffs the frames' names' (smaller when frames
	 * are lowered to fit max_height) */
	double width, height, fs, ffs, fh, ypad1, ypad2, scale;
	uint32_t maxdepth;
	int inverted;
};

static double frame_y(const struct geom *g, uint32_t depth)
{
	if (g->inverted)
		return g->ypad1 + depth * g->fh;
	return g->height - g->ypad2 - (depth + 1) * g->fh;
}

static const char *bg_stops(const char *name, const char **b)
{
	if (!strcmp(name, "blue"))
		return *b = "#e0e0ff", "#eeeeee";
	if (!strcmp(name, "green"))
		return *b = "#e0ffe0", "#eef2ee";
	if (!strcmp(name, "grey") || !strcmp(name, "gray"))
		return *b = "#e8e8e8", "#f8f8f8";
	if (!strcmp(name, "yellow"))
		return *b = "#eeeeb0", "#eeeeee";
	return NULL;
}

static int valid_hex_color(const char *s)
{
	if (s[0] != '#' || strlen(s) != 7)
		return 0;
	for (int i = 1; i < 7; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return 0;
	return 1;
}

/* The script, render/flamegraph.js: lines from "//#diff" to "//#end" are
 * for differential graphs only, from "//#plain" to "//#end" for plain ones
 * only, so that a plain graph's script stays what it was byte for byte;
 * the marker lines themselves, and notes on lines starting "//# ", are
 * left out. */
static void write_script(FILE *fp, int diff)
{
	const char *s = perfan__fg_js, *end = s + sizeof(perfan__fg_js) - 1;
	int skip = 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl + 1 : end, *t = s;
		while (t < e && (*t == '\t' || *t == ' '))
			t++;
		if (e - t >= 3 && !memcmp(t, "//#", 3)) {
			if (!strncmp(t + 3, "diff", 4))
				skip = !diff;
			else if (!strncmp(t + 3, "plain", 5))
				skip = diff;
			else if (!strncmp(t + 3, "end", 3))
				skip = 0;
		} else if (!skip) {
			fwrite(s, 1, (size_t)(e - s), fp);
		}
		s = e;
	}
}

static void write_head(struct out *o, const struct perfan_flamegraph_opts *op,
		       const struct geom *g, const char *unit, uint64_t total,
		       uint64_t base_total, uint64_t union_total, int diff)
{
	FILE *fp = o->fp;
	fprintf(fp,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" "
		"xmlns=\"http://www.w3.org/2000/svg\" "
		"xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
		"<!-- perfan flamegraph -->\n",
		g->width, g->height, g->width, g->height);
	if (op->notes) {
		fputs("<desc id=\"notes\">", fp);
		put_str(o, op->notes);
		fputs("</desc>\n", fp);
	}
	const char *bg = op->bgcolors;
	if (!bg)
		bg = diff ? "grey"
		     : (op->palette == PERFAN_FG_MEM ||
			op->palette == PERFAN_FG_IO ||
			op->palette == PERFAN_FG_WAKEUP)
			     ? "blue"
			     : "yellow";
	const char *b = NULL, *a = bg_stops(bg, &b);
	if (!a)
		a = b = valid_hex_color(bg) ? bg : "#eeeeee";
	fprintf(fp,
		"<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" "
		"x1=\"0\" x2=\"0\"><stop stop-color=\"%s\" offset=\"5%%\"/>"
		"<stop stop-color=\"%s\" offset=\"95%%\"/></linearGradient>"
		"</defs>\n",
		a, b);
	fputs("<style type=\"text/css\">\ntext { font-family: ", fp);
	put_str(o, op->fonttype);
	fprintf(fp,
		", sans-serif; font-size: %gpx; fill: rgb(0,0,0); }\n"
		"#title { text-anchor: middle; font-size: %gpx; }\n"
		"#subtitle { text-anchor: middle; fill: rgb(160,160,160); }\n"
		"#frames rect { rx: 2px; ry: 2px; }\n"
		"#frames g:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; "
		"cursor: pointer; }\n"
		"#frames text { pointer-events: none; }\n"
		"#frames .parent { opacity: 0.5; }\n"
		".hide { display: none; }\n"
		".button { cursor: pointer; }\n"
		".button:hover { text-decoration: underline; }\n"
		"#ignorecase { opacity: 0.4; }\n"
		"#ignorecase.on { opacity: 1; font-weight: bold; }\n",
		g->fs, g->fs + 5);
	/* frames of one side only: new ones outlined, vanished ones dashed */
	if (diff)
		fputs("#frames g.new rect { stroke: rgb(40,40,40); "
		      "stroke-width: 1; }\n"
		      "#frames g.vanished rect { stroke: rgb(40,40,40); "
		      "stroke-width: 1; stroke-dasharray: 3,2; }\n"
		      ".view.on { font-weight: bold; }\n"
		      "#summary { font-weight: bold; }\n",
		      fp);
	if (g->ffs != g->fs)
		fprintf(fp, "#frames text { font-size: %gpx; }\n", g->ffs);
	fputs("</style>\n", fp);
	/* what the script needs to know about the layout */
	fprintf(fp,
		"<script type=\"text/ecmascript\"><![CDATA[\n"
		"var perfan_fg = {total: %llu, basetotal: %llu, diff: %d, "
		"width: %.0f, height: %.0f, xpad: %g, fontsize: %g, "
		"fontwidth: %g, frameheight: %g, inverted: %d, ",
		(unsigned long long)total, (unsigned long long)base_total, diff,
		g->width, g->height, PERFAN__FG_XPAD, g->ffs, FONTWIDTH, g->fh,
		g->inverted);
	if (diff)
		fprintf(fp, "uniontotal: %llu, view: \"%c\", ",
			(unsigned long long)union_total,
			"uab"[op->view >= 0 && op->view <= 2 ? op->view : 0]);
	fputs("unit: ", fp);
	put_js_str(o, unit);
	fputs(", nametype: ", fp);
	put_js_str(o, op->nametype);
	fputs("};\n", fp);
	write_script(fp, diff);
	fputs("]]></script>\n", fp);
	fprintf(fp,
		"<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
		"fill=\"url(#background)\"/>\n",
		g->width, g->height);
	fprintf(fp, "<text id=\"title\" x=\"%.1f\" y=\"%.1f\">", g->width / 2,
		g->fs * 2);
	put_str(o, op->title);
	fputs("</text>\n", fp);
	if (op->subtitle) {
		fprintf(fp, "<text id=\"subtitle\" x=\"%.1f\" y=\"%.1f\">",
			g->width / 2, g->fs * 4);
		put_str(o, op->subtitle);
		fputs("</text>\n", fp);
	}
	double bottom = g->height - g->ypad2 / 2;
	fprintf(fp,
		"<text id=\"details\" x=\"%g\" y=\"%.1f\"> </text>\n"
		"<text id=\"unzoom\" class=\"button hide\" x=\"%g\" "
		"y=\"%.1f\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%.1f\" "
		"y=\"%.1f\">Search</text>\n"
		"<text id=\"ignorecase\" class=\"button\" x=\"%.1f\" "
		"y=\"%.1f\">ic</text>\n"
		"<text id=\"matched\" x=\"%.1f\" y=\"%.1f\"> </text>\n",
		PERFAN__FG_XPAD, bottom, PERFAN__FG_XPAD, g->fs * 2,
		g->width - PERFAN__FG_XPAD - 100, g->fs * 2,
		g->width - PERFAN__FG_XPAD - 16, g->fs * 2,
		g->width - PERFAN__FG_XPAD - 100, bottom);
	/* the three shapes of a differential graph, the one shown bold */
	static const char *const views[] = {"Both", "After", "Before"};
	static const char ids[] = "uab";
	static const double at[] = {310, 210, 262};
	for (int v = 0; diff && v < 3; v++)
		fprintf(fp,
			"<text id=\"view-%c\" class=\"button view%s\" "
			"x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			ids[v], v == op->view ? " on" : "",
			g->width - PERFAN__FG_XPAD - at[v], g->fs * 2,
			views[v]);
}

/* The legend: a swatch and a word per kind of frame drawn (or the meaning
 * of red and blue, and how many frames are new and vanished), in the row
 * under the title. D is NULL for a plain graph. */
static void write_legend(struct out *o, const struct perfan_flamegraph_opts *op,
			 const struct geom *g, unsigned kinds, unsigned states,
			 int other, const struct perfan__fg_diff *d)
{
	FILE *fp = o->fp;
	double x = PERFAN__FG_XPAD, y = g->ypad1 - g->fs * 1.6;
	double sw = g->fs;
	fputs("<g id=\"legend\">\n", fp);
	enum { SWATCH, FAINT, OUTLINED, DASHED, WORDS };
	struct item {
		const char *label;
		struct perfan__rgb c;
		int mark;
	} items[PERFAN__FG_KINDS + PERFAN__FG_LEAF_KEYS + 8];
	size_t n = 0;
	char nnew[32], nvanished[32];
	char offcpu[PERFAN__FG_LEAF_KEYS][48];
	if (d) {
		struct perfan__rgb none = perfan__fg_diff_color(0, 1, 0);
		int noise = op->noise_floor > 0 || op->noise_sigmas > 0;
		const char *neutral = d->rows ? "not significant"
				      : noise ? "within noise"
					      : "unchanged";
		snprintf(nnew, sizeof(nnew), "%zu new", d->nnew);
		snprintf(nvanished, sizeof(nvanished), "%zu vanished",
			 d->nvanished);
		items[n++] = (struct item){
			op->color_total ? "Total share:" : "Self share:", none,
			WORDS};
		items[n++] = (struct item){
			"grew", perfan__fg_diff_color(1, 1, op->negate),
			SWATCH};
		items[n++] = (struct item){
			"shrank", perfan__fg_diff_color(-1, 1, op->negate),
			SWATCH};
		items[n++] = (struct item){neutral, none, FAINT};
		items[n++] = (struct item){nnew, none, OUTLINED};
		items[n++] = (struct item){nvanished, none, DASHED};
	} else {
		for (uint32_t k = 0; k < PERFAN__FG_KINDS; k++)
			if (kinds & (1u << k))
				items[n++] = (struct item){
					perfan__fg_kind_label(k),
					perfan__fg_color(
						PERFAN_FG_KIND, 0,
						perfan__fg_kind_label(k), k, 0),
					SWATCH};
		/* off-CPU time, a swatch per state and wait class drawn */
		for (int st = 0; st < PERFAN__FG_LEAF_KEYS; st++) {
			if (!(states & (1u << st)))
				continue;
			snprintf(offcpu[st], sizeof(offcpu[st]), "off-CPU: %s",
				 perfan__fg_leaf_label(st));
			items[n++] = (struct item){offcpu[st],
						   perfan__fg_offcpu_color(st),
						   SWATCH};
		}
	}
	if (other)
		items[n++] = (struct item){"(other): merged narrow frames",
					   {200, 200, 200},
					   SWATCH};
	for (size_t i = 0; i < n; i++) {
		if (items[i].mark == WORDS) {
			fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
				x, y, items[i].label);
			x += sw +
			     (double)strlen(items[i].label) * g->fs * FONTWIDTH;
			continue;
		}
		fprintf(fp,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"rgb(%u,%u,%u)\"",
			x, y - sw * 0.85, sw, sw, items[i].c.r, items[i].c.g,
			items[i].c.b);
		/* the neutral colour needs an edge on a light background */
		if (items[i].mark == FAINT)
			fputs(" stroke=\"rgb(190,190,190)\"", fp);
		else if (items[i].mark != SWATCH)
			fprintf(fp, " stroke=\"rgb(40,40,40)\"%s",
				items[i].mark == DASHED
					? " stroke-dasharray=\"3,2\""
					: "");
		fprintf(fp, "/><text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			x + sw * 1.4, y, items[i].label);
		x += sw * 2.4 +
		     (double)strlen(items[i].label) * g->fs * FONTWIDTH;
	}
	fputs("</g>\n", fp);
}

/* What the fit to a graph's content does to a frame: drawn, drawn and
 * marked (deeper frames of it cut), not drawn. */
enum { CUT_NO = 0, CUT_MARK = 1, CUT_OUT = 2 };

/* The graph of L fit to its content (perfan_flamegraph_opts' fit_width):
 * its depth is the deepest frame at least MIN wide (in weight), deeper
 * frames are CUT_OUT, their callers at that depth CUT_MARK. */
static void fit_depth(const perfan_fg_layout *l, unsigned char *cut, double min)
{
	size_t n = perfan_fg_layout_nr_frames(l);
	uint32_t depth = 0;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_fg_frame *f = perfan_fg_layout_frame(l, i);
		if ((double)f->width >= min && f->depth > depth)
			depth = f->depth;
	}
	for (size_t i = 0; i < n; i++) {
		const struct perfan_fg_frame *f = perfan_fg_layout_frame(l, i);
		if (f->depth <= depth)
			continue;
		cut[i] = CUT_OUT;
		size_t up = perfan__fg_layout_parent(l, i);
		if (f->depth == depth + 1 && up < n)
			cut[up] = CUT_MARK;
	}
}

/* Frame F's name, or a thread's process frame (one per thread) named as
 * the thread tables name it, "NAME PID/TID", in BUF, with OP's names. */
static const char *thread_name(const struct perfan_flamegraph_opts *op,
			       const struct perfan_frame *f, char *buf,
			       size_t n)
{
	const struct perfan_thread_name *tn =
		op->names && f->kind == PERFAN_FRAME_PROCESS &&
				f->root == PERFAN_ROOT_PID_TID && f->pid >= 0 &&
				f->tid >= 0
			? perfan_thread_names_find(op->names, f->pid, f->tid)
			: NULL;
	if (!tn || !tn->name)
		return f->name;
	snprintf(buf, n, "%s %d/%d", tn->name, (int)f->pid, (int)f->tid);
	return buf;
}

static void write_frame(struct out *o, const struct perfan_flamegraph_opts *op,
			const struct geom *g, const perfan_profile *p,
			const struct perfan_fg_frame *f,
			const struct perfan__fg_diff *d, size_t i, int marked)
{
	FILE *fp = o->fp;
	const char *name;
	char label[256];
	uint32_t kind = PERFAN_FRAME_NATIVE;
	struct perfan__rgb c;
	if (f->frame == PERFAN_FG_ALL) {
		name = "all";
		c = (struct perfan__rgb){220, 220, 220};
		kind = PERFAN_FRAME_PROCESS;
	} else if (f->frame == PERFAN_FG_OTHER) {
		name = "(other)";
		c = (struct perfan__rgb){200, 200, 200};
	} else {
		const struct perfan_frame *fr =
			perfan_profile_frame_get(p, f->frame);
		name = fr->name;
		kind = fr->kind;
		int key = perfan__fg_leaf_key(fr);
		c = perfan__fg_color(op->palette, op->hash, name, kind,
				     key < 0 ? UINT32_MAX : (uint32_t)key);
		name = thread_name(op, fr, label, sizeof(label));
	}
	if (d && f->frame != PERFAN_FG_OTHER)
		c = perfan__fg_diff_color(perfan__fg_diff_change(d, f),
					  d->maxdelta, op->negate);
	/* where the shape the graph opens with puts it */
	uint64_t fo = f->offset, fw = f->width;
	if (d && op->view == PERFAN_FG_VIEW_UNION)
		fo = f->union_offset, fw = f->union_width;
	else if (d && op->view == PERFAN_FG_VIEW_BEFORE)
		fo = f->base_offset, fw = f->base_width;
	double x = PERFAN__FG_XPAD + (double)fo * g->scale;
	double w = (double)fw * g->scale;
	double y = frame_y(g, f->depth);
	fprintf(fp, "<g data-o=\"%llu\" data-w=\"%llu\" data-d=\"%u\"",
		(unsigned long long)f->offset, (unsigned long long)f->width,
		f->depth);
	if (f->frame == PERFAN_FG_OTHER)
		fputs(" data-m=\"1\"", fp);
	if (d) {
		/* the before side's and the union's places; a frame without
		 * width on the side shown is hidden; one side's frames
		 * outlined where they matter */
		int side = d->mark[i];
		fprintf(fp,
			" data-s=\"%llu\" data-b=\"%llu\" data-bo=\"%llu\" "
			"data-bw=\"%llu\" data-uo=\"%llu\" data-uw=\"%llu\"",
			(unsigned long long)f->self,
			(unsigned long long)f->base_self,
			(unsigned long long)f->base_offset,
			(unsigned long long)f->base_width,
			(unsigned long long)f->union_offset,
			(unsigned long long)f->union_width);
		if (side || !fw)
			fprintf(fp, " class=\"%s%s%s\"",
				side > 0   ? "new"
				: side < 0 ? "vanished"
					   : "",
				side && !fw ? " " : "", fw ? "" : "hide");
	}
	fputs("><title>", fp);
	size_t len = strlen(name);
	put_text(o, name, len);
	fprintf(fp,
		"</title><rect x=\"%.1f\" y=\"%g\" width=\"%.1f\" "
		"height=\"%g\" fill=\"#%02x%02x%02x\"%s/>",
		x, y, w, g->fh - 1, c.r, c.g, c.b,
		marked ? " class=\"cut\" stroke=\"#000\" "
			 "stroke-dasharray=\"3,2\""
		       : "");
	/* frames too narrow for a name get no text: the script adds one
	 * when a zoom makes room */
	int dots;
	size_t keep = fit(name, len, w, g->ffs, &dots);
	if (keep) {
		/* names on the darkest differential fills in white */
		int dark = d && 0.299 * c.r + 0.587 * c.g + 0.114 * c.b < 110;
		fprintf(fp, "<text x=\"%.1f\" y=\"%g\"%s>", x + 3,
			y + g->fh / 2 + g->ffs / 3,
			dark ? " style=\"fill: rgb(255,255,255)\"" : "");
		put_text(o, name, keep);
		if (dots)
			fputs("..", fp);
		fputs("</text>", fp);
	}
	fputs("</g>\n", fp);
}

int perfan_flamegraph_write(const perfan_profile *p, FILE *fp,
			    const struct perfan_flamegraph_opts *opts)
{
	if (!fp)
		return perfan__err_null(__func__, "fp");
	struct perfan_flamegraph_opts op;
	perfan__fg_opts(&op, opts);
	int diff = op.base_column != PERFAN_FG_NO_BASE;
	if (!diff || op.view < 0 || op.view > PERFAN_FG_VIEW_BEFORE)
		op.view = PERFAN_FG_VIEW_UNION;
	double max_height = op.max_height;
	if (max_height == 0 && diff)
		max_height = 900;
	perfan_fg_layout *l;
	int rc = perfan_fg_layout_new(&l, p, &op);
	if (rc)
		return rc;
	const perfan_profile *lp = perfan_fg_layout_profile(l);
	size_t n = perfan_fg_layout_nr_frames(l);
	uint64_t total = perfan_fg_layout_total(l);
	uint64_t base_total = perfan_fg_layout_base_total(l);
	uint64_t union_total = perfan_fg_layout_union_total(l);

	struct geom g = {.width = perfan__fg_width(&op),
			 .fs = op.fontsize,
			 .fh = op.frame_height,
			 .inverted = op.inverted};
	struct perfan__fg_diff dd, *d = NULL;
	if (diff) {
		/* the summary line's room, in characters of its bold font */
		double room = (g.width - 2 * PERFAN__FG_XPAD) /
			      (g.fs * FONTWIDTH * 1.1);
		rc = perfan__fg_diff_init(&dd, l, &op, room);
		if (rc) {
			perfan_fg_layout_free(l);
			return rc;
		}
		d = &dd;
	}
	unsigned char *cut = NULL;
	if (!d && !op.flamechart && op.fit_width > 0 && total) {
		cut = calloc(n ? n : 1, 1);
		if (!cut) {
			perfan_fg_layout_free(l);
			return perfan__nomem("flame graph");
		}
		fit_depth(l, cut,
			  op.fit_width * (double)total /
				  (g.width - 2 * PERFAN__FG_XPAD));
	}
	unsigned kinds = 0, states = 0;
	int other = 0;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_fg_frame *f = perfan_fg_layout_frame(l, i);
		if (cut && cut[i] == CUT_OUT)
			continue;
		if (f->depth > g.maxdepth)
			g.maxdepth = f->depth;
		if (f->frame == PERFAN_FG_OTHER)
			other = 1;
		else if (f->frame != PERFAN_FG_ALL) {
			const struct perfan_frame *fr =
				perfan_profile_frame_get(lp, f->frame);
			if (fr->kind == PERFAN_FRAME_OFFCPU &&
			    perfan__fg_leaf_key(fr) >= 0)
				states |= 1u << perfan__fg_leaf_key(fr);
			else
				kinds |= 1u << (fr->kind % 32);
		}
	}
	int legend = diff || op.palette == PERFAN_FG_KIND;
	g.ypad1 = g.fs * 3 + (op.subtitle ? g.fs * 2 : 0) +
		  (legend ? g.fs * 2 : 0) + (diff ? g.fs * 1.8 : 0);
	g.ypad2 = g.fs * 2 + 10;
	/* lower frames where the graph would not fit MAX_HEIGHT, not below
	 * 6 px, their names in a font three quarters their height */
	double rows = (double)g.maxdepth + 1;
	if (max_height > 0 && g.ypad1 + rows * g.fh + g.ypad2 > max_height) {
		double fh = floor((max_height - g.ypad1 - g.ypad2) / rows);
		g.fh = fh < 6 ? 6 : fh;
	}
	g.ffs = g.fh * 0.75 < g.fs ? g.fh * 0.75 : g.fs;
	g.height = g.ypad1 + rows * g.fh + g.ypad2;
	g.height = (double)(uint64_t)(g.height + 0.999);
	uint64_t shown = op.view == PERFAN_FG_VIEW_BEFORE       ? base_total
			 : op.view == PERFAN_FG_VIEW_UNION && d ? union_total
								: total;
	g.scale = shown ? (g.width - 2 * PERFAN__FG_XPAD) / (double)shown : 0;

	/* weights by period read best in the event's own unit: "cycles" */
	const char *unit = op.countname;
	if (!unit && perfan_profile_nr_columns(p)) {
		unit = perfan_profile_column_unit(p, op.column);
		if (unit && !strcmp(unit, "period"))
			unit = perfan_profile_column_name(p, op.column);
	}
	if (!unit || !*unit)
		unit = "samples";
	char title[512];
	if (!op.title) {
		perfan__fg_title(title, sizeof(title), p, &op);
		op.title = title;
	}
	struct out o = {.fp = fp};
	write_head(&o, &op, &g, unit, total, base_total, union_total, diff);
	if (d) {
		fprintf(fp, "<text id=\"summary\" x=\"%g\" y=\"%.1f\">",
			PERFAN__FG_XPAD, g.fs * 3.6);
		put_str(&o, d->summary);
		fputs("</text>\n", fp);
	}
	if (legend)
		write_legend(&o, &op, &g, kinds, states, other, d);
	fprintf(fp, "<g id=\"frames\">\n");
	for (size_t i = 0; i < n; i++)
		if (!cut || cut[i] != CUT_OUT)
			write_frame(&o, &op, &g, lp,
				    perfan_fg_layout_frame(l, i), d, i,
				    cut && cut[i] == CUT_MARK);
	fputs("</g>\n</svg>\n", fp);
	free(cut);
	if (d)
		perfan__fg_diff_fini(d);
	perfan_fg_layout_free(l);
	if (fflush(fp) || ferror(fp))
		return perfan__err(PERFAN_EIO, "flame graph: writing failed");
	return 0;
}
