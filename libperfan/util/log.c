/* util/log.c: the one logger, the one error at an input's offset and the
 * one out-of-memory error, for every reader and analysis. */
#include "util/log.h"

#include <stdio.h>

#include "util/error.h"

void perfan__vlogf(perfan_log_fn log, void *payload,
		   enum perfan_log_level level, const char *fmt, va_list ap)
{
	if (!log)
		return;
	char msg[1024];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	log(level, msg, payload);
}

void perfan__logf(perfan_log_fn log, void *payload, enum perfan_log_level level,
		  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	perfan__vlogf(log, payload, level, fmt, ap);
	va_end(ap);
}

int perfan__verr_at(int code, const char *name, uint64_t off, uint64_t line,
		    const char *fmt, va_list ap)
{
	char msg[768];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	unsigned long long o = off, l = line;
	if (line == PERFAN__AT_HEX)
		return perfan__err(code, "%s: offset %llu (0x%llx): %s", name,
				   o, o, msg);
	if (line)
		return perfan__err(code, "%s: offset %llu (line %llu): %s",
				   name, o, l, msg);
	return perfan__err(code, "%s: offset %llu: %s", name, o, msg);
}

int perfan__err_at(int code, const char *name, uint64_t off, uint64_t line,
		   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = perfan__verr_at(code, name, off, line, fmt, ap);
	va_end(ap);
	return rc;
}

int perfan__nomem(const char *who)
{
	if (who)
		return perfan__err(PERFAN_ENOMEM, "%s: out of memory", who);
	return perfan__err(PERFAN_ENOMEM, "out of memory");
}
