/* profile/unit.c: what a column's weights measure in pprof's words
 * (perfan_pprof_unit, declared in <perfan/pprof.h>), for the sinks and for
 * the analyses that name units (scaling). */
#include <string.h>

#include <perfan/pprof.h>

const char *perfan_pprof_unit(const char *column, const char *unit)
{
	if (!unit || !strcmp(unit, "samples"))
		return "count";
	if (!strcmp(unit, "ns"))
		return "nanoseconds";
	if (!strcmp(unit, "period"))
		return column && (!strncmp(column, "cpu-clock", 9) ||
				  !strncmp(column, "task-clock", 10))
			       ? "nanoseconds"
			       : "count";
	return unit;
}
