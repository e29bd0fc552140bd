/* cli/util.c: error messages and warnings, option values. */
#define _GNU_SOURCE /* vasprintf */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/perfan.h>

#include "cli.h"

/* "perfan CMD: KIND" and the message, whose text may come from an input:
 * escaped (perfan_text_escape) so that it cannot drive the terminal. */
static void message(const char *cmd, const char *kind, const char *fmt,
		    va_list ap)
{
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	fprintf(stderr, "perfan %s: %s", cmd, kind);
	perfan_text_escape(stderr, msg ? msg : fmt);
	fputc('\n', stderr);
	free(msg);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(cmd, "", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(cmd, "warning: ", fmt, ap);
	va_end(ap);
}

void cli_note(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(cmd, "note: ", fmt, ap);
	va_end(ap);
}
