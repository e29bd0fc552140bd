/* util/log.h: the one way a message leaves the library (a log callback),
 * the one error at an input's offset, and the one out-of-memory error. */
#ifndef PERFAN_UTIL_LOG_H
#define PERFAN_UTIL_LOG_H

#include <stdarg.h>
#include <stdint.h>

#include <perfan/common.h>

/* Send the formatted message to LOG (NULL: nowhere) at LEVEL, with
 * PAYLOAD: the readers' warnings. A message is cut at 1023 bytes. */
void perfan__logf(perfan_log_fn log, void *payload, enum perfan_log_level level,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void perfan__vlogf(perfan_log_fn log, void *payload,
		   enum perfan_log_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* perfan__err_at's LINE for a binary input: the offset in hex too. */
#define PERFAN__AT_HEX UINT64_MAX

/* Set the last error to "NAME: offset OFF: what" and return CODE: where
 * input went wrong. LINE 0: the offset alone; a line number: "offset OFF
 * (line LINE)"; PERFAN__AT_HEX: "offset OFF (0xOFF)". */
int perfan__err_at(int code, const char *name, uint64_t off, uint64_t line,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int perfan__verr_at(int code, const char *name, uint64_t off, uint64_t line,
		    const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

/* Set the last error to "WHO: out of memory" ("out of memory" for a NULL
 * WHO) and return PERFAN_ENOMEM. */
int perfan__nomem(const char *who);

#endif
