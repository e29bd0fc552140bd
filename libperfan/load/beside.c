/* load/beside.c: what a second, quiet reading of a load's recording (the
 * GIL ledger, the timeline beside a time view) starts from. */
#include "load/internal.h"

/* The first reading said what there is to say. */
static void no_log(enum perfan_log_level level, const char *msg, void *payload)
{
	(void)level;
	(void)msg;
	(void)payload;
}

void perfan__load_quiet(struct perfan_load_opts *lo)
{
	lo->log = no_log;
	lo->advice = NULL;
	lo->quiet_advice |= PERFAN_LOAD_QUIET_VIEW;
}
