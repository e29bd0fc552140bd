/* cli/util.c: error messages, atomic output files and JSON strings. */
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

int cli_output_open(struct cli_output *o, const char *out_path)
{
	memset(o, 0, sizeof(*o));
	if (!out_path || !strcmp(out_path, "-")) {
		o->fp = stdout;
		return 0;
	}
	/* Only a regular file is replaced by renaming a temporary over it:
	 * /dev/null, a FIFO or a terminal is written to as it is. */
	struct stat st;
	if (!stat(out_path, &st) && !S_ISREG(st.st_mode)) {
		o->fp = fopen(out_path, "w");
		return o->fp ? 0 : -1;
	}
	size_t n = strlen(out_path) + 16;
	o->path = strdup(out_path);
	o->tmp = malloc(n);
	if (!o->path || !o->tmp)
		goto fail;
	snprintf(o->tmp, n, "%s.tmpXXXXXX", out_path);
	int fd = mkstemp(o->tmp);
	if (fd < 0)
		goto fail;
	/* the permissions a plain fopen would give, not mkstemp's 0600 */
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		close(fd);
		unlink(o->tmp);
		goto fail;
	}
	return 0;
fail:
	/* nothing for cli_output_close to do: callers may skip it */
	{
		int e = errno;
		free(o->path);
		free(o->tmp);
		o->path = o->tmp = NULL;
		errno = e;
	}
	return -1;
}

int cli_output_close(struct cli_output *o, int ok)
{
	int rc = 0;
	if (o->fp == stdout) {
		if (fflush(stdout) != 0)
			rc = -1;
	} else if (o->fp && !o->tmp) {
		if (fclose(o->fp) != 0)
			rc = -1;
	} else if (o->fp) {
		if (fclose(o->fp) != 0)
			ok = 0, rc = -1;
		if (ok && rename(o->tmp, o->path) != 0)
			rc = -1;
		if (!ok || rc)
			unlink(o->tmp);
	}
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return rc;
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
