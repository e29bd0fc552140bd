/* cli/util.c: error messages, option values and JSON strings. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfan/perfan.h>

#include "cli.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "perfan %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_json_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;
	     p++) {
		switch (*p) {
		case '"': fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\t': fputs("\\t", fp); break;
		case '\r': fputs("\\r", fp); break;
		default:
			if (*p < 0x20)
				fprintf(fp, "\\u%04x", *p);
			else
				fputc(*p, fp);
		}
	}
	fputc('"', fp);
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

int cli_write_flamegraph(const char *cmd, const perfan_profile *p,
			 const struct perfan_flamegraph_opts *fo,
			 const char *out_path, int status)
{
	struct cli_output out;
	if (cli_output_open(&out, out_path)) {
		cli_error(cmd, "cannot write %s: %s", out_path,
			  strerror(errno));
		return 1;
	}
	if (perfan_flamegraph_write(p, out.fp, fo)) {
		cli_error(cmd, "%s", perfan_error_last());
		status = 1;
	}
	if (cli_output_close(&out, status == 0) && !status) {
		cli_error(cmd, "cannot write %s",
			  out_path ? out_path : "standard output");
		status = 1;
	}
	return status;
}
