/* util/error.h: setting the thread's last error message from library code. */
#ifndef PERFAN_UTIL_ERROR_H
#define PERFAN_UTIL_ERROR_H

#include <perfan/common.h>

/* Set the last error to the formatted message and return CODE. */
int perfan__err(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* PERFAN_EINVAL with the message "FUNC: WHAT is NULL", for a public
 * function given a NULL argument it needs. */
int perfan__err_null(const char *func, const char *what);

/* Append more text to the last error message (": detail"). */
void perfan__err_append(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

void perfan__err_clear(void);

#endif
