/* load/advise.c: advice, what an input cannot answer, given to the
 * caller's callback (the library never prints). */
#define _GNU_SOURCE /* vasprintf */
#include "load/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <perfan/threads.h>

void perfan__load_advise(perfan_load *l, int level, const char *fmt, ...)
{
	if (level == PERFAN_ADVICE_ERROR)
		l->advice_errors++;
	if (!l->o.advice)
		return;
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	l->o.advice(level, msg ? msg : fmt, l->o.advice_payload);
	free(msg);
}
