/* render/triage_change.c: a change's significance as both of triage's
 * sinks show it. */
#include <math.h>

#include "render/triage.h"

void perfan__triage_q(const struct perfan_diff_row *r, char *buf, size_t n)
{
	/* the q-value of the change that is significant: its own time's,
	 * else its total's */
	int total = !r->self_significant && r->total_significant;
	double q = total ? r->p_total : r->p_self;
	if (isnan(q))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, total ? "%.2g (total)" : "%.2g", q);
}
