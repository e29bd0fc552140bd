/* render/triage_write.c: the triage written in the format asked for
 * (render/triage_text.c, render/triage_html.c). */
#include <perfan/triage.h>

#include "render/triage.h"
#include "util/error.h"
#include "util/opts.h"

int perfan_triage_write(const perfan_triage *t, FILE *fp,
			const struct perfan_triage_write_opts *opts)
{
	struct perfan_triage_write_opts o;
	if (PERFAN__OPTS_COPY(o, opts))
		return PERFAN_EINVAL; /* named by perfan__opts_copy */
	int format = o.format;
	if (!t || !fp)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_triage_write: NULL argument");
	if (format == PERFAN_TRIAGE_TEXT)
		return perfan__triage_write_text(t, fp);
	if (format == PERFAN_TRIAGE_HTML)
		return perfan__triage_write_html(t, fp);
	return perfan__err(PERFAN_EINVAL,
			   "perfan_triage_write: unknown format %d", format);
}
