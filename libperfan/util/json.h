/* util/json.h: writing JSON strings, for the analyses' JSON output. */
#ifndef PERFAN_UTIL_JSON_H
#define PERFAN_UTIL_JSON_H

#include <stdio.h>

/* S (NULL: "") as a quoted, escaped JSON string. */
void perfan__json_str(FILE *fp, const char *s);

#endif
