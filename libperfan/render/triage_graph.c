/* render/triage_graph.c: a flame graph on the triage's page: the SVG
 * document perfan_flamegraph_write makes, kept in a script element of its
 * own and shown in a frame, so that its script and ids stay apart. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfan/flamegraph.h>

#include "render/internal.h"
#include "render/markup.h"
#include "render/triage_graph.h"
#include "util/error.h"
#include "util/log.h"

static void put(FILE *fp, const char *s)
{
	perfan__markup_text(fp, s ? s : "", s ? strlen(s) : 0);
}

/* An SVG document kept in a script element: "</script" and "<!--"
 * escaped, as the page's script undoes. */
static void svg_data(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '<' && i + 1 < n &&
		    ((s[i + 1] == '/' && i + 8 <= n &&
		      !strncasecmp(s + i + 2, "script", 6)) ||
		     (s[i + 1] == '!' && i + 4 <= n &&
		      !strncmp(s + i + 2, "--", 2)))) {
			fputs(s[i + 1] == '/' ? "<\\/" : "<\\!", fp);
			i++;
			continue;
		}
		fputc(s[i], fp);
	}
}

#define FIT_PX 12.0 /* of the graph's 1200 px: 1 % of its weight */

int perfan__triage_graph(FILE *fp, const struct perfan_triage *t,
			 const perfan_profile *p, size_t column, const char *id)
{
	struct perfan_flamegraph_opts o = PERFAN_FG_OPTS_INIT;
	o.column = column;
	o.filter = t->in.filter;
	o.names = t->in.names;
	/* towers narrower than 1 % cut: no empty band above thin spikes
	 * (perfan flamegraph draws them whole) */
	o.fit_width = FIT_PX;
	char title[512];
	perfan__fg_title(title, sizeof(title), p, &o);
	o.title = title;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return perfan__nomem("triage");
	int rc = perfan_flamegraph_write(p, mem, &o);
	if (fclose(mem) && !rc)
		rc = perfan__nomem("triage");
	if (!rc) {
		fprintf(fp, "<iframe class=\"fg\" id=\"%s\" title=\"", id);
		put(fp, title);
		fprintf(fp,
			"\"></iframe>\n<script type=\"image/svg+xml\" "
			"data-frame=\"%s\">",
			id);
		svg_data(fp, buf, len);
		fputs("</script>\n", fp);
	}
	free(buf);
	return rc;
}
