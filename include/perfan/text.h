/* perfan/text.h: text taken from inputs, written so that what reads it
 * can take it: JSON string literals that are valid UTF-8 whatever the
 * input held, and text for a terminal without its control characters. */
#ifndef PERFAN_TEXT_H
#define PERFAN_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include <perfan/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The length of the UTF-8 sequence at S (at most N bytes): 1 for ASCII,
 * 2 to 4, or 0 when it is not valid UTF-8 (a stray or missing
 * continuation byte, an overlong form, a surrogate, past U+10FFFF). */
PERFAN_API size_t perfan_utf8_len(const char *s, size_t n);

/* S (NULL: "") as a quoted JSON string literal: '"', '\' and control
 * characters escaped, and every byte that is not part of valid UTF-8
 * written as U+FFFD, so that the output is valid JSON. */
PERFAN_API void perfan_json_string(FILE *fp, const char *s);

/* S for a terminal: control characters (C0, DEL and the C1 range
 * U+0080..U+009F) and bytes that are not valid UTF-8 written as "\xNN",
 * '\n' and '\t' as "\n" and "\t", a '\' as "\\", everything else as it
 * is; so that text from an input (a file name, a symbol, a line quoted in
 * a message) cannot move the cursor, change colours or retitle the
 * window. */
PERFAN_API void perfan_text_escape(FILE *fp, const char *s);

#ifdef __cplusplus
}
#endif
#endif
