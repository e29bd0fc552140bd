/* perfan/common.h: error codes, export macro, options convention and the log
 * callback shared by every libperfan module. */
#ifndef PERFAN_COMMON_H
#define PERFAN_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PERFAN_BUILDING) && defined(__GNUC__)
#define PERFAN_API __attribute__((visibility("default")))
#else
#define PERFAN_API
#endif

/* Error codes: functions return 0 or one of these (negative). */
enum perfan_error {
	PERFAN_OK = 0,
	PERFAN_EFORMAT = -1,      /* input is not what it claims to be */
	PERFAN_ETRUNCATED = -2,   /* input ends early */
	PERFAN_EUNSUPPORTED = -3, /* valid input we do not handle */
	PERFAN_ENOTFOUND = -4,    /* a file or item does not exist */
	PERFAN_EIO = -5,          /* read or write failed */
	PERFAN_ENOMEM = -6,       /* allocation failed */
	PERFAN_EINVAL = -7,       /* bad argument from the caller */
	PERFAN_ITEROVER = -31,    /* an iterator has no more items */
};

/* The message of the last failure on this thread: never NULL, "" if none.
 * Where input was at fault it names the file and the byte offset. */
PERFAN_API const char *perfan_error_last(void);

/* Name of an error code ("format error", ...). */
PERFAN_API const char *perfan_error_name(int code);

/* Library version, "MAJOR.MINOR.PATCH". */
PERFAN_API const char *perfan_version(void);

/* For a program whose main work is libperfan's, called once at its start,
 * before it starts threads: the C library's allocator (glibc) is asked to
 * serve every thread from one heap, to grow it in steps of 64 MiB of
 * address space and to back it with transparent huge pages, so that a
 * first touch faults in 2 MiB, not 4 KiB (the heap's first bytes, which
 * cannot, are held out of use); freed memory is kept for reuse.
 * 0 when the heap was so advised; PERFAN_EUNSUPPORTED where the C library
 * or the kernel cannot (nothing is then changed but the allocator's
 * settings). Optional: results do not depend on it. */
PERFAN_API int perfan_heap_tune(void);

enum perfan_log_level {
	PERFAN_LOG_WARN = 1,
	PERFAN_LOG_INFO = 2,
	PERFAN_LOG_DEBUG = 3,
};

/* The library never prints: warnings go to this callback if one is set. */
typedef void (*perfan_log_fn)(enum perfan_log_level level, const char *msg,
			      void *payload);

/* Options structs start with `size_t sz`; fields are only ever appended.
 *   struct perfan_x_opts o = PERFAN_OPTS_INIT(struct perfan_x_opts);  */
#define PERFAN_OPTS_INIT(type) ((type){.sz = sizeof(type)})

#ifdef __cplusplus
}
#endif
#endif
