/* render/timeline_html.c: the timeline as a view in an HTML page (its
 * data as JSON, the colours of the flame graphs' wait classes, and
 * render/timeline.js embedded), alone as a self-contained page or as the
 * triage page's section; and perfan_timeline_write. */
#include <stdlib.h>
#include <string.h>

#include <perfan/offcpu.h>
#include <perfan/timeline.h>
#include <perfan/waits.h>

#include "render/internal.h"
#include "render/markup.h"
#include "render/sink.h"
#include "render/timeline.h"
#include "render/tljs.h"
#include "util/error.h"
#include "util/log.h"

static const char style[] =
	".perfan-tl{position:relative;font:12px system-ui,sans-serif}"
	".perfan-tl canvas{display:block;cursor:crosshair}"
	".perfan-tl .tl-tip{display:none;position:absolute;z-index:5;"
	"background:#fffff0;border:1px solid #999;padding:4px 6px;"
	"white-space:pre;font:11px monospace;max-width:600px;"
	"overflow:hidden;pointer-events:none}"
	".perfan-tl .tl-legend span{display:inline-block;margin-right:10px}"
	".perfan-tl .tl-legend i{display:inline-block;width:12px;"
	"height:10px;margin-right:3px;vertical-align:middle}"
	".perfan-tl table{border-collapse:collapse;margin-top:6px}"
	".perfan-tl td,.perfan-tl th{padding:1px 8px;text-align:right}"
	".perfan-tl td.l,.perfan-tl th.l{text-align:left}";

static const struct perfan__rgb running_rgb = {95, 175, 95};

/* What a segment of KIND and CLASS is drawn and named by: running; a
 * runnable part by its state; a wait as the flame graphs' off-CPU leaf
 * (its class, else its state). */
static struct perfan__rgb rgb_of(uint32_t kind, uint32_t cls,
				 const char **label)
{
	if (kind == PERFAN_TIMELINE_RUNNING) {
		*label = "running";
		return running_rgb;
	}
	uint32_t state = kind - PERFAN_TIMELINE_OFF;
	if (state == PERFAN_OFFCPU_RUNQ ||
	    state == PERFAN_OFFCPU_WAKEUP_DELAY) {
		*label = state == PERFAN_OFFCPU_RUNQ ? "runnable (preempted)"
						     : "runnable (woken)";
		return perfan__fg_offcpu_color((int)state);
	}
	struct perfan_frame f = {.state = state, .wait = cls};
	int key = perfan__fg_leaf_key(&f);
	*label = perfan__fg_leaf_label(key);
	if (!*label)
		*label = "off-CPU";
	return perfan__fg_offcpu_color(key);
}

/* The colours and labels by KIND * NR_CLASSES + CLASS, and the legend. */
static void colours(FILE *fp, const char *id)
{
	fprintf(fp,
		"<script type=\"application/json\" id=\"%s-style\">"
		"{\"colors\":[",
		id);
	for (uint32_t k = 0; k < PERFAN_TIMELINE_NR_KINDS; k++)
		for (uint32_t c = 0; c < PERFAN_WAIT_NR_CLASSES; c++) {
			const char *l;
			struct perfan__rgb rgb = rgb_of(k, c, &l);
			fprintf(fp, "%s\"#%02x%02x%02x\"", k || c ? "," : "",
				rgb.r, rgb.g, rgb.b);
		}
	fputs("],\"labels\":[", fp);
	for (uint32_t k = 0; k < PERFAN_TIMELINE_NR_KINDS; k++)
		for (uint32_t c = 0; c < PERFAN_WAIT_NR_CLASSES; c++) {
			const char *l;
			rgb_of(k, c, &l);
			fprintf(fp, "%s\"%s\"", k || c ? "," : "", l);
		}
	fputs("]}</script>\n", fp);
}

/* The legend: a swatch per label the lanes use. */
static void legend(const struct perfan_timeline_result *r, FILE *fp)
{
	uint8_t seen[PERFAN_TIMELINE_NR_KINDS][PERFAN_WAIT_NR_CLASSES] = {{0}};
	for (size_t i = 0; i < r->nr_lanes; i++)
		for (size_t s = 0; s < r->lanes[i].nr_segments; s++) {
			const struct perfan_timeline_segment *g =
				&r->lanes[i].segments[s];
			if (g->kind < PERFAN_TIMELINE_NR_KINDS &&
			    g->wait < PERFAN_WAIT_NR_CLASSES)
				seen[g->kind][g->wait] = 1;
		}
	fputs("<div class=\"tl-legend\">", fp);
	const char *shown[PERFAN_TIMELINE_NR_KINDS * PERFAN_WAIT_NR_CLASSES];
	size_t nshown = 0;
	for (uint32_t k = 0; k < PERFAN_TIMELINE_NR_KINDS; k++)
		for (uint32_t c = 0; c < PERFAN_WAIT_NR_CLASSES; c++) {
			const char *l;
			struct perfan__rgb rgb = rgb_of(k, c, &l);
			size_t j = 0;
			while (j < nshown && strcmp(shown[j], l))
				j++;
			if (!seen[k][c] || j < nshown)
				continue;
			shown[nshown++] = l;
			fprintf(fp,
				"<span><i style=\"background:#%02x%02x%02x\">"
				"</i>",
				rgb.r, rgb.g, rgb.b);
			perfan__markup_text(fp, l, strlen(l));
			fputs("</span>", fp);
		}
	fputs("</div>\n", fp);
}

/* The JSON in a script element: '<' as \u003c, so no "</script" ends
 * it (a '<' is only ever inside a string). */
static int data(const struct perfan_timeline_result *r, FILE *fp,
		const char *id)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return perfan__nomem("timeline");
	perfan__timeline_json(r, mem);
	if (fclose(mem)) {
		free(buf);
		return perfan__nomem("timeline");
	}
	fprintf(fp, "<script type=\"application/json\" id=\"%s-data\">", id);
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '<')
			fputs("\\u003c", fp);
		else
			fputc(buf[i], fp);
	fputs("</script>\n", fp);
	free(buf);
	return 0;
}

int perfan__timeline_html_part(const struct perfan_timeline_result *r, FILE *fp,
			       const char *id)
{
	fprintf(fp,
		"<style>%s</style>\n<div class=\"perfan-tl\" id=\"%s\">"
		"<p>Wheel: zoom; drag: pan; shift-drag: select a range "
		"(its totals below). <button class=\"tl-reset\">Reset "
		"zoom</button> <button class=\"tl-clear\">Clear "
		"range</button> <span class=\"tl-status\"></span></p>\n",
		style, id);
	legend(r, fp);
	fputs("<canvas></canvas><div class=\"tl-tip\"></div>"
	      "<p class=\"tl-caption\"></p><table class=\"tl-totals\">"
	      "</table></div>\n",
	      fp);
	int rc = data(r, fp, id);
	if (rc)
		return rc;
	colours(fp, id);
	fprintf(fp, "<script>%s\nperfanTimeline('%s');</script>\n",
		perfan__tl_js, id);
	return 0;
}

static void write_html(const void *result, FILE *fp)
{
	const struct perfan_timeline_result *r = perfan_timeline_result(result);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	      "charset=\"utf-8\"><title>perfan timeline</title><style>"
	      "body{font:14px/1.4 system-ui,sans-serif;margin:1em}"
	      "</style></head><body>\n<h1>Threads over time</h1>\n",
	      fp);
	fprintf(fp,
		"<p>%zu threads over %.3f s, %zu wakeups from thread to "
		"thread.</p>\n",
		r->nr_lanes, (double)(r->end - r->start) / 1e9, r->nr_wakes);
	perfan__timeline_html_part(r, fp, "timeline");
	fputs("</body></html>\n", fp);
}

static void write_json(const void *result, FILE *fp)
{
	perfan__timeline_json(perfan_timeline_result(result), fp);
}

static perfan__sink_fn *const formats[] = {
	[PERFAN_TIMELINE_HTML] = write_html,
	[PERFAN_TIMELINE_JSON] = write_json,
};

static const struct perfan__sink sink = {"perfan_timeline_write", formats,
					 sizeof(formats) / sizeof(*formats)};

int perfan_timeline_write(const perfan_timeline *t, FILE *fp,
			  const struct perfan_timeline_write_opts *opts)
{
	return perfan__sink_write(&sink, t, fp, opts);
}
