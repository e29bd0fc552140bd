/* util/error.c: the thread-local last error message and error code names. */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

static _Thread_local char last_msg[1024];

const char *perfan_error_last(void)
{
	return last_msg;
}

void perfan__err_clear(void)
{
	last_msg[0] = '\0';
}

int perfan__err(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	va_end(ap);
	return code;
}

int perfan__err_null(const char *func, const char *what)
{
	return perfan__err(PERFAN_EINVAL, "%s: %s is NULL", func, what);
}

void perfan__err_append(const char *fmt, ...)
{
	size_t n = strlen(last_msg);
	va_list ap;
	if (n + 1 >= sizeof(last_msg))
		return;
	va_start(ap, fmt);
	vsnprintf(last_msg + n, sizeof(last_msg) - n, fmt, ap);
	va_end(ap);
}

const char *perfan_error_name(int code)
{
	switch (code) {
	case PERFAN_OK: return "success";
	case PERFAN_EFORMAT: return "format error";
	case PERFAN_ETRUNCATED: return "truncated input";
	case PERFAN_EUNSUPPORTED: return "unsupported";
	case PERFAN_ENOTFOUND: return "not found";
	case PERFAN_EIO: return "I/O error";
	case PERFAN_ENOMEM: return "out of memory";
	case PERFAN_EINVAL: return "invalid argument";
	case PERFAN_ITEROVER: return "end of iteration";
	default: return "unknown error";
	}
}

const char *perfan_version(void)
{
	return PERFAN_VERSION_STRING;
}
