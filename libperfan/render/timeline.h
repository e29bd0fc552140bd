/* render/timeline.h: the timeline's data as JSON and its view as a part
 * of an HTML page, for its own page and for the triage page's section. */
#ifndef PERFAN_RENDER_TIMELINE_H
#define PERFAN_RENDER_TIMELINE_H

#include <stdio.h>

#include <perfan/timeline.h>

/* R as the JSON object perfan_timeline_write's JSON format describes. */
void perfan__timeline_json(const struct perfan_timeline_result *r, FILE *fp);

/* R's view as a part of a page: its style, a div with id ID, the data
 * and the script that draws it there. The view fires a "perfan-range"
 * event on the document (detail {start, end}: ns on perf's clock, or
 * null when cleared) when a range is selected. Returns 0 or
 * PERFAN_ENOMEM. */
int perfan__timeline_html_part(const struct perfan_timeline_result *r, FILE *fp,
			       const char *id);

#endif
