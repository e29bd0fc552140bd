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

int cli_usage_error(const char *cmd, const char *usage, const char *fmt,
		    const char *arg)
{
	fprintf(stderr, "perfan %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n\n%s", usage);
	return 2;
}

int cli_parse_positive(const char *s, double max, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > max ||
	    strpbrk(s, "xXnN"))
		return -1;
	*out = v;
	return 0;
}

int cli_parse_view(const char *cmd, const char *usage, const char *arg,
		   struct perfan_flamegraph_opts *fo)
{
	fo->view = perfan_fg_view_parse(arg);
	if (fo->view >= 0)
		return 0;
	return cli_usage_error(
		cmd, usage, "--view: '%s' is none of both, after, before", arg);
}

int cli_parse_count(const char *s, size_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		return -1;
	*out = (size_t)v;
	return 0;
}

int cli_parse_minwidth(const char *arg, struct perfan_flamegraph_opts *fo)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	int none = end == arg;
	int pct = *end == '%';
	if (pct)
		end++;
	if (errno || none || *end || !(v >= 0) || v > 1e9 ||
	    strpbrk(arg, "xXnN") || (pct && v > 100))
		return -1;
	fo->minwidth = v;
	fo->minwidth_percent = pct;
	return 0;
}
